"""Throughput and the event loop while whole games are played through Discord interactions.

    python benchmarks/discord_game_bench.py [--games 3] [--seed 5] [--ruleset renegades]
    python benchmarks/discord_game_bench.py --base /tmp/dicebase [--games 3] [--ruleset renegades] [--reactions every]

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
  with the machine's load average, since other processes skew the figures;
- the pictures uploaded per action by file name and the mean bytes of one uploaded
  picture of each name; the dice boards per action: the updates that asked for them, the
  boards drawn (a tree that fingerprints them leaves out those unchanged) and uploaded.

With --base (a checkout of an earlier commit: `git worktree add /tmp/dicebase <commit>`)
each game is played by both trees, one after the other, each in a process of its own
that imports that tree: the same games (the same dice, the same commands), old and new.
With --reactions every each re-roll window is put to the players and answered by the
random clicks (ruling P23), so windows are passed by hand as well as by the service.

Nothing is asserted.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field

import pytest

TREE = os.environ.get("BENCH_TREE") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TREE)  # the tree whose bot plays (--base runs this script once per tree)
os.chdir(TREE)  # content packs are found from the tree's root

from benchmarks.service_bench import CallbackTimer  # noqa: E402
from images import pictures  # noqa: E402
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
    uploads: dict[str, int] = field(default_factory=dict)  # file name -> times uploaded
    uploaded: dict[str, int] = field(default_factory=dict)  # file name -> bytes uploaded
    dice_asked: int = 0  # pictures drawn for an update that asked for its dice boards
    dice_drawn: int = 0  # dice boards drawn (left out when unchanged, where a tree does that)


async def play(database: str, seed: int, ruleset: str, reactions: str = "") -> Played:
    """One game to its end; `reactions`, when given, is both players' standing reaction
    preference ("every": each re-roll window is put to them and answered by a click)."""
    clock, patch = PlayByPost(), pytest.MonkeyPatch()
    same_dice(patch)  # every game rolls alike: two trees compared play the same games
    dice = Counter()

    def draw(*args, **kwargs):
        drawn = original(*args, **kwargs)
        wanted = kwargs.get("wanted", args[3] if len(args) > 3 else [])
        dice["asked"] += "dice" in wanted
        dice["drawn"] += sum(name in ("dice.png", "crew-dice.png") for name, _ in drawn)
        return drawn
    original = pictures.draw
    patch.setattr(pictures, "draw", draw)
    async with FakeDiscord(patch, database, clock=clock) as fake:
        thread, game_id = await (new_renegades_game(fake) if ruleset == "renegades" else new_game(fake))
        for user_id in MEMBERS if reactions else ():
            await fake.bot.service.set_reaction_preference(user_id, reactions)
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
        uploads, uploaded = Counter(), Counter()
        for name, data in (file for r in sent for file in r.files):
            uploads[name] += 1
            uploaded[name] += len(data)
        return Played(steps, cpu, len(sent), sum(r.rest for r in sent), sum(len(r.files) for r in sent),
                      callbacks.taken, dict(uploads), dict(uploaded), dice["asked"], dice["drawn"])


def played_by(tree: str, database: str, seed: int, ruleset: str, reactions: str) -> Played:
    """One game played by the bot of another checkout, in a process of its own."""
    found = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", database, str(seed), ruleset,
                            reactions],
                           env={**os.environ, "BENCH_TREE": tree}, capture_output=True, text=True, check=True)
    return Played(**json.loads(found.stdout.splitlines()[-1]))


def report(name: str, games: list[Played]) -> None:
    """The figures of one tree's games."""
    commands = sum(g.commands for g in games)
    cpu = sum(g.cpu for g in games)
    taken = sorted((t for g in games for t in g.callbacks), reverse=True)
    uploads, uploaded = Counter(), Counter()
    for game in games:
        uploads.update(game.uploads)
        uploaded.update(game.uploaded)
    print(f"{name}: {len(games)} games, {commands} commands, {len(taken)} callbacks; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"  {commands / cpu:.1f} actions per CPU-second with pictures ({cpu * 1000 / commands:.1f} ms CPU each, "
          f"the fake Discord's players included)")
    print(f"  per action: {sum(g.requests for g in games) / commands:.2f} requests to Discord, "
          f"{sum(g.rest for g in games) / commands:.2f} of them REST (not interaction answers), "
          f"{sum(g.files for g in games) / commands:.2f} picture files uploaded, "
          f"{sum(uploaded.values()) / commands / 1024:.1f} KiB")
    print("  longest callbacks: " + ", ".join(f"{t * 1000:.0f} ms" for t in taken[:5]))
    print(f"  callbacks over 100 ms: {sum(t > 0.1 for t in taken)}; over 50 ms: {sum(t > 0.05 for t in taken)}")
    print(f"  {'picture':<14}{'per action':>11}{'bytes each':>12}")
    for picture in sorted(uploads):
        print(f"  {picture:<14}{uploads[picture] / commands:>11.3f}{uploaded[picture] / uploads[picture]:>12.0f}")
    dice = sum(uploads[n] for n in ("dice.png", "crew-dice.png"))
    print(f"  dice boards per action: asked for {sum(g.dice_asked for g in games) / commands:.3f} (updates), "
          f"drawn {sum(g.dice_drawn for g in games) / commands:.3f}, uploaded {dice / commands:.3f}; "
          f"all pictures: {sum(uploaded.values()) / max(1, sum(uploads.values())):.0f} bytes each")


def main() -> None:
    if sys.argv[1:2] == ["--worker"]:  # one game for played_by: its figures as JSON
        database, seed, ruleset, reactions = sys.argv[2:6]
        print(json.dumps(asdict(asyncio.run(play(database, int(seed), ruleset, reactions)))))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--ruleset", choices=("awaymissions", "renegades"), default="awaymissions")
    parser.add_argument("--reactions", choices=("every", "able", "never"), default="",
                        help="both players' standing reaction preference (the bot's default if not given)")
    parser.add_argument("--base", help="a checkout of an earlier commit, played side by side as 'old'")
    args = parser.parse_args()
    trees = {"old": os.path.abspath(args.base), "new": TREE} if args.base else {"this tree": TREE}
    played: dict[str, list[Played]] = {name: [] for name in trees}
    with tempfile.TemporaryDirectory() as folder:
        for game in range(args.games):
            for name in sorted(trees, reverse=game % 2 == 1):  # the trees take turns going first
                database = os.path.join(folder, f"{name}-game{game}.db".replace(" ", "-"))
                seed = args.seed + game
                played[name].append(played_by(trees[name], database, seed, args.ruleset, args.reactions)
                                    if args.base else asyncio.run(play(database, seed, args.ruleset, args.reactions)))
    for name, games in played.items():
        report(name, games)


if __name__ == "__main__":
    main()
