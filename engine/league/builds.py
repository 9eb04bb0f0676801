"""Build sheets: what a player brings to an event, totalled and fingerprinted.

A build is locked when the event starts; its hash is what opponents sign off on.
"""
from __future__ import annotations

import hashlib
from typing import Literal, Optional

import msgspec

from engine.errors import RuleError


class BuildEntry(msgspec.Struct, frozen=True, omit_defaults=True):
    """One line of a build sheet: a ship, captain, upgrade, character, deck ..."""

    name: str
    kind: str = ""
    faction: str = ""
    points: int = 0


class Build(msgspec.Struct, frozen=True, omit_defaults=True):
    """A fleet list (with at most one resource) or an away team with its decks."""

    kind: Literal["fleet", "away_team"]
    entries: tuple[BuildEntry, ...]
    resource: Optional[BuildEntry] = None

    @property
    def total(self) -> int:
        """Squad points of every entry plus the resource."""
        extra = self.resource.points if self.resource else 0
        return self.fleet_cost + extra

    @property
    def fleet_cost(self) -> int:
        """Squad points of the entries alone: what a surviving fleet can hold (the resource is no part of it)."""
        return sum(entry.points for entry in self.entries)

    def can_survive(self, points: int) -> bool:
        """Can `points` squad points be left standing: the cost of some of the entries
        (never the resource)? 37 from entries of 80 and 20 cannot."""
        reachable = 1  # bit n set: n points can be left
        for entry in self.entries:
            reachable |= reachable << entry.points
        return 0 <= points and bool(reachable >> points & 1)

    def digest(self) -> str:
        """A short, stable fingerprint of the sheet (SHA-256 of its canonical JSON)."""
        return hashlib.sha256(msgspec.json.encode(self)).hexdigest()[:16]


def check_build(build: Build, max_build: int, kind: str) -> None:
    """Refuse a build of another kind than the event's, an empty build, a resource outside
    a fleet, negative points, or one over the event's maximum (0: none)."""
    if build.kind != kind:
        words = {"fleet": "a fleet", "away_team": "an away team"}
        raise RuleError(f"This event is played with {words[kind]}; that sheet is {words[build.kind]}.")
    if not build.entries:
        raise RuleError("A build needs at least one entry.")
    if build.resource is not None and build.kind != "fleet":
        raise RuleError("Only a fleet takes a resource.")
    lines = list(build.entries) + ([build.resource] if build.resource else [])
    if any(entry.points < 0 for entry in lines):
        raise RuleError("Points on a build sheet cannot be negative.")
    if max_build and build.total > max_build:
        raise RuleError(f"The build costs {build.total} points; this event allows {max_build}.")
