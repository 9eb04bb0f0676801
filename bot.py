"""Ready Room: the Discord game master (and, with --local, the same game in a terminal).

    DISCORD_TOKEN=... python bot.py       run the bot
    python bot.py --local                 play in this terminal, no Discord needed

Configuration comes from the environment: DISCORD_TOKEN, READY_ROOM_DB (default
ready_room.db; a file path, sqlite:///path, or postgresql://... for a PostgreSQL server
several processes can share), READY_ROOM_DEV_GUILD (a server id: commands are synced
there on start), READY_ROOM_LOG_LEVEL (default INFO), READY_ROOM_SHARDS (how many
shards the bot has in all) and READY_ROOM_SHARD_IDS (the shards this process runs, such
as 0,1 or 2-3; default all of them), READY_ROOM_METRICS_PORT (serve Prometheus metrics on
that port; off when unset) and READY_ROOM_METRICS_HOST (default 0.0.0.0). See docs/scaling.md.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import time
from dataclasses import dataclass
from typing import Callable, Optional

import discord
from discord.ext import commands

from cogs.buttons import ITEMS
from cogs.lobby import ITEMS as TABLE_ITEMS
from cogs.options import CheckedTree
from cogs.replies import answering_busy
from collector import Collector
from engine.service import GameService
from engine.service.rulesets import RULESETS
from letgo import command_call, dynamic_call, sent_view
from metrics import Metrics

log = logging.getLogger("ready_room")
CLOCK_LEASE_ROUNDS = 3  # a clock's lease lasts 3 reminder intervals: a dead holder's clock stops that long
EXTENSIONS = ("cogs.game", "cogs.play", "cogs.turns", "cogs.computer_turns", "cogs.admin", "cogs.league", "cogs.rules",
              "cogs.players", "cogs.teams", "cogs.campaign", "cogs.privacy", "cogs.replay")

NO_TOKEN = """No DISCORD_TOKEN is set.

To run the bot on Discord:
  1. Open https://discord.com/developers/applications, create an application, add a Bot,
     and copy its token.
  2. Invite it: OAuth2 > URL Generator, scopes "bot" and "applications.commands",
     permissions Send Messages, Send Messages in Threads, Create Public Threads,
     Attach Files.
  3. DISCORD_TOKEN=<token> READY_ROOM_DEV_GUILD=<your server id> python bot.py
     then mention the bot with "sync" once to publish the slash commands everywhere.

To play without Discord, right here in the terminal:
  python bot.py --local              (you against the computer; --level easy|normal|hard)
  python bot.py --local --hotseat    (two people at one keyboard)
  python bot.py --local --players 3  (you against two computer players; --mode teams: 2 vs 2)
"""


def shard_of(guild_id: Optional[int], shard_count: int) -> int:
    """The shard Discord sends a guild's events to, so the shard that owns its games (a
    game outside any guild, such as local play, belongs to shard 0)."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def parse_shard_ids(text: str, shard_count: int) -> tuple[int, ...]:
    """"0,2" or "1-3" as shard ids; ValueError, with what is wrong, for ids outside 0..count-1."""
    ids: list[int] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        first, _, last = part.partition("-")
        ids += range(int(first), int(last or first) + 1)
    wrong = [i for i in ids if not 0 <= i < shard_count]
    if wrong or not ids:
        raise ValueError(f"READY_ROOM_SHARD_IDS must name shards from 0 to {shard_count - 1}, not {text!r}")
    return tuple(sorted(set(ids)))


def parse_port(text: Optional[str]) -> Optional[int]:
    """READY_ROOM_METRICS_PORT as a port (None when unset or empty); ValueError if it is not one."""
    if not text or not text.strip():
        return None
    if not text.strip().isdigit() or not 1 <= int(text) <= 65535:
        raise ValueError(f"READY_ROOM_METRICS_PORT must be a port number from 1 to 65535, not {text!r}")
    return int(text)


@dataclass(frozen=True)
class Config:
    """Settings read from the environment."""

    token: Optional[str]
    database: str
    dev_guild: Optional[int]
    log_level: str = "INFO"
    reminder_interval: float = 60.0
    shard_count: Optional[int] = None  # None: one unsharded connection to Discord
    shard_ids: Optional[tuple[int, ...]] = None  # None with a shard count: every shard
    metrics_port: Optional[int] = None  # None: no metrics; 0: any free port (tests)
    metrics_host: str = "0.0.0.0"

    @classmethod
    def from_env(cls, env=os.environ) -> "Config":
        """Read DISCORD_TOKEN, READY_ROOM_DB, READY_ROOM_DEV_GUILD, READY_ROOM_LOG_LEVEL,
        READY_ROOM_SHARDS, READY_ROOM_SHARD_IDS, READY_ROOM_METRICS_PORT and READY_ROOM_METRICS_HOST
        (ValueError, saying what is wrong, if the shards or the port make no sense)."""
        guild = env.get("READY_ROOM_DEV_GUILD")
        shards = env.get("READY_ROOM_SHARDS")
        count = int(shards) if shards else None
        if count is not None and count < 1:
            raise ValueError(f"READY_ROOM_SHARDS must be 1 or more, not {shards!r}")
        ids = env.get("READY_ROOM_SHARD_IDS")
        if ids and count is None:
            raise ValueError("READY_ROOM_SHARD_IDS needs READY_ROOM_SHARDS (how many shards there are in all)")
        return cls(token=env.get("DISCORD_TOKEN") or None, database=env.get("READY_ROOM_DB", "ready_room.db"),
                   dev_guild=int(guild) if guild else None, log_level=env.get("READY_ROOM_LOG_LEVEL", "INFO"),
                   shard_count=count, shard_ids=parse_shard_ids(ids, count) if ids else None,
                   metrics_port=parse_port(env.get("READY_ROOM_METRICS_PORT")),
                   metrics_host=env.get("READY_ROOM_METRICS_HOST") or "0.0.0.0")

    @property
    def own_shards(self) -> tuple[int, ...]:
        """The shards this process runs (unsharded: the one shard 0)."""
        return self.shard_ids or tuple(range(self.shard_count or 1))

    def owns(self, guild_id: Optional[int]) -> bool:
        """Whether this process runs the shard of that guild (and so its games)."""
        return shard_of(guild_id, self.shard_count or 1) in self.own_shards


class ReadyRoom(commands.Bot):
    """The bot: one GameService over the configured database, the game cogs and buttons."""

    def __init__(self, config: Config, *, clock: Optional[Callable[[], float]] = None):
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True  # "@Ready Room sync" (a mention needs no content intent)
        shards = {} if config.shard_count is None else {
            "shard_count": config.shard_count, "shard_ids": list(config.shard_ids) if config.shard_ids else None}
        self.metrics = None if config.metrics_port is None else Metrics(
            lambda guild_id: shard_of(guild_id, config.shard_count or 1))
        traced = {} if self.metrics is None else {"http_trace": self.metrics.trace()}
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, tree_cls=CheckedTree,
                         allowed_mentions=discord.AllowedMentions.none(), **shards, **traced)
        self.config = config
        self.clock = clock
        self.service: Optional[GameService] = None
        self.last_acted: dict[tuple[int, int], float] = {}  # (game, user) -> when they last acted (this process)
        self.collector = Collector()  # short garbage-collection pauses (collector.py)
        self._collecting: Optional[asyncio.Task] = None
        self._connection.store_view = sent_view(self._connection.store_view)  # cycles cut (letgo.py)
        views = self._connection._view_store
        minding = self.collector.minding  # the walk of everything waits while any runs
        views.schedule_dynamic_item_call = minding(dynamic_call(answering_busy(views.schedule_dynamic_item_call)))
        self.tree._call = minding(command_call(self.tree._call))

    def dispatch(self, event_name: str, /, *args, **kwargs) -> None:
        """discord.py's dispatch of a gateway event; an interaction also tells the collector
        that players are waiting on the loop (its walk of everything waits, collector.py)."""
        if event_name == "interaction":
            self.collector.busy()
        super().dispatch(event_name, *args, **kwargs)

    async def runs_clock(self, name: str) -> bool:
        """Whether this process runs the clock `name` (reminders, league rounds) for its
        shards this round: it must hold the database lease of each of its shards, so that
        of several processes sharing a database (or a restarted one beside its old self)
        only one does. A lease outlives CLOCK_LEASE_ROUNDS rounds, then another may take it."""
        count = self.config.shard_count or 1
        return await self.service.claim_clocks([f"{name}:{shard}/{count}" for shard in self.config.own_shards],
                                               CLOCK_LEASE_ROUNDS * self.config.reminder_interval)

    def now(self) -> float:
        """The bot's clock (the tests' hand-moved one, or the wall clock)."""
        return self.clock() if self.clock else time.time()

    async def setup_hook(self) -> None:
        """Open and migrate the database, load the cogs, register the persistent buttons."""
        options = {"clock": self.clock} if self.clock else {}
        self.service = await GameService.open(self.config.database, **options)
        if self.metrics is not None:
            self.service.db.watch(self.metrics.statement)
            port = self.metrics.start(self.config.metrics_port, self.config.metrics_host, self.service.hot_guilds)
            log.info("metrics served on %s:%d/metrics", self.config.metrics_host, port)
        for ruleset in RULESETS.values():  # parse content packs now, off the loop, not in the first game
            if "pack" in ruleset.default_options:
                await asyncio.to_thread(ruleset.load_pack, ruleset.default_options["pack"])
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(*ITEMS, *TABLE_ITEMS)
        self._collecting = asyncio.create_task(self.collector.run())  # start-up's objects frozen first
        if self.config.dev_guild:
            guild = discord.Object(self.config.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development guild %s", len(synced), self.config.dev_guild)

    async def close(self) -> None:
        """Log out, stop serving metrics and the collector's rounds, then close the database."""
        await super().close()
        if self.metrics is not None:
            await self.metrics.stop()
        if self._collecting is not None:
            self._collecting.cancel()
            self._collecting = None
        if self.service is not None:
            await self.service.close()
            self.service = None


class ShardedReadyRoom(ReadyRoom, commands.AutoShardedBot):
    """The bot running some (or all) of its shards in this process: discord.py's
    AutoShardedBot, one gateway connection per shard."""


def make_bot(config: Config, *, clock: Optional[Callable[[], float]] = None) -> ReadyRoom:
    """The bot for this configuration: sharded when READY_ROOM_SHARDS is set."""
    return (ReadyRoom if config.shard_count is None else ShardedReadyRoom)(config, clock=clock)


def _renegades_options(args: argparse.Namespace) -> dict:
    """The Renegades set-up asked for on the command line (empty: the defaults)."""
    from engine.service.console import renegades_table
    table = renegades_table(args.mode)
    options: dict = {"quick": True, **table} if args.quick else dict(table)
    if args.boards != "fixed":
        options["boards"] = args.boards
    if args.world_cards is not None:
        options["world_cards"] = args.world_cards
    if args.draft:
        options["draft"] = True
    return options


def main(argv: Optional[list[str]] = None) -> int:
    """Run the bot, or local play with --local."""
    parser = argparse.ArgumentParser(description="Ready Room: a game master for Star Trek: Away Missions")
    parser.add_argument("--local", action="store_true", help="play in this terminal instead of on Discord")
    parser.add_argument("--hotseat", action="store_true", help="local: two people take turns at the keyboard")
    parser.add_argument("--pictures", default="pictures", help="local: folder for board and dice pictures")
    parser.add_argument("--seed", type=int, default=None, help="local: dice seed, for a repeatable game")
    parser.add_argument("--ruleset", default="awaymissions", choices=sorted(RULESETS),
                        help="local: the game to play (renegades: see --quick, --boards, --world-cards)")
    parser.add_argument("--commander", help="local: your alternative commander (e.g. LINDQ)")
    parser.add_argument("--swap", action="append", default=[], metavar="OLD=NEW",
                        help="local: swap a mission specialist of your team (repeatable)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2,
                        help="local: players at the table (3 or 4: every player for themselves, six boards)")
    parser.add_argument("--mode", choices=("free-for-all", "teams", "solo", "co-op", "versus"), default=None,
                        help="local: Away Missions free-for-all or teams (2 vs 2, you and the third seat "
                             "against the other two); Renegades solo (you against the NPC Coalition), co-op "
                             "(two Renegade ships together; the other is the computer's, or a second player's "
                             "with --hotseat) or versus (against the Coalition, the default)")
    parser.add_argument("--level", choices=("easy", "normal", "hard"), default="normal",
                        help="local: how hard the computer opponent thinks (default normal)")
    parser.add_argument("--explain", action="store_true",
                        help="local: after each computer move, its 3 best candidates and estimated win rates")
    parser.add_argument("--quick", action="store_true",
                        help="local Renegades: the quicker game, every ship starting docked on the mission planet")
    parser.add_argument("--boards", choices=("fixed", "built"), default="fixed",
                        help="local Renegades: the fixed boards, or both built from location cards")
    parser.add_argument("--world-cards", type=int, default=None,
                        help="local Renegades: world cards, the game's timer (6-10; 5 or 6 with --quick)")
    parser.add_argument("--coalition-crew", default=None, metavar="CREW",
                        help="local Renegades solo: the NPC Coalition ship's five crew, one per station, by code "
                             "or name (like 'SOLANE KOVIN ILDA NOOR FENWICK'; default: the standard crew)")
    parser.add_argument("--draft", action="store_true",
                        help="local Renegades: pick the crews one at a time at the prompt (solo: the "
                             "Coalition's too; the computer crew picks its own)")
    args = parser.parse_args(argv)
    try:
        config = Config.from_env()
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.local:
        from engine.service.console import play_local, table_problem
        problem = table_problem(args.ruleset, args.mode, args.players)
        if problem:
            print(problem)
            return 2
        return asyncio.run(play_local(config.database, args.pictures, hotseat=args.hotseat, seed=args.seed,
                                      commander=args.commander, swaps=args.swap, ruleset=args.ruleset,
                                      players=args.players, teams=args.mode == "teams", level=args.level,
                                      explain=args.explain, options=_renegades_options(args),
                                      coalition_crew=args.coalition_crew))
    if not config.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    make_bot(config).run(config.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
