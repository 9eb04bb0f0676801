"""Computer turns left unplayed: a clock that plays them (ruling P60).

The computer answers a person's move at once (cogs.table_message.computers_play), after the
move is committed. A process that stops in between (killed, redeployed, crashed), that gives
up on a passing error (a busy database), or that handed a seat to the computer (R61, P54)
and stopped, leaves the game waiting on its computer player with nobody to play it. This
clock finds such games, in one process at a time and for its own shards, at start-up and
then every `bot.config.reminder_interval` seconds, and plays their computer moves.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Optional

import discord
from discord.ext import commands

from cogs.clock import start_every
from cogs.table_message import computers_play
from engine.service import as_busy

log = logging.getLogger("ready_room.computer_turns")


class ComputerTurns(commands.Cog):
    """The clock that resumes computer turns nobody is playing."""

    def __init__(self, bot):
        self.bot = bot
        self.task: Optional[asyncio.Task] = None

    async def cog_load(self) -> None:
        self.task = start_every(self.bot, self.resume, "ready-room-computers")

    async def cog_unload(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def resume(self) -> list[int]:
        """Play the computer's moves in each game of this process's shards that has waited on
        its computer player past the grace (P60), each shown on the table as usual; the ids of
        those games. A game that fails is logged and left for the next round; the others go on."""
        games = await self.bot.service.stranded_computers(self.bot.config.owns)
        for game_id in games:
            try:
                await computers_play(self.bot, game_id)
            except Exception as error:
                if as_busy(error) is None and not isinstance(error, (discord.HTTPException, OSError)):
                    log.exception("the computer's turn in game %s failed", game_id)
                else:
                    log.warning("the computer's turn in game %s failed (%r); again next round", game_id, error)
        return games


async def setup(bot) -> None:
    """Extension entry point."""
    await bot.add_cog(ComputerTurns(bot))
