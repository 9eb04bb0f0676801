"""Whom the table calls for a decision put to a team (rulings P51, P52, P53, P64).

The engine puts a team's decision to every teammate and takes the first answer (R48, R51,
R52, R64); nothing here changes that. This only chooses which of the teammates asked are
mentioned: for the team's choice of the character that activates or is placed next, the
teammate with most left to activate or place; for a team's set-up choice (the Main
Corridor's side, a mission board, a board of its starting area), the teammate who made the
team's previous set-up choice, the team's first seat before any; for a team's reaction
window, those who have more than a pass to answer, and of a re-roll window only the one
whose character's dice they are, when they could re-roll. Every other decision calls
everyone it is put to.
"""
from __future__ import annotations

from typing import Callable, Iterable, Optional

from engine.service.reactions import EVERY, NEVER, PASS

WINDOWS = ("interrupt", "reroll")  # the decisions that are reaction windows
CHOICES = {"activate": ("activate", "bonus"), "place": ("place",)}  # a team's choice -> the verbs that answer it
# a team's set-up choice -> the verbs of every set-up choice: who made its last one is called for the next (P64)
SET_UP = dict.fromkeys(("corridor", "board", "start_area"), ("corridor", "board", "start"))


def called_seats(view: dict, people: set[str], legal: Callable[[str], list[str]],
                 preference: Callable[[str], str], chose_last: Optional[str] = None) -> list[str]:
    """The seats to call among those the public `view`'s decisions are put to, in order.
    `people`: the seats played by people (a computer is never called); `legal(seat)`: the
    seat's legal commands now that could change something (a re-roll that cannot help left out, P59); `preference(seat)`: the standing reaction preference of the
    seat's player (P23); `chose_last`: the seat that answered the team's previous choice of
    the kind asked now (any set-up choice for a set-up choice), if known."""
    called: list[str] = []
    for decision in view.get("pending", []):
        asked = [s for s in (decision["player"], *decision.get("also", [])) if s in people]
        if len(asked) > 1 and decision["kind"] in CHOICES:
            asked = [chooser(view, decision, asked, chose_last)]
        elif len(asked) > 1 and decision["kind"] in SET_UP:
            asked = [chose_last if chose_last in asked else asked[0]]
        elif len(asked) > 1 and decision["kind"] in WINDOWS:
            able = [s for s in asked if legal(s) != [PASS] and preference(s) != NEVER]
            if decision["kind"] == "reroll":
                able = [s for s in able if s in rollers(view)] or able
            asked = [s for s in asked if s in able or preference(s) == EVERY] or asked
        called += asked
    return list(dict.fromkeys(called))


def team_choice(view: dict) -> Optional[dict]:
    """The team's choice (CHOICES, SET_UP) put to several seats now, if one is."""
    return next((d for d in view.get("pending", []) if d["kind"] in {**CHOICES, **SET_UP} and d.get("also")), None)


def rollers(view: dict) -> set[str]:
    """The players whose characters' dice are on the dice board (the actor's and the
    target's): in a team's re-roll window, the one of them on the team is called (P53)."""
    roll = view.get("roll") or {}
    return {roll.get("actor_player"), roll.get("target_player")} - {None}


def left_for(view: dict, decision: dict, seat: str) -> int:
    """What the seat still has for the team's choice: to activate, its characters in play not
    yet activated this round and its bonus action tokens while it has a character in play;
    to place, its characters waiting to beam down (or to arrive this round)."""
    mine = [c for c in view.get("characters", {}).values() if c["controller"] == seat]
    if decision["kind"] == "place":
        if (decision.get("info") or {}).get("why") == "beam down":
            return sum(c.get("status", "reserve") == "reserve" for c in mine)
        return sum(c.get("status") == "waiting" and c.get("escalation") == view.get("round") for c in mine)
    mine = [c for c in mine if c.get("status") == "in_play"]
    tokens = next((p.get("bonus_actions", 0) for p in view["players"] if p["seat"] == seat), 0)
    return sum(not c.get("activated") for c in mine) + (tokens if mine else 0)


def chooser(view: dict, decision: dict, seats: Iterable[str], chose_last: Optional[str] = None) -> str:
    """The teammate called to make the team's choice (P51): the one with most left for it;
    a tie goes to a teammate who did not make the team's previous such choice."""
    seats = list(seats)
    left = {seat: left_for(view, decision, seat) for seat in seats}
    most = [seat for seat in seats if left[seat] == max(left.values())]
    return next((seat for seat in most if seat != chose_last), most[0])
