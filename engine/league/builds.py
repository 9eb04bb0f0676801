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
        return sum(entry.points for entry in self.entries) + extra

    def digest(self) -> str:
        """A short, stable fingerprint of the sheet (SHA-256 of its canonical JSON)."""
        return hashlib.sha256(msgspec.json.encode(self)).hexdigest()[:16]


def check_build(build: Build, max_build: int) -> None:
    """Refuse an empty build, negative points, or one over the event's maximum (0: none)."""
    if not build.entries:
        raise RuleError("A build needs at least one entry.")
    lines = list(build.entries) + ([build.resource] if build.resource else [])
    if any(entry.points < 0 for entry in lines):
        raise RuleError("Points on a build sheet cannot be negative.")
    if max_build and build.total > max_build:
        raise RuleError(f"The build costs {build.total} points; this event allows {max_build}.")
