"""Reference cycles a move leaves behind in the bot, by type: what only a full garbage
collection frees (and so what makes the full collections long, docs/performance.md).

    python benchmarks/cycles_bench.py [--moves 30] [--seed 5]

An Away Missions game is played through the fake Discord of tests/discord_harness.py (the
panel opened, a command clicked, as a player does); after a few warm-up moves the
collector is switched off and told to keep what it would free (gc.DEBUG_SAVEALL), then
`--moves` moves are played and one collection shows every object that was garbage only
through a cycle. The fake Discord's own objects are counted too (its payloads are
dictionaries and lists). Nothing is asserted.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import sys
import tempfile
from collections import Counter

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.discord_harness import FakeDiscord, choose, open_panel  # noqa: E402
from tests.test_discord_game import MEMBERS, PlayByPost, new_game, same_dice  # noqa: E402

WARM_UP = 5  # moves before counting: caches filled, the first panels drawn


async def cycles(database: str, moves: int, seed: int) -> tuple[int, Counter]:
    """(moves counted, objects freed only through cycles, by type)."""
    clock, patch = PlayByPost(), pytest.MonkeyPatch()
    same_dice(patch)
    async with FakeDiscord(patch, database, clock=clock) as fake:
        fake.guild()  # the server announced, as the gateway does: interactions find it cached
        thread, game_id = await new_game(fake)
        rng, played = random.Random(seed), 0

        async def move() -> bool:
            info = await fake.bot.service.get(game_id)
            if info.status != "active":
                return False
            user_id = info.awaited[0].user_id
            member = MEMBERS[user_id]
            _, commands = await fake.bot.service.legal_commands(game_id, user_id)
            await choose(fake, member, await open_panel(fake, member, thread), commands, rng.randrange(len(commands)))
            return True
        for _ in range(WARM_UP):
            await move()
        gc.collect()
        gc.disable()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            while played < moves and await move():
                played += 1
            gc.collect()
            found = Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage)
        finally:
            gc.garbage.clear()
            gc.set_debug(0)
            gc.enable()
    return played, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        played, found = asyncio.run(cycles(os.path.join(folder, "game.db"), args.moves, args.seed))
    print(f"{played} moves: {sum(found.values()) / played:.0f} objects a move freed only through cycles")
    for name, count in found.most_common(20):
        print(f"  {count / played:7.1f}  {name}")


if __name__ == "__main__":
    main()
