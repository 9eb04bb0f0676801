"""Quiet hours and vacations (pure: times in, times out).

Quiet hours are a daily window in the player's own time zone (a UTC offset such as
"+02:00", "UTC-5" or "-3:30", or an IANA name such as "Europe/Berlin", whose daylight
saving time is followed). While it lasts the player is not pinged and reminders wait
until it ends. A vacation is a stretch of time during which the player's deadlines do
not run: each wait's deadline moves by the part of the vacation after the wait began,
unless the vacation starts after the deadline (ruling P3 in docs/rulings.md).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta, timezone, tzinfo
from typing import Iterable, Optional
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

_OFFSET = re.compile(r"(?:UTC|GMT)?\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?", re.IGNORECASE)
_CLOCK = re.compile(r"(\d{1,2})(?::(\d{2}))?")


class BadTime(ValueError):
    """A time of day or a time zone that cannot be read; the message says what is expected."""


def zone(text: str) -> tzinfo:
    """A time zone from a UTC offset ("+2", "UTC-05:00", "-3:30") or an IANA name."""
    text = text.strip()
    if text.upper() in ("UTC", "GMT", "Z"):
        return timezone.utc
    found = _OFFSET.fullmatch(text)
    if found:
        sign, hours, minutes = found[1], int(found[2]), int(found[3] or 0)
        if hours > 14 or minutes >= 60:
            raise BadTime(f"'{text}' is not a UTC offset (from -12:00 to +14:00).")
        delta = timedelta(hours=hours, minutes=minutes)
        return timezone(-delta if sign == "-" else delta)
    try:
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_+\-/]{0,60}", text) or ".." in text:
            raise ZoneInfoNotFoundError(text)
        return ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise BadTime(f"'{text[:40]}' is not a time zone: give a UTC offset like +02:00 "
                      "or a name like Europe/Berlin.") from error


def clock(text: str) -> int:
    """Minutes after midnight of "22:00", "7" or "07:30"."""
    found = _CLOCK.fullmatch(text.strip())
    if not found or int(found[1]) > 23 or int(found[2] or 0) > 59:
        raise BadTime(f"'{text[:20]}' is not a time of day: give hours and minutes like 22:00.")
    return int(found[1]) * 60 + int(found[2] or 0)


@dataclass(frozen=True)
class Quiet:
    """A daily quiet window from `start` to `end` (minutes after local midnight; it may
    run past midnight) in time zone `zone` (as the player gave it)."""

    start: int
    end: int
    zone: str

    @classmethod
    def parse(cls, start: str, end: str, zone_text: str) -> "Quiet":
        """Checked quiet hours; BadTime with a reason when something cannot be read."""
        quiet = cls(clock(start), clock(end), zone_text.strip())
        zone(quiet.zone)
        if quiet.start == quiet.end:
            raise BadTime("Quiet hours need different start and end times.")
        return quiet

    def as_dict(self) -> dict:
        return {"start": self.start, "end": self.end, "zone": self.zone}

    @classmethod
    def from_dict(cls, data: dict) -> "Quiet":
        return cls(int(data["start"]), int(data["end"]), str(data["zone"]))

    def until(self, now: float) -> Optional[float]:
        """When the quiet hours that `now` falls in end (a timestamp), or None if it is not quiet."""
        tz = zone(self.zone)
        local = datetime.fromtimestamp(now, tz)
        minute = local.hour * 60 + local.minute

        def at(day: datetime, minutes: int) -> float:
            return datetime.combine(day.date(), time(minutes // 60, minutes % 60), tz).timestamp()
        if self.start < self.end:
            return at(local, self.end) if self.start <= minute < self.end else None
        if minute >= self.start:
            return at(local + timedelta(days=1), self.end)
        if minute < self.end:
            return at(local, self.end)
        return None

    def words(self) -> str:
        """"22:00-07:00 (Europe/Berlin)"."""
        return f"{self.start // 60:02d}:{self.start % 60:02d}-{self.end // 60:02d}:{self.end % 60:02d} ({self.zone})"


def shift(since: float, deadline: float, vacations: Iterable[tuple[float, float]]) -> float:
    """How far the `deadline` of a wait that began at `since` moves for these vacations
    (starts, ends): by the part of each vacation after the wait began, taking them in
    order; a vacation that starts after the deadline (as moved so far) does not move it."""
    moved = 0.0
    for starts, ends in sorted(vacations):
        if starts >= deadline + moved:
            break
        moved += max(0.0, ends - max(starts, since))
    return moved


def held_until(now: float, quiet: Optional[Quiet], vacation_ends: Optional[float]) -> Optional[float]:
    """Until when pings and reminders to a player wait: the end of their quiet hours or of
    their vacation, whichever is later (None: reach them now)."""
    times = [t for t in (quiet.until(now) if quiet else None, vacation_ends) if t is not None and t > now]
    return max(times) if times else None
