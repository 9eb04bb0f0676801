"""Full garbage collections kept short for a long-running bot process.

CPython's full (generation 2) collection walks every container object the process keeps
and frees the reference cycles among them, holding the event loop all the while: with
1,000 games in play it took up to 79 ms of CPU about ten times a minute, whenever the
allocation counters said so (docs/performance.md). What start-up built is frozen out of
every collection (`gc.freeze`), and what survives each full collection is frozen too
(rulings P38, P50), so a full collection walks only what is newer than the last one.

How long it walks is then set by how much is new: a clock (every 10 s, P50) let 130-210 ms
of walking pile up when the process was overloaded. The counters start it instead, after
each collection of the middle generation (which moves its survivors into the oldest), and
the middle generation is collected every 5 young collections instead of 10 (ruling P57):
each full collection walks only the young generations and what one middle collection
moved on, however busy the process is; a clock collects only when they started none for
`full_every` seconds.

A cycle among frozen objects that later becomes garbage is freed only by a collection that
walks the frozen objects too, and that walk holds the loop as long as the process is large
(over 100 ms at 1,000 games). Few such cycles are made (discord.py's cycles around each
interaction are cut once the bot has answered, letgo.py; after 5 minutes of saturation
the frozen objects held none but the 6 that start-up's freeze strands), so everything is
walked only when the Python objects the process keeps (the blocks Python's allocator
holds) have grown `growth` times over since the last such walk: what such cycles strand
is bounded by what the process keeps, at a handful of walks over its life. And the walk
waits until no interaction is being handled and none arrived or was done for `quiet`
seconds, so that nobody is waiting on the loop while it walks; past `bound` times over it
walks anyway, so a process busy without a pause strands no more than that (ruling P61).
"""
from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time
from dataclasses import dataclass
from typing import Awaitable, Callable

log = logging.getLogger("ready_room.collector")
FULL_EVERY = 10.0  # the longest wait between two full collections, seconds
MIDDLE = 5  # young-generation collections between two of the middle one (Python's own: 10)
PROMOTED = 1  # middle-generation collections (each moves its survivors on) that start a full one
GROWTH = 2  # how many times over the process grows before a collection walks everything, once quiet
BOUND = 8  # how many times over it grows before that walk goes ahead, quiet or not
QUIET = 2.0  # seconds with no interaction arriving or done (and none in hand) that make the process quiet
LOOK = 1.0  # seconds between two looks at the schedule
COUNTED = gc.get_threshold()  # the process's own thresholds, given back when a collector stops


def allocated() -> int:
    """The memory blocks Python's allocator holds now: its small objects, among them every
    container a reference cycle is made of (only ratios of it are used). Read from its pools
    (about 0.1 ms at 3 million blocks), where counting the frozen objects walks them all."""
    return sys.getallocatedblocks()


@dataclass
class Collected:
    """What one full collection freed and took."""

    objects: int
    seconds: float  # CPU time of the collecting thread (the event loop waited that long)
    whole: bool  # whether it walked everything, the frozen objects too


class Collector:
    """Freezes what start-up built; from then on the allocation counters start a full
    collection every `promoted` middle-generation ones (each every `middle` young ones),
    and `run` starts one when `full_every` seconds passed without; what survives each is
    frozen. `run` walks everything, the frozen objects too, once the process grew `growth`
    times over (by `size`, Python's allocated blocks) since the last such walk and is quiet
    (no handler `minding` wraps is running, and `busy` was not called for `quiet` seconds by
    `clock`), or once it grew `bound` times over."""

    def __init__(self, full_every: float = FULL_EVERY, promoted: int = PROMOTED, growth: float = GROWTH,
                 middle: int = MIDDLE, size: Callable[[], int] = allocated, bound: float = BOUND,
                 quiet: float = QUIET, clock: Callable[[], float] = time.monotonic):
        self.full_every, self.promoted, self.growth, self.middle = full_every, promoted, growth, middle
        self.size, self.bound, self.quiet, self.clock = size, bound, quiet, clock
        self.last: Collected | None = None
        self.rounds = 0  # full collections run
        self.walked = 0  # the process's size at the last walk of everything (or start-up's freeze)
        self._heard = float("-inf")  # when `busy` was last called
        self._handling = 0  # handlers `minding` wraps that are running
        self._counted = (0, clock())  # (rounds, when `tend` first saw that many)
        self._began = 0.0  # when the running collection began (the thread's CPU clock)
        self._own = False  # whether `collect` is running (it keeps its own figures)

    def start(self) -> None:
        """Freeze what exists now (it lives as long as the process) and let the counters
        start a middle-generation collection every `middle` young ones and a full one
        every `promoted` middle ones, each followed by a freeze."""
        gc.freeze()
        self.walked = self.size()
        gc.set_threshold(COUNTED[0], self.middle, self.promoted - 1)  # CPython collects once a count is over it
        gc.callbacks.append(self._frozen)

    def stop(self) -> None:
        """Give the counters their own schedule back."""
        if self._frozen in gc.callbacks:
            gc.callbacks.remove(self._frozen)
        gc.set_threshold(*COUNTED)

    def collect(self, whole: bool = False) -> Collected:
        """One full collection now (of the frozen objects too, if `whole`), then what
        survived it is frozen."""
        self._own, began = True, time.thread_time()
        try:
            if whole:
                gc.unfreeze()
            objects = gc.collect()
            gc.freeze()
            # CPython starts a full collection only once the objects moved on since the last one
            # are a quarter of those that survived it: nothing survives this one, so a large walk
            # just done does not hold back the next small one
            gc.collect()
        finally:
            self._own = False
        if whole:
            self.walked = self.size()
        return self._done(objects, time.thread_time() - began, whole)

    def busy(self) -> None:
        """An interaction arrived or was done: the walk of everything waits for `quiet`
        seconds without either."""
        self._heard = self.clock()

    def minding(self, handler: Callable[..., Awaitable]) -> Callable[..., Awaitable]:
        """`handler` (an interaction's), counted while it runs: the walk of everything waits
        until none runs, then `quiet` seconds more."""
        async def handled(*args, **kwargs):
            self._handling += 1
            try:
                return await handler(*args, **kwargs)
            finally:
                self._handling -= 1
                self.busy()
        return handled

    def due(self) -> bool:
        """Whether everything is to be walked now: the process grew `growth` times over since
        the last such walk and is quiet, or it grew `bound` times over."""
        grown = self.size()
        quiet = not self._handling and self.clock() - self._heard >= self.quiet
        return grown > self.bound * self.walked or (grown > self.growth * self.walked and quiet)

    def tend(self) -> Collected | None:
        """What `run` does every LOOK seconds: walk everything if `due`, else a full
        collection if none ran for `full_every` seconds."""
        if self.due():
            return self.collect(whole=True)
        now = self.clock()
        if self.rounds != self._counted[0]:
            self._counted = (self.rounds, now)
        return self.collect() if now - self._counted[1] >= self.full_every else None

    def _done(self, objects: int, seconds: float, whole: bool) -> Collected:
        self.rounds += 1
        self.last = Collected(objects, seconds, whole)
        return self.last

    def _frozen(self, phase: str, info: dict) -> None:
        """A `gc.callbacks` hook: what survived a full collection the counters started is
        frozen (it runs on whichever thread allocated)."""
        if info["generation"] != 2 or self._own:
            return
        if phase == "start":
            self._began = time.thread_time()
            return
        gc.freeze()
        self._done(info["collected"], time.thread_time() - self._began, False)

    async def run(self) -> None:
        """`start`, then `tend` every LOOK seconds until cancelled (then `stop`)."""
        self.start()
        try:
            while True:
                await asyncio.sleep(min(LOOK, self.full_every))
                found = self.tend()
                if found is not None:
                    log.debug("full collection%s: %d objects freed in %.0f ms",
                              " of everything" if found.whole else "", found.objects, found.seconds * 1000)
        finally:
            self.stop()
