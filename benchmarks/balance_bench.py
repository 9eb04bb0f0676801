"""The starter game's faction balance: the Federation against the Borg, both played alike.

    python benchmarks/balance_bench.py [--player random|easy|normal|hard|greedy] [--games N]
                                       [--seed S] [--workers W] [--untimed] [--pack FOLDER]

Plays N two-player games of the starter pack, both seats played by the same player, the
Federation at p1 in even games and at p2 in odd ones (the seats swapped, so the figure is the
faction's, not the seat's). Prints the Federation's score (a win 1, a draw 1/2) with its 95%
Wilson interval, its score at each seat, and each faction's points a game by source: missions
scored in play, end-of-game missions, the core mission (with how often each was chosen and what
it scored), bonus points; the characters each faction lost, and how often each card was scored.
kill -INT or -TERM of the main process prints the figures of the games finished so far.
Not a test: nothing fails (tests/test_balance.py holds random play to its target).
"""
import argparse
import multiprocessing
import os
import random
import signal
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_bench import CONFIG  # noqa: E402  (also puts the project on the path and in the working folder)
from opponent_bench import _interrupt, _worker_signals, pick, wilson  # noqa: E402

from engine.opponent import LEVELS  # noqa: E402
from engine.awaymissions import effects, rules  # noqa: E402
from engine.awaymissions.content import load_pack  # noqa: E402
from engine.awaymissions.context import Table  # noqa: E402
from tests.test_balance import federation_score, swapped_config  # noqa: E402

FACTIONS = ("federation", "borg")
SOURCES = ("missions in play", "end-of-game missions", "core mission", "bonus points")


def sources(state, seat):
    """A seat's final points by source, and its core mission."""
    pack = load_pack(state.pack)
    player = state.player(seat)
    missions = [pack.cards[code] for code in player.scoring_area]
    split = {
        "missions in play": sum(c.points for c in missions if c.play != "end"),
        "end-of-game missions": sum(c.points for c in missions if c.play == "end"),
        "bonus points": player.bonus_points,
    }
    split["core mission"] = state.result["scores"][seat] - sum(split.values())
    return split, player.core_mission, list(player.scoring_area)


def play(job):
    """One game: (the Federation's seat, its score, and by faction: points by source, core
    mission, characters lost, cards scored)."""
    who, seed, timed, pack = job
    state = rules.new_game(swapped_config(seed, pack), seed)
    rng = random.Random(seed)
    while state.phase != "over":
        seat = state.pending[0].player
        legal = rules.legal_commands(state, seat)
        command, _ = pick(who, "awaymissions", rules, state, seat, legal, rng, LEVELS, seed, timed)
        state, _ = rules.apply(state, seat, command)
    seat_of = {p.affiliation: p.seat for p in state.players}
    fed = federation_score(state)
    split, core, lost, scored = {}, {}, {}, {}
    for faction, seat in seat_of.items():
        split[faction], core[faction], scored[faction] = sources(state, seat)
        lost[faction] = effects.count(Table(state), seat, "friendly_neutralized")
    return seat_of["federation"], fed, split, core, lost, scored


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--player", default="random", help="random, greedy or a level (both seats)")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--pack", default=CONFIG["pack"], help="a variant of the starter pack to measure")
    parser.add_argument("--untimed", action="store_true", help="ignore the levels' safety caps")
    args = parser.parse_args()
    jobs = [(args.player, args.seed + i, not args.untimed, args.pack) for i in range(args.games)]
    total, n = 0.0, 0
    by_seat = defaultdict(lambda: [0.0, 0])
    points = {f: defaultdict(float) for f in FACTIONS}
    cores = {f: defaultdict(lambda: [0, 0]) for f in FACTIONS}  # core -> [games, points]
    lost = defaultdict(int)
    cards = {f: defaultdict(int) for f in FACTIONS}  # card -> times scored
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    pool = multiprocessing.Pool(args.workers, initializer=_worker_signals)
    try:
        for seat, fed, split, core, gone, scored in pool.imap(play, jobs):
            n += 1
            total += fed
            by_seat[seat][0] += fed
            by_seat[seat][1] += 1
            for faction in FACTIONS:
                for source, value in split[faction].items():
                    points[faction][source] += value
                cores[faction][core[faction]][0] += 1
                cores[faction][core[faction]][1] += split[faction]["core mission"]
                lost[faction] += gone[faction]
                for code in scored[faction]:
                    cards[faction][code] += 1
    except KeyboardInterrupt:  # kill -INT or -TERM: the figures of the games finished so far
        print(f"  stopped after {n} of {args.games} games", flush=True)
    finally:
        pool.terminate()
    low, high = wilson(total, n)
    n = max(n, 1)  # the averages of a run stopped before its first game
    print(f"{args.player} against {args.player}, {n} games (seeds {args.seed}-{args.seed + n - 1}), "
          f"the Federation at p1 in even games: the Federation scores {total / n:.1%} "
          f"(95% Wilson {low:.1%} to {high:.1%}); load average {os.getloadavg()[0]:.2f}")
    print("  by the Federation's seat: " + "; ".join(
        f"at {seat} {s:g} of {g} ({s / g:.1%})" for seat, (s, g) in sorted(by_seat.items())))
    for faction in FACTIONS:
        whole = sum(points[faction].values())
        print(f"  {faction}: {whole / n:.2f} points a game (" + ", ".join(
            f"{source} {points[faction][source] / n:.2f}" for source in SOURCES)
            + f"); {lost[faction] / n:.2f} characters lost a game")
        print("    core missions: " + "; ".join(
            f"{code} chosen {games}x, {pts / games:.2f} points" for code, (games, pts) in sorted(cores[faction].items())))
        print("    cards scored (times in all games): " + ", ".join(
            f"{code} {count}" for code, count in sorted(cards[faction].items(), key=lambda item: -item[1])))


if __name__ == "__main__":
    main()
