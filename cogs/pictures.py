"""The pictures of an update: drawn in a worker thread (the event loop only waits), kept
within the server's upload limit, sent as attachments."""
from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Collection, Optional

import discord

from engine.service.rolls import roll_events
from images import pictures

if TYPE_CHECKING:
    from bot import ReadyRoom

log = logging.getLogger("ready_room.pictures")
UPLOAD_LIMIT = 10 << 20  # Discord's attachment bytes per message, for a server whose limit is unknown


def upload_limit(bot: "ReadyRoom", guild_id: Optional[int]) -> int:
    """Bytes of attachments one message may carry in the guild (Discord's default if unknown)."""
    guild = bot.get_guild(guild_id) if guild_id else None
    return guild.filesize_limit if guild is not None else UPLOAD_LIMIT


def within(drawn: list[tuple[str, bytes]], limit: int) -> list[tuple[str, bytes]]:
    """The pictures that fit together in one message of `limit` bytes: a recap is dropped
    first, then the dice boards, then the status, then the boards (the planet's before the
    main one), then a summary."""
    kept = list(drawn)
    for name in ("recap.gif", "crew-dice.png", "dice.png", "status.png", "surface.png", "board.png", "summary.png"):
        if sum(len(data) for _, data in kept) <= limit:
            break
        kept = [(n, data) for n, data in kept if n != name]
    left_out = [name for name, _ in drawn if all(name != n for n, _ in kept)]
    if left_out:
        log.warning("pictures over the %d-byte upload limit left out: %s", limit, ", ".join(left_out))
    return kept


async def drawings(bot: "ReadyRoom", game_id: int, events: list[dict], wanted: list[str],
                   limit: int = UPLOAD_LIMIT, view: Optional[dict] = None, waiting: bool = True,
                   unchanged: Collection[str] = (), roll: Optional[list[dict]] = None) -> list[tuple[str, bytes]]:
    """The update's pictures from the public `view` (read if not given), drawn off the event
    loop, within `limit` bytes, but for the files `unchanged` (already shown); with
    `waiting` False the boards leave out whose move it is. `roll`: the dice board's events
    (`roll_events`), when the caller has them."""
    if not wanted:
        return []
    view = view if view is not None else await bot.service.view(game_id)
    if roll is None:
        roll = await roll_events(bot.service, game_id, events) if "dice" in wanted else []
    ruleset = (await bot.service.get(game_id)).ruleset
    drawn = await asyncio.to_thread(pictures.draw, ruleset, view, events, wanted, roll, waiting, unchanged)
    return within(drawn, limit)


class Picture(discord.File):
    """An attachment of bytes drawn here. discord.py closes an attachment by putting a method
    of its buffer back on the buffer itself, a reference cycle that only a full garbage
    collection frees (collector.py); closed, a picture takes that method off again."""

    __slots__ = ()

    def close(self) -> None:
        super().close()
        vars(self.fp).pop("close", None)


def as_file(name: str, data: bytes) -> discord.File:
    """One attachment of bytes for one request (discord.py closes it after it)."""
    return Picture(io.BytesIO(data), filename=name)


def as_files(drawn: list[tuple[str, bytes]]) -> list[discord.File]:
    """Attachments for one request (discord.py closes them after it)."""
    return [as_file(name, data) for name, data in drawn]
