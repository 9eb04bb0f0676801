"""Drive many concurrent games through the GameService (rules + commit, no images).

    python benchmarks/service_bench.py [--games 200] [--seconds 10] [--think 1.0]
    python benchmarks/service_bench.py --games 1000 --seconds 20   # 1,000 hot games

Each game has simulated players: wait a random think time (exponential, mean --think
seconds; 0 = no pause), ask for the legal commands, submit one at random. Latency is
measured around `submit` alone (lock, rules, commit). A second run with no think time
shows the most commands per second the service can take. Figures are printed, not asserted;
the machine's load average is printed too, since other processes skew the tail. Every
callback the event loop runs is timed: the longest one is printed (the target: none over
50 ms, so Discord's heartbeat and other games are never held up). After each run, the
memory a game held in memory costs is printed: the games played are dropped from memory,
then loaded again while tracemalloc counts what they allocate.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import heapq
import os
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from typing import Optional

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.service import GameService  # noqa: E402

FED = dict(affiliation="federation", team="federation-away-team", deck="federation-starter")
BORG = dict(affiliation="borg", team="borg-away-team", deck="borg-starter")
STALLS = 100  # callbacks over 50 ms of CPU named one by one (CallbackTimer.stalls)


async def new_game(service: GameService, channel: int, rng: random.Random, *, guild_id: Optional[int] = None,
                   thread_id: Optional[int] = None):
    """Open, fill and start a game in `channel` (or a thread of it, in a guild); returns
    (game id, users by seat, update). Its users are the place's number times 2, plus 1."""
    place = thread_id or channel
    users = {"p1": place * 2, "p2": place * 2 + 1}
    game = await service.create(creator=users["p1"], guild_id=guild_id, channel_id=channel, thread_id=thread_id,
                                seed=rng.randrange(2**40))
    await service.join(game.id, users["p1"], "Ann", **FED)
    await service.join(game.id, users["p2"], "Bo", **BORG)
    return game.id, users, await service.start(game.id, users["p1"])


async def table(service, channel, game, think, until, latencies, rng):
    """One channel's players: play until the clock runs out, a new game after each ending."""
    game_id, users, update = game
    while True:
        if think:
            await asyncio.sleep(min(rng.expovariate(1 / think), max(0.0, until - time.perf_counter())))
        if time.perf_counter() >= until:
            return
        if update.status != "active":
            game_id, users, update = await new_game(service, channel, rng)
            continue
        user = users[update.awaited[0].seat]
        version, commands = await service.legal_commands(game_id, user)
        command = rng.choice(commands)
        start = time.perf_counter()
        update = await service.submit(game_id, user, command, version)
        latencies.append(time.perf_counter() - start)


def ran(handle) -> str:
    """What an event-loop callback ran: a task's coroutine by name (a task's step is
    otherwise just "task_wakeup"), else the callback itself."""
    task = getattr(getattr(handle, "_callback", None), "__self__", None)
    code = getattr(task.get_coro(), "cr_code", None) if isinstance(task, asyncio.Task) else None
    return f"task {code.co_qualname} ({code.co_filename.rsplit('/', 1)[-1]})" if code else repr(handle)[:300]


class CallbackTimer:
    """Times every callback the event loop runs (asyncio.Handle._run), to find the longest
    stretch one of them held the loop: a command, a flush, a garbage collection inside one.
    With `keep`, every callback's seconds are kept in `taken` too; with `slowest`, each one
    over 50 ms of CPU in `stalls` (the first STALLS of them)."""

    def __init__(self, keep: bool = False, slowest: int = 0):
        self.longest, self.over_50ms, self._original = 0.0, 0, asyncio.events.Handle._run
        self.taken: Optional[list[float]] = [] if keep else None
        self.slowest: list[tuple] = []  # with `slowest`: the longest callbacks' (seconds, CPU seconds, what ran)
        self._keep_slowest, self._closed = slowest, False
        self.over_50ms_cpu = 0  # with `slowest`: callbacks that took over 50 ms of the loop thread's CPU
        self.stalls: list[tuple] = []  # with `slowest`: those callbacks' (seconds in, seconds, CPU seconds, what ran)
        self._entered = 0.0

    def __enter__(self) -> "CallbackTimer":
        original, timer = self._original, self

        def timed(handle):
            began, began_cpu = time.perf_counter(), time.thread_time() if timer._keep_slowest else 0.0
            try:
                return original(handle)
            finally:
                took = time.perf_counter() - began
                if timer._closed:  # the callback that left the timer: what it did afterwards is not play
                    return
                timer.longest = max(timer.longest, took)
                timer.over_50ms += took > 0.05
                if timer.taken is not None:
                    timer.taken.append(took)
                cpu = time.thread_time() - began_cpu if timer._keep_slowest else 0.0
                timer.over_50ms_cpu += cpu > 0.05
                if cpu > 0.05 and len(timer.stalls) < STALLS:
                    timer.stalls.append((began - timer._entered, took, cpu, ran(handle)))
                if timer._keep_slowest and (len(timer.slowest) < timer._keep_slowest or took > timer.slowest[0][0]):
                    heapq.heappush(timer.slowest, (took, cpu, ran(handle)))
                    if len(timer.slowest) > timer._keep_slowest:
                        heapq.heappop(timer.slowest)
        asyncio.events.Handle._run = timed
        self._entered = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        asyncio.events.Handle._run = self._original
        self._closed = True


class CollectionTimer:
    """Times every garbage collection (gc.callbacks): the longest per generation (wall
    clock, and the collecting thread's CPU time: on a loaded machine the wall clock also
    counts the time other processes had the core), how many ran, and those over `over`
    seconds, to tell a collection's pause from a command's."""

    def __init__(self, over: float = 0.02):
        self.over, self.longest, self.count, self.slow = over, [0.0] * 3, [0] * 3, []
        self.longest_cpu = [0.0] * 3  # the same in CPU time: what the collection itself took
        self.full_cpu: list[float] = []  # CPU seconds of every full (generation 2) collection
        self._began = self._began_cpu = 0.0

    def _timed(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._began, self._began_cpu = time.perf_counter(), time.thread_time()
            return
        took, generation = time.perf_counter() - self._began, info["generation"]
        self.longest[generation] = max(self.longest[generation], took)
        cpu = time.thread_time() - self._began_cpu
        self.longest_cpu[generation] = max(self.longest_cpu[generation], cpu)
        if generation == 2:
            self.full_cpu.append(cpu)
        self.count[generation] += 1
        if took > self.over:
            self.slow.append((generation, took))

    def __enter__(self) -> "CollectionTimer":
        gc.callbacks.append(self._timed)
        return self

    def __exit__(self, *exc) -> None:
        gc.callbacks.remove(self._timed)


def log_tail_per_game(service: GameService) -> float:
    """Bytes each game in memory keeps of its newest log entries (empty just after a load, so
    memory_per_game leaves them out): the entries' text and the deque holding them."""
    hot = list(service._hot.values())  # a benchmark may look inside: the figure is the service's own
    return sum(sys.getsizeof(h.tail) + sum(map(sys.getsizeof, h.tail)) for h in hot) / max(1, len(hot))


async def memory_per_game(service: GameService) -> tuple[int, float]:
    """(games, bytes each) that the games now in memory cost: they are dropped, then loaded
    again under tracemalloc (their states as the players left them)."""
    played = sorted(service.hot_games)
    service.evict_idle(time.time() + 10 ** 9)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for game_id in played:
            await service.get(game_id)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    return len(played), held / len(played)


async def run(games: int, seconds: float, think: float, seed: int) -> None:
    """Set up `games` games, then play them all for `seconds` and print the figures."""
    with tempfile.TemporaryDirectory() as folder:
        service = await GameService.open(os.path.join(folder, "bench.db"))
        latencies: list[float] = []
        rng = random.Random(seed)
        tables = [await new_game(service, n + 1, rng) for n in range(games)]
        load = os.getloadavg()[0]
        until = time.perf_counter() + seconds
        began, cpu = time.perf_counter(), time.process_time()
        with CallbackTimer() as callbacks:
            await asyncio.gather(*(table(service, n + 1, game, think, until, latencies, random.Random(rng.random()))
                                   for n, game in enumerate(tables)))
        elapsed, cpu = time.perf_counter() - began, time.process_time() - cpu
        tail = log_tail_per_game(service)
        held, each = await memory_per_game(service)
        await service.close()
    ms = sorted(x * 1000 for x in latencies)
    p95 = ms[int(len(ms) * 0.95)]
    p99 = ms[int(len(ms) * 0.99)]
    mode = f"think {think * 1000:.0f} ms mean" if think else "no think time (saturated)"
    print(f"{games} games, {mode}, {elapsed:.1f} s: {len(ms)} commands, {len(ms) / elapsed:.0f} commands/s"
          f" (load average before {load:.2f}; {cpu / len(ms) * 1000:.2f} ms CPU per command,"
          " players included)")
    print(f"  submit latency: median {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms, "
          f"p99 {p99:.2f} ms, max {ms[-1]:.2f} ms")
    print(f"  longest single callback {callbacks.longest * 1000:.0f} ms; "
          f"{callbacks.over_50ms} callbacks over 50 ms")
    print(f"  memory: {each / 1024:.1f} KB per game held in memory ({held} games, as played), and"
          f" {tail / 1024:.1f} KB of log entries kept after play (LOG_TAIL, for re-roll pictures)")


def main() -> None:
    """Parse options and run the paced and the saturated benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each run (default 10)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean think time per command in seconds (default 1.0)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(run(args.games, args.seconds, args.think, args.seed))
    asyncio.run(run(args.games, args.seconds, 0.0, args.seed))


if __name__ == "__main__":
    main()
