"""The one small interface every query goes through, and the database URL that picks it.

The stores write their SQL once, with `?` placeholders, in the dialect SQLite and
PostgreSQL share; a `Connection` runs it on one engine. What the engines do differently
(column types, the schema version, the game write path, transactions, errors) lives in
the two implementations: db.sqlite_backend and db.postgres_backend.
"""
from __future__ import annotations

import contextlib
from typing import Protocol, Sequence

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(url: str) -> bool:
    """Whether a database URL names a PostgreSQL server (anything else is an SQLite file)."""
    return url.startswith(POSTGRES_SCHEMES)


def sqlite_path(url: str) -> str:
    """The file of an SQLite URL: `sqlite:///relative.db`, `sqlite:////abs.db` or a plain path."""
    return url[len("sqlite:///"):] if url.startswith("sqlite:///") else url


def placeholders(count: int) -> str:
    """`?, ?, ?` for an `IN (...)` list of `count` values."""
    return ", ".join("?" * count)


class Connection(Protocol):
    """An open database: statements, one transaction at a time, and the game write path."""

    name: str  # "sqlite" or "postgresql"
    integrity_errors: tuple[type[BaseException], ...]  # a constraint refused a write

    async def fetch(self, sql: str, params: Sequence = ()) -> list[tuple]:
        """Every row of a query, as tuples."""

    async def execute(self, sql: str, params: Sequence = ()) -> int:
        """Run one statement; returns how many rows it changed."""

    async def insert(self, sql: str, params: Sequence = ()) -> int:
        """Run an INSERT ... RETURNING id; returns the id."""

    async def execute_many(self, sql: str, rows: Sequence[Sequence]) -> None:
        """Run one statement for each row of parameters."""

    async def columns(self, table: str) -> list[str]:
        """The columns of a table, in their order."""

    async def ids_follow_copied_rows(self, table: str) -> None:
        """After rows were copied in with their ids, make new rows' ids come after them."""

    def transaction(self) -> contextlib.AbstractAsyncContextManager[None]:
        """Statements of this task inside the block commit together or not at all."""

    async def prepare_writes(self) -> None:
        """Make the game write path ready (once the migrations have run)."""

    async def apply_game_writes(self, batch: str) -> list[int]:
        """Apply a JSON array of game writes in one statement, each write whole or not at
        all. Returns the positions of the writes refused because their game is no longer
        at the expected version and status (the others are applied); or raises StaleWrite,
        writing nothing, if the engine can only refuse the batch as a whole."""

    async def schema_version(self) -> int:
        """The number of migrations applied."""

    async def apply_migration(self, number: int, sql: str) -> bool:
        """Apply migration `number` (written in SQLite's dialect) in one transaction, unless
        another process applied it meanwhile; True if this call applied it."""

    async def close(self) -> None:
        """Close the connection(s)."""
