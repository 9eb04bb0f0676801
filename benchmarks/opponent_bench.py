"""How well the computer opponent plays, and how long it thinks: complete games between levels.

    python benchmarks/opponent_bench.py [--games N] [--workers W] [--pairings normal:random,hard:normal]
                                        [--layout standard|setup] [--untimed] [--progress]

Each pairing plays N games (seats alternate: the first level is p1 in even games), Federation
against Borg with the starter teams. Prints the first level's score (a win 1, a draw 1/2)
with a 95% Wilson interval, and per level the decision times (p50, p95, max) over every
decision it made and over those with more than one legal command. Not a test: nothing fails.
The time caps of the levels apply (as in play) unless --untimed. Ctrl-C prints the figures
of the games finished so far.
"""
import argparse
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_bench import CONFIG  # noqa: E402  (also puts the project on the path and in the working folder)

from engine import opponent  # noqa: E402
from engine.awaymissions import rules  # noqa: E402


def play(job):
    """One game: (seat of the first level, result, {level: [(seconds, choices)]})."""
    first, second, seed, layout, timed = job
    seats = {"p1": first, "p2": second} if seed % 2 == 0 else {"p1": second, "p2": first}
    config = dict(CONFIG, layout=layout) if layout else CONFIG
    state = rules.new_game(config, seed)
    rng = random.Random(seed)
    times = {first: [], second: []}
    while state.phase != "over":
        seat = rules.awaited(state)[0]
        who = seats[seat]
        legal = rules.legal_commands(state, seat)
        start = time.perf_counter()
        if who == "random":
            command = rng.choice(legal)
        else:
            command = opponent.decide("awaymissions", state, seat, rules.view_for, opponent.level(who),
                                      seed=seed, timed=timed).command
        times[who].append((time.perf_counter() - start, len(legal)))
        state, _ = rules.apply(state, seat, command)
    mine = "p1" if seed % 2 == 0 else "p2"
    return mine, state.result, times


def wilson(score, n, z=1.96):
    """95% Wilson score interval of a proportion (draws counted as half a win)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))] if values else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--pairings", default="normal:random,hard:normal")
    parser.add_argument("--layout", default="standard", help="a preset layout, or 'setup' to place boards")
    parser.add_argument("--untimed", action="store_true", help="ignore the levels' time caps")
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument("--progress", action="store_true", help="a line per finished game, with the running score")
    args = parser.parse_args()
    layout = None if args.layout == "setup" else args.layout
    for pairing in args.pairings.split(","):
        first, second = pairing.split(":")
        jobs = [(first, second, args.seed + i, layout, not args.untimed) for i in range(args.games)]
        start = time.perf_counter()
        wins = draws = 0
        times = {first: [], second: []}
        n = 0
        pool = ProcessPoolExecutor(args.workers)
        try:
            for mine, result, game_times in pool.map(play, jobs):
                n += 1
                wins += result["winner"] == mine
                draws += result["winner"] is None
                for who, values in game_times.items():
                    times[who].extend(values)
                if args.progress:
                    print(f"  game {n}: {first} as {mine}, scores {result['scores']}, winner {result['winner']}; "
                          f"so far {wins} won, {draws} drawn of {n}", flush=True)
        except KeyboardInterrupt:  # Ctrl-C (or kill -INT): the figures of the games finished so far
            print(f"  stopped after {n} of {args.games} games", flush=True)
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
        score = wins + draws / 2
        low, high = wilson(score, n)
        print(f"{first} vs {second}: {n} games, {wins} won, {draws} drawn, {n - wins - draws} lost; "
              f"score {score / n:.1%} (95% Wilson interval {low:.1%} to {high:.1%}); "
              f"{time.perf_counter() - start:.0f} s with {args.workers} workers", flush=True)
        for who in (first, second):
            if who == "random":
                continue
            every = [t for t, _ in times[who]]
            real = [t for t, options in times[who] if options > 1]
            print(f"  {who}: decision time p50 {percentile(every, .5) * 1e3:.1f} ms, "
                  f"p95 {percentile(every, .95) * 1e3:.1f} ms, max {max(every) * 1e3:.0f} ms over {len(every)} "
                  f"decisions; with a real choice ({len(real)}): p50 {percentile(real, .5) * 1e3:.1f} ms, "
                  f"p95 {percentile(real, .95) * 1e3:.1f} ms", flush=True)


if __name__ == "__main__":
    main()
