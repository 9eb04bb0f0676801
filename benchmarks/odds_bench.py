"""Odds preview timings on this machine: one preview of a legal attack or skill test.

    python benchmarks/odds_bench.py [PREVIEWS]

Random games (random legal commands, the standard layout and layouts placed in setup)
are played; at every position, each legal attack and each legal special action or card
play is previewed and timed. Prints median, p95, max and the count over the 2 ms target
per preview, and the time to count the 49 dice tables once (done when
engine.awaymissions.odds is loaded).
Not a test: nothing fails here.
"""
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.engine_bench import CONFIG, p95  # noqa: E402
from engine.awaymissions import combat, odds, rules  # noqa: E402
from engine.awaymissions.autoplay import random_command  # noqa: E402


def time_tables(repeats=5):
    """Counting all 49 tables (0-6 dice against 0-6), best of a few runs."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for dice in range(combat.MAX_DICE + 1):
            for opposing in range(combat.MAX_DICE + 1):
                odds._count_hits(dice, opposing)
        best = min(best, time.perf_counter() - start)
    return best


def time_previews(wanted):
    """Seconds per preview, split into attacks and skill tests."""
    times = {"attack": [], "skill test": []}
    rng = random.Random(14)
    seed = 0
    while len(times["attack"]) < wanted:
        layout = "standard" if seed % 2 == 0 else None
        state = rules.new_game(dict(CONFIG, layout=layout) if layout else CONFIG, seed)
        seed += 1
        while state.phase != "over" and len(times["attack"]) < wanted:
            seat = rules.awaited(state)[0]
            for command in rules.legal_commands(state, seat):
                if not command.startswith(("attack ", "special ", "play ")):
                    continue
                start = time.perf_counter()
                preview = odds.preview(state, seat, command)
                elapsed = time.perf_counter() - start
                if isinstance(preview, odds.AttackOdds):
                    times["attack"].append(elapsed)
                elif isinstance(preview, odds.SkillOdds):
                    times["skill test"].append(elapsed)
            seat, command = random_command(state, rng)
            state, _ = rules.apply(state, seat, command)
    return times, seed


def main():
    wanted = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    print(f"counting the 49 dice tables (once, at import): {time_tables() * 1e3:.1f} ms")
    times, games = time_previews(wanted)
    for kind, values in times.items():
        if values:
            print(f"preview, {kind}: median {statistics.median(values) * 1e6:.0f} us, p95 {p95(values) * 1e6:.0f} us, "
                  f"max {max(values) * 1e6:.0f} us, {sum(v > 0.002 for v in values)} over 2 ms, {len(values)} previews")
    print(f"({games} random games)")


if __name__ == "__main__":
    main()
