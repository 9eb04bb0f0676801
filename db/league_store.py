"""Storage for leagues and organised-play events: the event JSON, linked games, threads.

It stores the league engine's JSON untouched and knows nothing of its rules. It shares the
game database's connection and write lock, so league writes and game writes never
interleave inside a transaction.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from db.database import StaleWrite, Store

_COLUMNS = ("id, guild_id, channel_id, name, status, version, state, next_due, created_by,"
            " created_at, updated_at")


@dataclass(frozen=True)
class LeagueRow:
    """One row of `league_events`; `state` is the league engine's JSON text."""

    id: int
    guild_id: int
    channel_id: Optional[int]
    name: str
    status: str
    version: int
    state: str
    next_due: Optional[float]
    created_by: Optional[int]
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class ThreadRow:
    """The Discord thread of one pairing, and when its players were last reminded."""

    round: int
    table_no: int
    thread_id: int
    reminded_at: Optional[float]


class LeagueStore(Store):
    """League queries over an open `Database` (its connection and write lock, see db.database)."""

    async def _write(self, sql: str, params: tuple) -> int:
        """Run one write statement under the write lock; returns the rows it changed."""
        async with self._lock:
            return await self._conn.execute(sql, params)

    async def create(self, *, guild_id: int, name: str, status: str, state: str, at: float,
                     channel_id: Optional[int] = None, created_by: Optional[int] = None) -> int:
        """Insert an event at version 0 and return its id."""
        async with self._lock:
            return await self._conn.insert(
                "INSERT INTO league_events (guild_id, channel_id, name, status, state, created_by,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, name, status, state, created_by, at, at))

    async def get(self, event_id: int) -> Optional[LeagueRow]:
        """The event with that id, if any."""
        rows = await self._conn.fetch(
            f"SELECT {_COLUMNS} FROM league_events WHERE id = ?", (event_id,))
        return LeagueRow(*rows[0]) if rows else None

    async def in_guild(self, guild_id: int) -> list[LeagueRow]:
        """A server's events, newest first."""
        rows = await self._conn.fetch(
            f"SELECT {_COLUMNS} FROM league_events WHERE guild_id = ? ORDER BY id DESC", (guild_id,))
        return [LeagueRow(*r) for r in rows]

    async def save(self, event_id: int, from_version: int, *, status: str, state: str,
                   next_due: Optional[float], at: float) -> int:
        """Store a new state if the event is still at `from_version`; returns the new version.

        Raises StaleWrite (nothing written) if somebody saved in between.
        """
        changed = await self._write(
            "UPDATE league_events SET status = ?, state = ?, next_due = ?, updated_at = ?,"
            " version = version + 1 WHERE id = ? AND version = ?",
            (status, state, next_due, at, event_id, from_version))
        if changed != 1:
            raise StaleWrite(f"league event {event_id} is no longer at version {from_version}")
        return from_version + 1

    async def due(self, now: float) -> list[LeagueRow]:
        """Events whose next deadline or reminder time has come."""
        rows = await self._conn.fetch(
            f"SELECT {_COLUMNS} FROM league_events WHERE next_due <= ? ORDER BY next_due", (now,))
        return [LeagueRow(*r) for r in rows]

    async def link_game(self, game_id: int, event_id: int) -> None:
        """Remember that a bot-run game belongs to an event's pairing."""
        await self._write("INSERT INTO league_games (game_id, event_id) VALUES (?, ?)", (game_id, event_id))

    async def event_of_game(self, game_id: int) -> Optional[int]:
        """The event a bot-run game was linked to, if any."""
        rows = await self._conn.fetch(
            "SELECT event_id FROM league_games WHERE game_id = ?", (game_id,))
        return rows[0][0] if rows else None

    async def set_thread(self, event_id: int, round_number: int, table_no: int, thread_id: int) -> None:
        """Record (or replace) the thread opened for a pairing."""
        await self._write(
            "INSERT INTO league_threads (event_id, round, table_no, thread_id) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (event_id, round, table_no) DO UPDATE SET thread_id = excluded.thread_id",
            (event_id, round_number, table_no, thread_id))

    async def threads(self, event_id: int, round_number: int) -> list[ThreadRow]:
        """The pairing threads of one round, by table."""
        rows = await self._conn.fetch(
            "SELECT round, table_no, thread_id, reminded_at FROM league_threads"
            " WHERE event_id = ? AND round = ? ORDER BY table_no", (event_id, round_number))
        return [ThreadRow(*r) for r in rows]

    async def mark_reminded(self, event_id: int, round_number: int, table_no: int, at: float) -> None:
        """Note that a pairing's players were reminded of the deadline."""
        await self._write(
            "UPDATE league_threads SET reminded_at = ? WHERE event_id = ? AND round = ? AND table_no = ?",
            (at, event_id, round_number, table_no))
