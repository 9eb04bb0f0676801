"""Swiss pairings: a seeded first round, the bye rule, and weighted matching afterwards.

Later rounds are one maximum-weight perfect matching (networkx) over every possible
pair, with weights built so that, in this order of priority:

1. everyone without the bye gets a game;
2. as few rematches as possible (none whenever a rematch-free pairing exists);
3. the fewest pairs across Battle Point groups (pair within groups first);
4. the smallest total of squared Battle Point differences;
5. within that, players meet the nearest player in the standings (squared distance),
   so a Battle Point group pairs first with second, third with fourth.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Optional

import networkx as nx

from engine.dice import Dice


@dataclass(frozen=True)
class Entrant:
    """A player as pairing sees them: standing, byes so far and past opponents."""

    id: str
    name: str
    battle_points: int = 0
    tiebreak: int = 0
    byes: int = 0
    opponents: frozenset[str] = frozenset()


@dataclass
class Pairing:
    """The games of a round, the bye (if any) and notes that explain the choices."""

    pairs: list[tuple[str, str]]
    bye: Optional[str] = None
    notes: list[str] = field(default_factory=list)


def seeded_dice(seed: int, *parts: object) -> Dice:
    """Dice for one purpose of one event, independent of how often anything else rolled."""
    text = ":".join(str(p) for p in (seed, *parts))
    return Dice.seeded(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


def pair_first_round(entrants: list[Entrant], dice: Dice) -> Pairing:
    """Random opponents; with an odd count the bye goes to a random player too."""
    order = sorted(entrants, key=lambda e: e.id)
    dice.shuffle(order)
    notes = ["Round 1 is drawn at random from the event's seed."]
    bye = None
    if len(order) % 2:
        bye = order.pop().id
        notes.append(f"Bye: {_name(entrants, bye)}, drawn at random.")
    pairs = [(order[i].id, order[i + 1].id) for i in range(0, len(order), 2)]
    return Pairing(pairs=pairs, bye=bye, notes=notes)


def choose_bye(entrants: list[Entrant], last_bye: Optional[str], label: str = "FP") -> tuple[str, str]:
    """The bye after round 1 and a sentence saying why.

    `entrants` are in standings order (best first, ties already settled by roll-off).
    Nobody gets the bye twice in a row; among the rest: fewest byes, then lowest Battle
    Points, then lowest tiebreak points, then the lower place in the standings.
    """
    pool = [e for e in entrants if e.id != last_bye] or list(entrants)
    fewest = min(e.byes for e in pool)
    eligible = [e for e in pool if e.byes == fewest]
    lowest = min((e.battle_points, e.tiebreak) for e in eligible)
    tied = [e for e in eligible if (e.battle_points, e.tiebreak) == lowest]
    chosen = tied[-1]
    reason = (
        f"Bye: {chosen.name} ({chosen.battle_points} BP, {chosen.tiebreak} {label}). "
        f"Eligible (fewest byes so far: {fewest}): {', '.join(e.name for e in eligible)}."
    )
    if last_bye is not None and any(e.id == last_bye for e in entrants) and len(pool) < len(entrants):
        reason += f" {_name(entrants, last_bye)} had the bye last round."
    if len(tied) > 1:
        reason += f" Tied with {', '.join(e.name for e in tied[:-1])}; placed lowest after the roll-off."
    return chosen.id, reason


def pair_round(entrants: list[Entrant], last_bye: Optional[str] = None, label: str = "FP") -> Pairing:
    """Pair a later round. `entrants` are the active players in standings order."""
    notes = []
    bye = None
    players = list(entrants)
    if len(players) % 2:
        bye, reason = choose_bye(players, last_bye, label)
        notes.append(reason)
        players = [e for e in players if e.id != bye]
    pairs = _match(players, avoid_rematches=True)
    notes += _explain(players, pairs, label)
    return Pairing(pairs=pairs, bye=bye, notes=notes)


def _cost_scales(players: list[Entrant]) -> tuple[int, int, int]:
    """Multipliers that make each criterion outweigh every total of the ones below it."""
    n = len(players)
    spread = max(e.battle_points for e in players) - min(e.battle_points for e in players)
    points = n ** 3 + 1  # outweighs any total of squared place distances
    cross = points * (n * spread ** 2 + 1)  # outweighs any total of squared differences and places
    rematch = cross * (n + 1)  # outweighs any total of the lower criteria
    return cross, points, rematch


def _match(players: list[Entrant], avoid_rematches: bool) -> list[tuple[str, str]]:
    """The best perfect matching of `players` (an even count) by the criteria above."""
    if not players:
        return []
    cross, points, rematch = _cost_scales(players)
    graph = nx.Graph()
    costs = {}
    for i, a in enumerate(players):
        for j in range(i + 1, len(players)):
            b = players[j]
            difference = a.battle_points - b.battle_points
            cost = (j - i) ** 2 + cross * (difference != 0) + points * difference ** 2
            if avoid_rematches and b.id in a.opponents:
                cost += rematch
            costs[i, j] = cost
    ceiling = max(costs.values()) + 1
    for (i, j), cost in costs.items():
        graph.add_edge(i, j, weight=ceiling - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    ordered = sorted(tuple(sorted(edge)) for edge in matching)
    return [(players[i].id, players[j].id) for i, j in ordered]


def _explain(players: list[Entrant], pairs: list[tuple[str, str]], label: str) -> list[str]:
    """Who floated between Battle Point groups and why; which rematches were forced."""
    by_id = {e.id: e for e in players}
    notes = []
    rematches = [(a, b) for a, b in pairs if b in by_id[a].opponents]
    for a, b in rematches:
        notes.append(f"Rematch: {by_id[a].name} and {by_id[b].name} meet again; no pairing without one exists.")
    floats = [(a, b) for a, b in pairs if by_id[a].battle_points != by_id[b].battle_points]
    if not floats:
        return notes
    unforced = _match(players, avoid_rematches=False)
    for bp in sorted({e.battle_points for e in players}, reverse=True):
        down = _floats_from(by_id, pairs, bp)
        if not down:
            continue
        parity = min(down, _floats_from(by_id, unforced, bp))
        parts = []
        if parity:
            parts.append(f"{parity} because the group was left with an odd number of players")
        if down - parity:
            parts.append(f"{down - parity} to avoid a rematch")
        notes.append(f"{bp} BP group: {down} player(s) floated down, " + " and ".join(parts) + ".")
    for a, b in floats:
        high, low = sorted((by_id[a], by_id[b]), key=lambda e: -e.battle_points)
        notes.append(
            f"Float: {high.name} ({high.battle_points} BP, {high.tiebreak} {label}) meets "
            f"{low.name} ({low.battle_points} BP, {low.tiebreak} {label})."
        )
    return notes


def _floats_from(by_id: dict[str, Entrant], pairs: list[tuple[str, str]], bp: int) -> int:
    """How many players of the `bp` group meet someone with fewer Battle Points."""
    count = 0
    for a, b in pairs:
        points = sorted((by_id[a].battle_points, by_id[b].battle_points))
        count += points[1] == bp and points[0] < bp
    return count


def _name(entrants: list[Entrant], player: str) -> str:
    return next(e.name for e in entrants if e.id == player)
