"""Full garbage collections on a schedule for a long-running bot process.

CPython's full (generation 2) collection walks every container object the process keeps
and frees the reference cycles among them, holding the event loop all the while: with
1,000 games in play it took up to 79 ms of CPU about ten times a minute, whenever the
allocation counters said so (docs/performance.md). What start-up built is frozen out of
every collection (`gc.freeze`); the counters then only run the young generations, and the
full collection runs every `full_every` seconds instead (ruling P38). Cycles that became
garbage wait for it, so they are bounded by ten seconds' worth.

What survives a full collection is frozen too (ruling P50), so the next one walks only
what the last ten seconds left alive, not every game and cache again. A cycle among frozen
objects that later becomes garbage is not freed by those collections: every `thaw_every`
full collections everything is given back and collected once in full, which bounds that
garbage by an hour's worth. Few such cycles are made: discord.py's cycles around each
interaction are cut as soon as the bot has answered (letgo.py).
"""
from __future__ import annotations

import asyncio
import gc
import logging
import time
from dataclasses import dataclass

log = logging.getLogger("ready_room.collector")
FULL_EVERY = 10.0  # the longest wait between two full collections, seconds
PROMOTED = 3  # middle-generation collections (each moves its survivors to the oldest) that make a full one due
THAW_EVERY = 360  # full collections between two that walk everything (frozen objects too)
NEVER = 1 << 30  # a generation-2 threshold the counters never reach
COUNTED = gc.get_threshold()[2]  # the process's own generation-2 threshold, given back when a collector stops


@dataclass
class Collected:
    """What one full collection freed and took."""

    objects: int
    seconds: float  # CPU time (the event loop waited that long)
    whole: bool  # whether it walked everything, the frozen objects too


class Collector:
    """Freezes what start-up built, leaves the young generations to the counters, and runs
    the full collection on the running event loop (`run`), in a callback of its own, as
    soon as `promoted` middle-generation collections have moved their survivors on since
    the last one, or `full_every` seconds after it; what survives is frozen, and every
    `thaw_every`-th walks the frozen objects too."""

    def __init__(self, full_every: float = FULL_EVERY, thaw_every: int = THAW_EVERY, promoted: int = PROMOTED):
        self.full_every, self.thaw_every, self.promoted = full_every, thaw_every, promoted
        self.last: Collected | None = None
        self.rounds = 0  # full collections run
        self._due: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Freeze what exists now (it lives as long as the process) and stop the counters
        from starting full collections."""
        gc.freeze()
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, NEVER)

    def collect(self) -> Collected:
        """One full collection now (of everything, every `thaw_every`-th), then what
        survived it is frozen."""
        self.rounds += 1
        whole = self.rounds % self.thaw_every == 0
        began = time.process_time()
        if whole:
            gc.unfreeze()
        objects = gc.collect()
        gc.freeze()
        self.last = Collected(objects, time.process_time() - began, whole)
        return self.last

    def _counted(self, phase: str, info: dict) -> None:
        """A `gc.callbacks` hook: after a middle-generation collection, wake `run` once
        `promoted` of them have moved survivors into the oldest generation (the walk a full
        collection would make has grown by at most that many middle generations). It may
        run on any thread that allocates, so the loop is woken thread-safely."""
        if phase == "stop" and info["generation"] == 1 and gc.get_count()[2] >= self.promoted \
                and not self._due.is_set():
            try:
                self._loop.call_soon_threadsafe(self._due.set)
            except RuntimeError:  # the loop closed meanwhile
                pass

    async def run(self) -> None:
        """`start`, then a full collection whenever one is due (by the counters or the
        clock), until cancelled (the counters' own schedule is given back then)."""
        self.start()
        self._loop, self._due = asyncio.get_running_loop(), asyncio.Event()
        gc.callbacks.append(self._counted)
        try:
            while True:
                clock = self._loop.call_later(self.full_every, self._due.set)
                try:
                    await self._due.wait()
                finally:
                    clock.cancel()
                found = self.collect()
                self._due.clear()
                log.debug("full collection%s: %d objects freed in %.0f ms", " of everything" if found.whole else "",
                          found.objects, found.seconds * 1000)
        finally:
            gc.callbacks.remove(self._counted)
            young, middle, _ = gc.get_threshold()
            gc.set_threshold(young, middle, COUNTED)
