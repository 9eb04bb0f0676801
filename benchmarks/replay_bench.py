"""What one press of the replay browser (/game replay) costs: rebuilding the step asked for
from the seed and log (with the marks of the whole game), then drawing its pictures, in CPU
milliseconds (p50 and p95 over presses at random steps), and the bytes of the pictures sent.
A first press walks the whole log (cold: a new tape); later presses of the same game start
from the nearest step its tape kept (warm: the replay desk keeps the tapes of recent games).

    python benchmarks/replay_bench.py [--presses N]

Games: a whole random game of each table (Away Missions for two, 2 vs 2, Renegades for
two and for four). Nothing is stored per step: a cold press grows with the game's length, a
warm one and the picture do not. This prints figures; it asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.awaymissions import autoplay as away_autoplay  # noqa: E402
from engine.renegades import autoplay as renegades_autoplay  # noqa: E402
from engine.service import steps  # noqa: E402
from engine.service.rulesets import RULESETS  # noqa: E402
from images import pictures  # noqa: E402
from tests.conftest import multi_config, two_player_config  # noqa: E402

GAMES = {
    "away missions, 2 players": ("awaymissions", two_player_config(), away_autoplay.random_command),
    "away missions, 2 vs 2": ("awaymissions", multi_config(4, teams=True, layout="six"), away_autoplay.random_command),
    "renegades, 2 players": ("renegades", {"players": [{"seat": "p1"}, {"seat": "p2"}]},
                             renegades_autoplay.random_command),
    "renegades, 4 players": ("renegades", {"players": [{"seat": f"p{i}"} for i in range(1, 5)], "world_cards": 10},
                             renegades_autoplay.random_command),
}


def whole_game(ruleset, config: dict, choose, seed: int) -> list[tuple[str, str, str]]:
    """The log (seat, command, events JSON) of a random game played to its end."""
    state, rng, log = ruleset.new_game(config, seed), random.Random(seed), []
    while state.phase != "over":
        seat, command = choose(state, rng)
        state, events = ruleset.apply(state, seat, command)
        log.append((seat, command, json.dumps(events)))
    return log


def cpu_ms(fn) -> tuple[float, object]:
    start = time.process_time()
    result = fn()
    return (time.process_time() - start) * 1000, result


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=20, help="presses at random steps per game")
    presses = parser.parse_args().presses
    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores shared)")
    print(f"{'game':26} {'steps':>5} {'cold p50/p95 ms':>16} {'warm p50/p95 ms':>16} {'draw p50/p95 ms':>16}"
          f" {'warm press p95':>14} {'bytes p50/max':>15}")
    rng = random.Random(1)
    for name, (ruleset_name, config, choose) in GAMES.items():
        ruleset = RULESETS[ruleset_name]
        log = whole_game(ruleset, config, choose, seed=7)
        tape = steps.Tape(ruleset, config, 7)
        tape.step(log, 0)  # the first press walked the log
        cold, warm, drawn, total, sizes = [], [], [], [], []
        for _ in range(presses):
            number = rng.randint(0, len(log))
            cold.append(cpu_ms(lambda: steps.step_at(ruleset, config, 7, log, number))[0])
            took, (step, _) = cpu_ms(lambda: tape.step(log, number))
            drew, files = cpu_ms(lambda: pictures.draw(ruleset_name, step.view, step.events, ["board"]))
            warm.append(took)
            drawn.append(drew)
            total.append(took + drew)
            sizes.append(sum(len(data) for _, data in files))
        print(f"{name:26} {len(log) + 1:5d} {statistics.median(cold):8.1f} / {p95(cold):5.1f}"
              f" {statistics.median(warm):8.1f} / {p95(warm):5.1f} {statistics.median(drawn):8.1f} / {p95(drawn):5.1f}"
              f" {p95(total):14.1f} {int(statistics.median(sizes)):7d} / {max(sizes):6d}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
