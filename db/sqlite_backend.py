"""The SQLite implementation of db.backend.Connection: one aiosqlite connection to a file.

The connection runs in autocommit mode, so every statement outside `transaction()` is
atomic on its own. A batch of game writes is one statement: each write is one row
inserted into a per-connection view, whose trigger applies the whole change (guard, game
row, log, waits, reminders); if any row is refused, the statement changes nothing.
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import time
import urllib.parse
from typing import AsyncIterator, Sequence

import aiosqlite

from db.errors import DatabaseBusy, StaleWrite, refuse_newer_schema

_STALE = "stale write"
_WRITE_PATH = f"""
CREATE TEMP VIEW game_write (game_id, from_version, from_status, version, status, state, result,
                             config, at, log, stop_waiting, start_waiting, reminders, from_stamp)
    AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL;
CREATE TEMP TRIGGER game_write_apply INSTEAD OF INSERT ON game_write BEGIN
    SELECT RAISE(ABORT, '{_STALE}') WHERE NOT EXISTS (SELECT 1 FROM games
        WHERE id = NEW.game_id AND version = NEW.from_version AND status = NEW.from_status
            AND stamp = NEW.from_stamp);
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
           value ->> 6, value ->> 7, value ->> 8, value -> 9, value -> 10, value -> 11, value -> 12,
           value ->> 13
    FROM json_each(?)
"""


def is_busy(error: BaseException) -> bool:
    """Whether `error` is SQLite giving up on a database another connection holds."""
    return isinstance(error, sqlite3.OperationalError) and ("locked" in str(error) or "busy" in str(error))


def statements(script: str) -> list[str]:
    """The statements of an SQL script, one by one (a `;` inside a string or a trigger
    body does not end one)."""
    found, current = [], ""
    for piece in script.split(";"):
        current += piece + ";"
        if sqlite3.complete_statement(current):
            if current.strip(" \n;"):
                found.append(current.strip())
            current = ""
    return found


async def enter_wal(conn: aiosqlite.Connection, busy_timeout_ms: int) -> None:
    """Switch the file to WAL, trying again until the busy timeout: SQLite can refuse the
    switch at once, without its busy handler, while another program is opening or
    switching the same new file."""
    deadline = time.monotonic() + busy_timeout_ms / 1000
    while True:
        try:
            await conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if not is_busy(error) or time.monotonic() >= deadline:
                raise
        await asyncio.sleep(0.01)


class SqliteConnection:
    """An open SQLite file (see db.backend.Connection)."""

    name = "sqlite"
    integrity_errors = (sqlite3.IntegrityError,)

    def __init__(self, conn: aiosqlite.Connection):
        self.raw = conn

    @classmethod
    async def open(cls, path: str, busy_timeout_ms: int) -> "SqliteConnection":
        """Open the file in WAL mode with foreign keys on; refuses a newer schema before
        anything in the file is changed."""
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            opened = cls(conn)
            refuse_newer_schema(await opened.schema_version())
            await enter_wal(conn, busy_timeout_ms)
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA foreign_keys = ON")
        except BaseException as error:
            await conn.close()
            if is_busy(error):
                raise DatabaseBusy(f"{path} is held by another program (waited {busy_timeout_ms / 1000:g} s)") from error
            raise
        return opened

    async def prepare_writes(self) -> None:
        """Create this connection's game write path (after the migrations)."""
        await self.raw.executescript(_WRITE_PATH)

    async def fetch(self, sql: str, params: Sequence = ()) -> list[tuple]:
        return [tuple(r) for r in await self.raw.execute_fetchall(sql, tuple(params))]

    async def execute(self, sql: str, params: Sequence = ()) -> int:
        cur = await self.raw.execute(sql, tuple(params))
        return cur.rowcount

    async def insert(self, sql: str, params: Sequence = ()) -> int:
        return (await self.raw.execute_fetchall(sql, tuple(params)))[0][0]

    async def execute_many(self, sql: str, rows: Sequence[Sequence]) -> None:
        await self.raw.executemany(sql, [tuple(r) for r in rows])

    async def columns(self, table: str) -> list[str]:
        return [r[1] for r in await self.raw.execute_fetchall(f"PRAGMA table_info({table})")]

    async def ids_follow_copied_rows(self, table: str) -> None:
        """Nothing to do: an INTEGER PRIMARY KEY always continues after the largest id."""

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """BEGIN IMMEDIATE ... COMMIT; rolled back on any error."""
        await self.raw.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            await self.raw.rollback()
            raise
        await self.raw.execute("COMMIT")

    async def apply_game_writes(self, batch: str) -> list[int]:
        """All or nothing: one stale write refuses the batch (StaleWrite)."""
        try:
            await self.raw.execute(_INSERT_GAME_WRITES, (batch,))
        except sqlite3.IntegrityError as error:
            if str(error) == _STALE:
                raise StaleWrite("the game moved on") from error
            raise
        return []

    async def schema_version(self) -> int:
        return await self.pragma("user_version")

    async def apply_migration(self, number: int, sql: str) -> bool:
        """Under BEGIN IMMEDIATE, which waits for any other writer: processes starting
        together on a new file each wait their turn, and find the migrations applied."""
        async with self.transaction():
            if await self.schema_version() >= number:
                return False
            for statement in statements(sql):
                await self.raw.execute(statement)
            await self.raw.execute(f"PRAGMA user_version = {number}")
        return True

    async def pragma(self, name: str):
        """The value of a read-only pragma such as `integrity_check` or `user_version`."""
        async with self.raw.execute(f"PRAGMA {name}") as cur:
            row = await cur.fetchone()
        return row[0]

    async def close(self) -> None:
        await self.raw.close()


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
