"""A Renegades player that picks among legal commands at random, leaning towards fights,
landings and the mission: for fuzzing, benchmarks and a simple opponent."""
from __future__ import annotations

import random
from typing import Optional

from engine import playout
from engine.errors import RuleError
from engine.renegades import rules
from engine.renegades.contents.board import distance
from engine.renegades.contents.game import Game
from engine.renegades.contents.state import GameState
from engine.renegades.crew.pieces import PARAMETER
from engine.renegades.orbit import orbit
from engine.renegades.surface import dropped

KEEN = ("attack", "throw", "descend", "ascend", "deploy", "disembark", "open", "take", "carry", "board", "free")
DROP_ANYWAY = 0.02  # how often the drops of a crewmember with room to spare stay among the choices (N186)


def random_command(state: GameState, rng: random.Random, keen: float = 0.7) -> tuple[str, str]:
    """(seat, command) for the first awaited seat: half the time, in orbit a descent or the
    move nearest the planet, on the surface a step towards the mission parameter (or home
    with it); otherwise an eager command (attack, descent, landing, search ...) with
    probability `keen` when one is legal, else any. A crewmember drops something only when
    it carries all the items it may, or rarely."""
    seat = rules.awaited(state)[0]
    options = rules.legal_commands(state, seat)
    if rng.random() >= DROP_ANYWAY:
        options = dropped.with_reason(state, options)
    if rng.random() < 0.5:
        aimed = _towards_mission(state, options) if state.phase == "surface" else _towards_planet(state, options)
        if aimed is not None:
            return seat, aimed
    eager = [o for o in options if o.split()[0] in KEEN]
    if eager and rng.random() < keen:
        return seat, rng.choice(eager)
    return seat, rng.choice(options)


def _towards_planet(state: GameState, options: list[str]) -> Optional[str]:
    """In orbit: a descent if one is open, else the ship move ending nearest the planet the
    ship heads for (home with the mission parameter aboard, else the surface in play)."""
    descents = [o for o in options if o.startswith("descend ")]
    if descents:
        return descents[0]
    g = Game(state)
    best, best_gap = None, None
    for option in options:
        words = option.split()
        if words[0] != "move" or words[1] not in state.ships:
            continue
        ship = state.ships[words[1]]
        carrying = state.objective is not None and state.objective.ship == ship.id
        home = g.board.home_of(ship.faction) if carrying else None
        planet = home or g.board.planets[g.surface_planet]
        try:
            path, _, _, _ = orbit.plan_move(g, ship, orbit.parse_legs(words[2:]))
        except RuleError:
            continue
        end = path[-1] if path else ship.cell
        gap = min(distance(end, c) for c in planet.cells) - min(distance(ship.cell, c) for c in planet.cells)
        if gap < 0 and (best_gap is None or gap < best_gap):
            best, best_gap = option, gap
    return best


def _towards_mission(state: GameState, options: list[str]) -> Optional[str]:
    """Board with the parameter, take it or open its container, else the move that brings
    a crewmember nearest its goal."""
    obj = state.objective
    if obj is None or obj.ship is not None:
        return None
    spot = next((c for c, item in state.containers.items() if item == PARAMETER), None) or obj.cell
    best, best_gap = None, None
    for option in options:
        words = option.split()
        if words[0] == "board" and obj.holder == words[1] or words[0] == "take" \
                or words[0] == "open" and words[2] == spot:
            return option
        if words[0] != "move" or words[1] not in state.crew:
            continue
        crew = state.crew[words[1]]
        goal = _goal_with_it(state, crew) if obj.holder == crew.id else (
            spot or (state.crew[obj.holder].cell if obj.holder else None))
        if goal is None:
            continue
        gap = distance(words[2], goal) - distance(crew.cell, goal)
        if gap < 0 and (best_gap is None or gap < best_gap):
            best, best_gap = option, gap
    return best


def _goal_with_it(state: GameState, crew) -> Optional[str]:
    """Where the holder of the parameter heads: the employer's base in tier 3's run on its
    side's home surface (N172), else its ship's dock."""
    if state.objective.run == crew.faction:
        base = Game(state).ground.spec.base
        return min(base, key=lambda c: (distance(c, crew.cell), c))
    return state.docks.get(crew.ship)


def play_out(state: GameState, rng: random.Random, limit: int = 2000) -> tuple[GameState, list[tuple[str, str]]]:
    """Play random legal commands until the game is over; returns the final state and the log."""
    return playout.play_out(state, rng, random_command, rules.apply, limit)
