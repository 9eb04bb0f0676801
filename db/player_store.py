"""Storage for what belongs to players rather than to one game move: dice seals, vacations
and the deadlines they moved, per-player figures (ratings: db/rating_store.py).

It shares the game database's connection and write lock (as the league store does),
so its transactions never interleave with a game's write. It stores numbers and JSON and
knows nothing of any ruleset or rating model.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Optional

from db.backend import placeholders
from db.database import Store, stamp_games


@dataclass(frozen=True)
class Seal:
    """A game's dice seal: the secret salt, the published digest, and when it was revealed."""

    game_id: int
    salt: str
    digest: str
    sealed_at: float
    revealed_at: Optional[float]


@dataclass(frozen=True)
class PlayedGame:
    """A game a user sat in, with its (JSON-decoded) config and result."""

    game_id: int
    guild_id: Optional[int]
    status: str
    seat: str
    config: dict
    result: Optional[dict]
    left: bool = False  # the user left the seat to the computer before the end (R61)


class PlayerStore(Store):
    """Player queries over an open `Database`."""

    # ---- dice seals -----------------------------------------------------------------

    async def seal(self, game_id: int) -> Optional[Seal]:
        """The game's seal, if it has one."""
        rows = await self._conn.fetch(
            "SELECT game_id, salt, digest, sealed_at, revealed_at FROM dice_seals WHERE game_id = ?", (game_id,))
        return Seal(*rows[0]) if rows else None

    async def add_seal(self, game_id: int, salt: str, digest: str, at: float) -> None:
        """Seal a game once; a game already sealed keeps its first seal."""
        async with self._lock:
            await self._conn.execute(
                "INSERT INTO dice_seals (game_id, salt, digest, sealed_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id) DO NOTHING",
                (game_id, salt, digest, at))

    async def unrevealed(self) -> list[int]:
        """Started games, now ended (over or aborted), whose sealed seed has not been revealed yet,
        oldest first."""
        rows = await self._conn.fetch(
            "SELECT d.game_id FROM dice_seals d JOIN games g ON g.id = d.game_id WHERE d.revealed_at IS NULL"
            " AND g.status IN ('over', 'aborted') AND g.state IS NOT NULL ORDER BY d.game_id")
        return [r[0] for r in rows]

    async def mark_revealed(self, game_id: int, at: float) -> None:
        async with self._lock:
            await self._conn.execute("UPDATE dice_seals SET revealed_at = ? WHERE game_id = ?", (at, game_id))

    # ---- per-player figures --------------------------------------------------------

    async def played(self, user_id: int) -> list[PlayedGame]:
        """Every started game the user sat in (also those they left), oldest first."""
        rows = await self._conn.fetch(
            "SELECT g.id, g.guild_id, g.status, s.seat, g.config, g.result, s.left_by IS NOT NULL FROM seats s"
            " JOIN games g ON g.id = s.game_id WHERE (s.user_id = ? OR s.left_by = ?) AND g.state IS NOT NULL"
            " ORDER BY g.id", (user_id, user_id))
        return [PlayedGame(r[0], r[1], r[2], r[3], json.loads(r[4]), json.loads(r[5]) if r[5] else None, bool(r[6]))
                for r in rows]

    async def turn_time(self, user_id: int) -> tuple[int, Optional[float]]:
        """(answers, average seconds) the user took to answer: from the game's previous
        accepted command to theirs (a game's first command is not counted)."""
        rows = await self._conn.fetch(
            "SELECT count(*), avg(at - before) FROM (SELECT user_id, at,"
            " lag(at) OVER (PARTITION BY game_id ORDER BY seq) AS before FROM log"
            " WHERE game_id IN (SELECT game_id FROM seats WHERE user_id = ?))"
            " WHERE user_id = ? AND before IS NOT NULL", (user_id, user_id))
        return rows[0][0], rows[0][1]

    async def name(self, user_id: int) -> Optional[str]:
        """The name the user last sat down with."""
        rows = await self._conn.fetch(
            "SELECT name FROM seats WHERE user_id = ? ORDER BY joined_at DESC LIMIT 1", (user_id,))
        return rows[0][0] if rows else None

    # ---- vacations -----------------------------------------------------------------

    async def vacations(self, user_id: int) -> list[tuple[float, float]]:
        rows = await self._conn.fetch(
            "SELECT starts, ends FROM vacations WHERE user_id = ? ORDER BY starts", (user_id,))
        return [(r[0], r[1]) for r in rows]

    async def set_vacation(self, user_id: int, starts: float, ends: float, now: float) -> None:
        """Add a vacation in place of the one under way (which ends now, keeping the part
        taken) or planned (dropped)."""
        async with self._transaction():
            await self._end_vacation(user_id, now)
            await self._conn.execute("INSERT INTO vacations VALUES (?, ?, ?)", (user_id, starts, ends))

    async def end_vacation(self, user_id: int, now: float) -> bool:
        """End the user's vacation now (a planned one is dropped). True if there was one."""
        async with self._transaction():
            return await self._end_vacation(user_id, now)

    async def _end_vacation(self, user_id: int, now: float) -> bool:
        dropped = await self._conn.execute("DELETE FROM vacations WHERE user_id = ? AND starts >= ?", (user_id, now))
        ended = await self._conn.execute(
            "UPDATE vacations SET ends = ? WHERE user_id = ? AND starts < ? AND ends > ?", (now, user_id, now, now))
        return dropped + ended > 0

    async def waits_of_vacationers(self) -> list[tuple[int, str, int, float, float, float]]:
        """(game, seat, user, since, deadline, shift so far) of every wait with a deadline in
        an active game whose player has ever taken a vacation."""
        return [tuple(r) for r in await self._conn.fetch(
            "SELECT a.game_id, a.seat, s.user_id, a.since, a.deadline, a.vacation_shift FROM awaited a"
            " JOIN seats s ON s.game_id = a.game_id AND s.seat = a.seat JOIN games g ON g.id = a.game_id"
            " WHERE g.status = 'active' AND a.deadline IS NOT NULL"
            " AND s.user_id IN (SELECT user_id FROM vacations)")]

    async def move_deadlines(self, moves: list[tuple[int, str, float]]) -> None:
        """Move each (game, seat)'s deadline and its unsent deadline reminder by `delta` seconds,
        in one transaction; each game's stamp moves on (a copy read before is behind)."""
        async with self._transaction():
            for game_id, seat, delta in moves:
                await self._conn.execute(
                    "UPDATE awaited SET deadline = deadline + ?, vacation_shift = vacation_shift + ?"
                    " WHERE game_id = ? AND seat = ?", (delta, delta, game_id, seat))
                await self._conn.execute(
                    "UPDATE reminders SET due = due + ? WHERE game_id = ? AND seat = ? AND kind = 'deadline'"
                    " AND sent_at IS NULL", (delta, game_id, seat))
            await stamp_games(self._conn, {game_id for game_id, _, _ in moves})

    # ---- reminders that wait -------------------------------------------------------

    async def postpone_reminders(self, ids: list[int], due: float) -> None:
        """Make these unsent reminders due at `due` instead."""
        if not ids:
            return
        async with self._lock:
            await self._conn.execute(
                f"UPDATE reminders SET due = ? WHERE sent_at IS NULL AND id IN ({placeholders(len(ids))})",
                (due, *ids))

    async def add_reminder(self, game_id: int, seat: str, kind: str, due: float) -> bool:
        """A reminder for a seat the game still waits on (False if it no longer does)."""
        async with self._lock:
            added = await self._conn.execute(
                "INSERT INTO reminders (game_id, seat, kind, due) SELECT game_id, seat, ?, ? FROM awaited"
                " WHERE game_id = ? AND seat = ?", (kind, due, game_id, seat))
        return added == 1
