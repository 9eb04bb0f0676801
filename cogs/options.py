"""Slash command options checked on our side.

Discord's client keeps an option within its declared range, length and choices, but an
interaction can be forged with any value (`/leaderboard page:-3`), and discord.py does not
check them. `CheckedTree` checks every option of every command before the command runs:
the right kind of value, numbers within the declared min/max (else within Discord's
±2^53), text within the declared length (else Discord's 6,000 characters), and one of the
declared choices. A value outside them is answered privately, saying which option and
what it may be, and the command does not run, so nothing changes.
"""
from __future__ import annotations

import math
from typing import Any, Optional

import discord
from discord import app_commands

from cogs import replies

NUMBER_LIMIT = 2 ** 53  # Discord's integer and number options
TEXT_LIMIT = 6000  # Discord's string options
KINDS = {  # option type -> (Python types of its values, in words)
    discord.AppCommandOptionType.integer: ((int,), "a whole number"),
    discord.AppCommandOptionType.number: ((int, float), "a number"),
    discord.AppCommandOptionType.string: ((str,), "text"),
    discord.AppCommandOptionType.boolean: ((bool,), "true or false"),
}


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def refusal(parameter: app_commands.Parameter, value: Any) -> Optional[str]:
    """Why `value` is not a value of the option, or None when it is."""
    name, kind = parameter.display_name, parameter.type
    if kind not in KINDS:  # users, roles, channels: discord.py resolves them
        return None
    types, words = KINDS[kind]
    if not isinstance(value, types) or (isinstance(value, bool) and kind is not discord.AppCommandOptionType.boolean):
        return f"`{name}` must be {words}, not {_shown(value)}."
    if parameter.choices:
        allowed = [choice.value for choice in parameter.choices]
        if value not in allowed:
            return f"`{name}` must be one of {', '.join(map(str, allowed))} (not {_shown(value)})."
        return None
    if kind is discord.AppCommandOptionType.string:
        least, most = parameter.min_value or 0, parameter.max_value or TEXT_LIMIT
        if not least <= len(value) <= most:
            return f"`{name}` must be {least} to {most} characters long (it has {len(value)})."
    elif kind is not discord.AppCommandOptionType.boolean:
        least = -NUMBER_LIMIT if parameter.min_value is None else parameter.min_value
        most = NUMBER_LIMIT if parameter.max_value is None else parameter.max_value
        if not (math.isfinite(value) and least <= value <= most):
            return f"`{name}` must be from {_number(least)} to {_number(most)}, not {_shown(value)}."
    return None


def refusals(command: app_commands.Command, namespace: app_commands.Namespace) -> list[str]:
    """Every option of this use of `command` that is not one of its values."""
    found = []
    for parameter in command.parameters:
        value = getattr(namespace, parameter.display_name, None)
        if value is not None and (why := refusal(parameter, value)) is not None:
            found.append(why)
    return found


class CheckedTree(app_commands.CommandTree):
    """The bot's command tree: a command whose options are out of range does not run, and
    one that meets a busy database tells the user to try again."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.type is not discord.InteractionType.application_command:
            return True
        command = interaction.command
        if not isinstance(command, app_commands.Command):
            return True
        try:
            found = refusals(command, interaction.namespace)
        except (TypeError, ValueError):  # a number option that is no number at all
            found = ["An option is not a value of its kind."]
        if found:
            await interaction.response.send_message("\n".join(found) + "\nNothing was changed.", ephemeral=True)
        return not found

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """A command that met a busy database is answered so (cogs.replies.answer_busy); any
        other failure is logged, as discord.py does."""
        if not await replies.answer_busy(interaction, error):
            await super().on_error(interaction, error)


# Declared lengths and ranges of the options the cogs share (Discord's client enforces them
# too; CheckedTree enforces them for a forged interaction).
Code = app_commands.Range[str, 1, 100]  # a name, code or term: at most what one Discord choice holds
Typed = app_commands.Range[str, 1, 400]  # a command, step or note typed out
Sheet = app_commands.Range[str, 1, 2000]  # a build sheet, or a list of captains
Event = app_commands.Range[int, 1, NUMBER_LIMIT]  # an event's number
