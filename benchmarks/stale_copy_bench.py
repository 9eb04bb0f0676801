"""What a move costs when the process's copy of the game is behind (ruling P54).

    python benchmarks/stale_copy_bench.py [--games 100] [--rounds 4] [--db URL]

Two services share one database (a new SQLite file unless --db names an empty one). The
second holds every game in memory. In each round, for each game, it serves one move from
a copy that is up to date, then the first moves the awaited seat's deadline (a change beside
the moves, as a vacation or a call does, which moves the game's stamp on) and the second
serves the next move from its copy, now behind: its write is refused, the copy read again
and the move applied once more. Both kinds of move alternate game by game, so the machine's
load falls on both alike. Printed: the median and 95th percentile time of `submit` and the
statements it sent (db.watch) for each kind, their ratio, and the load average.
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

from benchmarks.service_bench import new_game  # noqa: E402
from db.call_store import CallStore  # noqa: E402
from engine.service import GameService  # noqa: E402


async def move(service: GameService, game_id: int, users: dict[str, int], counted: list[int]) -> float:
    """One legal move of the awaited player, served by `service`: the seconds `submit` took
    (its statements are added to `counted[0]`)."""
    info = await service.get(game_id)
    user = users[info.awaited[0].seat]
    version, commands = await service.legal_commands(game_id, user)
    counted[0] = 0
    began = time.perf_counter()
    await service.submit(game_id, user, commands[0], version)
    return time.perf_counter() - began


async def run(url: str, games: int, rounds: int) -> None:
    first, second = await GameService.open(url), await GameService.open(url)
    counted = [0]
    second.db.watch(lambda told: counted.__setitem__(0, counted[0] + 1))
    rng = random.Random(7)
    try:
        tables = [await new_game(first, 100 + n, rng) for n in range(games)]
        for game_id, _, _ in tables:
            await second.get(game_id)  # the second holds every game
        calls = CallStore(first.db)
        times: dict[str, list[float]] = {"up to date": [], "behind": []}
        statements: dict[str, list[int]] = {"up to date": [], "behind": []}
        for _ in range(rounds):
            for game_id, users, _ in tables:
                if (await second.get(game_id)).status != "active":
                    continue
                times["up to date"].append(await move(second, game_id, users, counted))
                statements["up to date"].append(counted[0])
                first.reload(game_id)  # the first's copy is behind the second's moves
                info = await first.get(game_id)
                if info.status != "active":
                    continue
                await calls.set_deadlines([(game_id, info.awaited[0].seat, time.time() + 3600)])
                times["behind"].append(await move(second, game_id, users, counted))
                statements["behind"].append(counted[0])
        print(f"{games} two-player Away Missions games, {rounds} rounds, {second.db.engine}; "
              f"load average {os.getloadavg()[0]:.1f}")
        for kind, seconds in times.items():
            seconds.sort()
            print(f"  {kind:>10}: {len(seconds)} moves, submit p50 {statistics.median(seconds) * 1000:.2f} ms, "
                  f"p95 {seconds[int(len(seconds) * 0.95)] * 1000:.2f} ms, "
                  f"statements {statistics.mean(statements[kind]):.1f} a move")
        print(f"  behind / up to date (p50): {statistics.median(times['behind']) / statistics.median(times['up to date']):.2f}x")
    finally:
        await first.close()
        await second.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--db", help="an empty database URL (default: a new SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(args.db or os.path.join(folder, "games.db"), args.games, args.rounds))


if __name__ == "__main__":
    main()
