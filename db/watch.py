"""Every statement the game store sends, told to whoever listens: what it was and how long it took.

`WatchedConnection` stands in front of a db.backend.Connection and passes everything through;
each statement (fetch, execute, insert, execute_many, a batch of game writes) is timed and
reported to the listeners as a `Statement`. The operators' metrics (metrics.py) and the test
that holds a move to a few statements (tests/test_statements.py) both listen here, so neither
patches a driver. With no listener a statement costs one clock read more.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Sequence

from db.backend import Connection

GAME_WRITES = "game writes"  # the kind of a batch of game writes (the commit of moves)


@dataclass(frozen=True)
class Statement:
    """One statement sent: the engine, its kind (SELECT, INSERT ... or "game writes"), its
    SQL (empty for game writes) and the seconds it took."""

    engine: str
    kind: str
    sql: str
    seconds: float


Listener = Callable[[Statement], None]


def kind_of(sql: str) -> str:
    """The first word of a statement, upper case: SELECT, INSERT, UPDATE, DELETE ..."""
    return sql.lstrip(" \n(").split(None, 1)[0].upper() if sql.strip() else "?"


class WatchedConnection:
    """A Connection whose statements are reported to `listeners` (see db.backend.Connection)."""

    def __init__(self, inner: Connection):
        self.inner = inner
        self.listeners: list[Listener] = []

    def __getattr__(self, name: str) -> Any:  # name, transaction(), migrations ...: the inner connection's
        return getattr(self.inner, name)

    async def _timed(self, kind: str, sql: str, sending: Awaitable) -> Any:
        began = time.perf_counter()
        try:
            return await sending
        finally:
            if self.listeners:
                told = Statement(self.inner.name, kind, sql, time.perf_counter() - began)
                for listener in self.listeners:
                    listener(told)

    async def fetch(self, sql: str, params: Sequence = ()) -> list[tuple]:
        return await self._timed(kind_of(sql), sql, self.inner.fetch(sql, params))

    async def execute(self, sql: str, params: Sequence = ()) -> int:
        return await self._timed(kind_of(sql), sql, self.inner.execute(sql, params))

    async def insert(self, sql: str, params: Sequence = ()) -> int:
        return await self._timed(kind_of(sql), sql, self.inner.insert(sql, params))

    async def execute_many(self, sql: str, rows: Sequence[Sequence]) -> None:
        return await self._timed(kind_of(sql), sql, self.inner.execute_many(sql, rows))

    async def apply_game_writes(self, batch: str) -> list[int]:
        return await self._timed(GAME_WRITES, "", self.inner.apply_game_writes(batch))
