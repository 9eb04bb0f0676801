"""The pictures of an update: drawn in a worker thread (the event loop only waits), kept
within the server's upload limit, sent as attachments."""
from __future__ import annotations

import asyncio
import io
import json
import logging
from typing import TYPE_CHECKING, Collection, Optional

import discord

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
    """The pictures that fit together in one message of `limit` bytes: the dice boards are
    dropped first, then the status, then the boards (the planet's before the main one)."""
    kept = list(drawn)
    for name in ("crew-dice.png", "dice.png", "status.png", "surface.png", "board.png"):
        if sum(len(data) for _, data in kept) <= limit:
            break
        kept = [(n, data) for n, data in kept if n != name]
    left_out = [name for name, _ in drawn if all(name != n for n, _ in kept)]
    if left_out:
        log.warning("pictures over the %d-byte upload limit left out: %s", limit, ", ".join(left_out))
    return kept


async def roll_events(bot: "ReadyRoom", game_id: int, events: list[dict]) -> list[dict]:
    """The events the dice board needs: a re-roll's own events lack the roll they change,
    so the public events since that roll are taken from the log."""
    if any(e["type"] == "rolled" for e in events) or not any(e["type"] == "rerolled" for e in events):
        return events
    earlier: list[dict] = []
    for entry in reversed((await bot.service.log(game_id))[:-1]):
        found = [{k: v for k, v in e.items() if k != "private"} for e in json.loads(entry.events)]
        earlier = found + earlier
        if any(e["type"] == "rolled" for e in found):
            break
    return earlier + events


async def drawings(bot: "ReadyRoom", game_id: int, events: list[dict], wanted: list[str],
                   limit: int = UPLOAD_LIMIT, view: Optional[dict] = None,
                   waiting: bool = True, unchanged: Collection[str] = ()) -> list[tuple[str, bytes]]:
    """The update's pictures from the public `view` (read if not given), drawn off the event
    loop, within `limit` bytes, but for the board files `unchanged` (already shown); with
    `waiting` False the board leaves out whose move it is."""
    if not wanted:
        return []
    view = view if view is not None else await bot.service.view(game_id)
    roll = await roll_events(bot, game_id, events) if "dice" in wanted else []
    ruleset = (await bot.service.get(game_id)).ruleset
    drawn = await asyncio.to_thread(pictures.draw, ruleset, view, events, wanted, roll, waiting, unchanged)
    return within(drawn, limit)


def as_files(drawn: list[tuple[str, bytes]]) -> list[discord.File]:
    """Attachments for one request (discord.py closes them after it)."""
    return [discord.File(io.BytesIO(data), filename=name) for name, data in drawn]
