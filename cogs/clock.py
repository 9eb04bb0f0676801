"""A job run now and then at the bot's reminder interval, for as long as its cog is loaded,
in the one process holding its lease (see ReadyRoom.runs_clock)."""
from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable, Optional

import discord
from discord.ext import commands

from engine.service.errors import ServiceError, as_busy

log = logging.getLogger(__name__)


def start_every(bot, job: Callable[[], Awaitable[object]], name: str) -> Optional[asyncio.Task]:
    """Start `job` on the bot's reminder interval (None when the interval is off)."""
    if not bot.config.reminder_interval:
        return None
    return asyncio.create_task(_every(bot, job, name), name=name)


async def _every(bot, job: Callable[[], Awaitable[object]], name: str) -> None:
    await bot.wait_until_ready()
    while True:
        try:
            if await bot.runs_clock(name):
                await job()
        except Exception as error:  # a busy database too: the loop must outlive it
            if not isinstance(error, (discord.HTTPException, ServiceError)) and as_busy(error) is None:
                raise
            log.warning("%s failed this round; retrying next round", name, exc_info=True)
        await asyncio.sleep(bot.config.reminder_interval)


class Clocked(commands.Cog):
    """A cog with a clock: `job` runs every round (`start_every`) from when the cog loads
    until it unloads, under the lease `name`."""

    def __init__(self, bot, name: str, job: Callable[[], Awaitable[object]]):
        self.bot, self._clock = bot, (name, job)
        self.task: Optional[asyncio.Task] = None

    async def cog_load(self) -> None:
        self.task = start_every(self.bot, self._clock[1], self._clock[0])

    async def cog_unload(self) -> None:
        if self.task is not None:
            self.task.cancel()
