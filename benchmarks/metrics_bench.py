"""What the operators' metrics cost a move, and what a scrape costs.

    python benchmarks/metrics_bench.py [--games 6] [--moves 30]

Two-player Away Missions games through the fake Discord of tests/discord_harness.py, each
played twice with the same dice and the same random choices: once with the metrics off,
once with them on (READY_ROOM_METRICS_PORT, here any free port), in turns (off, on, off,
on ...) so the machine's load falls on both alike. Each move is a player opening the panel
and clicking a command; the CPU time of the click is measured (time.process_time, so
other processes do not count). Printed: the median and 95th percentile per move off and
on, their ratio, and for the last game with metrics, the size of /metrics and the time to
fetch it over HTTP.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from types import SimpleNamespace
from typing import Optional

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from pytest import MonkeyPatch  # noqa: E402  (the harness patches discord.py's HTTP layer with it)

import engine.service.service as service_module  # noqa: E402
from tests.discord_harness import FakeDiscord, choose, open_panel  # noqa: E402
from tests.test_discord_game import ANN, BO, new_game  # noqa: E402


async def game(path: str, dice: int, moves: int, port: Optional[int]) -> tuple[list[float], Optional[tuple[int, float]]]:
    """CPU seconds of each move's click; with metrics on, (bytes, seconds) of one scrape at the end."""
    patch = MonkeyPatch()
    patch.setattr(service_module, "secrets", SimpleNamespace(randbits=lambda bits: dice))
    spent: list[float] = []
    scraped = None
    try:
        async with FakeDiscord(patch, path, metrics_port=port) as fake:
            thread, game_id = await new_game(fake)
            rng, members = random.Random(dice), {int(ANN["id"]): ANN, int(BO["id"]): BO}
            for _ in range(moves):
                info = await fake.bot.service.get(game_id)
                if info.status != "active":
                    break
                member = members[info.awaited[0].user_id]
                _, commands = await fake.bot.service.legal_commands(game_id, int(member["id"]))
                panel = await open_panel(fake, member, thread)
                began = time.process_time()
                await choose(fake, member, panel, commands, rng.randrange(len(commands)))
                spent.append(time.process_time() - began)
            if fake.bot.metrics is not None:
                url = f"http://127.0.0.1:{fake.bot.metrics.port}/metrics"
                began = time.perf_counter()
                text = await asyncio.to_thread(lambda: urllib.request.urlopen(url, timeout=30).read())
                scraped = (len(text), time.perf_counter() - began)
    finally:
        patch.undo()
    return spent, scraped


def quantile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q * 100) - 1]


async def run(games: int, moves: int, folder: str) -> None:
    off: list[float] = []
    on: list[float] = []
    scraped = None
    for n in range(games):
        off += (await game(os.path.join(folder, f"off-{n}.db"), n + 1, moves, None))[0]
        spent, scraped = await game(os.path.join(folder, f"on-{n}.db"), n + 1, moves, 0)
        on += spent
    print(f"load average {os.getloadavg()[0]:.1f}; {len(off)} moves each way")
    for name, values in (("off", off), ("on", on)):
        print(f"  metrics {name:3}: p50 {statistics.median(values) * 1000:6.2f} ms CPU, "
              f"p95 {quantile(values, 0.95) * 1000:6.2f} ms")
    print(f"  on/off: p50 {statistics.median(on) / statistics.median(off):.2f}x, "
          f"p95 {quantile(on, 0.95) / quantile(off, 0.95):.2f}x")
    if scraped:
        print(f"  /metrics: {scraped[0]} bytes, fetched in {scraped[1] * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--moves", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(args.games, args.moves, folder))


if __name__ == "__main__":
    main()
