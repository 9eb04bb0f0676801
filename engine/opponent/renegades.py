"""What the computer crew needs to know about Renegades, and nothing it may not see.

The computer crew flies a player's ship for solo and versus play with the same search as
in Away Missions; it is not the rulebook's NPC behaviour (engine/renegades/orbit/orbit.py), which
follows fixed orders. It reads only `view_for` its seat and the ruleset's public functions
(`legal_commands`, `apply`, `awaited`), so commands added to the ruleset later are weighed
like any other: the rule of thumb only gives the verbs it knows a head start.

- `Determiniser`: a full state from a view (`known_state` undoes `view_for`'s reshaping);
  every hidden part is imagined from what the seat can see: deck orders, shut containers,
  unscanned salvage, the other side's bounties, the dice (docs/rulings.md N90).
- `evaluate`: the seat's side's lead in damage dealt, mission progress and, on the surface,
  the mission parameter, knocked-out crew and digits, as a chance in [0, 1]; the mission's
  progress is walked out square by square: the crew nearer the parameter, the carrier
  nearer its ship's dock (N236).
- `policy` / `prior`: fire when a shot is open, land, walk to the mission parameter and
  carry it aboard; in orbit head for the planet in play, ending with a shot where it can.
- `goal`: where a crewmember heads (N237); `worth` weighs only the moves that bring it
  nearer, so no crewmember walks back to a square it left while its goal stands.
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
from engine.renegades import rules
from engine.renegades.contents.board import distance, layout_key, orbit_of
from engine.renegades.contents.content import Pack, load_pack
from engine.renegades.contents.game import Game
from engine.renegades.contents.ground import ground_of
from engine.renegades.contents.state import GameState, Ship, clone
from engine.renegades.crew.pieces import PARAMETER
from engine.renegades.orbit.orbit import attack_dice, bonuses, enemies, parse_legs, speed
from engine.renegades.surface import dropped

# how much a verb the rule of thumb knows is worth before anything else is looked at
VERB_SCORES = {"attack": 9.0, "descend": 6.0, "move": 4.0, "deploy": 5.0, "disembark": 5.0, "ascend": 1.0,
               "station": 1.0, "pass": 0.5}
# the surface's weights in the lead (N94), in hull-and-shield units
KNOCKED_OUT, PARAMETER_HELD, PARAMETER_ABOARD, DIGITS_PER_POINT = 1.5, 3.0, 6.0, 50.0
# tier 3's run (N150): the findings at the base, and the pursuers on the findings, in the same units
RUN_DELIVERY, RUN_CHASE = 4.0, 2.0
UNKNOWN_VERB = 2.0  # a command of a later part of the rules (the surface phase): tried, not favoured
DRAFT_INITIATIVE = 0.1  # the crew draft (N243): highest initiative first for its own ship, lowest for an enemy
# the mission walked out (N236): per square of walking distance the crew are nearer the
# parameter, or its carrier nearer its ship's dock; distances count up to FAR squares
APPROACH, RETURN, FAR = 0.25, 0.3, 24
# the rule of thumb's head start for the mission's steps (N237): a step nearer the goal, the
# parameter's container opened, the parameter taken, carried aboard
STEP_NEARER, OPEN_PARAMETER, TAKE_PARAMETER, BOARD_WITH_IT = 0.5, 10.0, 10.0, 12.0


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
        self.drafting = bool(view.get("draft"))  # the set-up's crew draft (N219): only the dice are unknown
        if self.drafting:
            known = {k: v for k, v in view.items() if k not in _VIEW_ONLY}
            self.base = msgspec.convert({**known, "seed": 0, "dice": {"state": 0}}, GameState)
            return
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
        if self.drafting:
            state.dice = Dice.seeded(rng.getrandbits(64))
            return state
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
    return lead + _surface_lead(state, side) + _run_lead(g, side) + _mission_lead(g, side)


def _mission_lead(g: Game, side: str) -> float:
    """N236: the side's walk towards completing the mission less the other side's."""
    others = {c.faction for c in g.state.crew.values()} - {side}
    return _mission_progress(g, side) - max((_mission_progress(g, o) for o in others), default=0.0)


def _mission_progress(g: Game, side: str) -> float:
    """How far `side` has walked the mission (N236): before it holds the parameter, its
    nearest conscious crewmember's walking distance to it (or to the opponent carrying it);
    once one of its crew carries it, the whole approach plus the carrier's walk to its ship's
    dock (any dock while the ship is away); the whole walk once it is aboard one of its
    ships. Nothing in tier 3's run (N150 measures that)."""
    s = g.state
    obj = s.objective
    if obj is None or obj.run:
        return 0.0
    if obj.ship is not None:
        return (APPROACH + RETURN) * FAR if s.ships[obj.ship].faction == side else 0.0
    holder = s.crew.get(obj.holder or "")
    if holder is not None and holder.faction == side:
        if holder.cell is None:
            return APPROACH * FAR
        return APPROACH * FAR + RETURN * (FAR - steps_to(g, holder.cell, _docks_of(g, holder)))
    crew = [c.cell for c in s.crew.values() if c.faction == side and c.cell is not None and not c.ko]
    target = _parameter_spot(g)
    if not crew or target is None:
        return 0.0
    return APPROACH * (FAR - min(steps_to(g, cell, (target,)) for cell in crew))


def _parameter_spot(g: Game) -> Optional[str]:
    """Where the parameter is on the surface: its container, the square it lies on, or its
    carrier's square (None: aboard a ship, or carried by nobody on the board)."""
    s = g.state
    obj = s.objective
    holder = s.crew.get(obj.holder or "")
    if holder is not None:
        return holder.cell
    return next((c for c, item in s.containers.items() if item == PARAMETER), None) or obj.cell


def _docks_of(g: Game, crew) -> tuple[str, ...]:
    """The dock a carrier heads for: its ship's, else every free dock (the ship will come)."""
    dock = g.state.docks.get(crew.ship or "")
    return (dock,) if dock else tuple(g.free_docks()) or tuple(g.ground.docks)


def steps_to(g: Game, cell: str, targets: tuple[str, ...]) -> int:
    """Steps on foot from `cell` to beside the nearest of `targets`, walls and ledges
    respected and pieces ignored (at most FAR)."""
    pack, layout = g.pack.path, layout_key(g.state.surface_layout)
    return min(min(_walks(pack, g.state.surface, layout, t).get(cell, FAR), FAR) for t in targets)


@functools.lru_cache(maxsize=1024)
def _walks(pack_path: str, board: str, layout: tuple, target: str) -> dict[str, int]:
    """Steps on foot from every square to beside `target` (0 on it or beside it)."""
    ground = ground_of(pack_path, board, layout)
    start = [target] + [c for c in ground.around(target) if c not in ground.blocking and ground.on_foot(target, c)]
    steps = {c: 0 for c in start}
    frontier = start
    while frontier:
        nxt = []
        for here in frontier:
            for there in ground.around(here):
                if there not in steps and there not in ground.blocking and ground.on_foot(here, there):
                    steps[there] = steps[here] + 1
                    nxt.append(there)
        frontier = nxt
    return steps


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
    goals = Goals(t)
    scores = []
    for command in legal:
        words = command.split()
        score = VERB_SCORES.get(words[0], UNKNOWN_VERB)
        if words[0] == "attack" and words[-1] in state.ships:
            score += 0.1 * _harm(state.ships[words[-1]])
        elif words[0] == "move" and words[1] in state.crew:
            score += STEP_NEARER * (goals.nearer(state.crew[words[1]], words[2]) or 0)
        elif words[0] == "move" and acting is not None and acting.cell:
            score += _move_score(t, acting, words[2:], foes, occupied)
        elif words[0] == "deploy":
            score += len(words) - 2  # a full landing party
        elif words[0] == "draft":
            score += DRAFT_INITIATIVE * t.pack.crew[words[1]].initiative * _drafting_for(t, seat)
        else:
            score = _mission_step(state, words) or score
        scores.append(score)
    return scores


def _mission_step(state: GameState, words: list[str]) -> Optional[float]:
    """The head start of a command that completes a step of the mission (N237): opening the
    parameter's container, taking the parameter, boarding the ship with it."""
    obj = state.objective
    if obj is None or obj.ship is not None or len(words) < 2:
        return None
    if words[0] == "open" and state.containers.get(words[-1]) == PARAMETER:
        return OPEN_PARAMETER
    if words[0] == "take":
        return TAKE_PARAMETER
    if words[0] == "board" and len(words) == 2 and obj.holder == words[1]:
        return BOARD_WITH_IT
    return None


def goal(g: Game, crew) -> Optional[tuple[str, ...]]:
    """Where a crewmember on the surface heads (N237): the carrier of the parameter to its
    ship's dock (in tier 3's run to the employer's base), the rest of its side to the
    parameter, or to whoever of the other side carries it; None when the parameter is
    aboard a ship (or there is none) or the crewmember stands on no square."""
    s = g.state
    obj = s.objective
    if obj is None or obj.ship is not None or crew.cell is None:
        return None
    holder = s.crew.get(obj.holder or "")
    if obj.run and holder is crew:
        return tuple(g.ground.spec.base)
    if holder is crew or holder is not None and holder.faction == crew.faction:
        return _docks_of(g, crew)
    spot = _parameter_spot(g)
    return (spot,) if spot else None


class Goals:
    """Each crewmember's goal in one position, and how many steps nearer it a move takes it
    (worked out once a crewmember: a position has many moves)."""

    def __init__(self, g: Game):
        self.g = g
        self._known: dict[str, tuple[list[dict[str, int]], int]] = {}

    def nearer(self, crew, square: str) -> Optional[int]:
        """Steps on foot nearer its goal a move to `square` takes the crewmember (None: no goal)."""
        if crew.id not in self._known:
            targets = goal(self.g, crew) or ()
            g = self.g
            walks = [_walks(g.pack.path, g.state.surface, layout_key(g.state.surface_layout), t) for t in targets]
            self._known[crew.id] = walks, _steps(walks, crew.cell)
        walks, here = self._known[crew.id]
        return here - _steps(walks, square) if walks else None


def _steps(walks: list[dict[str, int]], square: str) -> int:
    return min(min(w.get(square, FAR), FAR) for w in walks) if walks else FAR


def _move_score(t: Game, ship: Ship, legs: list[str], foes: list[Ship], occupied: set[str]) -> float:
    """Better when the ship ends nearer the planet in play (N237; in tier 3's run the
    carrier's home, N150), and with a shot at an enemy, or nearer the nearest one."""
    try:
        path, facing, _ = t.board.walk(ship.cell, ship.facing, parse_legs(legs), occupied)
    except RuleError:  # a move the board cannot walk is left to the rules to refuse
        return 0.0
    cell = path[-1] if path else ship.cell
    planet = t.board.planets[t.surface_planet]
    score = 1.0 / (1 + min(distance(cell, c) for c in planet.cells))
    if not foes:
        return score
    layout = layout_key(t.state.orbit_layout)
    if any((cell, facing) in _firing_positions(t.pack.path, layout, foe.cell, ship.range) for foe in foes):
        return score + 1.0
    return score + 0.5 / (1 + min(distance(cell, foe.cell) for foe in foes))


def worth(state: GameState, seat: str, legal: list[str]) -> list[str]:
    """The legal commands without crew changes that do not make the ship fly or fight
    better, without gifts that leave nobody better armed (N92) and without drops by crew
    with room for another item (N186): a free action could otherwise be taken back and
    forth for ever; without moves of a crewmember that do not bring it nearer its goal
    (N237): it never walks back to a square it left while its goal stands; and without a
    rise that leaves the landing party behind (N238)."""
    legal = dropped.with_reason(state, [c for c in legal if not c.startswith("give ") or _arms(state, c)])
    legal = _onwards(state, legal)
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


def _onwards(state: GameState, legal: list[str]) -> list[str]:
    """The commands without crew moves or leaps that leave a crewmember with a goal no nearer
    to it, without boarding one's own ship for nothing (N237) and without a rise that leaves
    the ship's landing party behind (N238)."""
    goals = Goals(Game(state))
    kept = []
    for command in legal:
        words = command.split()
        if words[0] in STEPS and words[1] in state.crew and not _onward(goals.nearer(state.crew[words[1]], words[2])):
            continue
        if words[0] == "ascend" and _stranding(state, words[1]):
            continue
        if words[0] == "board" and len(words) == 2 and not _boards_for_something(state, state.crew[words[1]]):
            continue
        kept.append(command)
    return kept


STEPS = ("move", "leap")  # commands that only take a crewmember to another square (N237)


def _onward(steps: Optional[int]) -> bool:
    """A move is onward when it gains a step on the crewmember's goal, or it has none."""
    return steps is None or steps > 0


def _boards_for_something(state: GameState, crew) -> bool:
    """Whether stepping aboard its own ship does something (N237): the carrier brings the
    parameter, a crewmember brings whoever it carries, or the wounded go to the med bay."""
    obj = state.objective
    return obj is not None and obj.holder == crew.id or bool(crew.carrying) or crew.wounds > 0


def _stranding(state: GameState, ship: str) -> bool:
    """Whether the ship rising would leave its conscious crew on the surface while the
    mission parameter is not aboard it (N238)."""
    obj = state.objective
    if obj is None or obj.ship == ship:
        return False
    return any(c.ship == ship and c.cell is not None and not c.ko and not c.captive for c in state.crew.values())


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
    legal = _onwards(state, legal) or legal
    if len(legal) == 1:
        return legal[0]
    return best_scored(legal, prior(state, seat, legal), rng)


VERB_REASONS = {
    "attack": "fire whenever a shot is open, at the most battered target",
    "move": "head for the planet in play, ending with a shot where it can; on the surface walk to the "
            "mission parameter, or carry it to the ship",
    "descend": "land on the mission planet when beside it",
    "deploy": "send a full landing party down",
    "disembark": "join the landing party",
    "open": "open a container, the mission parameter's first",
    "take": "take the mission parameter",
    "board": "step aboard with the mission parameter, a crewmate carried or wounds for the med bay, "
             "or board an enemy's docked ship",
    "ascend": "take off again",
    "station": "move crew to stations where they fly or fight better",
    "pass": "end the turn when nothing else is worth doing",
    "draft": "draft for its own ship the free crewmember of highest initiative, for an NPC ship of the other "
             "side the lowest, keeping every station mannable",
}


def reason(state: GameState, seat: str, command: str) -> str:
    """The rule of thumb behind a command the policy chose (the easy level's explanation)."""
    legal = worth(state, seat, rules.legal_commands(state, seat)) or [command]
    if wandered(legal, prior(state, seat, legal), command):
        return "try something different now and then (a random legal command)"
    verb = command.split(" ", 1)[0]
    return VERB_REASONS.get(verb, f"{verb} when nothing better is at hand")


def _drafting_for(g: Game, seat: str) -> int:
    """1 when the ship picking in the draft flies for the seat's side, -1 when it is an NPC
    ship of the other side (the single-team game's Coalition, N220)."""
    ship = g.state.draft.order[g.state.draft.made]
    return 1 if g.pack.ships[ship].faction == g.state.player(seat).faction else -1


def searched(state: GameState, seat: str) -> bool:
    """Whether the search weighs this decision: not a pick of the crew draft, which the rule
    of thumb makes (N243; the game is not dealt yet, so there is nothing to play out)."""
    return state.phase != "draft"


def turn_starts(state: GameState) -> bool:
    """Whether the game waits on a fresh ship turn (or on something other than a ship's action)."""
    return not state.pending or any(d.kind != "ship" or d.info.get("left") == 2 for d in state.pending)
