"""Power-user slash commands: /move /attack /cover /special /draw /cycle /pass /reroll /play /hand.

Each builds the command text, submits it for the game of the thread it is typed in and
presents the result exactly like a panel click. Autocomplete offers only values that
appear in the user's legal commands right now.
"""
from __future__ import annotations

from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from cogs import private_panel, replies
from cogs.options import Code, Typed
from engine.service import ServiceError

MAX_CHOICES = 25
CHOICE_LENGTH = 100  # Discord's limit for a choice; longer commands (a long discard) go through the panel


def suggestions(legal: list[str], verb: str, position: int, filled: list[str], typed: str) -> list[str]:
    """Distinct words at `position` (1 = first argument) of legal `verb` commands that agree
    with the arguments already `filled` (empty ones ignored) and contain `typed`."""
    found: dict[str, None] = {}
    for command in legal:
        words = command.split()
        if words[0] != verb or len(words) <= position:
            continue
        if any(f and words[i + 1].lower() != f.lower() for i, f in enumerate(filled[:position - 1])):
            continue
        if typed.lower() in words[position].lower():
            found.setdefault(words[position])
    return list(found)[:MAX_CHOICES]


def complete(verb: str, position: int, *earlier: str):
    """An autocomplete callback for argument `position` of `verb`; `earlier` names the
    parameters holding arguments 1..position-1."""
    async def callback(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            info = await replies.game_here(interaction.client, interaction)
            _, legal = await interaction.client.service.legal_commands(info.id, interaction.user.id)
        except ServiceError:
            return []
        filled = [getattr(interaction.namespace, name, None) or "" for name in earlier]
        return [app_commands.Choice(name=word, value=word)
                for word in suggestions(legal, verb, position, filled, current)]
    return callback


async def complete_any(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for /play: whole legal commands containing what was typed. A command
    longer than a choice may be is never offered cut short: the panel's multi-select
    sends it exactly."""
    try:
        info = await replies.game_here(interaction.client, interaction)
        _, legal = await interaction.client.service.legal_commands(info.id, interaction.user.id)
    except ServiceError:
        return []
    hits = [c for c in legal if current.lower() in c.lower() and len(c) <= CHOICE_LENGTH][:MAX_CHOICES]
    return [app_commands.Choice(name=c, value=c) for c in hits]


class Play(commands.Cog):
    """Typed game commands for players who prefer them to the panel."""

    def __init__(self, bot):
        self.bot = bot

    async def send(self, interaction: discord.Interaction, *words: Optional[str]) -> None:
        """Submit the command made of `words` (empty ones dropped) for this thread's game."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            info = await replies.game_here(self.bot, interaction)
        except ServiceError as refused:
            await interaction.edit_original_response(content=refused.message)
            return
        await private_panel.act(self.bot, interaction, info.id, info.version, " ".join(w for w in words if w))

    @app_commands.command(name="move", description="Move action")
    @app_commands.autocomplete(character=complete("move", 1), space=complete("move", 2, "character"))
    async def move(self, interaction: discord.Interaction, character: Code, space: Code) -> None:
        await self.send(interaction, "move", character, space)

    @app_commands.command(name="attack", description="Attack action")
    @app_commands.autocomplete(character=complete("attack", 1), target=complete("attack", 2, "character"),
                               weapon=complete("attack", 3, "character", "target"))
    async def attack(self, interaction: discord.Interaction, character: Code, target: Code,
                     weapon: Optional[Code] = None) -> None:
        await self.send(interaction, "attack", character, target, weapon)

    @app_commands.command(name="cover", description="Take cover")
    @app_commands.autocomplete(character=complete("cover", 1))
    async def cover(self, interaction: discord.Interaction, character: Code) -> None:
        await self.send(interaction, "cover", character)

    @app_commands.command(name="special", description="A character's special action")
    @app_commands.autocomplete(character=complete("special", 1), action=complete("special", 2, "character"),
                               challenger=complete("special", 3, "character", "action"))
    async def special(self, interaction: discord.Interaction, character: Code, action: Code,
                      challenger: Optional[Code] = None) -> None:
        await self.send(interaction, "special", character, action, challenger)

    @app_commands.command(name="draw", description="Draw a support card instead of an action")
    async def draw(self, interaction: discord.Interaction) -> None:
        await self.send(interaction, "draw")

    @app_commands.command(name="cycle", description="Cycle a mission card instead of an action")
    @app_commands.autocomplete(card=complete("cycle", 1))
    async def cycle(self, interaction: discord.Interaction, card: Code) -> None:
        await self.send(interaction, "cycle", card)

    @app_commands.command(name="pass", description="Pass (an action, or a re-roll window)")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self.send(interaction, "pass")

    @app_commands.command(name="reroll", description="Discard a card to re-roll dice")
    @app_commands.describe(dice="'all' or dice positions like '1 3' (1 = highest)")
    @app_commands.autocomplete(card=complete("reroll", 1), dice=complete("reroll", 2, "card"))
    async def reroll(self, interaction: discord.Interaction, card: Code, dice: Code) -> None:
        await self.send(interaction, "reroll", card, dice)

    @app_commands.command(name="play", description="Any legal command, typed in full")
    @app_commands.autocomplete(command=complete_any)
    async def play(self, interaction: discord.Interaction, command: Typed) -> None:
        await self.send(interaction, command)

    @app_commands.command(name="hand", description="Your hand and your decision, privately")
    async def hand(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            info = await replies.game_here(self.bot, interaction)
            shown = await self.bot.service.panel(info.id, interaction.user.id)
        except ServiceError as refused:
            await interaction.edit_original_response(content=refused.message)
            return
        await interaction.edit_original_response(content=private_panel.panel_text(shown) or "Nothing to show.")


async def setup(bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Play(bot))
