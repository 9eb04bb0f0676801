"""Scores, standings, recorded roll-offs and rank titles (exports: engine/league/export.py).

A game scores only once its result is final. A bye (and a win by forfeit) scores the
profile's Battle Points at once; its tiebreak points are the average of that round's
played games, rounded up, and stay provisional until the round is complete.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from engine.league.arena import ROLL_OFF_DICE, SIDES, battle_stations
from engine.league.event import Claim, Event, RollOff, Round, log, rank_title
from engine.league.pairing import seeded_dice
from engine.league.topcut import cut_places



def fleet_points(max_build: int, opponent_surviving: int) -> int:
    """Fleet Points for a game: the event's maximum build minus the opponent's surviving squad points."""
    return max_build - opponent_surviving


def fleet_base(event: Event, opponent: str) -> int:
    """What Fleet Points count down from: the event's maximum build, or, in an event with
    no maximum (0), the cost of the opponent's fleet without its resource (so Fleet Points
    are the squad points destroyed, never negative)."""
    build = event.players[opponent].build
    return event.max_build or (build.fleet_cost if build is not None else 0)


def round_average(points: list[int]) -> int:
    """The average of `points` rounded up (0 when there are none)."""
    return -(-sum(points) // len(points)) if points else 0


@dataclass(frozen=True)
class Score:
    """What one player earned in one round."""

    battle_points: int
    tiebreak: int
    outcome: str  # win, loss, bye, not played, forfeit win, forfeit loss
    opponent: Optional[str] = None
    provisional: bool = False


def played_tiebreak(event: Event, result: Claim, player: str, opponent: str) -> int:
    """Tiebreak points a played game gives `player` under the event's profile."""
    bonus = result.bonus.get(player, 0)
    if event.profile.tiebreak == "fleet_points":
        return fleet_points(fleet_base(event, opponent), result.surviving[opponent]) + bonus
    return result.mission_points[player] + bonus


def round_scores(event: Event, rnd: Round) -> dict[str, Score]:
    """Every player's score in a published round, as far as results are final."""
    profile = event.profile
    scores: dict[str, Score] = {}
    played: list[int] = []
    averaged: list[tuple[str, Optional[str]]] = []
    for game in rnd.games:
        result = game.result
        if game.status != "final" or result is None:
            continue
        a, b = game.players
        if result.outcome == "played":
            for me, other in ((a, b), (b, a)):
                points = played_tiebreak(event, result, me, other)
                played.append(points)
                won = result.winner == me
                scores[me] = Score(profile.win if won else profile.loss, points, "win" if won else "loss", other)
        elif result.outcome == "not_played":
            for me in (a, b):
                scores[me] = Score(0, 0, "not played", game.opponent(me))
        else:
            for me in (a, b):
                if result.winner == me:
                    averaged.append((me, game.opponent(me)))
                else:
                    scores[me] = Score(profile.forfeit_loss, 0, "forfeit loss", game.opponent(me))
    if rnd.bye is not None:
        averaged.append((rnd.bye, None))
    average = round_average(played)
    provisional = rnd.status != "complete"
    for me, other in averaged:
        points, outcome = (profile.bye, "bye") if other is None else (profile.win, "forfeit win")
        scores[me] = Score(points, average, outcome, other, provisional)
    return scores


@dataclass
class Totals:
    """A player's running totals over the live rounds."""

    player: str
    battle_points: int = 0
    tiebreak: int = 0
    byes: int = 0
    provisional: bool = False
    opponents: set[str] = field(default_factory=set)
    rounds: dict[int, Score] = field(default_factory=dict)


def totals(event: Event, through: Optional[int] = None) -> dict[str, Totals]:
    """Totals per player over the live rounds up to round `through` (default: all)."""
    result = {pid: Totals(pid) for pid in event.players}
    for rnd in event.swiss_rounds():
        if through is not None and rnd.number > through:
            break
        for game in rnd.games:
            a, b = game.players
            result[a].opponents.add(b)
            result[b].opponents.add(a)
        if rnd.bye is not None:
            result[rnd.bye].byes += 1
        for pid, score in round_scores(event, rnd).items():
            t = result[pid]
            t.battle_points += score.battle_points
            t.tiebreak += score.tiebreak
            t.provisional |= score.provisional
            t.rounds[rnd.number] = score
    return result


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    rank: int
    title: str
    player: str
    name: str
    battle_points: int
    tiebreak: int
    provisional: bool = False
    tied: bool = False
    dropped: bool = False
    prize: bool = False  # a prize place of the final standings (the event is closed)


def _tie_groups(event: Event, table: dict[str, Totals]) -> list[list[str]]:
    groups: dict[tuple[int, int], list[str]] = {}
    for pid, t in table.items():
        groups.setdefault((-t.battle_points, -t.tiebreak), []).append(pid)
    return [sorted(groups[key]) for key in sorted(groups)]


def _recorded(event: Event, after_round: int, group: list[str]) -> Optional[RollOff]:
    for rolloff in reversed(event.rolloffs):
        if rolloff.after_round == after_round and rolloff.players == group:
            return rolloff
    return None


def roll_off(event: Event, after_round: int, group: list[str]) -> RollOff:
    """Settle a tie: five attack dice each, most Battle Stations first, level players again."""
    dice = seeded_dice(event.seed, "roll-off", after_round, ",".join(group))
    throws: list[dict[str, int]] = []

    def settle(players: list[str]) -> list[str]:
        if len(players) == 1:
            return players
        throw = {p: battle_stations(dice.roll(ROLL_OFF_DICE, SIDES)) for p in players}
        throws.append(throw)
        order = []
        for count in sorted(set(throw.values()), reverse=True):
            order += settle([p for p in players if throw[p] == count])
        return order

    return RollOff(after_round=after_round, players=list(group), throws=throws, order=settle(list(group)))


def settle_ties(event: Event, after_round: int, now: int = 0) -> list[RollOff]:
    """Record a roll-off for every tie in the standings after a complete round, each with
    its dice in the audit trail; returns the new ones."""
    new = []
    for group in _tie_groups(event, totals(event, after_round)):
        if len(group) > 1 and _recorded(event, after_round, group) is None:
            rolloff = roll_off(event, after_round, group)
            event.rolloffs.append(rolloff)
            log(event, "dice", now, "roll-off", rolloff_text(event, rolloff))
            new.append(rolloff)
    return new


def rolloff_text(event: Event, rolloff: RollOff) -> str:
    """"after round 2: Ann 3, Bo 1 Battle Stations -> Ann, Bo" (each throw, then the order)."""
    name = lambda p: event.players[p].name  # noqa: E731
    throws = "; then ".join(", ".join(f"{name(p)} {n}" for p, n in throw.items()) for throw in rolloff.throws)
    return (f"after round {rolloff.after_round}: {throws} Battle Stations on {ROLL_OFF_DICE} dice"
            f" -> {', '.join(name(p) for p in rolloff.order)}")


def standings(event: Event, through: Optional[int] = None) -> list[Standing]:
    """Battle Points, then tiebreak points, then the recorded roll-off.

    A tie without a roll-off (its round is not complete yet) is shown by name, `tied`.
    """
    table = totals(event, through)
    last = max((r.number for r in event.swiss_rounds() if through is None or r.number <= through), default=0)
    order: list[tuple[str, bool]] = []
    for group in _tie_groups(event, table):
        rolloff = _recorded(event, last, group) if len(group) > 1 else None
        ranked = rolloff.order if rolloff else sorted(group, key=lambda p: (event.players[p].name, p))
        order += [(pid, len(group) > 1 and rolloff is None) for pid in ranked]
    if through is None:  # the top cut decides the places of the players in it (L30)
        swiss = [pid for pid, _tied in order]
        cut = cut_places(event, swiss)
        order = [(pid, False) for pid in cut] + [(pid, tied) for pid, tied in order if pid not in cut]
    rows: list[Standing] = []
    for pid, tied in order:
        p, t = event.players[pid], table[pid]
        rank = len(rows) + 1
        rows.append(Standing(
            rank=rank, title=rank_title(rank), player=pid, name=p.name,
            battle_points=t.battle_points, tiebreak=t.tiebreak, provisional=t.provisional,
            tied=tied, dropped=p.dropped_after is not None, prize=event.status == "closed" and rank <= event.prizes,
        ))
    return rows
