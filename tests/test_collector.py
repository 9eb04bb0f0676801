"""The bot's garbage-collection schedule (collector.py, ruling P38): start-up frozen, no
full collection started by the allocation counters, one on the schedule that frees the
cycles made since, and the counters' schedule given back when it stops."""
import asyncio
import gc
import weakref

from collector import NEVER, Collector


class Node:
    """Half of a reference cycle (freed by the collector, not by reference counts)."""


async def test_full_collections_run_on_the_schedule_and_free_cycles():
    before = gc.get_threshold()
    collector = Collector(full_every=0.01)
    task = asyncio.create_task(collector.run())
    try:
        await asyncio.sleep(0)
        assert gc.get_threshold() == (before[0], before[1], NEVER)  # the counters start no full collection
        assert gc.get_freeze_count() > 0  # what existed at start is out of every collection
        a, b = Node(), Node()
        a.other, b.other = b, a
        gc.collect(1)  # alive, so moved on to the oldest generation: only a full collection looks there now
        gone = weakref.ref(a)
        del a, b
        gc.collect(1)
        assert gone() is not None
        for _ in range(1000):  # until the scheduled collection has run (not a timing)
            if gone() is None and collector.last is not None:
                break
            await asyncio.sleep(0.01)
        assert gone() is None and collector.last.objects >= 2
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        gc.unfreeze()
    assert gc.get_threshold() == before
