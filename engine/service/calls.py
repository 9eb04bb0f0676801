"""Calls at most every N hours (rulings P24-P27).

A player who chooses it is not mentioned at each hand-over. Instead one call per window
(a DM, or a post in a channel of their choice) names them and lists every game waiting
for them; a hand-over books that call for the first moment the window allows. A wait's
deadline counts from the call that told the player of it: at least the call's time plus
the game's time limit, and it cannot pass before the player was called.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Optional

from db import Database
from db.call_store import CallStore
from db.player_store import PlayerStore
from engine.service import reads
from engine.service.errors import LobbyError

MIN_HOURS, MAX_HOURS = 1, 24
HOUR = 3600.0
CALL = "call"  # the kind of reminder that books a call


@dataclass(frozen=True)
class Calls:
    """A player's calls: at most one every `every` seconds, where, and the last one."""

    every: float
    channel_id: Optional[int]
    last_call: Optional[float]

    def next_call(self, now: float) -> float:
        """The first moment a call may go out: now, or a window after the last one."""
        return now if self.last_call is None else max(now, self.last_call + self.every)

    def words(self, public: bool = False) -> str:
        """'every 8 h by DM' or 'every 8 h in <#123>'; `public`: without where."""
        where = "" if public else f" in <#{self.channel_id}>" if self.channel_id else " by DM"
        return f"every {self.every / HOUR:g} h{where}"


class CallDesk:
    """Players' calls over one game database."""

    def __init__(self, database: Database, *, clock: Callable[[], float] = time.time):
        self.database = database
        self.store = CallStore(database)
        self.reminders = PlayerStore(database)
        self._clock = clock

    async def calls(self, user_id: int) -> Optional[Calls]:
        """The user's calls (None: called at every hand-over); read once per interaction."""
        row = await reads.user_calls(self.database, user_id)
        return None if row is None else Calls(*row)

    async def choose(self, user_id: int, hours: int, channel_id: Optional[int] = None) -> Optional[Calls]:
        """Calls at most every `hours` (0: off, every hand-over), in `channel_id` or by DM.
        LobbyError, changing nothing, for hours out of range."""
        reads.forget_user(user_id)
        if hours == 0:
            await self.store.drop(user_id)
            return None
        if not MIN_HOURS <= hours <= MAX_HOURS:
            raise LobbyError(f"Calls come at most every {MIN_HOURS} to {MAX_HOURS} hours "
                             "(0 turns them off). Nothing changed.")
        await self.store.put(user_id, hours * HOUR, channel_id)
        return await self.calls(user_id)

    async def book(self, game_id: int, seat: str, calls: Calls) -> float:
        """Book the call that tells the seat's player of a new wait, at the first moment
        their window allows; the wait's deadline becomes at least that moment plus the
        game's limit (P25). Returns the moment booked."""
        at = calls.next_call(self._clock())
        wait = await self.store.wait(game_id, seat)
        if await self.reminders.add_reminder(game_id, seat, CALL, at) and wait and wait.deadline < at + wait.limit:
            await self.store.set_deadlines([(game_id, seat, at + wait.limit)])
        return at

    async def told(self, user_id: int, calls: Calls) -> dict[tuple[int, str], float]:
        """(game, seat) -> the deadline a call going out now gives each wait it tells the
        user of for the first time: at least now plus the game's limit (P25)."""
        now = self._clock()
        return {(w.game_id, w.seat): max(w.deadline, now + w.limit) for w in await self.store.waits(user_id)
                if calls.last_call is None or w.since > calls.last_call}

    async def called(self, user_id: int, told: dict[tuple[int, str], float]) -> None:
        """The user's call went out now, with the deadlines `told` gave."""
        reads.forget_user(user_id)
        await self.store.called(user_id, self._clock(), [(g, s, d) for (g, s), d in told.items()])

    async def uncalled(self, game_id: int, seat: str, user_id: int) -> Optional[Calls]:
        """The user's calls when the seat's wait has not been told to them yet: no call
        since it began, and they have not acted in the game since (P26); else None."""
        calls = await self.calls(user_id)
        wait = await self.store.wait(game_id, seat) if calls else None
        if wait is None or (calls.last_call is not None and calls.last_call >= wait.since):
            return None
        return None if await self.store.acted_since(game_id, user_id, wait.since) else calls
