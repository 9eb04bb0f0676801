"""/privacy: what Ready Room stores about you, and forgetting it (ruling P16).

`/privacy show` lists privately what is stored under your user id; `/privacy forget`
explains what forgetting does and asks for a press of **Forget me** (a DynamicItem,
`rr:forget:<user>`, that only that user may press). The storage work is the privacy
desk's (engine/service/privacy.py).
"""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs import replies
from engine.service import ServiceError
from engine.service.privacy import PrivacyDesk

FORGETTING = ("Forgetting you deletes your settings, quiet hours and vacations; your ratings, profile and "
              "moves are no longer yours (your opponents' ratings stay as they are); in every stored game "
              "and campaign your seat is renamed \"Player N\", and the games still replay. Messages already "
              "posted on Discord are not changed, and league events keep their organisers' records. "
              "This cannot be undone.")


class ForgetMe(discord.ui.DynamicItem[discord.ui.Button], template=r"rr:forget:(?P<user>[0-9]{1,20})"):
    """The confirmation of /privacy forget: only the user who asked may press it."""

    def __init__(self, user_id: int):
        super().__init__(discord.ui.Button(label="Forget me", style=discord.ButtonStyle.danger,
                                           custom_id=f"rr:forget:{user_id}"))
        self.user_id = user_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.user_id:
            await replies.reply(interaction, "Only the person who asked to be forgotten can confirm it.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            renamed = await interaction.client.get_cog("Privacy").desk.forget(self.user_id)
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return
        await replies.reply(interaction, f"You are forgotten: your settings, quiet hours, vacations and ratings "
                                         f"are gone, and {renamed} stored seats of yours now read \"Player N\".")


class Privacy(commands.Cog):
    """A player's own data."""

    privacy = app_commands.Group(name="privacy", description="What Ready Room stores about you, and forgetting it")

    def __init__(self, bot):
        self.bot = bot
        self.desk = PrivacyDesk(bot.service)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ForgetMe)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ForgetMe)

    @privacy.command(name="show", description="What Ready Room stores about you, privately")
    async def show(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        lines = await self.desk.held(interaction.user.id)
        await replies.reply(interaction, "\n".join(lines + ["/privacy forget erases it."]))

    @privacy.command(name="forget", description="Erase your settings, ratings and profile; your seats become 'Player N'")
    async def forget(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(ForgetMe(interaction.user.id))
        await replies.reply(interaction, FORGETTING + "\nPress **Forget me** to go ahead; dismiss this to keep "
                                                      "everything.", view=view)


async def setup(bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Privacy(bot))
