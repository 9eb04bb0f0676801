"""The game store: one aiosqlite connection, the schema migrations, and every query.

Config, state, events, results and settings are JSON text that this module stores and
returns untouched; it knows nothing of any ruleset.

The connection runs in autocommit mode and every write here is one statement, atomic
on its own. Moves use group commit: a caller queues its `GameWrite` and a flusher
writes everything queued so far in one statement (one await for the whole batch),
because each aiosqlite call costs a hop to its worker thread and, under load, a wait
for the busy event loop on the way back.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import urllib.parse
from dataclasses import dataclass, field
from typing import AsyncIterator, Optional

import aiosqlite

from db.schema import LATEST, MIGRATIONS


BUSY_TIMEOUT_MS = 5000


def _encoded(c: "GameWrite") -> str:
    """One change as the JSON row the single write statement reads."""
    return json.dumps(
        [c.game_id, c.from_version, c.from_status, c.version, c.status, c.state, c.result,
         c.config, c.at, [[e.seq, e.seat, e.user_id, e.command, e.events, e.at] for e in c.log],
         c.stop_waiting, [[w.seat, w.since, w.deadline] for w in c.start_waiting],
         [[r.seat, r.kind, r.due] for r in c.reminders]])


class StaleWrite(Exception):
    """A write was made against a version or status the game no longer has."""


class PlaceTaken(Exception):
    """The channel (or thread) already has a game in the lobby or under way."""


class SchemaTooNew(Exception):
    """The database was written by a newer release than this one."""


class DatabaseBusy(Exception):
    """Another process held the database for longer than the busy timeout."""


def is_busy(error: BaseException) -> bool:
    """Whether `error` is SQLite giving up on a database another connection holds."""
    return isinstance(error, sqlite3.OperationalError) and ("locked" in str(error) or "busy" in str(error))


@dataclass(frozen=True)
class GameRow:
    """One row of `games`; `config`, `state` and `result` are JSON text."""

    id: int
    ruleset: str
    guild_id: Optional[int]
    channel_id: Optional[int]
    thread_id: Optional[int]
    created_by: Optional[int]
    status: str
    version: int
    config: str
    seed: int
    state: Optional[str]
    result: Optional[str]
    created_at: float
    updated_at: float
    turn_limit: Optional[float]
    remind_after: Optional[float]


@dataclass(frozen=True)
class SeatRow:
    """A player sitting in a game; `options` is JSON text (team, deck ...)."""

    game_id: int
    seat: str
    user_id: int
    name: str
    options: str
    joined_at: float


@dataclass(frozen=True)
class Wait:
    """A seat the game is waiting on, since when, and until when."""

    seat: str
    since: float
    deadline: Optional[float] = None


@dataclass(frozen=True)
class Reminder:
    """A reminder to send to the player of `seat` at `due` while the game waits on it."""

    seat: str
    kind: str
    due: float


@dataclass(frozen=True)
class LogEntry:
    """One accepted command; `seq` is the game version it produced, `events` JSON text."""

    seq: int
    seat: Optional[str]
    user_id: Optional[int]
    command: str
    events: str
    at: float


@dataclass
class GameWrite:
    """Everything one accepted action changes, committed together or not at all.

    The write applies only if the game is still at `from_version` and `from_status`.
    """

    game_id: int
    from_version: int
    from_status: str
    version: int
    status: str
    state: Optional[str]
    at: float
    result: Optional[str] = None
    config: Optional[str] = None
    log: list[LogEntry] = field(default_factory=list)
    stop_waiting: list[str] = field(default_factory=list)
    start_waiting: list[Wait] = field(default_factory=list)
    reminders: list[Reminder] = field(default_factory=list)


@dataclass(frozen=True)
class AwaitedGame:
    """A game waiting on a user, for the "your turns" list."""

    game_id: int
    ruleset: str
    guild_id: Optional[int]
    channel_id: Optional[int]
    thread_id: Optional[int]
    version: int
    seat: str
    since: float
    deadline: Optional[float]


@dataclass(frozen=True)
class DueReminder:
    """A reminder whose time has come, with the user to remind."""

    id: int
    game_id: int
    seat: str
    kind: str
    due: float
    user_id: int
    guild_id: Optional[int]
    channel_id: Optional[int]
    thread_id: Optional[int]
    attempts: int = 0  # deliveries tried and failed so far


_GAME_COLUMNS = ", ".join(GameRow.__dataclass_fields__)

# A batch of GameWrites is one statement: each write is one row inserted into this
# per-connection view, whose trigger applies the whole change (guard, game row, log,
# waits, reminders). If any row is refused, the statement changes nothing.
_STALE = "stale write"
_WRITE_PATH = f"""
CREATE TEMP VIEW game_write (game_id, from_version, from_status, version, status, state, result,
                             config, at, log, stop_waiting, start_waiting, reminders)
    AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL;
CREATE TEMP TRIGGER game_write_apply INSTEAD OF INSERT ON game_write BEGIN
    SELECT RAISE(ABORT, '{_STALE}') WHERE NOT EXISTS (SELECT 1 FROM games
        WHERE id = NEW.game_id AND version = NEW.from_version AND status = NEW.from_status);
    UPDATE games SET version = NEW.version, status = NEW.status, state = NEW.state,
        result = IFNULL(NEW.result, result), config = IFNULL(NEW.config, config),
        updated_at = NEW.at
        WHERE id = NEW.game_id;
    INSERT INTO log (game_id, seq, seat, user_id, command, events, at)
        SELECT NEW.game_id, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4,
               value ->> 5 FROM json_each(NEW.log);
    DELETE FROM awaited WHERE game_id = NEW.game_id
        AND seat IN (SELECT value FROM json_each(NEW.stop_waiting));
    INSERT INTO awaited (game_id, seat, since, deadline)
        SELECT NEW.game_id, value ->> 0, value ->> 1, value ->> 2 FROM json_each(NEW.start_waiting);
    INSERT INTO reminders (game_id, seat, kind, due)
        SELECT NEW.game_id, value ->> 0, value ->> 1, value ->> 2 FROM json_each(NEW.reminders);
END;
"""
_INSERT_GAME_WRITES = """
INSERT INTO game_write
    SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5,
           value ->> 6, value ->> 7, value ->> 8, value -> 9, value -> 10, value -> 11, value -> 12
    FROM json_each(?)
"""


class Database:
    """An open game database. Use `await Database.open(path)`; close with `close()`.

    Every writer holds `_write_lock`, so a writer that needs an explicit BEGIN ... COMMIT
    never has another writer's statement land inside its transaction.
    """

    def __init__(self, conn: aiosqlite.Connection):
        self._conn = conn
        self._write_lock = asyncio.Lock()
        self._queue: list[tuple[GameWrite, str, asyncio.Future]] = []
        self._flusher: Optional[asyncio.Task] = None

    @classmethod
    async def open(cls, path: str, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> "Database":
        """Open (creating if needed) and migrate the database at `path`. A statement
        waits up to `busy_timeout_ms` for another process to let go of the file."""
        conn = await aiosqlite.connect(path, isolation_level=None)
        conn.row_factory = sqlite3.Row
        try:
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await _refuse_newer_schema(conn)  # before anything in the file is changed
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA foreign_keys = ON")
            await migrate(conn)
            await conn.executescript(_WRITE_PATH)
        except BaseException as error:
            await conn.close()
            if is_busy(error):
                raise DatabaseBusy(f"{path} is held by another program (waited {busy_timeout_ms / 1000:g} s)") from error
            raise
        return cls(conn)

    async def close(self) -> None:
        """Close the connection (waits for any write in progress)."""
        if self._flusher is not None:
            await self._flusher
        async with self._write_lock:
            await self._conn.close()

    async def pragma(self, name: str):
        """The value of a read-only pragma such as `integrity_check` or `user_version`."""
        async with self._conn.execute(f"PRAGMA {name}") as cur:
            row = await cur.fetchone()
        return row[0]

    # ---- games and seats -------------------------------------------------------

    async def create_game(self, *, ruleset: str, config: str, seed: int, at: float,
                          guild_id: Optional[int] = None, channel_id: Optional[int] = None,
                          thread_id: Optional[int] = None, created_by: Optional[int] = None,
                          turn_limit: Optional[float] = None,
                          remind_after: Optional[float] = None) -> int:
        """Insert a game in the lobby and return its id.

        Raises PlaceTaken if the channel/thread already has a live game.
        """
        async with self._write_lock:
            try:
                cur = await self._conn.execute(
                    "INSERT INTO games (ruleset, guild_id, channel_id, thread_id, created_by, config,"
                    " seed, created_at, updated_at, turn_limit, remind_after)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (ruleset, guild_id, channel_id, thread_id, created_by, config, seed, at, at,
                     turn_limit, remind_after))
            except sqlite3.IntegrityError as error:
                raise PlaceTaken(f"channel {channel_id} thread {thread_id} has a live game") from error
            return cur.lastrowid

    async def game(self, game_id: int) -> Optional[GameRow]:
        """The game with this id, or None."""
        rows = await self._conn.execute_fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return GameRow(*rows[0]) if rows else None

    async def live_game_in(self, channel_id: int, thread_id: Optional[int] = None) -> Optional[GameRow]:
        """The lobby or active game in this channel (and thread), or None."""
        rows = await self._conn.execute_fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND IFNULL(thread_id, 0) = ?"
            " AND status IN ('lobby', 'active')", (channel_id, thread_id or 0))
        return GameRow(*rows[0]) if rows else None

    async def started_game_ids(self) -> list[int]:
        """Ids of every game that has a state (started at some point), oldest first."""
        rows = await self._conn.execute_fetchall("SELECT id FROM games WHERE state IS NOT NULL ORDER BY id")
        return [r[0] for r in rows]

    async def seats(self, game_id: int) -> list[SeatRow]:
        """The seats of a game, in seat order."""
        rows = await self._conn.execute_fetchall(
            "SELECT game_id, seat, user_id, name, options, joined_at FROM seats"
            " WHERE game_id = ? ORDER BY seat", (game_id,))
        return [SeatRow(*r) for r in rows]

    async def waits(self, game_id: int) -> list[Wait]:
        """The seats a game is waiting on."""
        rows = await self._conn.execute_fetchall(
            "SELECT seat, since, deadline FROM awaited WHERE game_id = ? ORDER BY seat", (game_id,))
        return [Wait(*r) for r in rows]

    async def add_seat(self, game_id: int, seat: str, user_id: int, name: str, options: str,
                       at: float) -> None:
        """Seat a user in a game still in the lobby. Raises StaleWrite if it is not."""
        async with self._write_lock:
            cur = await self._conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, name, options, joined_at)"
                " SELECT id, ?, ?, ?, ?, ? FROM games WHERE id = ? AND status = 'lobby'",
                (seat, user_id, name, options, at, game_id))
        if cur.rowcount != 1:
            raise StaleWrite(f"game {game_id} is not in the lobby")

    async def set_seat_options(self, game_id: int, user_id: int, options: str) -> None:
        """Replace a seated user's options in a game still in the lobby, in one statement.
        Raises StaleWrite if there is no such seat in a lobby."""
        async with self._write_lock:
            cur = await self._conn.execute(
                "UPDATE seats SET options = ? WHERE game_id = ? AND user_id = ?"
                " AND (SELECT status FROM games WHERE id = ?) = 'lobby'",
                (options, game_id, user_id, game_id))
        if cur.rowcount != 1:
            raise StaleWrite(f"game {game_id} has no such seat in the lobby")

    async def hand_seat(self, game_id: int, seat: str, user_id: int, name: str, options: str) -> None:
        """Give a seat of a running game to another user (a player who left, to the
        computer). Raises StaleWrite if the game is not running or has no such seat."""
        async with self._write_lock:
            cur = await self._conn.execute(
                "UPDATE seats SET user_id = ?, name = ?, options = ? WHERE game_id = ? AND seat = ?"
                " AND (SELECT status FROM games WHERE id = ?) = 'active'",
                (user_id, name, options, game_id, seat, game_id))
        if cur.rowcount != 1:
            raise StaleWrite(f"game {game_id} has no seat {seat} in play")

    async def remove_seat(self, game_id: int, user_id: int) -> bool:
        """Remove a user's seat from a game in the lobby. True if a seat was removed."""
        async with self._write_lock:
            cur = await self._conn.execute(
                "DELETE FROM seats WHERE game_id = ? AND user_id = ?"
                " AND (SELECT status FROM games WHERE id = ?) = 'lobby'",
                (game_id, user_id, game_id))
        return cur.rowcount == 1

    async def log(self, game_id: int, after: int = 0) -> list[LogEntry]:
        """The command log of a game, oldest first, from sequence `after + 1`."""
        rows = await self._conn.execute_fetchall(
            "SELECT seq, seat, user_id, command, events, at FROM log"
            " WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, after))
        return [LogEntry(*r) for r in rows]

    # ---- the write path ----------------------------------------------------------

    async def write(self, change: GameWrite) -> None:
        """Commit one game's change, batched with others queued at the same moment.

        Returns once it is committed. Raises StaleWrite (nothing written) if the game is
        no longer at `change.from_version` / `change.from_status`. A caller cancelled
        while waiting may or may not have had its change committed.
        """
        future = asyncio.get_running_loop().create_future()
        # encoded now, a change at a time: the flush then only joins texts, however many
        # games wait in one batch (encoding a whole batch at once held the loop for 0.1-0.5 s)
        self._queue.append((change, _encoded(change), future))
        if self._flusher is None:
            self._flusher = asyncio.create_task(self._flush())
        await future

    async def _flush(self) -> None:
        try:
            async with self._write_lock:
                while self._queue:
                    batch, self._queue = self._queue, []
                    await self._commit_batch(batch)
        finally:
            self._flusher = None

    async def _commit_batch(self, batch: list[tuple[GameWrite, str, asyncio.Future]]) -> None:
        outcome: Optional[Exception] = None
        try:
            await self._commit([text for _, text, _ in batch])
        except (StaleWrite, sqlite3.IntegrityError) as error:
            if len(batch) > 1:  # find the culprit: commit one by one
                for item in batch:
                    await self._commit_batch([item])
                return
            outcome = error
        except Exception as error:
            outcome = error
        for _, _, future in batch:
            if future.done():
                continue
            if outcome is None:
                future.set_result(None)
            else:
                future.set_exception(outcome)

    async def _commit(self, encoded: list[str]) -> None:
        batch = "[" + ",".join(encoded) + "]"
        try:
            await self._conn.execute(_INSERT_GAME_WRITES, (batch,))
        except sqlite3.IntegrityError as error:
            if str(error) == _STALE:
                raise StaleWrite("the game moved on") from error
            raise

    # ---- async turns -------------------------------------------------------------

    async def awaited_games(self, user_id: int) -> list[AwaitedGame]:
        """Active games, in any guild, waiting on this user; longest waiting first."""
        rows = await self._conn.execute_fetchall(
            "SELECT g.id, g.ruleset, g.guild_id, g.channel_id, g.thread_id, g.version,"
            " a.seat, a.since, a.deadline"
            " FROM seats s JOIN awaited a ON a.game_id = s.game_id AND a.seat = s.seat"
            " JOIN games g ON g.id = s.game_id"
            " WHERE s.user_id = ? AND g.status = 'active' ORDER BY a.since, g.id", (user_id,))
        return [AwaitedGame(*r) for r in rows]

    async def due_reminders(self, now: float) -> list[DueReminder]:
        """Unsent reminders due at or before `now`, oldest first."""
        rows = await self._conn.execute_fetchall(
            "SELECT r.id, r.game_id, r.seat, r.kind, r.due, s.user_id, g.guild_id, g.channel_id,"
            " g.thread_id, r.attempts FROM reminders r"
            " JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
            " JOIN games g ON g.id = r.game_id"
            " WHERE r.sent_at IS NULL AND r.due <= ? AND g.status = 'active' ORDER BY r.due, r.id",
            (now,))
        return [DueReminder(*r) for r in rows]

    async def mark_reminders_sent(self, ids: list[int], at: float) -> None:
        """Record that these reminders went out."""
        async with self._write_lock:
            await self._conn.execute(
                "UPDATE reminders SET sent_at = ? WHERE id IN (SELECT value FROM json_each(?))",
                (at, json.dumps(ids)))

    async def mark_reminders_failed(self, ids: list[int], reason: str, at: float,
                                    retry_at: Optional[float]) -> None:
        """Record a failed delivery: with `retry_at` the reminders are due again then (one
        more attempt counted); without, they are dropped (marked sent, with the reason)."""
        async with self._write_lock:
            await self._conn.execute(
                "UPDATE reminders SET attempts = attempts + 1, failure = ?,"
                " due = COALESCE(?, due), sent_at = CASE WHEN ? IS NULL THEN ? ELSE NULL END"
                " WHERE id IN (SELECT value FROM json_each(?))",
                (reason, retry_at, retry_at, at, json.dumps(ids)))

    async def reminder_attempts(self, ids: list[int]) -> dict[int, tuple[int, Optional[str], Optional[float]]]:
        """id -> (attempts, failure, sent_at) of these reminders."""
        rows = await self._conn.execute_fetchall(
            "SELECT id, attempts, failure, sent_at FROM reminders WHERE id IN (SELECT value FROM json_each(?))",
            (json.dumps(ids),))
        return {r[0]: (r[1], r[2], r[3]) for r in rows}

    # ---- settings ----------------------------------------------------------------

    async def guild_setting(self, guild_id: int, key: str) -> Optional[str]:
        """A guild's setting (JSON text) or None."""
        rows = await self._conn.execute_fetchall(
            "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key))
        return rows[0][0] if rows else None

    async def set_guild_setting(self, guild_id: int, key: str, value: Optional[str]) -> None:
        """Set (or with None, clear) a guild's setting."""
        await self._set("guild_settings", "guild_id", guild_id, key, value)

    async def user_setting(self, user_id: int, key: str) -> Optional[str]:
        """A user's setting (JSON text) or None."""
        rows = await self._conn.execute_fetchall(
            "SELECT value FROM user_settings WHERE user_id = ? AND key = ?", (user_id, key))
        return rows[0][0] if rows else None

    async def set_user_setting(self, user_id: int, key: str, value: Optional[str]) -> None:
        """Set (or with None, clear) a user's setting."""
        await self._set("user_settings", "user_id", user_id, key, value)

    async def _set(self, table: str, owner: str, owner_id: int, key: str, value: Optional[str]) -> None:
        async with self._write_lock:
            if value is None:
                await self._conn.execute(
                    f"DELETE FROM {table} WHERE {owner} = ? AND key = ?", (owner_id, key))
            else:
                await self._conn.execute(
                    f"INSERT INTO {table} ({owner}, key, value) VALUES (?, ?, ?)"
                    f" ON CONFLICT ({owner}, key) DO UPDATE SET value = excluded.value",
                    (owner_id, key, value))


class Store:
    """Queries over one part of the schema, sharing an open `Database`'s one connection and
    write lock, so its writes never interleave with a game's write."""

    def __init__(self, database: Database):
        self._db = database
        self._conn = database._conn
        self._lock = database._write_lock

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        """BEGIN IMMEDIATE ... COMMIT under the write lock; rolled back on any error."""
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                await self._conn.rollback()
                raise
            await self._conn.execute("COMMIT")


async def integrity_problems(path: str) -> list[str]:
    """What SQLite's integrity check finds wrong with the file at `path` (empty when
    sound), reading it without changing anything; a file that is not a database at all
    is one problem."""
    uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro"
    try:
        async with aiosqlite.connect(uri, uri=True) as conn:
            async with conn.execute("PRAGMA integrity_check") as cur:
                rows = [row[0] for row in await cur.fetchall()]
    except sqlite3.DatabaseError as error:
        return [str(error)]
    return [] if rows == ["ok"] else rows


async def _refuse_newer_schema(conn: aiosqlite.Connection) -> int:
    """The database's schema version; SchemaTooNew when a newer release wrote it."""
    async with conn.execute("PRAGMA user_version") as cur:
        version = (await cur.fetchone())[0]
    if version > LATEST:
        raise SchemaTooNew(f"database schema {version} is newer than this release ({LATEST})")
    return version


async def migrate(conn: aiosqlite.Connection, target: int = LATEST) -> int:
    """Apply the migrations the database lacks, each in its own transaction.

    Returns the version reached. Raises SchemaTooNew for a database from a newer release.
    """
    version = await _refuse_newer_schema(conn)
    for number in range(version + 1, target + 1):
        try:
            await conn.executescript(
                f"BEGIN;\n{MIGRATIONS[number - 1]}\nPRAGMA user_version = {number};\nCOMMIT;")
        except BaseException:
            if conn.in_transaction:
                await conn.rollback()
            raise
        version = number
    return version
