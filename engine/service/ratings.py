"""Ratings from finished games and event results (pure: no SQL, no Discord).

Which bot games are rated is ruling P1 in docs/rulings.md; which event results, and how
seasons and corrections work, rulings L33-L38 in docs/leagues.md. Ratings are openskill's
Plackett-Luce model: one (mu, sigma) per player per server, shared by bot games and event
results; sides of several players (team modes) and free-for-all tables are rated by
openskill as they are, ranked by result. The number shown is openskill's ordinal,
mu - 3 sigma: it starts at 0 and rises as the model grows sure a player is strong.

A server's ratings are a fold over its ordered history of `Match`es (`replay`), so the
same history always gives the same numbers, whatever order results arrived in.
"""
from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from typing import Callable, Optional

from openskill.models import PlackettLuce

from engine.league.event import Event, Round
from engine.service.seating import is_computer

MODEL = PlackettLuce()
START = (MODEL.mu, MODEL.sigma)
SEASON_WIDENING = START[1] / 3  # sigma added (in quadrature) per season a player's rating carries across
DAY = 86400


@dataclass(frozen=True)
class Player:
    """A seat of a finished game and the person who held it."""

    seat: str
    user_id: int
    side: str  # players with the same side are one team (in a one-against-one game, the seat)
    left: bool = False  # left the seat to the computer before the end (R61): placed last (P10)


def players_of(config: dict, seats: list) -> list[Player]:
    """The rated players of a game: seat, person and side (a config player's `side`, else the
    seat). The computer is not rated; a person who left a seat to it is, alone on a side of
    their own (ruling P10)."""
    sides = {p.get("seat"): str(p.get("side") or p.get("seat")) for p in config.get("players", [])}
    players = []
    for s in seats:
        if not is_computer(s.user_id):
            players.append(Player(s.seat, s.user_id, sides.get(s.seat, s.seat)))
        elif getattr(s, "left_by", None) is not None:
            players.append(Player(s.seat, s.left_by, f"left:{s.seat}", left=True))
    return players


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
        return False, "fewer than two different people (the computer is not rated)"
    if any(p.user_id <= 0 for p in players):
        return False, "a seat was not held by a person"
    if not result:
        return False, "no result"
    if commands == 0:
        return False, "conceded before any move"
    return True, "conceded" if result.get("conceded") else "played to the end"


def ranks(players: list[Player], result: dict) -> dict[str, int]:
    """Side -> rank (1 best): winners first; the others by their best score, if any; a draw
    ranks everyone first; those who left come last, whatever their seat did (P10). When the
    winner is a computer, no side ranks first (the places keep their order)."""
    won = set(winners(result))
    scores = result.get("scores") or {}
    best: dict[str, float] = {}
    for p in players:
        best[p.side] = max(best.get(p.side, float("-inf")), float(scores.get(p.seat, 0)))
    stayed = list(dict.fromkeys(p.side for p in players if not p.left))
    if won:
        winning = {p.side for p in players if p.seat in won and not p.left}
        order = sorted({best[s] for s in stayed if s not in winning}, reverse=True)
        place = {s: 1 if s in winning else 2 + order.index(best[s]) for s in stayed}
    else:
        place = {side: 1 for side in stayed}
    last = max(place.values(), default=0) + 1
    return {**place, **{p.side: last for p in players if p.left}}


@dataclass(frozen=True)
class Match:
    """One rated result in a server's history: the users of each side and each side's place
    (1 best). `source` names it (`game:...` or `event:...`) and is unique; `at` places it."""

    source: str
    at: float
    sides: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]


@dataclass(frozen=True)
class Standing:
    """A player's rating after a match, and the season it was played in."""

    mu: float
    sigma: float
    season: int


def game_source(game_id: int) -> str:
    """The history name of a bot game (padded, so names sort like the numbers)."""
    return f"game:{game_id:012d}"


def event_source(event_id: int) -> str:
    """The prefix of every history name from one event."""
    return f"event:{event_id:09d}:"


def game_match(game_id: int, at: float, players: list[Player], result: dict) -> Match:
    """A rated bot game as a match, its sides ranked by `ranks`."""
    place = ranks(players, result)
    sides = list(place)
    return Match(game_source(game_id), at, tuple(tuple(p.user_id for p in players if p.side == side) for side in sides),
                 tuple(place[side] for side in sides))


def rate_match(match: Match, before: dict[int, tuple[float, float]]) -> dict[int, tuple[float, float]]:
    """New (mu, sigma) per user after the match, from `before` (missing users start fresh)."""
    teams = [[MODEL.create_rating(list(before.get(user, START)), name=str(user)) for user in side]
             for side in match.sides]
    rated = MODEL.rate(teams, ranks=list(match.places))
    return {int(r.name): (r.mu, r.sigma) for team in rated for r in team}


def rate(players: list[Player], result: dict,
         before: dict[int, tuple[float, float]]) -> dict[int, tuple[float, float]]:
    """New (mu, sigma) per user after the game, from `before` (missing users start fresh)."""
    return rate_match(game_match(0, 0.0, players, result), before)


def widened(sigma: float, seasons: int) -> float:
    """Sigma carried across `seasons` season starts: wider by SEASON_WIDENING (in
    quadrature) for each, never wider than a newcomer's (ruling L37)."""
    if seasons <= 0:
        return sigma
    return min(START[1], math.sqrt(sigma ** 2 + seasons * SEASON_WIDENING ** 2))


def carried(standing: Standing, season: int) -> tuple[float, float]:
    """(mu, sigma) of a player last rated in `standing.season`, as it stands in `season`."""
    return standing.mu, widened(standing.sigma, season - standing.season)


def season_of(starts: list[float]) -> Callable[[float], int]:
    """The season number (1 first) of a moment, given when seasons 2, 3 ... started (ascending)."""
    return lambda at: 1 + bisect.bisect_right(starts, at)


def replay(history: list[Match], before: dict[int, Standing],
           season: Callable[[float], int]) -> list[dict[int, tuple[tuple[float, float], Standing]]]:
    """Rate `history` in order from `before` (each user's standing before its first match;
    missing users are new): per match, user -> ((mu, sigma) it was rated from, standing after).
    A player's first match of a later season first carries their rating across (`carried`)."""
    standing = dict(before)
    out = []
    for match in history:
        now = season(match.at)
        start = {u: carried(standing[u], now) for side in match.sides for u in side if u in standing}
        after = rate_match(match, start)
        out.append({u: (start.get(u, START), Standing(mu, sigma, now)) for u, (mu, sigma) in after.items()})
        standing.update({u: Standing(mu, sigma, now) for u, (mu, sigma) in after.items()})
    return out


def round_published(event: Event, rnd: Round) -> int:
    """When a round was published (events stored before `published` was kept: from the clock
    start of a one-day round or the deadline of a season round)."""
    if rnd.published is not None:
        return rnd.published
    if rnd.started is not None:
        return rnd.started
    return (rnd.deadline or 0) - event.round_days * DAY


def event_matches(event_id: int, event: Event) -> list[Match]:
    """The rated results of an event (rulings L33-L35): every final game played with a
    winner, the top cut's included, placed at its round's publication. Byes, forfeits and
    games not played are not rated."""
    matches = []
    for rnd in event.live_rounds():
        at = round_published(event, rnd)
        for game in rnd.games:
            result = game.result
            if game.status != "final" or result is None or result.outcome != "played" or result.winner is None:
                continue
            loser = game.opponent(result.winner)
            matches.append(Match(f"{event_source(event_id)}{rnd.number:03d}:{game.table:04d}", float(at),
                                 ((int(result.winner),), (int(loser),)), (1, 2)))
    return matches


def ordinal(mu: float, sigma: float) -> float:
    """The displayed rating: mu - 3 sigma."""
    return mu - 3 * sigma
