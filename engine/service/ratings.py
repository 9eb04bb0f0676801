"""Ratings from finished games (pure: no SQL, no Discord).

Which games are rated is ruling P1 in docs/rulings.md. Ratings are openskill's
Plackett-Luce model: one (mu, sigma) per player per server; sides of several players
(team modes) and free-for-all tables are rated by openskill as they are, ranked by result.
The number shown is openskill's ordinal, mu - 3 sigma: it starts at 0 and rises as the
model grows sure a player is strong.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
START = (MODEL.mu, MODEL.sigma)


@dataclass(frozen=True)
class Player:
    """A seat of a finished game and who held it."""

    seat: str
    user_id: int
    side: str  # players with the same side are one team (in a one-against-one game, the seat)


def winners(result: dict) -> list[str]:
    """The winning seats of a result (none: a draw)."""
    winner = result.get("winner")
    if winner is None:
        return []
    return [winner] if isinstance(winner, str) else list(winner)


def ruling(status: str, guild_id: Optional[int], players: list[Player], result: Optional[dict],
           commands: int) -> tuple[bool, str]:
    """(rated?, why) for a game: ruling P1."""
    if status != "over":
        return False, "not finished by play or concession"
    if guild_id is None:
        return False, "not played in a server"
    if len({p.user_id for p in players}) < 2 or len({p.side for p in players}) < 2:
        return False, "fewer than two different players"
    if any(p.user_id <= 0 for p in players):
        return False, "a seat was not held by a person"
    if not result:
        return False, "no result"
    if commands == 0:
        return False, "conceded before any move"
    return True, "conceded" if result.get("conceded") else "played to the end"


def ranks(players: list[Player], result: dict) -> dict[str, int]:
    """Side -> rank (1 best): winners first; the others by their best score, if any; a draw
    ranks everyone first."""
    won = set(winners(result))
    scores = result.get("scores") or {}
    best: dict[str, float] = {}
    for p in players:
        best[p.side] = max(best.get(p.side, float("-inf")), float(scores.get(p.seat, 0)))
    sides = list(dict.fromkeys(p.side for p in players))
    winning = {p.side for p in players if p.seat in won}
    if not winning:
        return {side: 1 for side in sides}
    order = sorted({best[s] for s in sides if s not in winning}, reverse=True)
    return {s: 1 if s in winning else 2 + order.index(best[s]) for s in sides}


def rate(players: list[Player], result: dict,
         before: dict[int, tuple[float, float]]) -> dict[int, tuple[float, float]]:
    """New (mu, sigma) per user after the game, from `before` (missing users start fresh)."""
    place = ranks(players, result)
    sides = list(place)
    teams = [[MODEL.create_rating(list(before.get(p.user_id, START)), name=str(p.user_id))
              for p in players if p.side == side] for side in sides]
    rated = MODEL.rate(teams, ranks=[place[side] for side in sides])
    return {int(r.name): (r.mu, r.sigma) for team in rated for r in team}


def ordinal(mu: float, sigma: float) -> float:
    """The displayed rating: mu - 3 sigma."""
    return mu - 3 * sigma
