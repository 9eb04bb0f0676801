"""What a phone receives in a game by post, over many games: the figures of issue 25.

Plays starter games by post (players answering ten minutes apart through the panels of
the fake Discord, at random or as the computer at easy would) to the end of round 3, one
per seed, at a table of two (the default), a 4-player free-for-all or 2 vs 2, and prints
the per-round figures against the targets (see tests/test_discord_quiet.py, which runs six
games of two and three of each bigger table, under both answering models):

    python3 -m benchmarks.quiet_bench [--games 30] [--first 1] [--table two|four|teams] [--answer random|easy]
                                      [--first-seat] [--reactions every|able|never]

A decision put to a team is answered by the teammate the table called; with --first-seat by
the first awaited in seat order, as before the table called only some teammates (P51-P53),
so the games are the same as an older tree's. --reactions gives every player that standing
reaction preference (P23; default: able, asked only when they could play), to see what the
others would cost.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import pytest  # noqa: E402  (its MonkeyPatch swaps discord.py's HTTP layer for the fake's)

from engine.service import reactions  # noqa: E402
from tests.test_discord_quiet import (BIGGER_TARGETS, FREE_FOR_ALL, TARGETS, TEAMS, TWO,  # noqa: E402
                                      against_targets, as_the_easy_computer, at_random, by_post, measured)

TABLES = {"two": (TWO, tuple(TARGETS)), "four": (FREE_FOR_ALL, BIGGER_TARGETS), "teams": (TEAMS, BIGGER_TARGETS)}
ANSWERS = {"random": at_random, "easy": as_the_easy_computer}


async def run(games: int, first: int, table: str, answer: str, first_seat: bool = False,
              preference: str = reactions.DEFAULT) -> None:
    """Play the games and print the figures."""
    seated, targets = TABLES[table]
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as monkeypatch:
        played = await by_post(monkeypatch, pathlib.Path(folder), range(first, first + games), seated, ANSWERS[answer],
                               first_seat, preference)
    print(f"{games} games by post, {seated.name}, answering {answer}" + (" by the first seat" if first_seat else "")
          + f", everybody {reactions.SHOWN[preference]}, rounds 1-3 ({time.perf_counter() - began:.0f} s):")
    print(against_targets(measured(played), targets))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--first", type=int, default=1, help="the first seed")
    parser.add_argument("--table", choices=TABLES, default="two")
    parser.add_argument("--answer", choices=ANSWERS, default="random", help="how the players answer")
    parser.add_argument("--first-seat", action="store_true",
                        help="a team decision is answered by the first seat asked, not the one called")
    parser.add_argument("--reactions", choices=reactions.CHOICES, default=reactions.DEFAULT,
                        help="every player's standing reaction preference")
    args = parser.parse_args()
    asyncio.run(run(args.games, args.first, args.table, args.answer, args.first_seat, args.reactions))


if __name__ == "__main__":
    main()
