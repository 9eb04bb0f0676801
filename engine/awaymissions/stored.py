"""Stored games across changes of the state's shape (R92).

A state stored by an earlier engine decodes with every field added since at its default.
Where the default says what the earlier engine did, nothing more is needed. Where the
right value depends on what happened in the game, it is derived here from the events the
game logged: they record what happened under the rules the game was played by, where a
replay under today's rules might not.
"""
from __future__ import annotations

from typing import Iterable

from engine.awaymissions.state import GameState, clone


def outdated(state: GameState) -> bool:
    """Whether `state` lacks a value only its logged events can give: an assimilated
    character stored before `assimilated_by` existed."""
    return any(c.assimilated and c.assimilated_by is None for c in state.characters.values())


def carry_forward(state: GameState, events: Iterable[dict]) -> GameState:
    """`state` in the running engine's shape, given every event the game logged, in order.

    `assimilated_by` is the seat controlling the character that assimilated it: its owner,
    or for a drone the seat that assimilated the drone earlier. A take-back (R42) never
    undoes an assimilation, which rolls dice. A character without a logged assimilation
    keeps None: nothing is guessed."""
    seat_of: dict[str, str] = {}
    for event in events:
        if event.get("type") == "assimilated":
            by = event["by"]
            seat_of[event["character"]] = seat_of.get(by) or state.characters[by].owner
    if not any(c.assimilated_by is None and code in seat_of for code, c in state.characters.items()):
        return state
    state = clone(state)
    for code, seat in seat_of.items():
        character = state.characters[code]
        if character.assimilated and character.assimilated_by is None:
            character.assimilated_by = seat
    return state
