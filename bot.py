"""Ready Room: the Discord game master (and, with --local, the same game in a terminal).

    DISCORD_TOKEN=... python bot.py       run the bot
    python bot.py --local                 play in this terminal, no Discord needed

Configuration comes from the environment: DISCORD_TOKEN, READY_ROOM_DB (default
ready_room.db), READY_ROOM_DEV_GUILD (a server id: commands are synced there on start),
READY_ROOM_LOG_LEVEL (default INFO).
"""
from __future__ import annotations

import argparse
import asyncio
import time
import gc
import logging
import os
import sys
from dataclasses import dataclass
from typing import Callable, Optional

import discord
from discord.ext import commands

from cogs.buttons import ITEMS
from cogs.lobby import ITEMS as TABLE_ITEMS
from engine.service import GameService
from engine.service.rulesets import RULESETS

log = logging.getLogger("ready_room")
EXTENSIONS = ("cogs.game", "cogs.play", "cogs.turns", "cogs.admin", "cogs.league", "cogs.rules", "cogs.players",
              "cogs.teams", "cogs.campaign")

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


@dataclass(frozen=True)
class Config:
    """Settings read from the environment."""

    token: Optional[str]
    database: str
    dev_guild: Optional[int]
    log_level: str = "INFO"
    reminder_interval: float = 60.0

    @classmethod
    def from_env(cls, env=os.environ) -> "Config":
        """Read DISCORD_TOKEN, READY_ROOM_DB, READY_ROOM_DEV_GUILD and READY_ROOM_LOG_LEVEL."""
        guild = env.get("READY_ROOM_DEV_GUILD")
        return cls(token=env.get("DISCORD_TOKEN") or None, database=env.get("READY_ROOM_DB", "ready_room.db"),
                   dev_guild=int(guild) if guild else None, log_level=env.get("READY_ROOM_LOG_LEVEL", "INFO"))


class ReadyRoom(commands.Bot):
    """The bot: one GameService over the configured database, the game cogs and buttons."""

    def __init__(self, config: Config, *, clock: Optional[Callable[[], float]] = None):
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True  # "@Ready Room sync" (a mention needs no content intent)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         allowed_mentions=discord.AllowedMentions.none())
        self.config = config
        self.clock = clock
        self.service: Optional[GameService] = None
        self.last_acted: dict[tuple[int, int], float] = {}  # (game, user) -> when they last acted (this process)

    def now(self) -> float:
        """The bot's clock (the tests' hand-moved one, or the wall clock)."""
        return self.clock() if self.clock else time.time()

    async def setup_hook(self) -> None:
        """Open and migrate the database, load the cogs, register the persistent buttons."""
        options = {"clock": self.clock} if self.clock else {}
        self.service = await GameService.open(self.config.database, **options)
        for ruleset in RULESETS.values():  # parse content packs now, off the loop, not in the first game
            if "pack" in ruleset.default_options:
                await asyncio.to_thread(ruleset.load_pack, ruleset.default_options["pack"])
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(*ITEMS, *TABLE_ITEMS)
        gc.freeze()  # what start-up built lives as long as the bot: keep it out of every collection
        if self.config.dev_guild:
            guild = discord.Object(self.config.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development guild %s", len(synced), self.config.dev_guild)

    async def close(self) -> None:
        """Log out, then close the database."""
        await super().close()
        if self.service is not None:
            await self.service.close()
            self.service = None


def main(argv: Optional[list[str]] = None) -> int:
    """Run the bot, or local play with --local."""
    parser = argparse.ArgumentParser(description="Ready Room: a game master for Star Trek: Away Missions")
    parser.add_argument("--local", action="store_true", help="play in this terminal instead of on Discord")
    parser.add_argument("--hotseat", action="store_true", help="local: two people take turns at the keyboard")
    parser.add_argument("--pictures", default="pictures", help="local: folder for board and dice pictures")
    parser.add_argument("--seed", type=int, default=None, help="local: dice seed, for a repeatable game")
    parser.add_argument("--ruleset", default="awaymissions", choices=sorted(RULESETS),
                        help="local: the game to play (renegades: orbit only, text only, for now)")
    parser.add_argument("--commander", help="local: your alternative commander (e.g. LINDQ)")
    parser.add_argument("--swap", action="append", default=[], metavar="OLD=NEW",
                        help="local: swap a mission specialist of your team (repeatable)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2,
                        help="local: players at the table (3 or 4: every player for themselves, six boards)")
    parser.add_argument("--mode", choices=("free-for-all", "teams"), default="free-for-all",
                        help="local: teams is 2 vs 2, you and the third seat against the other two")
    parser.add_argument("--level", choices=("easy", "normal", "hard"), default="normal",
                        help="local: how hard the computer opponent thinks (default normal)")
    parser.add_argument("--explain", action="store_true",
                        help="local: after each computer move, its 3 best candidates and estimated win rates")
    args = parser.parse_args(argv)
    config = Config.from_env()
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.local:
        from engine.service.console import play_local
        return asyncio.run(play_local(config.database, args.pictures, hotseat=args.hotseat, seed=args.seed,
                                      commander=args.commander, swaps=args.swap, ruleset=args.ruleset,
                                      players=args.players, teams=args.mode == "teams", level=args.level,
                                      explain=args.explain))
    if not config.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    ReadyRoom(config).run(config.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
