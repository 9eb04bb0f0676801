"""Short garbage-collection pauses for a long-running bot process.

CPython's full (generation 2) collection walks every container object the process keeps,
holding the event loop all the while: with 1,000 games in play that took 70-260 ms of CPU
(docs/performance.md). So what has lived through a few seconds is moved out of the
collector's sight (`gc.freeze`) every `settle_every` seconds, after a collection of the
young generations, and a full collection then only walks what is newer than that. Objects
frozen are still freed as soon as nothing refers to them; only reference cycles that
become garbage after their objects were frozen wait, until `thaw`: everything is given
back to the collector and collected in one go, every `thaw_every` seconds (ruling P38).
"""
from __future__ import annotations

import asyncio
import gc
import logging
import time
from dataclasses import dataclass

log = logging.getLogger("ready_room.collector")
SETTLE_EVERY = 2.0  # seconds between freezes: a full collection walks about this much of the process's new objects
THAW_EVERY = 3600.0  # seconds between full collections of everything (the cycles frozen meanwhile)


@dataclass
class Thawed:
    """What one full collection of everything found and took."""

    collected: int  # objects freed: cycles that became garbage after they were frozen
    seconds: float  # CPU time it took (the event loop waited that long)


class Collector:
    """Freezes survivors every `settle_every` seconds and collects everything every
    `thaw_every` seconds, on the running event loop (`run`)."""

    def __init__(self, settle_every: float = SETTLE_EVERY, thaw_every: float = THAW_EVERY):
        self.settle_every, self.thaw_every = settle_every, thaw_every
        self._thawed_at = time.monotonic()

    def settle(self) -> None:
        """Collect the young generations, then freeze whatever is still alive."""
        gc.collect(1)
        gc.freeze()

    def thaw(self) -> Thawed:
        """Give every frozen object back to the collector, collect them all, freeze again."""
        began = time.process_time()
        gc.unfreeze()
        collected = gc.collect()
        gc.freeze()
        self._thawed_at = time.monotonic()
        return Thawed(collected, time.process_time() - began)

    async def run(self) -> None:
        """Settle now and every `settle_every` seconds; thaw every `thaw_every` seconds."""
        self.settle()
        while True:
            await asyncio.sleep(self.settle_every)
            if time.monotonic() - self._thawed_at >= self.thaw_every:
                thawed = self.thaw()
                log.info("full collection: %d objects freed in %.0f ms", thawed.collected, thawed.seconds * 1000)
            else:
                self.settle()
