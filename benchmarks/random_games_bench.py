"""The large random-play runs: every game checked as the tests check theirs, with figures.

    python benchmarks/random_games_bench.py                      # both below
    python benchmarks/random_games_bench.py --only renegades     # the 200 Renegades games
    python benchmarks/random_games_bench.py --only tables        # 100 each of 3, 4 players, 2 vs 2

The tests play the first of these games (tests/test_renegades_random_games.py,
tests/test_random_games.py); this plays them all, with the same invariant, secrecy and
replay checks (a broken one stops the run with its assertion), and prints the games,
commands and seconds of each run, with the machine's load average.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests import test_random_games, test_renegades_random_games  # noqa: E402


def report(what: str, games: int, verbs: Counter, began: float) -> None:
    seconds = time.perf_counter() - began
    print(f"{what}: {games} games, {sum(verbs.values())} commands in {seconds:.0f} s "
          f"({games / seconds:.2f} games/s); load average {os.getloadavg()[0]:.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=["renegades", "tables"])
    parser.add_argument("--games", type=int, help="play only this many of each run (default: all)")
    args = parser.parse_args()
    if args.only in (None, "renegades"):
        began = time.perf_counter()
        games = args.games or test_renegades_random_games.ALL_GAMES
        report("Renegades", games, test_renegades_random_games.play_games(range(games)), began)
    if args.only in (None, "tables"):
        for table in test_random_games.TABLES:
            began = time.perf_counter()
            games = args.games or test_random_games.ALL_TABLE_GAMES
            verbs, _ = test_random_games.play_tables(table, range(games))
            report(f"Away Missions, {table}", games, verbs, began)


if __name__ == "__main__":
    main()
