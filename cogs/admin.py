"""Owner-only maintenance: publishing the slash commands (never done on every start)."""
from __future__ import annotations

import logging
from typing import Literal

import discord
from discord.ext import commands

log = logging.getLogger("ready_room.admin")


class Admin(commands.Cog):
    """Commands for the bot's owner, given by mentioning the bot: "@Ready Room sync"."""

    def __init__(self, bot):
        self.bot = bot

    @commands.command(name="sync")
    @commands.is_owner()
    async def sync(self, ctx: commands.Context, scope: Literal["global", "here"] = "global") -> None:
        """Publish the slash commands everywhere, or only in this server (fast, for testing)."""
        guild = discord.Object(ctx.guild.id) if scope == "here" and ctx.guild else None
        if guild is not None:
            self.bot.tree.copy_global_to(guild=guild)
        synced = await self.bot.tree.sync(guild=guild)
        await ctx.reply(f"Synced {len(synced)} commands {'to this server' if guild else 'globally'}.")

    async def cog_command_error(self, ctx: commands.Context, error: commands.CommandError) -> None:
        if isinstance(error, (commands.NotOwner, commands.BadArgument)):
            log.info("refused %s from %s: %s", ctx.command, ctx.author.id, error)
        else:
            log.error("command %s failed", ctx.command, exc_info=error)


async def setup(bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Admin(bot))
