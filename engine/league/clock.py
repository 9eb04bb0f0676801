"""The round clock of a one-day event: the event's time limit counts down from the moment a
round is published, with calls at 15 and 5 minutes left and "time" at the end.

At time the round ends at once (ruling L32): games still in progress stop where they are
and are scored as the kit scores a game at time, Fleet Points from the squad points left
on the table, the most Fleet Points winning (L8); an Arena Captains' Battle that has not
finished gives no bonus. Calls missed while the bot was away are not made late: only the
latest one due is.
"""
from __future__ import annotations

from typing import Optional

from engine.league.event import Event, Round, log

WARNINGS = (15, 5)  # minutes left
MINUTE = 60


def round_end(event: Event, rnd: Round) -> Optional[int]:
    """When time is called in this round (None: no clock runs)."""
    if rnd.started is None:
        return None
    return rnd.started + event.time_limit_minutes * MINUTE


def schedule(event: Event, rnd: Round) -> list[tuple[str, int]]:
    """Every call of the round's clock and its time: warnings that fit inside the time limit, then time."""
    end = round_end(event, rnd)
    if end is None:
        return []
    warnings = [(str(m), end - m * MINUTE) for m in WARNINGS if m < event.time_limit_minutes]
    return warnings + [("time", end)]


def running(rnd: Round) -> bool:
    """Is the clock still counting (started, time not called, games still open)?"""
    return rnd.started is not None and "time" not in rnd.calls and rnd.status == "published"


def next_call(event: Event, rnd: Round) -> Optional[int]:
    """When the clock next needs attention, if it runs."""
    if not running(rnd):
        return None
    return next((at for call, at in schedule(event, rnd) if call not in rnd.calls), None)


def make_calls(event: Event, rnd: Round, now: int) -> Optional[str]:
    """The call due now ("15", "5" or "time"), marked as made with every earlier one; None if none is due."""
    if not running(rnd):
        return None
    due = [call for call, at in schedule(event, rnd) if at <= now and call not in rnd.calls]
    if not due:
        return None
    rnd.calls = rnd.calls + due
    if due[-1] == "time":
        open_tables = [g.table for g in rnd.games if g.status != "final"]
        log(event, "clock", now, "time", f"round {rnd.number}: time called; tables still open: "
            + (", ".join(map(str, open_tables)) or "none"))
    return due[-1]


def time_called(rnd: Round) -> bool:
    """Has time been called in this round?"""
    return "time" in rnd.calls
