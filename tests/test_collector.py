"""The bot's garbage-collection schedule (collector.py, rulings P38, P50, P57, P61): start-up
frozen, a full collection every few middle-generation ones or on the clock, what survives
it frozen, everything walked once the process has grown and is quiet (or has grown far),
and the counters' schedule given back when it stops."""
import asyncio
import gc
import weakref
from collections import Counter

from collector import MIDDLE, PROMOTED, QUIET, Collector, allocated


class Node:
    """Half of a reference cycle (freed by the collector, not by reference counts)."""


async def test_full_collections_run_on_the_schedule_and_free_cycles():
    before = gc.get_threshold()
    collector = Collector(full_every=0.01)
    task = asyncio.create_task(collector.run())
    try:
        await asyncio.sleep(0)
        assert gc.get_threshold() == (before[0], MIDDLE, PROMOTED - 1)  # a full collection every PROMOTED middle ones
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


def test_the_counters_start_a_full_collection_every_promoted_middle_ones_and_what_survives_is_frozen():
    """P57: with no clock, a full collection starts once `promoted` middle-generation
    collections moved survivors on; it frees cycles and freezes what survived, so the
    next one walks only what is newer."""
    collector = Collector(full_every=10 ** 6, promoted=2)
    collector.start()
    try:
        a, b = Node(), Node()
        a.other, b.other = b, a
        gc.collect(1)  # alive, so moved on to the oldest generation: only a full collection looks there now
        gone = weakref.ref(a)
        del a, b
        kept = []
        for _ in range(10 ** 6):  # surviving allocations, until the counters start one (not a timing)
            kept.append([])
            if collector.rounds:
                break
        assert collector.rounds == 1 and gone() is None and collector.last.objects >= 2
        assert not collector.last.whole
        assert not any(o is kept for o in gc.get_objects())  # it survived: frozen, walked no more
    finally:
        collector.stop()
        gc.unfreeze()


class Process:
    """A collector's view of the process, moved by hand: its size (what `Collector.size`
    reads) and the clock (`Collector.clock`)."""

    def __init__(self):
        self.size, self.now = 100, 1000.0

    def collector(self, **settings) -> Collector:
        return Collector(size=lambda: self.size, clock=lambda: self.now, **settings)


def _frozen_cycle(collector: Collector) -> weakref.ref:
    """A reference cycle that lived through a full collection (so it is frozen) and then
    died: only a walk of everything frees it. A weak reference to half of it."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    assert not collector.collect().whole  # a and b alive: frozen
    return gone


def test_everything_is_walked_only_once_the_process_grew_growth_times_over():
    """P57: a cycle that dies after it was frozen is left by the full collections (they
    walk only what is newer) and freed by the walk of everything, which `tend` makes once
    the process has grown `growth` times over since the last such walk; otherwise `tend`
    collects only when no full collection ran for `full_every` seconds."""
    process = Process()
    collector = process.collector(growth=2, full_every=10)
    collector.start()
    try:
        gone = _frozen_cycle(collector)
        assert collector.tend() is None  # one ran just now
        process.size, process.now = 200, process.now + 10  # grown twice over, not more
        assert not collector.tend().whole  # none for 10 s: a collection of what is new
        assert gone() is not None  # frozen: that collection did not walk it
        assert collector.tend() is None
        process.size = 201
        last = collector.tend()
        assert last.whole and gone() is None and last.objects >= 2
        assert collector.walked == 201  # the next walk of everything waits for twice as much again
        process.size = 400
        assert not collector.due()
    finally:
        collector.stop()
        gc.unfreeze()


def test_the_walk_of_everything_waits_while_interactions_arrive():
    """P61: grown past `growth`, the walk waits until no interaction arrived for `quiet`
    seconds; meanwhile the full collections go on walking only what is new."""
    process = Process()
    collector = process.collector(growth=2, bound=4, quiet=QUIET, full_every=10)
    collector.start()
    try:
        gone = _frozen_cycle(collector)
        process.size = 300
        for _ in range(20):  # an interaction every half second: never quiet
            collector.busy()
            process.now += QUIET / 4
            assert not collector.due()
            found = collector.tend()
            assert found is None or not found.whole
        assert gone() is not None and collector.walked == 100
    finally:
        collector.stop()
        gc.unfreeze()


def test_the_walk_of_everything_runs_once_quiet():
    """P61: `quiet` seconds after the last interaction, the grown process walks everything,
    freeing the frozen cycle; not a moment before."""
    process = Process()
    collector = process.collector(growth=2, bound=4, quiet=QUIET)
    collector.start()
    try:
        gone = _frozen_cycle(collector)
        process.size = 300
        collector.busy()
        process.now += QUIET * 0.9
        assert not collector.due()
        process.now += QUIET * 0.1
        last = collector.tend()
        assert last.whole and gone() is None and last.objects >= 2
        assert collector.walked == 300 and not collector.due()
    finally:
        collector.stop()
        gc.unfreeze()


def test_the_walk_of_everything_goes_ahead_past_the_bound_however_busy():
    """P61: grown more than `bound` times over, the process walks everything even with an
    interaction just arrived, so a process never quiet strands no more than that."""
    process = Process()
    collector = process.collector(growth=2, bound=4, quiet=QUIET)
    collector.start()
    try:
        gone = _frozen_cycle(collector)
        process.size = 400  # four times over, not more
        collector.busy()
        assert not collector.due()
        process.size = 401
        collector.busy()
        last = collector.tend()
        assert last.whole and gone() is None and collector.walked == 401
    finally:
        collector.stop()
        gc.unfreeze()


def test_the_size_is_what_python_objects_hold():
    """P61: the walk of everything follows the Python objects kept (where the cycles are),
    not memory held outside them, such as a picture's pixels."""
    from PIL import Image
    before = allocated()
    kept = [[n] for n in range(100_000)]
    assert allocated() > before + 100_000
    before = allocated()
    picture = Image.new("RGBA", (2000, 2000))  # 16 MB of pixels
    assert allocated() < before + 1000
    del kept, picture


async def test_the_walk_of_everything_waits_while_an_interaction_is_handled():
    """P61: however long an interaction's handler runs, the walk waits for it, then for
    `quiet` seconds after it is done."""
    process = Process()
    collector = process.collector(growth=2, bound=8, quiet=QUIET)
    collector.walked, process.size = 100, 300  # grown three times over since its last walk
    done = asyncio.Event()

    async def handler(answer):
        await done.wait()
        return answer
    handling = asyncio.create_task(collector.minding(handler)("Done"))
    await asyncio.sleep(0)
    process.now += QUIET * 10
    assert not collector.due()  # still being handled
    done.set()
    assert await handling == "Done"
    assert not collector.due()
    process.now += QUIET
    assert collector.due()


async def test_the_bot_tells_its_collector_of_each_interaction():
    """P61: an interaction discord.py takes in, and each slash command or click on our items
    the bot handles, keep the walk of everything waiting."""
    import pytest

    from bot import Config, ReadyRoom
    process = Process()
    bot = ReadyRoom(Config(token=None, database=":memory:", dev_guild=None))
    collector = bot.collector
    collector.size, collector.clock = (lambda: process.size), (lambda: process.now)
    collector.walked, process.size = 100, 300  # grown three times over since its last walk
    assert collector.due()  # nothing heard yet
    bot.dispatch("interaction", object())
    assert not collector.due()
    bot.dispatch("resumed")  # another gateway event: not an interaction
    process.now += QUIET
    assert collector.due()
    for handle, called in ((bot.tree._call, (None,)),
                           (bot._connection._view_store.schedule_dynamic_item_call, (None,) * 5)):
        with pytest.raises(Exception):
            await handle(*called)  # not a real interaction: it fails, and was handled all the same
        assert not collector.due()
        process.now += QUIET
        assert collector.due()


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


def _ours(garbage: list) -> Counter:
    """Objects of discord.py and of the bot among `garbage`, and picture buffers, by type."""
    return Counter(type(o).__qualname__ for o in garbage
                   if type(o).__module__.split(".")[0] in ("discord", "cogs", "engine", "bot", "_io"))


async def test_a_game_played_through_discord_leaves_no_cycle_of_discord_objects(tmp_path, monkeypatch):
    """letgo.py: a slash command, the lobby's buttons, the panel's "Your move" and the
    command picked in it leave nothing of discord.py's (interactions, their responses and
    messages, rebuilt views, the pictures' buffers) or of ours for a full collection:
    reference counting frees it."""
    import random

    from tests.discord_harness import FakeDiscord, play
    from tests.test_discord_game import MEMBERS, PlayByPost, new_game, same_dice
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "game.db"), clock=PlayByPost()) as fake:
        fake.guild()  # announced, as the gateway does
        await new_game(fake)  # caches filled, start-up done
        gc.collect()
        gc.disable()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            thread, game_id = await new_game(fake, channel=4242)  # /game new, join, start
            await play(fake, game_id, thread, MEMBERS, random.Random(3), 6)
            gc.collect()
            left = _ours(gc.garbage)
        finally:
            gc.garbage.clear()
            gc.set_debug(0)
            gc.enable()
    assert not left, left


def _kept(types: tuple) -> Counter:
    """Live objects of `types` by type, frozen ones too (the collector freezes survivors)."""
    gc.collect()
    gc.unfreeze()
    try:
        return Counter(type(o).__qualname__ for o in gc.get_objects() if isinstance(o, types))
    finally:
        gc.freeze()


async def test_what_the_bot_keeps_does_not_grow_with_the_moves_played(tmp_path, monkeypatch):
    """Nothing of an answered interaction stays alive (the interaction, its response, the
    views rebuilt from the clicked messages, the tasks that ran it): twelve more moves
    leave as many of them as four did, so none piles up for the full collections to walk."""
    import random

    import discord

    from tests.discord_harness import FakeDiscord, play
    from tests.test_discord_game import MEMBERS, PlayByPost, new_game, same_dice
    same_dice(monkeypatch)
    watched = (discord.Interaction, discord.InteractionResponse, discord.ui.View, discord.ui.Item, asyncio.Task)
    try:
        async with FakeDiscord(monkeypatch, str(tmp_path / "game.db"), clock=PlayByPost()) as fake:
            fake.guild()
            thread, game_id = await new_game(fake)
            rng = random.Random(5)
            await play(fake, game_id, thread, MEMBERS, rng, 4)
            after_four = _kept(watched)
            await play(fake, game_id, thread, MEMBERS, rng, 12)
            assert _kept(watched) == after_four
            assert after_four[discord.Interaction.__qualname__] == 0
    finally:
        gc.unfreeze()


async def test_a_command_that_failed_keeps_its_response_for_the_error_handler():
    """letgo.command_call lets the response go after a command, not after one that raised:
    the tree's error handler still answers through it."""
    import pytest

    from letgo import command_call

    class Asked:
        def __init__(self):
            self._cs_response = "answered"  # where discord.py keeps an interaction's response

    async def fails(interaction):
        raise RuntimeError("the command failed")

    async def runs(interaction):
        pass
    failed, done = Asked(), Asked()
    with pytest.raises(RuntimeError):
        await command_call(fails)(failed)
    await command_call(runs)(done)
    assert failed._cs_response == "answered" and not hasattr(done, "_cs_response")
