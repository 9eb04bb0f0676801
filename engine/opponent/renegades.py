"""What the computer crew needs to know about Renegades, and nothing it may not see.

The computer crew flies a player's ship for solo and versus play with the same search as
in Away Missions; it is not the rulebook's NPC behaviour (engine/renegades/orbit.py), which
follows fixed orders. It reads only `view_for` its seat and the ruleset's public functions
(`legal_commands`, `apply`, `awaited`), so commands added to the ruleset later are weighed
like any other: the rule of thumb only gives the verbs it knows a head start.

- `Determiniser`: a full state from a view. The world deck is drawn from the world events
  not yet discarded, the location deck is the board's locations in a random order, and the
  dice get a fresh seed (docs/rulings.md N90).
- `evaluate`: the seat's side's lead in damage dealt and mission progress, as a chance in [0, 1].
- `policy` / `prior`: fire when a shot is open, close in on the nearest enemy otherwise.
"""
from __future__ import annotations

import functools
import math
import random

import msgspec

from engine.dice import Dice
from engine.errors import RuleError
from engine.opponent.search import best_scored, wandered
from engine.renegades import rules
from engine.renegades.board import distance, orbit_of
from engine.renegades.content import load_pack
from engine.renegades.orbit import Game, attack_dice, bonuses, enemies, parse_legs, speed
from engine.renegades.state import GameState, Ship, clone

# how much a verb the rule of thumb knows is worth before anything else is looked at
VERB_SCORES = {"attack": 9.0, "descend": 6.0, "move": 4.0, "ascend": 3.5, "station": 1.0, "pass": 0.5}
UNKNOWN_VERB = 2.0  # a command of a later part of the rules (the surface phase): tried, not favoured


# --- determinisation -------------------------------------------------------------------------
class Determiniser:
    """Builds states consistent with one seat's view; each `sample` draws the unknowns anew."""

    def __init__(self, view: dict, seat: str):
        self.seat = seat
        known = dict(view)
        self.world_count = known.pop("world_deck_count", 0)
        self.location_count = known.pop("location_deck_count", 0)
        pack = load_pack(view["pack"])
        self.world_pool = sorted(set(pack.world_events) - set(view.get("world_discard", [])))
        self.locations = sorted(orbit_of(pack.path).locations)
        known.update(world_deck=[], location_deck=[], seed=0, dice={"state": 0})
        self.base = msgspec.convert(known, GameState)

    def sample(self, rng: random.Random) -> GameState:
        """One complete state: world deck and location order drawn at random, fresh dice."""
        state = clone(self.base)
        world, locations = self.world_pool[:], self.locations[:]
        rng.shuffle(world)
        rng.shuffle(locations)
        state.world_deck = world[:self.world_count]
        state.location_deck = locations[:self.location_count]
        state.dice = Dice.seeded(rng.getrandbits(64))
        return state


# --- evaluation -----------------------------------------------------------------------------
def _side(state: GameState, seat: str) -> str:
    return state.player(seat).faction


def _harm(ship: Ship) -> float:
    """How badly a ship is hurt, in hull-and-shield units: hull damage and being critical weigh more."""
    if ship.kind == "fighter":
        return 0.5 * ship.damage
    return ship.damage + ship.hull_damage + (4.0 if ship.critical else 0.0)


def advantage(state: GameState, seat: str) -> float:
    """The seat's side's lead: harm done to the other ships (and fighters destroyed) less harm
    taken, plus its ships' progress towards the mission planet."""
    side = _side(state, seat)
    mission = Game(state).board.mission_planet
    lead = 0.0
    for ship in state.ships.values():
        if ship.faction == side:
            lead -= _harm(ship)
            if ship.kind == "ship":
                lead += _progress(ship, mission)
        else:
            lead += _harm(ship)
    destroyed = state.fighters_made - sum(1 for s in state.ships.values() if s.kind == "fighter")
    return lead + 1.0 * destroyed  # a destroyed fighter leaves the board: its harm is counted here


def _progress(ship: Ship, mission) -> float:
    """Up to 2 points for being docked on the mission planet, less the further away it is."""
    if ship.docked == mission.code:
        return 2.0
    if ship.cell is None:
        return 0.0
    return 1.5 / (1 + min(distance(ship.cell, c) for c in mission.cells))


def evaluate(state: GameState, seat: str) -> float:
    """The seat's chance of winning, estimated; 1, 0 or 1/2 once a result names a winner."""
    result = state.result or {}
    if state.phase == "over" and "winner" in result:
        if result["winner"] is None:
            return 0.5
        return 1.0 if result["winner"] in (seat, _side(state, seat)) else 0.0
    return 1.0 / (1.0 + math.exp(-advantage(state, seat) / 4.0))


# --- rules of thumb --------------------------------------------------------------------------
def prior(state: GameState, seat: str, legal: list[str]) -> list[float]:
    """A quick score for each legal command: the search tries the best-scored first."""
    t = Game(state)
    acting = state.ships.get(state.current.ship) if state.current else None
    foes = [s for s in state.ships.values() if acting is not None and s.cell and enemies(t, acting, s)]
    occupied = t.occupied(acting) if acting is not None else set()
    scores = []
    for command in legal:
        words = command.split()
        score = VERB_SCORES.get(words[0], UNKNOWN_VERB)
        if words[0] == "attack" and words[-1] in state.ships:
            score += 0.1 * _harm(state.ships[words[-1]])
        elif words[0] == "move" and acting is not None and acting.cell:
            score += _move_score(t, acting, words[2:], foes, occupied)
        scores.append(score)
    return scores


def _move_score(t: Game, ship: Ship, legs: list[str], foes: list[Ship], occupied: set[str]) -> float:
    """Better when the ship ends with a shot at an enemy, or nearer the nearest one."""
    try:
        path, facing, _ = t.board.walk(ship.cell, ship.facing, parse_legs(legs), occupied)
    except RuleError:  # a move the board cannot walk is left to the rules to refuse
        return 0.0
    cell = path[-1] if path else ship.cell
    if not foes:
        mission = t.board.mission_planet
        return 1.0 / (1 + min(distance(cell, c) for c in mission.cells))
    if any((cell, facing) in _firing_positions(t.pack.path, foe.cell, ship.range) for foe in foes):
        return 1.5
    return 1.0 / (1 + min(distance(cell, foe.cell) for foe in foes))


def worth(state: GameState, seat: str, legal: list[str]) -> list[str]:
    """The legal commands without crew changes that do not make the ship fly or fight
    better: a free action could otherwise be taken back and forth for ever."""
    if state.current is None or not any(c.startswith("station ") for c in legal):
        return legal
    ship = state.ships[state.current.ship]
    now = crew_fit(Game(state), ship)
    kept = []
    for command in legal:
        words = command.split()
        if words[0] == "station" and len(words) == 4:
            try:
                changed, _ = rules.apply(state, seat, command)
            except RuleError:
                continue
            if crew_fit(Game(changed), changed.ships[ship.id]) <= now:
                continue
        kept.append(command)
    return kept


def crew_fit(g: Game, ship: Ship) -> float:
    """How well a ship's crew is placed: movement points, attack dice and station bonuses."""
    return speed(g, ship) + attack_dice(g, ship) + 0.5 * sum(
        count for roll in ("attack", "defense") for _, count in bonuses(g, ship, roll))


@functools.lru_cache(maxsize=4096)
def _firing_positions(pack_path: str, target: str, reach: int) -> dict[tuple[str, str], bool]:
    """Every (square, facing) with a line of fire at `target` (kept: targets stand still a while)."""
    return orbit_of(pack_path).firing_positions(target, reach)


def policy(state: GameState, seat: str, legal: list[str], rng: random.Random) -> str:
    """A fast rule-of-thumb answer: the best-scored command, a random one now and then; the
    crew stay at their stations (the search weighs crew changes, see `worth`)."""
    legal = [c for c in legal if not c.startswith("station ")] or legal
    if len(legal) == 1:
        return legal[0]
    return best_scored(legal, prior(state, seat, legal), rng)


VERB_REASONS = {
    "attack": "fire whenever a shot is open, at the most battered target",
    "move": "close in on the nearest enemy (or the mission planet), ending with a shot where it can",
    "descend": "land on the mission planet when beside it",
    "ascend": "take off again",
    "station": "move crew to stations where they fly or fight better",
    "pass": "end the turn when nothing else is worth doing",
}


def reason(state: GameState, seat: str, command: str) -> str:
    """The rule of thumb behind a command the policy chose (the easy level's explanation)."""
    legal = worth(state, seat, rules.legal_commands(state, seat)) or [command]
    if wandered(legal, prior(state, seat, legal), command):
        return "try something different now and then (a random legal command)"
    verb = command.split(" ", 1)[0]
    return VERB_REASONS.get(verb, f"{verb} when nothing better is at hand")


def turn_starts(state: GameState) -> bool:
    """Whether the game waits on a fresh ship turn (or on something other than a ship's action)."""
    return not state.pending or any(d.kind != "ship" or d.info.get("left") == 2 for d in state.pending)
