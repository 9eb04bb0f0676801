"""Whom the table calls for a decision put to a team (rulings P51, P52).

The engine puts a team's decision to every teammate and takes the first answer (R48, R51,
R52); nothing here changes that. This only chooses which of the teammates asked are
mentioned: for the team's choice of activation, the teammate with most left to activate;
for a team's reaction window, those who have more than a pass to answer. Every other
decision calls everyone it is put to.
"""
from __future__ import annotations

from typing import Callable, Iterable

from engine.service.reactions import PASS

WINDOWS = ("interrupt", "reroll")  # the decisions that are reaction windows


def called_seats(view: dict, people: set[str], legal: Callable[[str], list[str]],
                 asks_every: Callable[[str], bool]) -> list[str]:
    """The seats to call among those the public `view`'s decisions are put to, in order.
    `people`: the seats played by people (a computer is never called); `legal(seat)`: the
    seat's legal commands now; `asks_every(seat)`: whether the seat's player chose to be
    asked at every reaction window (P23)."""
    called: list[str] = []
    for decision in view.get("pending", []):
        asked = [s for s in (decision["player"], *decision.get("also", [])) if s in people]
        if len(asked) > 1 and decision["kind"] == "activate":
            asked = [chooser(view, asked)]
        elif len(asked) > 1 and decision["kind"] in WINDOWS:
            able = [s for s in asked if legal(s) != [PASS] or asks_every(s)]
            asked = able or asked
        called += asked
    return list(dict.fromkeys(called))


def left_to_activate(view: dict, seat: str) -> int:
    """The seat's characters in play not yet activated this round, plus its bonus action
    tokens while it has a character in play to spend them on."""
    mine = [c for c in view.get("characters", {}).values() if c["controller"] == seat and c.get("status") == "in_play"]
    tokens = next((p.get("bonus_actions", 0) for p in view["players"] if p["seat"] == seat), 0)
    return sum(not c.get("activated") for c in mine) + (tokens if mine else 0)


def chooser(view: dict, seats: Iterable[str]) -> str:
    """The teammate called to choose the team's next activation (P51): the one with most left
    to activate; a tie goes to the teammates in turn, by how many of the team's characters
    have activated this round (the first seat on an even count, the next on an odd one)."""
    seats = list(seats)
    left = {seat: left_to_activate(view, seat) for seat in seats}
    most = [seat for seat in seats if left[seat] == max(left.values())]
    done = sum(bool(c.get("activated")) for c in view.get("characters", {}).values() if c["controller"] in seats)
    return most[done % len(most)]
