"""What a round of the clock that resumes computer turns costs (ruling P60).

    python benchmarks/computer_sweep_bench.py [--people 500] [--stranded 50] [--rounds 20] [--db URL]

One database (a new SQLite file unless --db names an empty one) holds `--people` active
two-player games waiting on people and `--stranded` games against the computer (easy) whose
computer is to play, its wait older than the grace. Each round is one
`GameService.stranded_computers()` from a fresh service (nothing in memory, as after a
restart) and one from a service that holds every game, rounds alternating so the machine's
load falls on both alike; the games are listed, not played. Printed: the median and 95th
percentile time of a round, the statements it sent (db.watch), and the load average.
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

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.service_bench import BORG, FED, new_game  # noqa: E402
from engine.service import GameService, is_computer  # noqa: E402
from engine.service.service import COMPUTER_GRACE  # noqa: E402


async def stranded_game(service: GameService, channel: int) -> int:
    """Ann against the computer, her moves made until the computer is to play (not played)."""
    game = await service.create(creator=1, guild_id=10, channel_id=channel, seed=channel)
    await service.join(game.id, 1, "Ann", **FED)
    await service.add_computer(game.id, "easy", **BORG)
    await service.start(game.id, 1)
    while await service.computer_turn(game.id) is not None:
        pass
    while not any(is_computer(t.user_id) for t in (await service.get(game.id)).awaited):
        version, commands = await service.legal_commands(game.id, 1)
        await service.submit(game.id, 1, commands[0], version)
    return game.id


async def sweep(service: GameService, counted: list[int]) -> tuple[float, int, int]:
    """One round: (seconds, statements, games listed)."""
    counted[0] = 0
    began = time.perf_counter()
    games = await service.stranded_computers()
    return time.perf_counter() - began, counted[0], len(games)


async def run(url: str, people: int, stranded: int, rounds: int) -> None:
    now = [time.time()]
    holder = await GameService.open(url, clock=lambda: now[0])
    rng = random.Random(7)
    try:
        for n in range(people):
            await new_game(holder, 1000 + n, rng, guild_id=10)
        for n in range(stranded):
            await stranded_game(holder, 5000 + n)
        now[0] += COMPUTER_GRACE  # every wait is older than the grace
        later = now[0]
        counted = [0]
        holder.db.watch(lambda told: counted.__setitem__(0, counted[0] + 1))
        results: dict[str, list[tuple[float, int, int]]] = {"fresh service": [], "every game in memory": []}
        for _ in range(rounds):
            fresh = await GameService.open(url, clock=lambda: later)
            fresh.db.watch(lambda told: counted.__setitem__(0, counted[0] + 1))
            try:
                results["fresh service"].append(await sweep(fresh, counted))
            finally:
                await fresh.close()
            results["every game in memory"].append(await sweep(holder, counted))
        print(f"{people} games waiting on people, {stranded} on the computer past the grace, {rounds} rounds, "
              f"{holder.db.engine}; load average {os.getloadavg()[0]:.1f}")
        for kind, rows in results.items():
            seconds = sorted(r[0] for r in rows)
            print(f"  {kind:>21}: round p50 {statistics.median(seconds) * 1000:.1f} ms, "
                  f"p95 {seconds[int(len(seconds) * 0.95)] * 1000:.1f} ms, "
                  f"statements {statistics.mean(r[1] for r in rows):.0f}, games listed {rows[0][2]}")
    finally:
        await holder.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=500)
    parser.add_argument("--stranded", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--db", help="an empty database (default: a new SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(args.db or os.path.join(folder, "games.db"), args.people, args.stranded, args.rounds))


if __name__ == "__main__":
    main()
