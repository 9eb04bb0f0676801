"""What the computer crew needs to know about Renegades, and nothing it may not see.

The computer crew flies a player's ship for solo and versus play with the same search as
in Away Missions; it is not the rulebook's NPC behaviour (engine/renegades/orbit.py), which
follows fixed orders. It reads only `view_for` its seat and the ruleset's public functions
(`legal_commands`, `apply`, `awaited`), so commands added to the ruleset later are weighed
like any other: the rule of thumb only gives the verbs it knows a head start.

- `Determiniser`: a full state from a view (`known_state` undoes `view_for`'s reshaping);
  every hidden part is imagined from what the seat can see: deck orders, shut containers,
  unscanned salvage, the other side's bounties, the dice (docs/rulings.md N90).
- `evaluate`: the seat's side's lead in damage dealt, mission progress and, on the surface,
  the mission parameter, knocked-out crew and digits, as a chance in [0, 1].
- `policy` / `prior`: fire when a shot is open, close in on the nearest enemy otherwise.
"""
from __future__ import annotations

import functools
import math
import random

from typing import Optional

import msgspec

from engine.dice import Dice
from engine.errors import RuleError
from engine.opponent.search import best_scored, wandered
from engine.renegades import dropped, rules
from engine.renegades.board import distance, layout_key, orbit_of
from engine.renegades.content import Pack, load_pack
from engine.renegades.orbit import Game, attack_dice, bonuses, enemies, parse_legs, speed
from engine.renegades.pieces import PARAMETER
from engine.renegades.state import GameState, Ship, clone

# how much a verb the rule of thumb knows is worth before anything else is looked at
VERB_SCORES = {"attack": 9.0, "descend": 6.0, "move": 4.0, "ascend": 3.5, "station": 1.0, "pass": 0.5}
# the surface's weights in the lead (N94), in hull-and-shield units
KNOCKED_OUT, PARAMETER_HELD, PARAMETER_ABOARD, DIGITS_PER_POINT = 1.5, 3.0, 6.0, 50.0
# tier 3's run (N150): the findings at the base, and the pursuers on the findings, in the same units
RUN_DELIVERY, RUN_CHASE = 4.0, 2.0
UNKNOWN_VERB = 2.0  # a command of a later part of the rules (the surface phase): tried, not favoured


# --- determinisation -------------------------------------------------------------------------
def known_state(view: dict, seat: str) -> dict:
    """The state's fields as far as `seat` knows them: `view_for`'s reshaping undone. Hidden
    parts are left empty (decks, container and salvage contents, the other side's bounties,
    other seats' scans, the dice) for `Determiniser.sample` to imagine."""
    known = {k: v for k, v in view.items() if k not in _VIEW_ONLY}
    surface = view["surface"]
    known.update(
        seed=0, dice={"state": 0}, world_deck=[], location_deck=[], salvage_deck=[], surface_deck=[],
        salvage_items=dict(view["salvage_scanned"]), salvage_peeks={seat: list(view["salvage_scanned"])},
        surface=surface["board"], docks=surface["docked"], figures=surface["figures"],
        objective=surface["objective"], containers=dict(surface["scanned"]), dropped=surface["dropped"],
        fires=surface["fires"],
        peeks={seat: list(surface["scanned"])},
        bounties={s: b["crew"] for s, b in view["bounties"].items()})
    return known


# keys `view_for` adds (counts, a seat's scans, the surface's picture) that are no state field
_VIEW_ONLY = {"world_deck_count", "location_deck_count", "salvage_deck_count", "salvage_scanned", "surface",
              "bounties"}


class Determiniser:
    """Builds states consistent with one seat's view; each `sample` draws the unknowns anew
    from what the seat cannot see (docs/rulings.md N90)."""

    def __init__(self, view: dict, seat: str):
        self.seat = seat
        self.base = msgspec.convert(known_state(view, seat), GameState)
        pack = load_pack(view["pack"])
        self.world_count = view["world_deck_count"]
        self.world_pool = sorted(set(pack.world_events) - set(view.get("world_discard", [])))
        self.location_count = view["location_deck_count"]
        self.locations = sorted(orbit_of(pack.path).locations)
        self.surface_count = view["surface"]["location_deck_count"]
        self.surface_locations = sorted(t["code"] for t in view["surface"]["tiles"])
        self.shut = [c for c in view["surface"]["containers"] if c not in view["surface"]["scanned"]]
        self.parameter = _sealed_parameter(pack, self.base)
        seen = list(view["surface"]["scanned"].values())
        self.items = sorted(_less(list(pack.search_items), seen))
        self.unscanned = [c for c in view.get("salvage", []) if c not in view["salvage_scanned"]]
        self.salvage_count = view["salvage_deck_count"]
        tokens = [item.code for item in pack.salvage.values() for _ in range(item.count)]
        self.tokens = sorted(_less(tokens, list(view["salvage_scanned"].values())))
        self.hunters, self.quarry = _unseen_bounties(self.base, seat, view["bounties"])

    def sample(self, rng: random.Random) -> GameState:
        """One complete state: every deck's order, every unseen container, salvage token and
        bounty drawn at random, fresh dice."""
        state = clone(self.base)
        state.world_deck = _drawn(rng, self.world_pool, self.world_count)
        state.location_deck = _drawn(rng, self.locations, self.location_count)
        state.surface_deck = _drawn(rng, self.surface_locations, self.surface_count)
        shut = [c for c in self.shut if c != self.parameter]
        if self.parameter in self.shut:
            state.containers[self.parameter] = PARAMETER
        state.containers.update(zip(shut, _drawn(rng, self.items, len(shut))))
        tokens = _drawn(rng, self.tokens, len(self.tokens))
        state.salvage_items.update(zip(self.unscanned, tokens))
        state.salvage_deck = tokens[len(self.unscanned):][:self.salvage_count]
        state.bounties.update(zip(self.hunters, _drawn(rng, self.quarry, len(self.hunters))))
        state.dice = Dice.seeded(rng.getrandbits(64))
        state.seed = rng.getrandbits(32)
        return state


def _drawn(rng: random.Random, pool: list[str], count: int) -> list[str]:
    """`count` of the pool in a random order (as many as there are, if fewer)."""
    drawn = pool[:]
    rng.shuffle(drawn)
    return drawn[:count]


def _less(pool: list[str], seen: list[str]) -> list[str]:
    """The pool without one copy of each thing already seen."""
    pool = pool[:]
    for code in seen:
        if code in pool:
            pool.remove(code)
    return pool


def _sealed_parameter(pack: Pack, state: GameState) -> Optional[str]:
    """The container holding the mission parameter, printed on the mission card (public)."""
    mission = pack.missions[state.mission]
    obj = state.objective
    cell, _ = mission.placement(built=bool(state.surface_layout))
    return cell if mission.parameter.kind == "container" and obj is not None and obj.sealed else None


def _unseen_bounties(state: GameState, seat: str, shown: dict) -> tuple[list[str], list[str]]:
    """The seats whose bounty `seat` cannot see and the crewmembers they may hunt. The other
    side's seats drew in seat order from a deck of one card per crewmember of this side (N58);
    the cards already shown (paid ones) are out of it."""
    side = state.player(seat).faction
    quarry = sorted(c.id for c in state.crew.values() if side in (c.faction, c.turned_from))
    holders = [p.seat for p in state.players if p.faction != side][:len(quarry)]
    hunted = {b["crew"] for b in shown.values()}
    return [s for s in holders if s not in shown], [c for c in quarry if c not in hunted]


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
    taken, plus its ships' progress towards the planet whose surface is in play (the mission
    planet; in tier 3's run the carrier's home, N150), the surface's part and the run's."""
    side = _side(state, seat)
    g = Game(state)
    planet = g.board.planets[g.surface_planet]
    lead = 0.0
    for ship in state.ships.values():
        if ship.faction == side:
            lead -= _harm(ship)
            if ship.kind == "ship":
                lead += _progress(ship, planet)
        else:
            lead += _harm(ship)
    destroyed = state.fighters_made - sum(1 for s in state.ships.values() if s.kind == "fighter")
    lead += 1.0 * destroyed  # a destroyed fighter leaves the board: its harm is counted here
    return lead + _surface_lead(state, side) + _run_lead(g, side)


def _surface_lead(state: GameState, side: str) -> float:
    """The surface's part (N94): the mission parameter in the side's hands or aboard its ship,
    knocked-out crew on either side, and the digits earned."""
    lead = 0.0
    for crew in state.crew.values():
        if crew.ko:
            lead += -KNOCKED_OUT if crew.faction == side else KNOCKED_OUT
    obj = state.objective
    holder = state.crew.get(obj.holder or "") if obj is not None else None
    ship = state.ships.get(obj.ship or "") if obj is not None else None
    for owner, weight in ((holder, PARAMETER_HELD), (ship, PARAMETER_ABOARD)):
        if owner is not None:
            lead += weight if owner.faction == side else -weight
    return lead + sum(d if f == side else -d for f, d in state.digits.items()) / DIGITS_PER_POINT


def _run_lead(g: Game, side: str) -> float:
    """Tier 3's run (N150): for the side whose home it is, the findings on the surface nearer
    the employer's base; for the pursuers, their nearest conscious crewmember nearer the
    findings. Nothing while the findings are aboard a ship (its progress home counts then)."""
    obj = g.state.objective
    if obj is None or not obj.run:
        return 0.0
    holder = g.state.crew.get(obj.holder or "")
    where = holder.cell if holder is not None else obj.cell
    if where is None:
        return 0.0
    delivery = RUN_DELIVERY / (1 + min(distance(where, b) for b in g.ground.spec.base))
    chasers = [distance(c.cell, where) for c in g.state.crew.values()
               if c.faction != obj.run and c.cell is not None and not c.ko]
    chase = RUN_CHASE / (1 + min(chasers)) if chasers else 0.0
    return delivery - chase if side == obj.run else chase - delivery


def _progress(ship: Ship, planet) -> float:
    """Up to 2 points for being docked on the planet, less the further away it is."""
    if ship.docked == planet.code:
        return 2.0
    if ship.cell is None:
        return 0.0
    return 1.5 / (1 + min(distance(ship.cell, c) for c in planet.cells))


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
        planet = t.board.planets[t.surface_planet]  # in tier 3's run, the carrier's home (N150)
        return 1.0 / (1 + min(distance(cell, c) for c in planet.cells))
    layout = layout_key(t.state.orbit_layout)
    if any((cell, facing) in _firing_positions(t.pack.path, layout, foe.cell, ship.range) for foe in foes):
        return 1.5
    return 1.0 / (1 + min(distance(cell, foe.cell) for foe in foes))


def worth(state: GameState, seat: str, legal: list[str]) -> list[str]:
    """The legal commands without crew changes that do not make the ship fly or fight
    better, without gifts that leave nobody better armed (N92) and without drops by crew
    with room for another item (N186): a free action could otherwise be taken back and
    forth for ever."""
    legal = dropped.with_reason(state, [c for c in legal if not c.startswith("give ") or _arms(state, c)])
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


def _arms(state: GameState, command: str) -> bool:
    """Whether a gift (`give GIVER TAKER ITEM`) arms an empty-handed crewmember and leaves
    the giver something: the number of empty hands only falls, so gifts cannot loop."""
    _, giver, taker, _ = command.split()
    return not state.crew[taker].gear and len(state.crew[giver].gear) > 1


def crew_fit(g: Game, ship: Ship) -> float:
    """How well a ship's crew is placed: movement points, attack dice and station bonuses."""
    return speed(g, ship) + attack_dice(g, ship) + 0.5 * sum(
        count for roll in ("attack", "defense") for _, count in bonuses(g, ship, roll))


@functools.lru_cache(maxsize=4096)
def _firing_positions(pack_path: str, layout: tuple, target: str, reach: int) -> dict[tuple[str, str], bool]:
    """Every (square, facing) with a line of fire at `target` (kept: targets stand still a while)."""
    return orbit_of(pack_path, layout).firing_positions(target, reach)


def policy(state: GameState, seat: str, legal: list[str], rng: random.Random) -> str:
    """A fast rule-of-thumb answer: the best-scored command, a random one now and then; the
    crew stay at their stations and keep their gear (the search weighs those, see `worth`)."""
    legal = [c for c in legal if not c.startswith(("station ", "give ", "drop "))] or legal
    if len(legal) == 1:
        return legal[0]
    return best_scored(legal, prior(state, seat, legal), rng)


VERB_REASONS = {
    "attack": "fire whenever a shot is open, at the most battered target",
    "move": "close in on the nearest enemy (or the planet in play), ending with a shot where it can",
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
