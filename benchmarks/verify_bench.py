"""How long "Verify dice" takes: a complete random game replayed from its seed, every logged
event compared (engine.service.audit.verify, what the button and `replay --verify` run).

    python benchmarks/verify_bench.py [GAMES]

Prints per game the commands, the rolls and the time, then the median and the longest.
Not a test: nothing fails here.
"""
import json
import random
import statistics
import sys
import time

from engine_bench import CONFIG  # the same two-player game (importing it also sets the path and folder)
from engine.awaymissions.autoplay import random_command
from engine.service import audit
from engine.service.rulesets import AWAY_MISSIONS as RULES


def played(seed: int) -> tuple[list, str]:
    """A complete random game: its log as the database keeps it, and its final state."""
    state, rng, log = RULES.new_game(CONFIG, seed), random.Random(seed), []
    while state.phase != "over":
        seat, command = random_command(state, rng)
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
