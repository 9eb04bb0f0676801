"""Answering an interaction, and the words every message shares: a private reply or refusal,
the game of the channel, names, scores, links.

Every cog and button answers through here, so a game reads the same whichever door a
command came in by.
"""
from __future__ import annotations

import logging
import weakref
from typing import TYPE_CHECKING, Callable, Optional

import discord

from engine.service import GameInfo, ServiceError, as_busy
from engine.service.text import public_line

if TYPE_CHECKING:
    from bot import ReadyRoom

MAX_CONTENT = 2000
NO_MENTIONS = discord.AllowedMentions.none()
log = logging.getLogger("ready_room.replies")


def names_of(info: GameInfo) -> dict[str, str]:
    """Seat -> player name."""
    return {s.seat: s.name for s in info.seats}


def seat_of(info: GameInfo, user_id: int) -> Optional[str]:
    """The user's seat in the game, or None."""
    return next((s.seat for s in info.seats if s.user_id == user_id), None)


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """`text` cut to Discord's message length."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


async def reply(interaction: discord.Interaction, text: str, view: Optional[discord.ui.View] = None,
                **kwargs) -> None:
    """An ephemeral answer: the response, the deferred "thinking" message, or a followup."""
    with_view = {"view": view} if view is not None else {}
    if not interaction.response.is_done():
        await interaction.response.send_message(clip(text), ephemeral=True, **with_view, **kwargs)
        unlisten(view)
    elif interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
        await interaction.edit_original_response(content=clip(text), view=view, **kwargs)
    else:
        await interaction.followup.send(clip(text), ephemeral=True, **with_view, **kwargs)
        unlisten(view)


def unlisten(view) -> None:
    """Stop the listener discord.py attaches to a view sent in an ephemeral response.

    Our buttons are dynamic items that the bot routes by custom id, so the per-message
    listener (and its 15-minute timer) only costs memory and a pending task.
    """
    if isinstance(view, discord.ui.View):
        view.stop()


async def refuse(interaction: discord.Interaction, refused: ServiceError) -> None:
    """Explain a refusal privately; when a rule refused it, a button opens that rule."""
    view = None
    if refused.term:
        from cogs.rules import RuleButton  # the glossary's buttons live with /rules
        view = discord.ui.View(timeout=None)
        view.add_item(RuleButton(refused.term, "Show the rule"))
    await reply(interaction, refused.message, view=view)


async def answer_busy(interaction: discord.Interaction, error: BaseException) -> bool:
    """If `error` (or the error a command's failure wraps) is the database held by another
    program past its wait, tell the user privately that nothing changed and to try again,
    and return True; any other error is left to the caller (False). Every command and
    button, whichever cog or service it reached, meets a busy database here."""
    refused = as_busy(getattr(error, "original", error))
    if refused is None:
        return False
    log.warning("interaction %s met a busy database: %r", interaction.id, getattr(error, "original", error))
    await reply(interaction, refused.message)
    return True


class _BusyAnswered:
    """A dynamic item class whose clicked items answer a busy database (`answer_busy`);
    discord.py only calls its `from_custom_id`, and logs and drops whatever a callback raises."""

    __slots__ = ("factory",)

    def __init__(self, factory):
        self.factory = factory

    async def from_custom_id(self, interaction, item, match):
        made = await self.factory.from_custom_id(interaction, item, match)
        own, clicked = type(made).callback, weakref.ref(made)  # weak: the item holds this callback

        async def callback(interaction: discord.Interaction) -> None:
            try:
                await own(clicked(), interaction)
            except Exception as error:
                if not await answer_busy(interaction, error):
                    raise
        made.callback = callback
        return made

    def __repr__(self) -> str:
        return repr(self.factory)


def answering_busy(schedule: Callable) -> Callable:
    """discord.py's `schedule_dynamic_item_call` (a click on one of our buttons or menus),
    the clicked item answering a busy database as the command tree does (`answer_busy`)."""
    async def scheduled(component_type, factory, interaction, custom_id, match):
        await schedule(component_type, _BusyAnswered(factory), interaction, custom_id, match)
    return scheduled


def place_of(interaction: discord.Interaction) -> tuple[int, Optional[int]]:
    """(channel id, thread id) where the interaction happened."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id:
        return channel.parent_id, channel.id
    return interaction.channel_id, None


async def game_here(bot: "ReadyRoom", interaction: discord.Interaction) -> GameInfo:
    """The live game of the channel or thread the interaction came from."""
    return await bot.service.in_channel(*place_of(interaction))


def final_score(result: Optional[dict], names: dict[str, str]) -> Optional[str]:
    """"Final score: Ann 2, Bo 1" when the game has ended with scores."""
    scores = (result or {}).get("scores")
    if not scores:
        return None
    return "Final score: " + ", ".join(f"{names.get(s, s)} {points}" for s, points in scores.items())


def outcome(info: GameInfo) -> list[str]:
    """How a game that is no longer running ended, for a player's private message: the
    line the table shows ("The game is over. Winner: Bo") and the final score."""
    if info.status == "aborted":
        return ["The game was aborted."]
    names = names_of(info)
    return [line for line in (public_line({"type": "game_over", **(info.result or {})}, names),
                              final_score(info.result, names)) if line]


def plural(count: int, noun: str) -> str:
    """'1 rated game', '3 rated games'."""
    return f"{count} {noun}{'s' * (count != 1)}"


def link(guild_id: Optional[int], channel_id: Optional[int]) -> str:
    """A link to a channel or thread."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"


def my_games(waiting: list) -> str:
    """The "your turns" list: each game waiting on the user, with a link and how long."""
    if not waiting:
        return "No game is waiting for you."
    lines = ["Games waiting for you:"]
    for w in waiting:
        due = f", answer by <t:{int(w.deadline)}:R>" if w.deadline else ""
        lines.append(f"• Game #{w.game_id} ({w.seat}) since <t:{int(w.since)}:R>{due}: "
                     f"{link(w.guild_id, w.thread_id or w.channel_id)}")
    return "\n".join(lines)
