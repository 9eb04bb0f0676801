"""Computer turns left unplayed: a clock that plays them (ruling P60).

The computer answers a person's move at once (cogs.table_message.computers_play), after the
move is committed. A process that stops in between (killed, redeployed, crashed), that gives
up on a passing error (a busy database), or that handed a seat to the computer (R61, P54)
and stopped, leaves the game waiting on its computer player with nobody to play it. This
clock finds such games, in one process at a time and for its own shards, at start-up and
then every `bot.config.reminder_interval` seconds, and plays their computer moves.
"""
from __future__ import annotations

import logging

import discord

from cogs.clock import Clocked
from cogs.table_message import computers_play, table_key
from engine.service import as_busy

log = logging.getLogger("ready_room.computer_turns")


class ComputerTurns(Clocked):
    """The clock that resumes computer turns nobody is playing."""

    def __init__(self, bot):
        super().__init__(bot, "ready-room-computers", self.resume)

    async def resume(self) -> list[int]:
        """Play the computer's moves in each game of this process's shards that has waited on
        its computer player past the grace (P60), each shown on the table as usual; the ids of
        those games. A game that fails is logged and left for the next round; the others go on."""
        games = await self.bot.service.stranded_computers(self.bot.config.owns)
        for game_id in games:
            try:
                await self.play(game_id)
            except Exception as error:
                if as_busy(error) is None and not isinstance(error, (discord.HTTPException, OSError)):
                    log.exception("the computer's turn in game %s failed", game_id)
                else:
                    log.warning("the computer's turn in game %s failed (%r); again next round", game_id, error)
        return games

    async def play(self, game_id: int) -> None:
        """The computer's moves. When the table message is behind the game (the reply to a
        person's move was lost with its process), the first is shown on a fresh one after the
        moves it never showed, so it calls whoever is awaited next even if the old message
        named them already."""
        service = self.bot.service
        info = await service.get(game_id)
        table = await service.guild_setting(info.guild_id or 0, table_key(game_id), fresh=True)
        shown = (table or {}).get("version", info.version)
        missed = None if shown >= info.version else [
            line for moment in await service.history(game_id) if moment.seq > shown for line in moment.lines]
        await computers_play(self.bot, game_id, missed)


async def setup(bot) -> None:
    """Extension entry point."""
    await bot.add_cog(ComputerTurns(bot))
