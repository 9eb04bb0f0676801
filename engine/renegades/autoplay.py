"""A Renegades player that picks among legal commands at random, leaning towards fights and
landings: for fuzzing, benchmarks and a simple opponent."""
from __future__ import annotations

import random

from engine import playout
from engine.renegades import rules
from engine.renegades.state import GameState

KEEN = ("attack", "descend", "ascend", "deploy", "disembark", "open", "take", "carry", "board")


def random_command(state: GameState, rng: random.Random, keen: float = 0.7) -> tuple[str, str]:
    """(seat, command) for the first awaited seat: an attack, descent or ascent with
    probability `keen` when one is legal, otherwise any legal command."""
    seat = rules.awaited(state)[0]
    options = rules.legal_commands(state, seat)
    eager = [o for o in options if o.split()[0] in KEEN]
    if eager and rng.random() < keen:
        return seat, rng.choice(eager)
    return seat, rng.choice(options)


def play_out(state: GameState, rng: random.Random, limit: int = 2000) -> tuple[GameState, list[tuple[str, str]]]:
    """Play random legal commands until the game is over; returns the final state and the log."""
    return playout.play_out(state, rng, random_command, rules.apply, limit)
