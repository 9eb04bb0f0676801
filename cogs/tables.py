"""Tables of three or four when someone goes: leaving a running game, aborting by vote.

A player who leaves a running game of three or four seats hands the seat to the computer
(R61): with the server's stand-in setting on it plays at normal level, otherwise the seat
passes wherever the rules allow a pass and plays by rule of thumb elsewhere. The others
play on. Any of the people at such a table may vote to abort it; more than half of them
end it without a result (R63).
"""
from __future__ import annotations

import discord

from cogs import replies, table_message
from cogs.turns import STAND_IN
from engine.service import GameInfo, NotAPlayer, ServiceError, is_computer


def votes_key(game_id: int) -> str:
    """The guild setting holding who voted to abort a game."""
    return f"abort-votes:{game_id}"


def people(info: GameInfo) -> list[int]:
    """The people (not the computer) seated at the table."""
    return [s.user_id for s in info.seats if not is_computer(s.user_id)]


def votes_needed(info: GameInfo) -> int:
    """Votes that abort the game: more than half of the people seated."""
    return len(people(info)) // 2 + 1


async def leave(bot, interaction: discord.Interaction) -> None:
    """The user leaves the running game of this thread; the computer takes the seat (deferred)."""
    try:
        info = await replies.game_here(bot, interaction)
        stand_in = bool(await bot.service.guild_setting(info.guild_id or 0, STAND_IN))
        update = await bot.service.vacate(info.id, interaction.user.id, stand_in=stand_in)
    except ServiceError as refused:
        await replies.reply(interaction, refused.message)
        return
    await table_message.publish(bot, update, None)  # the computer then plays the seat where it is awaited
    await replies.reply(interaction, "You left the game; the computer has your seat.")


async def vote_abort(bot, interaction: discord.Interaction, info: GameInfo) -> None:
    """Count the user's vote to abort a game of three or four; abort it once more than half
    of the people seated have voted (deferred)."""
    try:
        if interaction.user.id not in people(info):
            raise NotAPlayer("Only the game's players may vote to abort it.")
        voted = await bot.service.guild_setting(info.guild_id or 0, votes_key(info.id)) or []
        voted = sorted({*voted, interaction.user.id} & set(people(info)))
        if len(voted) < votes_needed(info):
            await bot.service.set_guild_setting(info.guild_id or 0, votes_key(info.id), voted)
            await bot.get_partial_messageable(info.thread_id or info.channel_id).send(
                f"**Game #{info.id}**: {interaction.user.display_name} votes to abort "
                f"({len(voted)} of {votes_needed(info)} votes needed; /game abort to vote).",
                allowed_mentions=replies.NO_MENTIONS)
            await replies.reply(interaction, "Your vote is counted.")
            return
        info = await bot.service.abort(info.id, interaction.user.id)
    except ServiceError as refused:
        await replies.reply(interaction, refused.message)
        return
    await bot.service.set_guild_setting(info.guild_id or 0, votes_key(info.id), None)
    await table_message.forget_table(bot, info)
    await bot.get_partial_messageable(info.thread_id or info.channel_id).send(
        f"**Game #{info.id}** was aborted by a vote of the table.", allowed_mentions=replies.NO_MENTIONS)
    await replies.reply(interaction, "Game aborted by vote.")
