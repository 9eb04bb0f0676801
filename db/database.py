"""The game store: the schema migrations and every query, over SQLite or PostgreSQL.

Config, state, events, results and settings are JSON text that this module stores and
returns untouched; it knows nothing of any ruleset.

Queries are written once and run through a db.backend.Connection, chosen by the
database URL (a path or sqlite:///path: SQLite; postgresql://...: PostgreSQL). Every
write here is one statement, atomic on its own, but handing a seat over (a seat and the
game's stamp, in one transaction). Moves use group commit: a caller queues
its `GameWrite` and a flusher writes everything queued so far in one statement (one
await for the whole batch), because each call costs a hop to the driver and, under
load, a wait for the busy event loop on the way back.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from typing import AsyncIterator, Callable, Optional

from db.backend import Connection, is_postgres, placeholders, sqlite_path
from db.errors import DatabaseBusy, PlaceTaken, StaleWrite, refuse_newer_schema
from db import postgres_backend, sqlite_backend
from db.postgres_backend import PostgresConnection
from db.schema import LATEST, MIGRATIONS
from db.sqlite_backend import SqliteConnection
from db.watch import Listener, WatchedConnection


BUSY_TIMEOUT_MS = 5000


def is_busy(error: BaseException) -> bool:
    """Whether `error` is the database giving up on what another program holds (SQLite: a
    file locked past the busy timeout; PostgreSQL: a lock timeout, a serialization failure,
    a deadlock): nothing of the statement or its transaction was written."""
    return sqlite_backend.is_busy(error) or postgres_backend.is_busy(error)


def _encoded(c: "GameWrite") -> str:
    """One change as the JSON row the single write statement reads."""
    return json.dumps(
        [c.game_id, c.from_version, c.from_status, c.version, c.status, c.state, c.result,
         c.config, c.at, [[e.seq, e.seat, e.user_id, e.command, e.events, e.at] for e in c.log],
         c.stop_waiting, [[w.seat, w.since, w.deadline] for w in c.start_waiting],
         [[r.seat, r.kind, r.due] for r in c.reminders], c.from_stamp])


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
    stamp: int = 0  # changes made beside the moves (a seat handed over, a deadline moved); see GameWrite


@dataclass(frozen=True)
class SeatRow:
    """A player sitting in a game; `options` is JSON text (team, deck ...)."""

    game_id: int
    seat: str
    user_id: int
    name: str
    options: str
    joined_at: float
    left_by: Optional[int] = None  # the person who left this seat to the computer (R61)


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

    The write applies only if the game is still at `from_version`, `from_status` and
    `from_stamp` (no seat handed over, no deadline moved since the writer read it).
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
    from_stamp: int = 0


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
class LongWait:
    """A seat an active game has waited on since `since`, with the game's guild, version and
    stamp as stored (to tell whether a copy of the game in memory is still the game)."""

    game_id: int
    guild_id: Optional[int]
    seat: str
    since: float
    version: int
    stamp: int


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


@dataclass(frozen=True)
class Settings:
    """Settings read together: users' (user -> key -> JSON text), their vacations (user ->
    (starts, ends), by start), one guild's (key -> JSON text or None) and the users' calls
    (user -> (every, channel id, last call); only those who chose calls, P24)."""

    users: dict[int, dict[str, str]]
    vacations: dict[int, list[tuple[float, float]]]
    guild: dict[str, Optional[str]]
    calls: dict[int, tuple[float, Optional[int], Optional[float]]] = field(default_factory=dict)


_GAME_COLUMNS = ", ".join(GameRow.__dataclass_fields__)

class Database:
    """An open game database. Use `await Database.open(url)`; close with `close()`.

    Every writer holds `_write_lock`, so a writer that needs a transaction never has
    another writer's statement of this process land inside it.
    """

    def __init__(self, conn: Connection):
        self._conn = WatchedConnection(conn)
        self._write_lock = asyncio.Lock()
        self._queue: list[tuple[GameWrite, str, asyncio.Future]] = []
        self._flusher: Optional[asyncio.Task] = None

    @classmethod
    async def open(cls, url: str, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> "Database":
        """Open (creating if needed) and migrate the database at `url`: a file path or
        sqlite:///path (SQLite), or postgresql://... (PostgreSQL). On SQLite a statement
        waits up to `busy_timeout_ms` for another process to let go of the file."""
        if is_postgres(url):
            conn: Connection = await PostgresConnection.open(url)
        else:
            conn = await SqliteConnection.open(sqlite_path(url), busy_timeout_ms)
        try:
            await migrate(conn)
            await conn.prepare_writes()
        except BaseException as error:
            await conn.close()
            if is_busy(error):
                raise DatabaseBusy(f"{url} is held by another program (waited {busy_timeout_ms / 1000:g} s)") from error
            raise
        return cls(conn)

    def watch(self, listener: Listener) -> Callable[[], None]:
        """Tell `listener` about every statement sent from now on (db.watch.Statement);
        returns what stops it."""
        self._conn.listeners.append(listener)
        return lambda: self._conn.listeners.remove(listener)

    @property
    def engine(self) -> str:
        """"sqlite" or "postgresql"."""
        return self._conn.name

    @property
    def integrity_errors(self) -> tuple[type[BaseException], ...]:
        """What the engine raises when a constraint (unique, foreign key) refuses a write."""
        return self._conn.integrity_errors

    async def close(self) -> None:
        """Close the connection (waits for any write in progress)."""
        if self._flusher is not None:
            await self._flusher
        async with self._write_lock:
            await self._conn.close()

    async def pragma(self, name: str):
        """The value of a read-only SQLite pragma such as `integrity_check` or `user_version`."""
        return await self._conn.pragma(name)

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
                return await self._conn.insert(
                    "INSERT INTO games (ruleset, guild_id, channel_id, thread_id, created_by, config,"
                    " seed, created_at, updated_at, turn_limit, remind_after)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (ruleset, guild_id, channel_id, thread_id, created_by, config, seed, at, at,
                     turn_limit, remind_after))
            except self._conn.integrity_errors as error:
                raise PlaceTaken(f"channel {channel_id} thread {thread_id} has a live game") from error

    async def game(self, game_id: int) -> Optional[GameRow]:
        """The game with this id, or None."""
        rows = await self._conn.fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return GameRow(*rows[0]) if rows else None

    async def live_game_in(self, channel_id: int, thread_id: Optional[int] = None) -> Optional[GameRow]:
        """The lobby or active game in this channel (and thread), or None."""
        rows = await self._conn.fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND IFNULL(thread_id, 0) = ?"
            " AND status IN ('lobby', 'active')", (channel_id, thread_id or 0))
        return GameRow(*rows[0]) if rows else None

    async def last_started_in(self, channel_id: int, thread_id: Optional[int] = None) -> Optional[int]:
        """The id of the newest game dealt in this channel (and thread), running or not, or None."""
        rows = await self._conn.fetch(
            "SELECT id FROM games WHERE channel_id = ? AND IFNULL(thread_id, 0) = ? AND state IS NOT NULL"
            " ORDER BY id DESC LIMIT 1", (channel_id, thread_id or 0))
        return rows[0][0] if rows else None

    async def started_game_ids(self) -> list[int]:
        """Ids of every game that has a state (started at some point), oldest first."""
        rows = await self._conn.fetch("SELECT id FROM games WHERE state IS NOT NULL ORDER BY id")
        return [r[0] for r in rows]

    async def seats(self, game_id: int) -> list[SeatRow]:
        """The seats of a game, in seat order."""
        rows = await self._conn.fetch(
            "SELECT game_id, seat, user_id, name, options, joined_at, left_by FROM seats"
            " WHERE game_id = ? ORDER BY seat", (game_id,))
        return [SeatRow(*r) for r in rows]

    async def waits(self, game_id: int) -> list[Wait]:
        """The seats a game is waiting on."""
        rows = await self._conn.fetch(
            "SELECT seat, since, deadline FROM awaited WHERE game_id = ? ORDER BY seat", (game_id,))
        return [Wait(*r) for r in rows]

    async def add_seat(self, game_id: int, seat: str, user_id: int, name: str, options: str,
                       at: float) -> None:
        """Seat a user in a game still in the lobby. Raises StaleWrite if it is not."""
        await self._change_one(
            "INSERT INTO seats (game_id, seat, user_id, name, options, joined_at)"
            " SELECT id, ?, ?, ?, ?, ? FROM games WHERE id = ? AND status = 'lobby'",
            (seat, user_id, name, options, at, game_id), f"game {game_id} is not in the lobby")

    async def _change_one(self, sql: str, params: tuple, refused: str) -> None:
        """Run one guarded write that must change exactly one row; StaleWrite(`refused`) if not."""
        async with self._write_lock:
            changed = await self._conn.execute(sql, params)
        if changed != 1:
            raise StaleWrite(refused)

    async def set_seat_options(self, game_id: int, user_id: int, options: str) -> None:
        """Replace a seated user's options in a game still in the lobby, in one statement.
        Raises StaleWrite if there is no such seat in a lobby."""
        await self._change_one(
            "UPDATE seats SET options = ? WHERE game_id = ? AND user_id = ?"
            " AND (SELECT status FROM games WHERE id = ?) = 'lobby'",
            (options, game_id, user_id, game_id), f"game {game_id} has no such seat in the lobby")

    async def hand_seat(self, game_id: int, seat: str, leaver: int, user_id: int, name: str, options: str) -> int:
        """Give the seat `leaver` holds in a running game to another user (a player who
        left, to the computer); `leaver` is kept as `left_by`. In the same transaction the
        game's stamp moves on, so every copy of the game read before is refused at its
        next write; returns the new stamp. Raises StaleWrite if the game is not running or
        `leaver` does not hold that seat."""
        async with self._write_lock, self._conn.transaction():
            handed = await self._conn.execute(
                "UPDATE seats SET left_by = user_id, user_id = ?, name = ?, options = ?"
                " WHERE game_id = ? AND seat = ? AND user_id = ? AND (SELECT status FROM games WHERE id = ?) = 'active'",
                (user_id, name, options, game_id, seat, leaver, game_id))
            if handed != 1:
                raise StaleWrite(f"game {game_id} has no seat {seat} of {leaver} in play")
            return (await self._conn.fetch(
                "UPDATE games SET stamp = stamp + 1 WHERE id = ? RETURNING stamp", (game_id,)))[0][0]

    async def remove_seat(self, game_id: int, user_id: int) -> bool:
        """Remove a user's seat from a game in the lobby. True if a seat was removed."""
        async with self._write_lock:
            removed = await self._conn.execute(
                "DELETE FROM seats WHERE game_id = ? AND user_id = ?"
                " AND (SELECT status FROM games WHERE id = ?) = 'lobby'",
                (game_id, user_id, game_id))
        return removed == 1

    async def log(self, game_id: int, after: int = 0) -> list[LogEntry]:
        """The command log of a game, oldest first, from sequence `after + 1`."""
        rows = await self._conn.fetch(
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
        stale: set[int] = set()
        try:
            stale = set(await self._conn.apply_game_writes("[" + ",".join(text for _, text, _ in batch) + "]"))
        except (StaleWrite, *self._conn.integrity_errors) as error:
            if len(batch) > 1:  # find the culprit: commit one by one
                for item in batch:
                    await self._commit_batch([item])
                return
            outcome = error
        except Exception as error:
            outcome = error
        for position, (_, _, future) in enumerate(batch):
            if future.done():
                continue
            if position in stale:
                future.set_exception(StaleWrite("the game moved on"))
            elif outcome is None:
                future.set_result(None)
            else:
                future.set_exception(outcome)

    # ---- async turns -------------------------------------------------------------

    async def awaited_games(self, user_id: int) -> list[AwaitedGame]:
        """Active games, in any guild, waiting on this user; longest waiting first."""
        rows = await self._conn.fetch(
            "SELECT g.id, g.ruleset, g.guild_id, g.channel_id, g.thread_id, g.version,"
            " a.seat, a.since, a.deadline"
            " FROM seats s JOIN awaited a ON a.game_id = s.game_id AND a.seat = s.seat"
            " JOIN games g ON g.id = s.game_id"
            " WHERE s.user_id = ? AND g.status = 'active' ORDER BY a.since, g.id", (user_id,))
        return [AwaitedGame(*r) for r in rows]

    async def long_waits(self, before: float, users_from: int) -> list[LongWait]:
        """Waits begun at or before `before` in active games, on seats held by users numbered
        `users_from` or more (the service's computer players); oldest first."""
        rows = await self._conn.fetch(
            "SELECT a.game_id, g.guild_id, a.seat, a.since, g.version, g.stamp FROM awaited a"
            " JOIN seats s ON s.game_id = a.game_id AND s.seat = a.seat JOIN games g ON g.id = a.game_id"
            " WHERE a.since <= ? AND s.user_id >= ? AND g.status = 'active' ORDER BY a.since, a.game_id, a.seat",
            (before, users_from))
        return [LongWait(*r) for r in rows]

    async def due_reminders(self, now: float) -> list[DueReminder]:
        """Unsent reminders due at or before `now`, oldest first."""
        rows = await self._conn.fetch(
            "SELECT r.id, r.game_id, r.seat, r.kind, r.due, s.user_id, g.guild_id, g.channel_id,"
            " g.thread_id, r.attempts FROM reminders r"
            " JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
            " JOIN games g ON g.id = r.game_id"
            " WHERE r.sent_at IS NULL AND r.due <= ? AND g.status = 'active' ORDER BY r.due, r.id",
            (now,))
        return [DueReminder(*r) for r in rows]

    async def mark_reminders_sent(self, ids: list[int], at: float) -> None:
        """Record that these reminders went out."""
        if not ids:
            return
        async with self._write_lock:
            await self._conn.execute(
                f"UPDATE reminders SET sent_at = ? WHERE id IN ({placeholders(len(ids))})", (at, *ids))

    async def mark_reminders_failed(self, ids: list[int], reason: str, at: float,
                                    retry_at: Optional[float]) -> None:
        """Record a failed delivery: with `retry_at` the reminders are due again then (one
        more attempt counted); without, they are dropped (marked sent, with the reason)."""
        if not ids:
            return
        again = ("due = ?, sent_at = NULL", retry_at) if retry_at is not None else ("sent_at = ?", at)
        async with self._write_lock:
            await self._conn.execute(
                f"UPDATE reminders SET attempts = attempts + 1, failure = ?, {again[0]}"
                f" WHERE id IN ({placeholders(len(ids))})", (reason, again[1], *ids))

    async def reminder_attempts(self, ids: list[int]) -> dict[int, tuple[int, Optional[str], Optional[float]]]:
        """id -> (attempts, failure, sent_at) of these reminders."""
        rows = await self._conn.fetch(
            f"SELECT id, attempts, failure, sent_at FROM reminders WHERE id IN ({placeholders(len(ids))})",
            ids) if ids else []
        return {r[0]: (r[1], r[2], r[3]) for r in rows}

    # ---- settings ----------------------------------------------------------------

    async def guild_setting(self, guild_id: int, key: str) -> Optional[str]:
        """A guild's setting (JSON text) or None."""
        rows = await self._conn.fetch(
            "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key))
        return rows[0][0] if rows else None

    async def set_guild_setting(self, guild_id: int, key: str, value: Optional[str]) -> None:
        """Set (or with None, clear) a guild's setting."""
        await self._set("guild_settings", "guild_id", guild_id, key, value)

    async def user_setting(self, user_id: int, key: str) -> Optional[str]:
        """A user's setting (JSON text) or None."""
        rows = await self._conn.fetch(
            "SELECT value FROM user_settings WHERE user_id = ? AND key = ?", (user_id, key))
        return rows[0][0] if rows else None

    async def set_user_setting(self, user_id: int, key: str, value: Optional[str]) -> None:
        """Set (or with None, clear) a user's setting."""
        await self._set("user_settings", "user_id", user_id, key, value)

    async def settings_of(self, user_ids: list[int], guild_id: Optional[int] = None,
                          guild_keys: tuple[str, ...] = ()) -> Settings:
        """In one statement: every setting, vacation and call choice of these users, and these
        settings of a guild (a key it lacks is None)."""
        parts, params = [], []
        if user_ids:
            users = placeholders(len(user_ids))
            parts += [f"SELECT 0, user_id, key, value, NULL, NULL FROM user_settings WHERE user_id IN ({users})",
                      f"SELECT 1, user_id, NULL, NULL, starts, ends FROM vacations WHERE user_id IN ({users})",
                      "SELECT 3, user_id, CAST(channel_id AS TEXT), NULL, every, last_call FROM calls"
                      f" WHERE user_id IN ({users})"]
            params += [*user_ids, *user_ids, *user_ids]
        if guild_id is not None and guild_keys:
            parts.append("SELECT 2, guild_id, key, value, NULL, NULL FROM guild_settings"
                         f" WHERE guild_id = ? AND key IN ({placeholders(len(guild_keys))})")
            params += [guild_id, *guild_keys]
        found = Settings({u: {} for u in user_ids}, {u: [] for u in user_ids},
                         {key: None for key in guild_keys} if guild_id is not None else {})
        rows = await self._conn.fetch(" UNION ALL ".join(parts) + " ORDER BY 1, 2, 5", params) if parts else []
        for part, owner, key, value, starts, ends in rows:
            if part == 0:
                found.users[owner][key] = value
            elif part == 1:
                found.vacations[owner].append((starts, ends))
            elif part == 3:
                found.calls[owner] = (starts, None if key is None else int(key), ends)
            else:
                found.guild[key] = value
        return found

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

    # ---- several processes -------------------------------------------------------------

    async def claim_lease(self, name: str, holder: str, now: float, ttl: float) -> bool:
        """Take, or renew, the lease `name` for `holder` until `now + ttl`, in one statement.

        True if `holder` holds it now; False while another holder's lease runs. Processes
        sharing a database use it to run a clock (reminders, league rounds) in one of them.
        """
        async with self._write_lock:
            changed = await self._conn.execute(
                "INSERT INTO leases (name, holder, expires) VALUES (?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires = excluded.expires"
                " WHERE leases.holder = excluded.holder OR leases.expires <= ?", (name, holder, now + ttl, now))
        return changed == 1

    async def release_lease(self, name: str, holder: str) -> None:
        """Let go of the lease `name` if `holder` holds it."""
        async with self._write_lock:
            await self._conn.execute("DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder))

    async def release_leases(self, holder: str) -> None:
        """Let go of every lease `holder` holds (it is shutting down)."""
        async with self._write_lock:
            await self._conn.execute("DELETE FROM leases WHERE holder = ?", (holder,))


async def stamp_games(conn: Connection, game_ids: set[int]) -> None:
    """Move these games' stamps on, inside a change made beside their moves (a deadline
    moved): every copy of them read before is refused at its next write (GameWrite)."""
    if game_ids:
        ids = sorted(game_ids)
        await conn.execute(f"UPDATE games SET stamp = stamp + 1 WHERE id IN ({placeholders(len(ids))})", ids)


class Store:
    """Queries over one part of the schema, sharing an open `Database`'s connection and
    write lock, so its writes never interleave with a game's write."""

    def __init__(self, database: Database):
        self._db = database
        self._conn = database._conn
        self._lock = database._write_lock

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        """One transaction under the write lock; rolled back on any error."""
        async with self._lock, self._conn.transaction():
            yield


async def migrate(conn: Connection, target: int = LATEST) -> int:
    """Apply the migrations the database lacks, each in its own transaction.

    Returns the version reached. Raises SchemaTooNew for a database from a newer release.
    """
    version = refuse_newer_schema(await conn.schema_version())
    for number in range(version + 1, target + 1):
        await conn.apply_migration(number, MIGRATIONS[number - 1])
        version = number
    return version
