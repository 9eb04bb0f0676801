"""How long the event loop is held while whole games are played through Discord interactions.

    python benchmarks/discord_game_bench.py [--games 3] [--seed 5]

Each game is played as tests/test_discord_game.py plays it (/game new, join, start, then
random legal commands through the panel or /play), against the fake Discord of
tests/discord_harness.py on an SQLite file. Every callback the event loop runs is timed from
the first command on (the bot's start is not play): the longest ones are printed (the
target: none over 100 ms, so Discord's heartbeat and other games are never held up), with
the machine's load average, since other processes skew the figures. Nothing is asserted.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.service_bench import CallbackTimer  # noqa: E402
from tests.discord_harness import FakeDiscord, choose, open_panel, user  # noqa: E402
from tests.test_discord_game import MEMBERS, PlayByPost, new_game  # noqa: E402


async def play(database: str, seed: int) -> tuple[int, list[float]]:
    """One game to its end: (commands played, every callback's seconds)."""
    clock = PlayByPost()
    async with FakeDiscord(pytest.MonkeyPatch(), database, clock=clock) as fake:
        with CallbackTimer(keep=True) as callbacks:
            thread, game_id = await new_game(fake)
            rng, steps = random.Random(seed), 0
            while (info := await fake.bot.service.get(game_id)).status == "active":
                turn = info.awaited[0]
                member = MEMBERS[turn.user_id]
                _, commands = await fake.bot.service.legal_commands(game_id, turn.user_id)
                index = rng.randrange(len(commands))
                if steps % 9 == 4:
                    await fake.dispatch(fake.slash(member, "play", thread, command=commands[index]))
                else:
                    await choose(fake, member, await open_panel(fake, member, thread), commands, index)
                steps += 1
                clock.now += clock.between_moves
    return steps, callbacks.taken


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    taken: list[float] = []
    commands = 0
    with tempfile.TemporaryDirectory() as folder:
        for game in range(args.games):
            steps, times = asyncio.run(play(os.path.join(folder, f"game{game}.db"), args.seed + game))
            commands += steps
            taken += times
    taken.sort(reverse=True)
    print(f"{args.games} games, {commands} commands, {len(taken)} callbacks; load average {os.getloadavg()[0]:.2f}")
    print("  longest callbacks: " + ", ".join(f"{t * 1000:.0f} ms" for t in taken[:5]))
    print(f"  callbacks over 100 ms: {sum(t > 0.1 for t in taken)}; over 50 ms: {sum(t > 0.05 for t in taken)}")


if __name__ == "__main__":
    main()
