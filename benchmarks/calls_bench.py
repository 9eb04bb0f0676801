"""Notifications a player gets a day, in many games by post, with and without calls at
most every N hours (issue 25 item 4): the figures of docs/discord.md "Calls at most every
N hours".

Ann and Bo play 1, 5 and 10 games by post in the fake Discord (tests/test_discord_calls.py
`by_post`: Bo answers every waiting game when something notified him, Ann at once; a 4 h
limit per decision with the stand-in on), once with Bo mentioned at every hand-over and
once with `/settings calls every_hours:8`, and prints what Bo received:

    python3 -m benchmarks.calls_bench [--hours 30] [--games 1 5 10]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import pathlib
import random
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import pytest  # noqa: E402  (its MonkeyPatch swaps discord.py's HTTP layer for the fake's)

from tests.discord_harness import GUILD_ID, FakeDiscord  # noqa: E402
from tests.test_discord_calls import LIMIT, by_post  # noqa: E402
from tests.test_discord_game import BO, same_dice  # noqa: E402
from tests.test_discord_turns import Clock  # noqa: E402


async def one(folder: pathlib.Path, count: int, every: int, hours: float) -> str:
    """Play `count` games for `hours` with Bo's calls every `every` hours (0: off); the figures."""
    clock = Clock()
    with pytest.MonkeyPatch.context() as monkeypatch:
        same_dice(monkeypatch)
        async with FakeDiscord(monkeypatch, str(folder / f"calls-{count}-{every}.db"), clock=clock) as fake:
            await fake.dispatch(fake.slash(BO, "settings calls", every_hours=every))
            await fake.bot.service.set_guild_setting(GUILD_ID, "turn_limit", LIMIT)
            await fake.bot.service.set_guild_setting(GUILD_ID, "computer_stands_in", True)
            began = time.perf_counter()
            played = await by_post(fake, clock, count, hours, random.Random(count))
            took = time.perf_counter() - began
    return f"  calls {'every %d h' % every if every else 'off':>10}: {played.line(hours)} ({took:.0f} s)"


async def run(counts: list[int], hours: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for count in counts:
            for every in (0, 8):
                print(await one(pathlib.Path(folder), count, every, hours), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=float, default=30.0)
    parser.add_argument("--games", type=int, nargs="+", default=[1, 5, 10])
    args = parser.parse_args()
    asyncio.run(run(args.games, args.hours))


if __name__ == "__main__":
    main()
