"""/game: start a game in its own thread, look at it, concede or abort it, list my turns."""
from __future__ import annotations

import json
from typing import Literal, Optional

import discord
from discord import app_commands
from discord.ext import commands

from cogs import present
from engine.service import NotAllowed, ServiceError
from engine.service.text import public_line

LAYOUTS = Literal["standard", "borg-corridor", "cube", "build"]
LOG_LINES = 25


class Game(commands.Cog):
    """The game lifecycle: lobby, status, log, concede, abort, my games."""

    game = app_commands.Group(name="game", description="Star Trek: Away Missions games")

    def __init__(self, bot):
        self.bot = bot

    @game.command(name="new", description="Open a game in a new thread")
    @app_commands.describe(mode="Players at the table", pack="Content pack (a folder of content/)",
                           opponent="Invite one player (leave empty for an open lobby)",
                           side="Your side", layout="Mission area (build: place the boards in setup)",
                           remind_hours="Remind the awaited player after this many hours (this game only)",
                           computer="Play against the computer at this level (it moves at once)")
    async def new(self, interaction: discord.Interaction, mode: Literal["2 players"] = "2 players",
                  pack: str = "content/starter", opponent: Optional[discord.Member] = None,
                  side: Literal["federation", "borg"] = "federation", layout: LAYOUTS = "standard",
                  remind_hours: Optional[app_commands.Range[float, 0.1, 720.0]] = None,
                  computer: Optional[Literal["easy", "normal", "hard"]] = None) -> None:
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            await present.reply(interaction, "Start games in a server text channel (not a thread or DM).")
            return
        if opponent is not None and (opponent.id == interaction.user.id or opponent.bot):
            await present.reply(interaction, "Invite another person, or leave the opponent empty.")
            return
        if opponent is not None and computer is not None:
            await present.reply(interaction, "Invite a person or play the computer, not both.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            path, content = await present.game_pack(pack)
        except ServiceError as refused:
            await interaction.edit_original_response(content=refused.message)
            return
        thread = await channel.create_thread(name=f"Away Mission: {interaction.user.display_name}",
                                             type=discord.ChannelType.public_thread)
        options = {"pack": path, "layout": None if layout == "build" else layout}
        seat = present.side_options(content, side)
        try:
            info = await self.bot.service.create(
                creator=interaction.user.id, guild_id=interaction.guild_id, channel_id=channel.id,
                thread_id=thread.id, options=options,
                remind_after=None if remind_hours is None else remind_hours * 3600)
            info = await self.bot.service.join(info.id, interaction.user.id, interaction.user.display_name, **seat)
            if computer is not None:
                info = await self.bot.service.add_computer(
                    info.id, computer, **present.side_options(content, present.other_side(side)))
        except ServiceError as refused:
            await interaction.edit_original_response(content=refused.message)
            return
        if computer is not None:
            await thread.send(present.lobby_text(info), allowed_mentions=present.NO_MENTIONS)
            await interaction.edit_original_response(
                content=f"Game #{info.id} against the computer ({computer}) is in {thread.mention}.")
            try:
                update = await self.bot.service.start(info.id, interaction.user.id)
            except ServiceError as refused:
                await thread.send(refused.message, allowed_mentions=present.NO_MENTIONS)
                return
            await present.publish(self.bot, update, interaction.user.id)
            return
        invited = opponent.id if opponent else 0
        await thread.send(present.lobby_text(info, invited),
                          view=present.lobby_view(info, invited, present.other_side(side)),
                          allowed_mentions=discord.AllowedMentions(users=[opponent] if opponent else False))
        await interaction.edit_original_response(
            content=f"Game #{info.id} is open in {thread.mention}.\n" + present.team_text(content, seat),
            view=present.team_view(info.id, content, seat))

    @game.command(name="status", description="The table as it stands, privately")
    async def status(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            info = await present.game_here(self.bot, interaction)
        except ServiceError as refused:
            await interaction.edit_original_response(content=refused.message)
            return
        waiting = ", ".join(t.name for t in info.awaited) or "nobody"
        text = (f"**Game #{info.id}** · {info.status} · move {info.version}\n"
                f"Players: {', '.join(f'{s.name} ({s.seat})' for s in info.seats)}\nWaiting for {waiting}.")
        drawn = await present.drawings(self.bot, info.id, [], ["board"] if info.status == "active" else [],
                                       interaction.filesize_limit)
        await interaction.edit_original_response(content=text, attachments=present.as_files(drawn))

    @game.command(name="log", description="The last moves, as everyone may read them")
    async def log(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            info = await present.game_here(self.bot, interaction)
            entries = await self.bot.service.log(info.id)
        except ServiceError as refused:
            await interaction.edit_original_response(content=refused.message)
            return
        names = present.names_of(info)
        lines = [f"{e.seq}. " + "; ".join(filter(None, (public_line(event, names) for event in json.loads(e.events))))
                 for e in entries[-LOG_LINES:]]
        await interaction.edit_original_response(content=present.clip("\n".join(lines) or "No moves yet."))

    @game.command(name="concede", description="Give up this game")
    async def concede(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            info = await present.game_here(self.bot, interaction)
            update = await self.bot.service.concede(info.id, interaction.user.id)
        except ServiceError as refused:
            await interaction.edit_original_response(content=refused.message)
            return
        await present.publish(self.bot, update, interaction.user.id)
        await interaction.edit_original_response(content="You conceded.")

    @game.command(name="abort", description="End this game without a result (creator or Manage Server)")
    async def abort(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        moderator = bool(interaction.permissions.manage_guild)
        try:
            info = await present.game_here(self.bot, interaction)
            if not moderator and interaction.user.id != info.created_by:
                raise NotAllowed("Only the game's creator or a member with Manage Server can abort it.")
            info = await self.bot.service.abort(info.id, interaction.user.id, force=moderator)
        except ServiceError as refused:
            await interaction.edit_original_response(content=refused.message)
            return
        await present.forget_table(self.bot, info)
        channel = self.bot.get_partial_messageable(info.thread_id or info.channel_id)
        await channel.send(f"**Game #{info.id}** was aborted by {interaction.user.display_name}.",
                           allowed_mentions=present.NO_MENTIONS)
        await interaction.edit_original_response(content="Game aborted.")

    @game.command(name="mine", description="Games in any server waiting for me")
    async def mine(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        waiting = await self.bot.service.awaiting(interaction.user.id)
        await interaction.edit_original_response(content=present.clip(present.my_games(waiting)))


async def setup(bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Game(bot))
