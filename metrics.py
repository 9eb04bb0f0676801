"""What operators see: the bot's metrics in the Prometheus text format, on a port of their choosing.

Off unless READY_ROOM_METRICS_PORT is set (bot.Config). When on, each bot process serves
http://<host>:<port>/metrics (prometheus_client's own server, in a thread of its own, so a
scrape is answered even while the event loop is busy) with:

- ready_room_games_in_memory{shard}: games the service holds in memory, by the shard of their guild;
- ready_room_actions_total{shard,outcome} and ready_room_action_seconds{shard}: players' actions
  (a panel click or a typed command) from the moment the bot takes them up to the answer, the
  table message included; `rate()` of the counter is actions per second;
- ready_room_discord_requests_total{kind,status}: every HTTP exchange with Discord (each retry
  too) by kind (method and route, ids left out) and status, taken from aiohttp's tracing, which
  discord.py offers as its `http_trace` option; ready_room_discord_rate_limited_total{kind,scope}
  counts the 429 answers among them;
- ready_room_event_loop_lag_seconds: how late a timer set for every `tick` seconds wakes up;
- ready_room_db_statement_seconds{engine,kind}: each database statement's time (db.watch).

Processes are told apart by their scrape target (each has its own port); REST requests, the
event loop and the database connection belong to a process, not a shard, so they have no
shard label. See docs/scaling.md.
"""
from __future__ import annotations

import asyncio
import re
from typing import Callable, Iterable, Optional

import aiohttp
import prometheus_client
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from db.watch import Statement

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
STATEMENT_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)
_SNOWFLAKE = re.compile(r"\d+")
_NAMED_AFTER = {"reactions": "{emoji}"}  # a path part that names something: left out like an id


def request_kind(method: str, path: str) -> str:
    """"PATCH /channels/{id}/messages/{id}" for "/api/v10/channels/7/messages/9": the route of a
    Discord request with its ids, interaction tokens and emoji left out (a handful of kinds)."""
    parts = path.split("?", 1)[0].strip("/").split("/")
    if parts[:1] == ["api"]:
        parts = parts[2:]  # the API version
    kind = []
    for n, part in enumerate(parts):
        before = parts[n - 1] if n else ""
        if _SNOWFLAKE.fullmatch(part):
            part = "{id}"
        elif n >= 2 and parts[n - 2] in ("webhooks", "interactions"):
            part = "{token}"
        elif before in _NAMED_AFTER:
            part = _NAMED_AFTER[before]
        kind.append(part)
    return f"{method} /" + "/".join(kind)


class Metrics:
    """One process's metrics: record with the methods below, serve with `start`."""

    def __init__(self, shard_of: Callable[[Optional[int]], int], *, tick: float = 1.0):
        self.shard_of = shard_of
        self.tick = tick
        self.registry = CollectorRegistry()
        prometheus_client.ProcessCollector(registry=self.registry)  # CPU seconds, memory, open files
        on = {"registry": self.registry}
        self.games = Gauge("ready_room_games_in_memory", "Games held in memory, by the shard of their guild",
                           ["shard"], **on)
        self.actions = Counter("ready_room_actions", "Players' actions (panel clicks and typed commands)",
                               ["shard", "outcome"], **on)
        self.action_seconds = Histogram("ready_room_action_seconds", "From taking up a player's action to "
                                        "answering it, the table message included", ["shard"],
                                        buckets=LATENCY_BUCKETS, **on)
        self.requests = Counter("ready_room_discord_requests", "HTTP requests to Discord, by route and status",
                                ["kind", "status"], **on)
        self.rate_limited = Counter("ready_room_discord_rate_limited", "429 answers from Discord, by route "
                                    "and the scope Discord gave", ["kind", "scope"], **on)
        self.lag = Histogram("ready_room_event_loop_lag_seconds", "How late a periodic timer wakes up",
                             buckets=LAG_BUCKETS, **on)
        self.statement_seconds = Histogram("ready_room_db_statement_seconds", "Database statements' time",
                                           ["engine", "kind"], buckets=STATEMENT_BUCKETS, **on)
        self._shards_held: set[str] = set()
        self._server = None
        self.port: Optional[int] = None  # the port served, once started
        self._ticker: Optional[asyncio.Task] = None

    # ---- recording ------------------------------------------------------------------

    def acted(self, guild_id: Optional[int], outcome: str, seconds: float) -> None:
        """A player's action taken up and answered: "done", "refused" or "failed"."""
        shard = str(self.shard_of(guild_id))
        self.actions.labels(shard, outcome).inc()
        self.action_seconds.labels(shard).observe(seconds)

    def statement(self, told: Statement) -> None:
        """A database statement sent (a db.watch listener)."""
        self.statement_seconds.labels(told.engine, told.kind).observe(told.seconds)

    def answered(self, method: str, path: str, status: int, scope: Optional[str] = None) -> None:
        """Discord answered a request (`status` 0: no answer, the connection failed)."""
        kind = request_kind(method, path)
        self.requests.labels(kind, str(status or "error")).inc()
        if status == 429:
            self.rate_limited.labels(kind, scope or "unknown").inc()

    def held(self, guild_ids: Iterable[Optional[int]]) -> None:
        """The guilds of the games in memory now (one entry per game)."""
        counts: dict[str, int] = {}
        for guild_id in guild_ids:
            shard = str(self.shard_of(guild_id))
            counts[shard] = counts.get(shard, 0) + 1
        for shard in self._shards_held - counts.keys():  # a shard with no game left reads 0, not its last count
            counts[shard] = 0
        self._shards_held |= counts.keys()
        for shard, count in counts.items():
            self.games.labels(shard).set(count)

    def trace(self) -> aiohttp.TraceConfig:
        """aiohttp tracing for discord.py's `http_trace` option: every answer Discord gives is counted."""
        config = aiohttp.TraceConfig()

        async def ended(session, context, params) -> None:
            self.answered(params.method, params.url.path, params.response.status,
                          params.response.headers.get("X-RateLimit-Scope"))

        async def failed(session, context, params) -> None:
            self.answered(params.method, params.url.path, 0)
        config.on_request_end.append(ended)
        config.on_request_exception.append(failed)
        return config

    # ---- serving --------------------------------------------------------------------

    def start(self, port: int, host: str, games: Callable[[], Iterable[Optional[int]]]) -> int:
        """Serve /metrics on `host:port` (port 0: any free port) and start the event-loop ticker,
        which also counts the games in memory (`games`: their guild ids) every tick, on the loop.
        Returns the port served. OSError with what went wrong when the port cannot be had."""
        try:
            self._server, _ = prometheus_client.start_http_server(port, host, registry=self.registry)
        except OSError as error:
            raise OSError(f"READY_ROOM_METRICS_PORT {port}: cannot serve metrics there ({error})") from error
        self._ticker = asyncio.get_running_loop().create_task(self._tick(games), name="metrics ticker")
        self.port = self._server.server_address[1]
        return self.port

    async def _tick(self, games: Callable[[], Iterable[Optional[int]]]) -> None:
        loop = asyncio.get_running_loop()
        while True:
            began = loop.time()
            await asyncio.sleep(self.tick)
            self.lag.observe(max(0.0, loop.time() - began - self.tick))
            self.held(games())

    async def stop(self) -> None:
        """Stop ticking and serving (the server's thread is waited for off the loop)."""
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        if self._server is not None:
            server, self._server = self._server, None
            await asyncio.to_thread(server.shutdown)
            server.server_close()
