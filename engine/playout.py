"""Playing a game of any ruleset to its end with a chosen player, for fuzzing and benchmarks."""
from __future__ import annotations

import random
from typing import Any, Callable


def play_out(state: Any, rng: random.Random, choose: Callable[[Any, random.Random], tuple[str, str]],
             apply: Callable[[Any, str, str], tuple[Any, list]], limit: int) -> tuple[Any, list[tuple[str, str]]]:
    """Apply `choose`'s (seat, command) until the game is over; the final state and the log."""
    log = []
    while state.phase != "over":
        if len(log) >= limit:
            raise RuntimeError(f"game did not end within {limit} commands")
        seat, command = choose(state, rng)
        state, _ = apply(state, seat, command)
        log.append((seat, command))
    return state, log
