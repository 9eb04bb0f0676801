"""Mentions of a 2 vs 2 set-up: from the start to the first placing, in a game whose mission
area is built (the corridor's side, six mission boards, the starting areas; ruling P64).

Seats a 2 vs 2 with `layout:build` through the fake Discord, answers every decision through
the panels ten minutes apart (by the teammate the table called, or by either at random; the
board or area chosen at random from the seed) and counts the mentions let through
(`allowed_mentions`) that call a team's set-up choice, the start's included:

    python3 -m benchmarks.setup_calls_bench [--games 5] [--first 1]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import pathlib
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import pytest  # noqa: E402  (its MonkeyPatch swaps discord.py's HTTP layer for the fake's)

from engine.service.team_calls import SET_UP  # noqa: E402
from tests.discord_harness import FakeDiscord, choose, open_panel  # noqa: E402
from tests.test_discord_game import PlayByPost, same_dice  # noqa: E402
from tests.test_discord_tables import MEMBERS, seat_teams  # noqa: E402

ANSWERS = ("called", "random")  # who answers a team's decision: the teammate called, or either


async def set_up_mentions(monkeypatch: pytest.MonkeyPatch, path: str, seed: int, answer: str) -> int:
    """The mentions calling a team's set-up choice in one game, up to the first placing."""
    clock = PlayByPost()
    async with FakeDiscord(monkeypatch, path, clock=clock) as fake:
        before = len(fake.sent)
        thread, game_id = await seat_teams(fake, layout="build")
        service, rng = fake.bot.service, random.Random(seed)
        guild = int(fake.channels[thread]["guild_id"])
        mentions = sum(fake.tally(before).pings.values())
        while (await service.view(game_id))["pending"][0]["kind"] != "place":
            awaited = [t.user_id for t in (await service.get(game_id)).awaited]
            uncalled = (await service.guild_setting(guild, f"table:{game_id}")).get("uncalled") or []
            user_id = rng.choice([u for u in awaited if u not in uncalled] if answer == "called" else awaited)
            _, commands = await service.legal_commands(game_id, user_id)
            sent = len(fake.sent)
            await choose(fake, MEMBERS[user_id], await open_panel(fake, MEMBERS[user_id], thread), commands,
                         rng.randrange(len(commands)))
            clock.now += clock.between_moves
            if any(d["kind"] in SET_UP for d in (await service.view(game_id))["pending"]):
                mentions += sum(fake.tally(sent).pings.values())
        return mentions


async def run(games: int, first: int) -> None:
    """Play the games under each answering model and print the mentions per game."""
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as monkeypatch:
        same_dice(monkeypatch)
        for answer in ANSWERS:
            counts = [await set_up_mentions(monkeypatch, str(pathlib.Path(folder) / f"{answer}-{seed}.db"), seed, answer)
                      for seed in range(first, first + games)]
            print(f"answered by {answer}: set-up mentions per game {counts}, mean {sum(counts) / len(counts):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--first", type=int, default=1, help="the first seed")
    args = parser.parse_args()
    asyncio.run(run(args.games, args.first))


if __name__ == "__main__":
    main()
