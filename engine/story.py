"""What a finished game's summary shows, counted from its events and its log's times: the
numbers both rulesets share (engine/awaymissions/story.py and engine/renegades/story.py count them).

    tally = ruleset.tally(final_public_view, public_events, names)   # a Tally
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Optional


@dataclass
class Tally:
    """A finished game's numbers, by side (a seat in Away Missions, a faction in Renegades)."""

    sides: dict[str, str]  # side -> its name, in seating order
    points: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # side -> (how, points) earned
    totals: dict[str, int] = field(default_factory=dict)  # side -> final score
    unit: str = "points"  # what the score counts (Renegades: digits)
    missions: dict[str, int] = field(default_factory=dict)  # side -> missions completed
    pieces: dict[str, str] = field(default_factory=dict)  # character, crewmember or ship -> its name
    dealt: dict[str, int] = field(default_factory=dict)  # piece -> damage it dealt
    taken: dict[str, int] = field(default_factory=dict)  # piece -> damage it took
    hits: dict[str, int] = field(default_factory=dict)  # side -> hits its dice rolled
    expected: dict[str, Fraction] = field(default_factory=dict)  # side -> hits the exact odds expected
    rolls: dict[str, int] = field(default_factory=dict)  # side -> rolls counted for luck
    teams: dict[str, tuple[list[str], int, int]] = field(default_factory=dict)  # team -> (its sides, score, missions)

    def hurt(self, by: str | None, target: str | None, amount: int) -> None:
        """`amount` damage dealt by `by` (if a piece did it) and taken by `target`."""
        if by is not None:
            self.dealt[by] = self.dealt.get(by, 0) + amount
        if target is not None:
            self.taken[target] = self.taken.get(target, 0) + amount

    def rolled(self, side: str, hits: int, expected: Fraction) -> None:
        """A roll of `side`'s: the hits it gave and the hits its dice were expected to give."""
        self.hits[side] = self.hits.get(side, 0) + hits
        self.expected[side] = self.expected.get(side, Fraction(0)) + expected
        self.rolls[side] = self.rolls.get(side, 0) + 1


@dataclass(frozen=True)
class Turns:
    """How long a seat took to answer: from the game's previous accepted command to its own
    (the game's first command is not counted), as /profile counts it."""

    answers: int
    average: float
    longest: float


def turn_times(answers: Iterable[tuple[Optional[str], float]]) -> dict[str, Turns]:
    """Seat -> its answer times, from the (seat, accepted at) of each logged command in order."""
    took: dict[str, list[float]] = {}
    before: Optional[float] = None
    for seat, at in answers:
        if before is not None and seat is not None:
            took.setdefault(seat, []).append(max(0.0, at - before))
        before = at
    return {seat: Turns(len(times), sum(times) / len(times), max(times)) for seat, times in took.items()}
