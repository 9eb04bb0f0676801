"""Storage for calls at most every N hours (migration 12): each player's choice, when their
last call went out, and the waits it holds (their deadlines count from the call).

It shares the game database's connection and write lock, as the other stores do.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from db.database import Store, stamp_games


@dataclass(frozen=True)
class HeldWait:
    """A wait of a called player: its game, seat, since when, its deadline and the game's limit."""

    game_id: int
    seat: str
    since: float
    deadline: float
    limit: float


class CallStore(Store):
    """Calls over an open `Database`."""

    async def put(self, user_id: int, every: float, channel_id: Optional[int]) -> None:
        """Choose calls every `every` seconds (the time of the last call is kept)."""
        async with self._lock:
            await self._conn.execute(
                "INSERT INTO calls (user_id, every, channel_id) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET every = excluded.every, channel_id = excluded.channel_id",
                (user_id, every, channel_id))

    async def drop(self, user_id: int) -> None:
        async with self._lock:
            await self._conn.execute("DELETE FROM calls WHERE user_id = ?", (user_id,))

    _WAITS = ("SELECT a.game_id, a.seat, a.since, a.deadline, g.turn_limit FROM awaited a"
              " JOIN seats s ON s.game_id = a.game_id AND s.seat = a.seat JOIN games g ON g.id = a.game_id"
              " WHERE g.status = 'active' AND a.deadline IS NOT NULL AND g.turn_limit > 0")

    async def waits(self, user_id: int) -> list[HeldWait]:
        """The user's waits with a deadline in active games with a turn limit."""
        rows = await self._conn.fetch(self._WAITS + " AND s.user_id = ? ORDER BY a.game_id, a.seat", (user_id,))
        return [HeldWait(*r) for r in rows]

    async def wait(self, game_id: int, seat: str) -> Optional[HeldWait]:
        """The seat's wait, if it has a deadline in an active game with a turn limit."""
        rows = await self._conn.fetch(self._WAITS + " AND a.game_id = ? AND a.seat = ?", (game_id, seat))
        return HeldWait(*rows[0]) if rows else None

    async def acted_since(self, game_id: int, user_id: int, since: float) -> bool:
        """Whether the user sent a command in the game at or after `since`."""
        rows = await self._conn.fetch(
            "SELECT 1 FROM log WHERE game_id = ? AND user_id = ? AND at >= ? LIMIT 1", (game_id, user_id, since))
        return bool(rows)

    async def called(self, user_id: int, at: float, deadlines: list[tuple[int, str, float]]) -> None:
        """In one transaction: the user's call went out `at`, and each (game, seat) listed
        gets its new deadline, with its unsent deadline reminder."""
        async with self._transaction():
            await self._conn.execute("UPDATE calls SET last_call = ? WHERE user_id = ?", (at, user_id))
            await self._set_deadlines(deadlines)

    async def set_deadlines(self, deadlines: list[tuple[int, str, float]]) -> None:
        """Each (game, seat)'s new deadline, with its unsent deadline reminder, in one transaction."""
        async with self._transaction():
            await self._set_deadlines(deadlines)

    async def _set_deadlines(self, deadlines: list[tuple[int, str, float]]) -> None:
        for game_id, seat, deadline in deadlines:
            await self._conn.execute("UPDATE awaited SET deadline = ? WHERE game_id = ? AND seat = ?",
                                     (deadline, game_id, seat))
            await self._conn.execute(
                "UPDATE reminders SET due = ? WHERE game_id = ? AND seat = ? AND kind = 'deadline'"
                " AND sent_at IS NULL", (deadline, game_id, seat))
        await stamp_games(self._conn, {game_id for game_id, _, _ in deadlines})
