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


async def test_a_sent_view_of_dynamic_items_lets_them_go_without_a_collection():
    """P38: after discord.py stores a sent panel view, its items no longer refer to it, so
    reference counting frees them at once; a view with a callback of its own is kept whole."""
    import discord

    from bot import Config, ReadyRoom
    from cogs.buttons import CommandButton, CommandPick
    bot = ReadyRoom(Config(token=None, database=":memory:", dev_guild=None))
    panel = discord.ui.View(timeout=None)
    panel.add_item(CommandPick(7, 3, 0, "Move", [discord.SelectOption(label=c, value=str(n))
                                                 for n, c in enumerate(("move A1", "move A2"))]))
    panel.add_item(CommandButton(7, 3, 2, "Pass"))
    pick = weakref.ref(panel.children[0])
    gc.disable()
    try:
        bot._connection.store_view(panel, 1234)
        assert panel.children == []
        del panel
        assert pick() is None  # freed by reference counting: no collection ran
    finally:
        gc.enable()
    own = discord.ui.View(timeout=None)
    own.add_item(discord.ui.Button(label="Other", custom_id="other"))
    bot._connection.store_view(own, 1235)
    assert len(own.children) == 1
