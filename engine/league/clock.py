"""The round clock of a one-day event: the event's time limit counts down from the moment a
round is published, with calls at 15 and 5 minutes left and "time" at the end.

At time the round ends at once (ruling L32): games still in progress stop where they are
and are scored as the kit scores a game at time, Fleet Points from the squad points left
on the table, the most Fleet Points winning (L8); an Arena Captains' Battle that has not
finished gives no bonus. Calls missed while the bot was away are not made late: only the
latest one due is. Organisers can pause the clock, resume it and add minutes (ruling L39);
each is in the audit trail.
"""
from __future__ import annotations

from typing import Optional

from engine.errors import RuleError
from engine.league.event import Event, Round, log, require_status

WARNINGS = (15, 5)  # minutes left
MINUTE = 60
MAX_EXTENSION = 120  # minutes added at once


def round_end(event: Event, rnd: Round) -> Optional[int]:
    """When time is called in this round if the clock runs on from now (None: no clock); a
    paused clock's end is where it would be were it resumed at the moment it was paused."""
    if rnd.started is None:
        return None
    return rnd.started + (event.time_limit_minutes + rnd.extra_minutes) * MINUTE + rnd.paused_seconds


def schedule(event: Event, rnd: Round) -> list[tuple[str, int]]:
    """Every call of the round's clock and its time: warnings that fit inside the time limit, then time."""
    end = round_end(event, rnd)
    if end is None:
        return []
    warnings = [(str(m), end - m * MINUTE) for m in WARNINGS if m < event.time_limit_minutes]
    return warnings + [("time", end)]


def running(rnd: Round) -> bool:
    """Is the clock still counting (started, not paused, time not called, games still open)?"""
    return live(rnd) and rnd.paused_at is None


def live(rnd: Round) -> bool:
    """Has the round a clock that time has not been called on, while games are open (paused or not)?"""
    return rnd.started is not None and "time" not in rnd.calls and rnd.status == "published"


def left(event: Event, rnd: Round, now: int) -> int:
    """Seconds left on the clock (a paused clock stands still)."""
    end = round_end(event, rnd)
    return max(0, end - (rnd.paused_at if rnd.paused_at is not None else now))


def pause(event: Event, rnd: Round, actor: str, now: int) -> None:
    """Stop the round clock (a fire alarm, a rules question); the audit trail keeps it."""
    _require_clock(event, rnd)
    if rnd.paused_at is not None:
        raise RuleError(f"Round {rnd.number}'s clock is already paused.")
    rnd.paused_at = now
    log(event, actor, now, "clock paused", f"round {rnd.number}, {_minutes(left(event, rnd, now))} left")


def resume(event: Event, rnd: Round, actor: str, now: int) -> None:
    """Start a paused clock again: the end moves later by the pause."""
    _require_clock(event, rnd)
    if rnd.paused_at is None:
        raise RuleError(f"Round {rnd.number}'s clock is not paused.")
    rnd.paused_seconds += now - rnd.paused_at
    rnd.paused_at = None
    log(event, actor, now, "clock resumed", f"round {rnd.number}, {_minutes(left(event, rnd, now))} left")


def extend(event: Event, rnd: Round, minutes: int, actor: str, now: int) -> None:
    """Add minutes to the round's clock (running or paused). A warning whose moment moves back
    into the future is made again when it comes."""
    _require_clock(event, rnd)
    if not 1 <= minutes <= MAX_EXTENSION:
        raise RuleError(f"Add between 1 and {MAX_EXTENSION} minutes.")
    rnd.extra_minutes += minutes
    at = dict(schedule(event, rnd))
    rnd.calls = [call for call in rnd.calls if at.get(call, 0) <= now]
    log(event, actor, now, "clock extended", f"round {rnd.number}: +{minutes} min, "
        f"{_minutes(left(event, rnd, now))} left")


def _require_clock(event: Event, rnd: Round) -> None:
    require_status(event, "running")
    if not live(rnd):
        raise RuleError(f"Round {rnd.number} has no round clock running: it is a season round, "
                        "complete, or time has been called.")


def _minutes(seconds: int) -> str:
    return f"{seconds // MINUTE} min {seconds % MINUTE} s"


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


def time_up(event: Event, rnd: Round, now: int) -> bool:
    """Is the round's time over: called, or reached on a running clock whose call is still to
    be made (the clock's loop comes round once a minute; a command must not slip in before it)?"""
    return time_called(rnd) or (running(rnd) and now >= round_end(event, rnd))
