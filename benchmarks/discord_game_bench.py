"""Throughput and the event loop while whole games are played through Discord interactions.

    python benchmarks/discord_game_bench.py [--games 3] [--seed 5] [--ruleset renegades]

Each game is played as tests/test_discord_game.py plays it (/game new, join, start, then
random legal commands through the panel or /play), against the fake Discord of
tests/discord_harness.py on an SQLite file, the real bot drawing and uploading its pictures.
With --ruleset renegades the games are the quicker Renegades game (Coalition against
Renegades, the courier mission: the crews go down to the planet at once), so the orbital
board, the surface and both dice boards are in play.
From the first command on (the bot's start is not play) this prints:

- actions per CPU-second: commands played over the process's CPU time (every thread: the
  pictures are drawn on workers), with the pictures; the target is 40 on one core. The
  CPU includes the players' side of the fake Discord (payloads built, answers read), so
  the bot alone does a little better;
- requests per action: every request the bot made to Discord (interaction answers
  included), those that count against the REST rate limits (not interaction answers),
  and picture files uploaded;
- the longest event-loop callbacks (the target: none over 100 ms here, 50 ms at scale),
  with the machine's load average, since other processes skew the figures.

Nothing is asserted.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.service_bench import CallbackTimer  # noqa: E402
from tests.discord_harness import FakeDiscord, choose, open_panel  # noqa: E402
from tests.test_discord_game import MEMBERS, PlayByPost, new_game, same_dice  # noqa: E402
from tests.test_discord_renegades import new_renegades_game  # noqa: E402


@dataclass
class Played:
    """What one game through the fake Discord took, from its first command on."""

    commands: int
    cpu: float  # seconds of process CPU
    requests: int  # every request to Discord
    rest: int  # of which not interaction answers
    files: int  # picture files uploaded
    callbacks: list[float]  # every event-loop callback's seconds


async def play(database: str, seed: int, ruleset: str) -> Played:
    """One game to its end."""
    clock, patch = PlayByPost(), pytest.MonkeyPatch()
    same_dice(patch)  # every game rolls alike: two trees compared play the same games
    async with FakeDiscord(patch, database, clock=clock) as fake:
        thread, game_id = await (new_renegades_game(fake) if ruleset == "renegades" else new_game(fake))
        since, cpu = len(fake.sent), time.process_time()
        with CallbackTimer(keep=True) as callbacks:
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
        cpu = time.process_time() - cpu
        sent = fake.sent[since:]
        return Played(steps, cpu, len(sent), sum(r.rest for r in sent), sum(len(r.files) for r in sent),
                      callbacks.taken)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--ruleset", choices=("awaymissions", "renegades"), default="awaymissions")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        games = [asyncio.run(play(os.path.join(folder, f"game{game}.db"), args.seed + game, args.ruleset))
                 for game in range(args.games)]
    commands = sum(g.commands for g in games)
    cpu = sum(g.cpu for g in games)
    taken = sorted((t for g in games for t in g.callbacks), reverse=True)
    print(f"{args.games} games, {commands} commands, {len(taken)} callbacks; load average {os.getloadavg()[0]:.2f}")
    print(f"  {commands / cpu:.1f} actions per CPU-second with pictures ({cpu * 1000 / commands:.1f} ms CPU each, "
          f"the fake Discord's players included)")
    print(f"  per action: {sum(g.requests for g in games) / commands:.2f} requests to Discord, "
          f"{sum(g.rest for g in games) / commands:.2f} of them REST (not interaction answers), "
          f"{sum(g.files for g in games) / commands:.2f} picture files uploaded")
    print("  longest callbacks: " + ", ".join(f"{t * 1000:.0f} ms" for t in taken[:5]))
    print(f"  callbacks over 100 ms: {sum(t > 0.1 for t in taken)}; over 50 ms: {sum(t > 0.05 for t in taken)}")


if __name__ == "__main__":
    main()
