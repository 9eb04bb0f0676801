"""How well the computer opponent plays, and how long it thinks: complete games between levels.

    python benchmarks/opponent_bench.py [--games N] [--workers W] [--pairings normal:random,hard:normal]
                                        [--layout standard|setup] [--untimed] [--progress]
                                        [--table two|three|four|teams|renegades|renegades-solo]
                                        [--set hard.playouts=320 --set hard.horizon=1 ...] [--ladder] [--completion]

Each pairing plays N games, Federation against Borg with the starter teams. A side may be
a level, `random` (any legal command) or `greedy` (benchmarks/greedy.py: the best immediate
gain). `--ladder` plays the ladder's pairings (easy:random, normal:greedy, hard:normal,
normal:easy; or those of --pairings) and ends with a table of their scores, intervals and
targets. At a table of two the first level is p1 in even games; at three or four it plays
one seat (p1, p2, ... in turn) against the second level at every other seat; in 2 vs 2 it
plays one team (both seats) in turn; `renegades` is a Renegades versus game, the first level flying the Renegade
or the Coalition ship in turn (a game that ends unfinished is won by the side whose enemy ship
took more damage); `renegades-solo` is the one-player game, the first level flying the
Renegade ship against the NPC Coalition (the second level is not used: name it `npc`).
`--completion` adds, for Renegades, the share of games that ended with the mission completed
(95% Wilson interval), the outcomes, and the walk-backs: moves of a computer-flown figure back to
a square it left in the same activation while nothing else changed (benchmarks/renegades_walks.py).
Prints the first level's score (a win 1, a draw 1/2) with a 95% Wilson
interval, its score per seat (or side) it played (at a table of two p1 flies Federation, so
that line shows the faction bias of the starter game), and per level the decision times
(p50, p95, max) over every decision it made and over those with more than one legal
command, in wall-clock time and in processor time (the worker's own, which load on the
machine hardly changes: the figure the levels' budgets are chosen by), and how many searches
the levels' safety caps cut short. Not a test: nothing fails. The levels' safety caps
apply (as in play) unless --untimed. Ctrl-C (or kill -INT or
-TERM of the main process) prints the figures of the games finished so far.
"""
import argparse
import dataclasses
import math
import os
import random
import signal
import sys
import time
import multiprocessing

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_bench import CONFIG, table_config  # noqa: E402  (also puts the project on the path and in the working folder)
import greedy  # noqa: E402

from engine import opponent  # noqa: E402
from engine.awaymissions import rules  # noqa: E402
from engine.renegades import rules as renegades_rules  # noqa: E402
from renegades_walks import WalkBacks, completed  # noqa: E402


TABLES = ("two", "three", "four", "teams", "renegades", "renegades-solo")


def new_table(table, seed, layout):
    """(rules module, first state, seats the first level plays) of one benchmark game: the
    first level takes p1 or p2 in turn (two seats), one seat in turn (three or four), one team
    in turn (2 vs 2), or the Renegade or the Coalition ship in turn (Renegades versus)."""
    if table == "renegades-solo":
        return renegades_rules, renegades_rules.new_game({"mode": "coop", "players": [{"seat": "p1"}]}, seed), {"p1"}
    if table == "renegades":
        state = renegades_rules.new_game({"mode": "versus", "players": [{"seat": "p1"}, {"seat": "p2"}]}, seed)
        return renegades_rules, state, {f"p{seed % 2 + 1}"}
    if table == "two":
        state = rules.new_game(dict(CONFIG, layout=layout) if layout else CONFIG, seed)
        return rules, state, {"p1" if seed % 2 == 0 else "p2"}
    players = {"three": 3, "four": 4, "teams": 4}[table]
    state = rules.new_game(dict(table_config(players, table == "teams"), layout="six"), seed)
    if table == "teams":
        return rules, state, {"p1", "p3"} if seed % 2 == 0 else {"p2", "p4"}
    return rules, state, {f"p{seed % players + 1}"}


def score(table, state, mine):
    """The first level's result: 1 a win, 1/2 a draw it shares, 0 a loss. A Renegades game
    that ends unfinished (the world deck ran out) is won by the side whose enemy ship took more
    damage."""
    result = state.result or {}
    seat = sorted(mine)[0]
    if table == "renegades-solo":
        return {"won": 1.0, "tied": 0.5}.get(result.get("outcome"), 0.0)
    side = state.player(seat).faction if table == "renegades" else state.player(seat).team
    if table == "renegades" and result.get("outcome", "unfinished") == "unfinished":
        hurt = {ship.faction: ship.damage for ship in state.ships.values() if ship.kind == "ship"}
        other = next(faction for faction in hurt if faction != side)
        return 1.0 if hurt[other] > hurt[side] else 0.5 if hurt[other] == hurt[side] else 0.0
    if result.get("winner") is None:
        return 0.5 if side in result.get("drawn", [side]) else 0.0
    return 1.0 if result["winner"] in (seat, side) else 0.0


def play(job):
    """One game: (first level's seats, its score, the result, {level: [(seconds, processor
    seconds, choices, whether the safety cap cut the search)]}, (mission completed, walk-backs)
    of a Renegades game)."""
    first, second, seed, table, layout, timed, changes = job
    levels = tuned(changes)
    ruleset, state, mine = new_table(table, seed, layout)
    name = "renegades" if table.startswith("renegades") else "awaymissions"
    walks = WalkBacks()
    rng = random.Random(seed)
    times = {first: [], second: []}
    while state.phase != "over":
        decision = state.pending[0]
        also = getattr(decision, "also", [])
        seat = next((s for s in (decision.player, *also) if s in mine), decision.player)
        who = first if seat in mine else second
        legal = ruleset.legal_commands(state, seat)
        start, cpu = time.perf_counter(), time.process_time()
        command, cut = pick(who, name, ruleset, state, seat, legal, rng, levels, seed, timed)
        times[who].append((time.perf_counter() - start, time.process_time() - cpu, len(legal), cut))
        if who not in ("random", "greedy") and name == "renegades":
            walks.before(state, command)
        state, _ = ruleset.apply(state, seat, command)
        walks.after(state)
    finished = (completed(state), walks.count) if name == "renegades" else None
    return mine, score(table, state, mine), state.result, times, finished


def pick(who, name, ruleset, state, seat, legal, rng, levels, seed, timed):
    """(command, whether the safety cap cut the search) of one player: `random` (any legal
    command), `greedy` (benchmarks/greedy.py) or a level of the computer opponent."""
    if who == "random":
        return rng.choice(legal), False
    if who == "greedy":
        return greedy.command(state, seat, legal, rng), False
    choice = opponent.decide(name, state, seat, ruleset.view_for, levels[who], seed=seed, timed=timed)
    return choice.command, choice.cut is not None


def tuned(changes):
    """The levels with `--set LEVEL.FIELD=VALUE` changes made (to try a setting before adopting it)."""
    levels = dict(opponent.LEVELS)
    for change in changes:
        name, value = change.split("=")
        level, field = name.split(".")
        kind = type(getattr(levels[level], field))
        levels[level] = dataclasses.replace(levels[level], **{field: kind(value)})
    return levels


def wilson(score, n, z=1.96):
    """95% Wilson score interval of a proportion (draws counted as half a win)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


# the ladder (issue 26): pairing -> (what it must show, whether the score and its interval show it)
LADDER = {
    "easy:random": ("easy beats random in at least 90%", lambda p, low, high: p >= 0.9),
    "normal:greedy": ("normal beats the one-ply greedy player in at least 70%", lambda p, low, high: p >= 0.7),
    "hard:normal": ("hard beats normal, the interval's lower end above 55%", lambda p, low, high: low > 0.55),
    "normal:easy": ("easy clearly below normal: normal's interval above 50%", lambda p, low, high: low > 0.5),
}
LADDER_GAMES = 200  # games a pairing the issue asks for


def ladder(results):
    """The ladder as a table: each pairing's score, 95% Wilson interval, target and verdict."""
    lines = ["ladder (seats swapped game by game; score of the first named, 95% Wilson interval):"]
    for pairing, (target, holds) in LADDER.items():
        total, n = results.get(pairing, (0.0, 0))
        low, high = wilson(total, n)
        verdict = "not played" if not n else "holds" if holds(total / n, low, high) else "does NOT hold"
        if 0 < n < LADDER_GAMES:
            verdict += f" (only {n} games: the ladder asks {LADDER_GAMES})"
        lines.append(f"  {pairing:<14} {n:>4} games  {total / max(n, 1):6.1%}  [{low:6.1%}, {high:6.1%}]  "
                     f"{target}: {verdict}")
    return "\n".join(lines)


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))] if values else float("nan")


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def _worker_signals():
    """A worker leaves Ctrl-C to the main process and stops quietly when it is terminated."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def main():
    # a benchmark run in the background (where the shell ignores Ctrl-C) stops with its
    # figures so far on kill -INT or kill -TERM
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--pairings", help="default normal:random,hard:normal; with --ladder its pairings")
    parser.add_argument("--layout", default="standard", help="a preset layout, or 'setup' to place boards")
    parser.add_argument("--untimed", action="store_true", help="ignore the levels' safety caps")
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument("--table", choices=TABLES, default="two", help="who sits at the table (default two)")
    parser.add_argument("--set", action="append", default=[], metavar="LEVEL.FIELD=VALUE",
                        help="change a level's setting for this run, e.g. hard.horizon=1")
    parser.add_argument("--progress", action="store_true", help="a line per finished game, with the running score")
    parser.add_argument("--ladder", action="store_true",
                        help=f"play the ladder's pairings ({','.join(LADDER)}) and print it with its targets")
    parser.add_argument("--completion", action="store_true",
                        help="Renegades: how many games ended with the mission completed, and walk-backs")
    args = parser.parse_args()
    args.pairings = args.pairings or (",".join(LADDER) if args.ladder else "normal:random,hard:normal")
    results = {}  # pairing -> (score, games)
    layout = None if args.layout == "setup" else args.layout
    tuned(args.set)  # a bad --set fails here, before any game
    if args.set:
        print("settings changed: " + ", ".join(args.set), flush=True)
    for pairing in args.pairings.split(","):
        first, second = pairing.split(":")
        jobs = [(first, second, args.seed + i, args.table, layout, not args.untimed, args.set)
                for i in range(args.games)]
        start = time.perf_counter()
        wins = draws = total = 0
        times = {first: [], second: []}
        by_seats = {}  # the first level's seats -> [score, games]: a seat's (or side's) share of the result
        n = 0
        done, outcomes, walked = 0, {}, 0
        pool = multiprocessing.Pool(args.workers, initializer=_worker_signals)
        try:
            for mine, points, result, game_times, finished in pool.imap(play, jobs):
                n += 1
                if finished is not None:
                    done += finished[0]
                    walked += finished[1]
                    outcome = (result or {}).get("outcome", "unfinished")
                    outcomes[outcome] = outcomes.get(outcome, 0) + 1
                total += points
                wins += points == 1
                draws += 0 < points < 1
                seats = by_seats.setdefault("+".join(sorted(mine)), [0.0, 0])
                seats[0] += points
                seats[1] += 1
                for who, values in game_times.items():
                    times[who].extend(values)
                if args.progress:
                    walks = f"; walk-backs {finished[1]}" if finished is not None else ""
                    print(f"  game {n}: {first} as {'+'.join(sorted(mine))}, scored {points:g}; "
                          f"result {result}{walks}; so far {wins} won, {draws} drawn of {n}", flush=True)
        except KeyboardInterrupt:  # Ctrl-C (or kill -INT): the figures of the games finished so far
            print(f"  stopped after {n} of {args.games} games", flush=True)
        finally:
            pool.terminate()  # the workers stop too, also when the run was interrupted
        low, high = wilson(total, n)
        results[pairing] = (total, n)
        print(f"{first} vs {second} ({args.table}): {n} games, {wins} won, {draws} drawn, {n - wins - draws} lost; "
              f"score {total / max(n, 1):.1%} (95% Wilson interval {low:.1%} to {high:.1%}); "
              f"{time.perf_counter() - start:.0f} s with {args.workers} workers", flush=True)
        if args.completion and outcomes:
            low, high = wilson(done, n)
            print(f"  mission completed in {done} of {n} games ({done / max(n, 1):.1%}, 95% Wilson interval "
                  f"{low:.1%} to {high:.1%}); outcomes: "
                  + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
                  + f"; walk-backs: {walked}", flush=True)
        print("  by seat: " + "; ".join(f"as {seats} {points:g} of {games} ({points / games:.1%})"
                                        for seats, (points, games) in sorted(by_seats.items())), flush=True)
        for who in dict.fromkeys((first, second)):  # once each, also when a level plays itself
            if who in ("random", "greedy") or not times[who]:  # they do not search; no game finished
                continue
            for clock, column in (("decision time", 0), ("processor time", 1)):
                every = [row[column] for row in times[who]]
                real = [row[column] for row in times[who] if row[2] > 1]
                print(f"  {who}: {clock} p50 {percentile(every, .5) * 1e3:.1f} ms, "
                      f"p95 {percentile(every, .95) * 1e3:.1f} ms, max {max(every) * 1e3:.0f} ms over {len(every)} "
                      f"decisions; with a real choice ({len(real)}): p50 {percentile(real, .5) * 1e3:.1f} ms, "
                      f"p95 {percentile(real, .95) * 1e3:.1f} ms", flush=True)
            print(f"  {who}: the safety cap cut {sum(row[3] for row in times[who])} searches short", flush=True)
    if args.ladder:
        print(ladder(results), flush=True)


if __name__ == "__main__":
    main()
