"""A player that picks uniformly among legal commands: for fuzzing, benchmarks and a simple opponent."""
from __future__ import annotations

import random

from engine import playout
from engine.awaymissions import rules
from engine.awaymissions.state import GameState


def random_command(state: GameState, rng: random.Random) -> tuple[str, str]:
    """(seat, command) for the first awaited seat, chosen at random among its legal commands."""
    seat = rules.awaited(state)[0]
    return seat, rng.choice(rules.legal_commands(state, seat))


def play_out(state: GameState, rng: random.Random, limit: int = 5000) -> tuple[GameState, list[tuple[str, str]]]:
    """Play random legal commands until the game is over; returns the final state and the log."""
    return playout.play_out(state, rng, random_command, rules.apply, limit)
