"""Calls at most every N hours on Discord (rulings P24-P27): the call itself (one message
naming the player and listing every game waiting for them, by DM or in their channel),
and the check that the bot can post in a channel a player chooses."""
from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from cogs import replies
from cogs.pings import calls_of
from engine.service import ServiceError
from engine.service.calls import Calls

if TYPE_CHECKING:
    from bot import ReadyRoom


async def call_text(bot: "ReadyRoom", user_id: int, deadlines: dict[tuple[int, str], float], calls: Calls) -> str:
    """The call: every game waiting for the user, what it asks, by when (the deadlines this
    call gives, `deadlines`) and a link to its thread. Games that do not fit in one message
    are counted at its end (/game mine lists them all)."""
    waiting = await bot.service.awaiting(user_id)
    head = (f"<@{user_id}>, your call from Ready Room (at most {calls.words(public=True)}): "
            f"{replies.plural(len(waiting), 'game')} waiting for you.")
    lines = []
    for w in waiting:
        try:
            asked = await bot.service.asked(w.game_id, user_id)
        except ServiceError:
            asked = ""
        deadline = deadlines.get((w.game_id, w.seat), w.deadline)
        due = f" Answer by <t:{int(deadline)}:f>." if deadline else ""
        lines.append(f"• Game #{w.game_id}: {asked or 'your move'}{due} "
                     f"{replies.link(w.guild_id, w.thread_id or w.channel_id)}")
    shown = len(lines)
    while len("\n".join([head, *lines[:shown], MORE.format(len(waiting))])) > replies.MAX_CONTENT:
        shown -= 1
    more = [MORE.format(len(lines) - shown)] if shown < len(lines) else []
    return "\n".join([head, *lines[:shown], *more])


MORE = "…and {} more: /game mine lists every game waiting for you."


async def call(bot: "ReadyRoom", user_id: int, calls: Calls) -> None:
    """Send the user's call and record it (its deadlines with it). A call Discord refuses
    for good (DMs closed, the channel gone) is recorded as made, so the deadlines it holds
    run again, and the refusal is passed on for the reminder loop to report."""
    desk = calls_of(bot)
    deadlines = await desk.told(user_id, calls)
    text = await call_text(bot, user_id, deadlines, calls)
    mention = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(user_id)])
    try:
        if calls.channel_id:
            await bot.get_partial_messageable(calls.channel_id).send(text, allowed_mentions=mention)
        else:
            user = bot.get_user(user_id) or await bot.fetch_user(user_id)
            await user.send(text, allowed_mentions=mention)
    except (discord.Forbidden, discord.NotFound):
        await desk.called(user_id, deadlines)
        raise
    await desk.called(user_id, deadlines)


async def can_post(bot: "ReadyRoom", channel_id: int, user_id: int, hours: int) -> bool:
    """Whether the bot may post in the channel: it says there, without a mention, that the
    player's calls will come here (Discord refusing the post means it may not)."""
    try:
        await bot.get_partial_messageable(channel_id).send(
            f"<@{user_id}> chose to be called here by Ready Room, at most every {hours} h.",
            allowed_mentions=replies.NO_MENTIONS)
    except (discord.Forbidden, discord.NotFound):
        return False
    return True
