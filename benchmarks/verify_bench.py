"""How long "Verify dice" takes: a complete random game replayed from its seed, every logged
event compared (engine.service.audit.verify, what the button and `replay --verify` run).

    python benchmarks/verify_bench.py [GAMES]

Prints per game the commands, the rolls and the time, then the median and the longest.
Not a test: nothing fails here.
"""
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.service import audit  # noqa: E402
from engine.service.rulesets import AWAY_MISSIONS as RULES  # noqa: E402

CONFIG = {
    "pack": "content/starter",
    "players": [
        {"seat": "p1", "affiliation": "federation", "team": "federation-away-team"},
        {"seat": "p2", "affiliation": "borg", "team": "borg-away-team"},
    ],
}


def played(seed: int) -> tuple[list, str]:
    """A complete random game: its log as the database keeps it, and its final state."""
    state, rng, log = RULES.new_game(CONFIG, seed), random.Random(seed), []
    while state.phase != "over":
        seat = RULES.awaited(state)[0]
        command = rng.choice(RULES.legal_commands(state, seat))
        state, events = RULES.apply(state, seat, command)
        log.append((len(log) + 1, seat, command, json.dumps(events)))
    return log, RULES.to_json(state).decode()


def main(games: int) -> None:
    times = []
    for seed in range(1, games + 1):
        log, stored = played(seed)
        salt = audit.new_salt()
        start = time.perf_counter()
        verdict = audit.verify(RULES, CONFIG, seed, log, stored, salt=salt, digest=audit.seal(seed, salt))
        times.append(time.perf_counter() - start)
        assert verdict.ok, verdict.problems
        print(f"game {seed}: {verdict.commands} commands, {verdict.rolls} rolls, verified in {times[-1] * 1000:.0f} ms")
    print(f"median {statistics.median(times) * 1000:.0f} ms, longest {max(times) * 1000:.0f} ms over {games} games")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
