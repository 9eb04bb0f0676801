"""How many database statements one Discord move costs, by statement.

    python benchmarks/statements_bench.py [--moves 20] [--seed 1]

A two-player Away Missions game through the fake Discord of tests/discord_harness.py (the
real discord.py dispatch, no network): each move is a player opening the private panel and
clicking a random legal command. Every statement the bot sends to SQLite while the click is
handled (the commit, the table record, pings, reminders, settings read) is counted; the
average per move is printed, most frequent first. On PostgreSQL each is a round trip.
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from pytest import MonkeyPatch  # noqa: E402  (the harness patches discord.py's HTTP layer with it)

from db import sqlite_backend  # noqa: E402
from tests.discord_harness import FakeDiscord, choose, open_panel  # noqa: E402
from tests.test_discord_game import ANN, BO, new_game  # noqa: E402

COUNTED = ("fetch", "execute", "insert", "execute_many", "apply_game_writes")


def count_statements(counts: collections.Counter, recording: list[bool]) -> MonkeyPatch:
    """Patch the SQLite connection so each statement sent while `recording[0]` is counted."""
    patch = MonkeyPatch()
    for name in COUNTED:
        original = getattr(sqlite_backend.SqliteConnection, name)

        async def counted(self, sql, *args, _original=original, _name=name, **kwargs):
            if recording[0]:
                words = "game writes (the commit)" if _name == "apply_game_writes" else " ".join(str(sql).split())
                counts[words[:100]] += 1
            return await _original(self, sql, *args, **kwargs)
        patch.setattr(sqlite_backend.SqliteConnection, name, counted)
    return patch


async def run(moves: int, seed: int, path: str) -> collections.Counter:
    counts: collections.Counter = collections.Counter()
    recording = [False]
    patch, harness = count_statements(counts, recording), MonkeyPatch()
    try:
        async with FakeDiscord(harness, path) as fake:
            thread, game_id = await new_game(fake)
            rng, members = random.Random(seed), {int(ANN["id"]): ANN, int(BO["id"]): BO}
            for _ in range(moves):
                info = await fake.bot.service.get(game_id)
                if info.status != "active":
                    break
                member = members[info.awaited[0].user_id]
                _, commands = await fake.bot.service.legal_commands(game_id, int(member["id"]))
                panel = await open_panel(fake, member, thread)
                recording[0] = True
                await choose(fake, member, panel, commands, rng.randrange(len(commands)))
                recording[0] = False
                counts["(moves)"] += 1
    finally:
        harness.undo()
        patch.undo()
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        counts = asyncio.run(run(args.moves, args.seed, os.path.join(folder, "games.db")))
    moves = counts.pop("(moves)", 0) or 1
    print(f"{moves} moves; statements per move: {sum(counts.values()) / moves:.2f}")
    for words, count in counts.most_common():
        print(f"  {count / moves:5.2f}  {words}")


if __name__ == "__main__":
    main()
