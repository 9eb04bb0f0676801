"""The orbital phase: ship statistics, the ship actions, ship combat and NPC ships."""
from __future__ import annotations

import itertools
from typing import Optional

from engine.errors import RuleError
from engine.renegades.contents.board import DIRECTIONS, OrbitBoard, distance
from engine.renegades.contents.content import SQUADRONS
from engine.renegades.contents.game import MAX_DICE, Game
from engine.renegades.contents.state import Ship, Strike
from engine.renegades.orbit import placing

FIGHTER_BOUNTY = 70  # digits for destroying a villain fighter
GROUNDING_HULL_DAMAGE = 3  # hull damage that keeps a ship from landing on the mission planet (N194)
FACTION_RANK = {"renegade": 0, "coalition": 1}  # Renegades first on equal initiative


# --- ship statistics ---------------------------------------------------------------------------
def initiative(g: Game, ship: Ship) -> int:
    """The commander's initiative, else the navigator's, else 0; NPCs always 0."""
    if ship.seat is None:
        return 0
    lift = 1 if boost(g, ship, "command", spend=False) else 0  # the Take the Con ability
    for station in ("commander", "navigation"):
        crew = g.crew_at(ship, station)
        if crew is not None:
            return crew.initiative + lift
    return lift


def boost(g: Game, ship: Ship, effect: str, spend: bool = True) -> int:
    """The dice of an ability or tactic waiting on the ship this round (0: none); `spend` uses it up."""
    held = ship.boosts.get(effect)
    if not held or held[0] != g.state.round:
        return 0
    if spend:
        del ship.boosts[effect]
    return held[1]


def speed(g: Game, ship: Ship) -> int:
    """Movement points of one move action: 1 + the navigator's piloting while the shields
    hold, minus one when critically damaged; no navigator, no movement."""
    if ship.kind == "fighter":
        return ship.speed
    pilot = g.crew_at(ship, "navigation")
    if pilot is None:
        return 0
    points = pilot.skills["piloting"] + (1 if ship.shields_up else 0) - (1 if ship.critical else 0)
    return max(0, points)


def attack_dice(g: Game, ship: Ship) -> int:
    if ship.kind == "fighter":
        return min(MAX_DICE, ship.attack)
    gunner = g.crew_at(ship, "weapons")
    if gunner is None or ship.critical:
        return 0
    return min(MAX_DICE, gunner.skills["weapons"] + (1 if ship.shields_up else 0))


def bonuses(g: Game, ship: Ship, roll: str) -> list[tuple[int, int]]:
    """(add, dice) bonuses of the crew at their stations to the ship's `roll`; none once critical."""
    if ship.kind != "ship" or ship.critical:
        return []
    found = []
    for station, code in ship.stations.items():
        for bonus in g.pack.crew[code].bonuses:
            if bonus.station == station and bonus.roll == roll:
                found.append((bonus.add, bonus.dice))
    return found


def enemies(g: Game, ship: Ship, other: Ship) -> bool:
    """Renegades and the Coalition oppose each other; fighters oppose every hero ship."""
    return ship.faction != other.faction and (ship.kind == "ship" or other.kind == "ship")


# --- actions -----------------------------------------------------------------------------------
def parse_legs(words: list[str]) -> list[tuple[str, int]]:
    """'NE3' -> ('NE', 3); a bare direction turns the ship without moving."""
    legs = []
    for word in words:
        word = word.upper()
        direction = word.rstrip("0123456789")
        count = word[len(direction):]
        if direction not in DIRECTIONS or (count and int(count) > 30):
            raise RuleError(f"'{word}' is not a leg: a direction (N, NE, E, SE, S, SW, W, NW), "
                            "then how many squares (NE3); a bare direction only turns the ship.")
        legs.append((direction, int(count) if count else 0))
    return legs


def single_legs(g: Game, ship: Ship, points: int) -> list[str]:
    """Every one-leg move ('E3', a bare 'N' to turn) the ship can make with `points`."""
    legs = []
    occupied = g.occupied(ship)
    for direction in DIRECTIONS:
        for count in range(0, points + 1):
            try:
                path, facing, cost = g.board.walk(ship.cell, ship.facing, [(direction, count)], occupied)
            except RuleError:
                break
            if cost > points:
                break
            if path or facing != ship.facing:
                legs.append(f"{direction}{count if count else ''}")
    return legs


def move(g: Game, ship: Ship, legs: list[tuple[str, int]], points: Optional[int] = None) -> None:
    """Move along `legs` with the ship's movement points (or `points`, a free move's)."""
    path, facing, cost, points = plan_move(g, ship, legs, points)
    start = ship.cell
    ship.cell = path[-1] if path else ship.cell
    ship.facing = facing
    g.emit("ship_moved", ship=ship.id, path=[start] + path, facing=facing, cost=cost, points=points)


def plan_move(g: Game, ship: Ship, legs: list[tuple[str, int]], points: Optional[int] = None):
    """The squares, facing and cost of a move, with the points it may use; RuleError if illegal."""
    if ship.cell is None:
        raise RuleError(f"The {ship.name} is docked on a planet; ascend first.")
    points = speed(g, ship) if points is None or speed(g, ship) == 0 else points
    if points == 0:
        raise RuleError(f"The {ship.name} cannot move: nobody is at navigation." if ship.kind == "ship"
                        and g.crew_at(ship, "navigation") is None else f"The {ship.name} has no movement left in it.")
    path, facing, cost = g.board.walk(ship.cell, ship.facing, legs, g.occupied(ship))
    if cost > points:
        raise RuleError(f"That move costs {cost} movement points; the {ship.name} has {points} "
                        "(a change of direction costs one, an obstructed square two).")
    if not path and facing == ship.facing:
        raise RuleError("That move goes nowhere.")
    return path, facing, cost, points


def can_fire(g: Game, ship: Ship, target: Ship) -> Optional[bool]:
    """None when `ship` cannot attack `target` now, else whether the line is obstructed."""
    if ship.cell is None or not enemies(g, ship, target):
        return None
    if attack_dice(g, ship) == 0 or ship.attacked_round == g.state.round:
        return None
    if target.cell is None:
        return False if fire_down(g, ship, target) else None
    return g.board.line_of_fire(ship.cell, ship.facing, target.cell, ship.range)


def fire_down(g: Game, ship: Ship, target: Ship) -> bool:
    """N25: a ship left docked on the mission planet (or the run's home, N149) for more than
    one round may be fired on from orbit by a ship within half its range of the planet, any
    facing, no terrain penalty."""
    if not docked_long(g, target):
        return False
    planet = g.board.planets[g.surface_planet]
    return min(distance(ship.cell, c) for c in planet.cells) <= ship.range // 2


def attack_refusal(g: Game, ship: Ship, target: Ship) -> str:
    if ship.cell is None:
        return f"The {ship.name} is docked; a docked ship cannot fire."
    if target.cell is None and not (ship.critical or attack_dice(g, ship) == 0
                                    or ship.attacked_round == g.state.round):
        return (f"The {target.name} is docked; a ship docked on the mission planet (in tier 3's run, the "
                f"carrier's home) for more than one round may be fired on from within half your range "
                f"({ship.range // 2}) of the planet.")
    if not enemies(g, ship, target):
        return f"The {target.name} is on your side."
    if ship.attacked_round == g.state.round:
        return f"The {ship.name} has already attacked this round (one attack a round)."
    if ship.critical:
        return f"The {ship.name} is critically damaged and cannot attack."
    if attack_dice(g, ship) == 0:
        return f"Nobody is at the weapons station of the {ship.name}."
    return (f"The {target.name} ({target.cell}) is not on a straight or diagonal line ahead of the {ship.name} "
            f"({ship.cell} facing {ship.facing}) within range {ship.range}, or blocking terrain is in the way.")


def attack(g: Game, ship: Ship, target: Ship) -> None:
    """Roll the attack; its player places the bonuses when there is a real choice (N122),
    then `finish_attack`."""
    obstructed = can_fire(g, ship, target)
    if obstructed is None:
        raise RuleError(attack_refusal(g, ship, target))
    ship.attacked_round = g.state.round
    red = g.state.dice.roll(min(MAX_DICE, attack_dice(g, ship) + boost(g, ship, "press")))  # Press the Attack
    rolled = list(red)
    aimed = reroll_lowest(g, red, boost(g, ship, "targeting") + boost(g, ship, "lock"), lambda i: red[i] < 4)
    strike = Strike(kind="ship", attacker=ship.id, target=target.id, seat=ship.seat, dice=rolled, red=red,
                    bonuses=[list(b) for b in bonuses(g, ship, "attack")],
                    info={"obstructed": obstructed, "aimed": aimed})
    faces = placing.place(g, strike)
    if faces is not None:
        finish_attack(g, strike, faces)


def finish_attack(g: Game, strike: Strike, red: list[int]) -> None:
    """The defender's dice against the placed attack dice `red`, then the damage."""
    ship, target = g.state.ships[strike.attacker], g.state.ships[strike.target]
    obstructed, aimed = strike.info["obstructed"], strike.info["aimed"]
    dice = g.state.dice
    hits = sorted((r for r in red if r >= 4), reverse=True)
    black = dice.roll(len(hits))
    defense = bonuses(g, target, "defense") + ([(1, 1)] if boost(g, target, "brace", spend=False) else [])
    npc = target.seat is None
    rerolled: list[int] = []
    if obstructed and black:  # N9: re-roll up to two dice that block nothing, lowest first
        _, used = best_defense(hits, black, defense, npc)
        idle = sorted((i for i in range(len(black)) if i not in used), key=lambda i: black[i])[:2]
        for i in idle:
            black[i] = dice.roll(1)[0]
        rerolled = idle
    evasive = boost(g, target, "evasive")
    if evasive and black:  # Jink and Roll: re-roll defense dice that block nothing, lowest first (N62)
        _, used = best_defense(hits, black, defense, npc)
        evaded = reroll_lowest(g, black, evasive, lambda i: i not in used)
    blocked, _ = best_defense(hits, black, defense, npc)
    damage = len(hits) - blocked
    extra = {"aimed": aimed} if aimed else {}
    if evasive and black:
        extra["evaded"] = evaded
    g.emit("ship_attack", ship=ship.id, target=target.id, dice=strike.dice, attack=red, hits=len(hits),
           penetrating=sum(1 for r in hits if r >= 7), defense=black, rerolled=rerolled,
           obstructed=obstructed, blocked=blocked, damage=damage, **extra)
    take_damage(g, target, damage, ship)


def reroll_lowest(g: Game, faces: list[int], count: int, wasted) -> list[int]:
    """Re-roll in place up to `count` of the dice `wasted(i)` says did nothing, lowest first;
    the indices re-rolled."""
    chosen = sorted((i for i in range(len(faces)) if wasted(i)), key=lambda i: (faces[i], i))[:count]
    for i in chosen:
        faces[i] = g.state.dice.roll(1)[0]
    return chosen


def best_defense(hits: list[int], black: list[int], defense: list[tuple[int, int]],
                 npc: bool = False) -> tuple[int, set[int]]:
    """The most hits the defender can block (a black die at least as high as the red die it
    is paired with; a 7 or more cannot be blocked), trying every placement of its bonuses;
    an NPC's bonuses go on its highest dice, whatever they block (N10). Returns the blocks
    and the indices of the black dice used."""
    if npc:
        return _pair(hits, placing.highest_first(black, defense))
    plus = [add for add, count in defense for _ in range(count)]
    best = (-1, set())
    for targets in itertools.product(range(len(black)), repeat=len(plus)) if black else [()]:
        faces = list(black)
        for add, i in zip(plus, targets):
            faces[i] += add
        found = _pair(hits, faces)
        if found[0] > best[0]:
            best = found
    return best


def _pair(hits: list[int], faces: list[int]) -> tuple[int, set[int]]:
    used: set[int] = set()
    for red in sorted(h for h in hits if h <= 6):
        choice = min((i for i in range(len(faces)) if i not in used and faces[i] >= red),
                     key=lambda i: (faces[i], i), default=None)
        if choice is not None:
            used.add(choice)
    return len(used), used


def take_damage(g: Game, ship: Ship, amount: int, source: Optional[Ship]) -> None:
    if amount <= 0:
        return
    was_up, was_critical = ship.shields_up, ship.critical
    ship.damage += amount
    if source is not None:
        ship.hurt_by[source.id] = ship.hurt_by.get(source.id, 0) + amount
    if ship.kind == "fighter":
        if ship.damage >= ship.shields:
            g.emit("fighter_destroyed", ship=ship.id, cell=ship.cell, by=source.id if source else None)
            if source is not None:
                g.state.digits[source.faction] = g.state.digits.get(source.faction, 0) + FIGHTER_BOUNTY
            if ship.cell and ship.cell not in g.state.salvage:  # its wreck: the next salvage token
                g.state.salvage.append(ship.cell)
                if g.state.salvage_deck:
                    g.state.salvage_items[ship.cell] = g.state.salvage_deck.pop(0)
            del g.state.ships[ship.id]
        return
    ship.damage = min(ship.damage, ship.shields + ship.hull)  # N11: ships with cards are never destroyed
    if was_up and not ship.shields_up:
        g.emit("shields_down", ship=ship.id)
    if not was_critical and ship.critical:
        g.emit("critical", ship=ship.id, by=source.id if source else None)


def descend(g: Game, ship: Ship, planet: Optional[str]) -> None:
    board = g.board
    if ship.cell is None:
        raise RuleError(f"The {ship.name} is already docked.")
    if ship.risen_round == g.state.round:
        raise RuleError("A ship may not ascend and descend in the same round (N144).")
    home = board.home_of(ship.faction)
    obj = g.state.objective
    bringing = obj is not None and obj.ship == ship.id and g.state.tier >= 2  # N46: home with the parameter
    choices = [g.surface_planet] + ([home.code] if home and (ship.critical or bringing) else [])
    if planet is None:
        planet = next((p for p in choices if board.beside_planet(ship.cell, p)), choices[0])
    if planet not in board.planets:
        raise RuleError(f"No planet '{planet}' on this board.")
    if planet not in choices:
        raise RuleError(f"A ship descends on {board.planets[planet].name} only when critically damaged, "
                        "to be repaired at home." if home and planet == home.code
                        else f"{board.planets[planet].name}'s surface is left behind: the run goes on at "
                        f"{board.planets[g.surface_planet].name} (N171)." if planet == board.mission_planet.code
                        else f"{board.planets[planet].name} is not a planet to descend on in this mission.")
    if not board.beside_planet(ship.cell, planet):
        raise RuleError(f"The {ship.name} must be on a square beside {board.planets[planet].name} to descend.")
    if grounded(g, ship, planet):
        raise RuleError(f"The {ship.name} has {ship.hull_damage} hull damage: a ship with three or more hull damage "
                        f"cannot land on {board.planets[planet].name} until it is repaired (N194).")
    if planet == g.surface_planet and not g.free_docks():
        raise RuleError("Every dock on the surface is taken or has somebody standing on it.")
    ship.left_from, ship.cell = ship.cell, None
    ship.docked, ship.docked_round = planet, g.state.round
    g.emit("descended", ship=ship.id, planet=planet, cell=ship.left_from)


def grounded(g: Game, ship: Ship, planet: str) -> bool:
    """N194: a ship with three or more hull damage does not land on the mission planet."""
    return planet == g.board.mission_planet.code and ship.hull_damage >= GROUNDING_HULL_DAMAGE


def boarded(g: Game, ship: Ship) -> bool:
    """Whether opponents who boarded the ship, crew or figures, are fighting aboard (N114, N163)."""
    return any(c.boarded == ship.id and not c.ko for c in g.state.crew.values()) \
        or any(f.boarded == ship.id for f in g.state.figures.values())


def ascend(g: Game, ship: Ship) -> None:
    if ship.docked is None:
        raise RuleError(f"The {ship.name} is not docked.")
    if boarded(g, ship):
        raise RuleError(f"Boarders are fighting aboard the {ship.name}; it cannot rise until they are gone.")
    if ship.docked_round == g.state.round:
        raise RuleError("A ship may not descend and ascend in the same round.")
    cell = rising_square(g, ship)
    if cell is None:
        raise RuleError(f"Every square beside {g.board.planets[ship.docked].name} holds a ship; wait for one to leave.")
    g.emit("ascended", ship=ship.id, planet=ship.docked, cell=cell)
    ship.cell, ship.docked, ship.left_from, ship.risen_round = cell, None, None, g.state.round


def rising_square(g: Game, ship: Ship) -> Optional[str]:
    """N22: where the docked ship comes up: the square it descended from, else the first free
    square beside its planet by column, then row; None when every one holds a ship."""
    taken = g.occupied()
    planet = g.board.planets[ship.docked]
    around = [ship.left_from] + sorted({c for p in planet.cells for c in _ring(g.board, p)},
                                       key=lambda c: (c[0], int(c[1:])))
    return next((c for c in around if c and c not in taken and c not in g.board.blocking), None)


def _ring(board: OrbitBoard, cell: str) -> list[str]:
    return [c for c in (board.step(cell, d) for d in DIRECTIONS) if c]


# --- NPC ships ---------------------------------------------------------------------------------
def npc_order(g: Game) -> list[str]:
    """NPCs act after the players: NPC Coalition ships, then fighters squadron by squadron (N12)."""
    ships = [s for s in g.state.ships.values() if s.seat is None]
    rank = {"ship": -1, **{sq: i for i, sq in enumerate(SQUADRONS)}}
    return [s.id for s in sorted(ships, key=lambda s: (rank["ship"] if s.kind == "ship" else rank[s.faction], s.id))]


def _targets(g: Game, npc: Ship) -> list[Ship]:
    """Ships this NPC hunts: Renegade ships in orbit for the Coalition; player ships for
    fighters, also those docked on the mission planet for more than one round (N59)."""
    found = []
    for s in g.state.ships.values():
        if not enemies(g, npc, s) or (s.cell is None and not (npc.kind == "fighter" and docked_long(g, s))):
            continue
        if (npc.kind == "ship" and s.faction == "renegade") or (npc.kind == "fighter" and s.seat is not None):
            found.append(s)
    return sorted(found, key=lambda s: s.id)


def docked_long(g: Game, ship: Ship) -> bool:
    """Docked for more than one round on the planet whose surface is in play (the mission
    planet, or the home of tier 3's run, N149): a target from orbit (N25), boarders (N114)
    and the figures (N113)."""
    return ship.docked == g.surface_planet and g.state.round >= ship.docked_round + 2


def choose_target(g: Game, npc: Ship) -> Optional[Ship]:
    """N13: the ship that hurt it most this round if it is in orbit; otherwise the ship it
    paired off with this turn while it is still hunted; otherwise pair off: the hunted ship
    fewest NPCs of its kind were given this round, a roll-off among equals.
    N59: a fighter alone on the board goes for a ship docked on the mission planet first."""
    ships = g.state.ships
    hurt = [(amount, attacker) for attacker, amount in npc.hurt_by.items()
            if attacker in ships and ships[attacker].cell is not None]
    if hurt:
        top = max(a for a, _ in hurt)
        tied = sorted(attacker for a, attacker in hurt if a == top)
        return ships[roll_off(g, tied, ship=npc.id)]
    targets = _targets(g, npc)
    if not targets:
        return None
    docked = [t for t in targets if t.cell is None]
    if npc.kind == "fighter" and docked and sum(1 for x in ships.values() if x.kind == "fighter") == 1:
        targets = docked
    if ships.get(npc.assigned or "") in targets:  # the pairing (and an odd one's roll) holds for the turn
        return ships[npc.assigned]
    load = {t.id: 0 for t in targets}
    for other in ships.values():
        if other is not npc and other.seat is None and other.kind == npc.kind and other.assigned in load:
            load[other.assigned] += 1
    least = min(load.values())
    tied = [t for t in load if load[t] == least]
    npc.assigned = roll_off(g, tied, ship=npc.id)
    return ships[npc.assigned]


def roll_off(g: Game, tied: list[str], **who) -> str:
    """One die decides among `tied`: each candidate gets as many faces, the rest are rolled
    again. Among more than six, as many dice as it takes are read as one number in base six
    (N53)."""
    if len(tied) == 1:
        return tied[0]
    count = 1
    while 6 ** count < len(tied):
        count += 1
    usable = 6 ** count - 6 ** count % len(tied)
    rolled: list[int] = []
    while True:
        faces = g.state.dice.roll(count)
        rolled += faces
        value = 0
        for face in faces:
            value = value * 6 + face - 1
        if value < usable:
            break
    chosen = tied[value * len(tied) // usable]
    g.emit("roll_off", **who, among=tied, die=faces[-1] if count == 1 else faces, rolled=rolled, chosen=chosen)
    return chosen


def npc_turn(g: Game, npc: Ship) -> None:
    """Two actions, no questions asked (N14): close in as near to adjacency as the movement
    allows, preferring squares with a line of fire, then fire; a critically damaged Coalition
    ship goes home for repairs; Coalition ships follow Renegades who descended."""
    s = g.state
    if npc.docked is not None:
        if _should_ascend(g, npc) and npc.docked_round < s.round and not boarded(g, npc) and rising_square(g, npc):
            ascend(g, npc)
        else:
            g.emit("npc_waits", ship=npc.id)
        return
    for _ in range(2):
        if npc.id not in s.ships or npc.cell is None:
            return
        goal = _goal(g, npc)
        if goal is None:
            g.emit("npc_waits", ship=npc.id)
            return
        kind, where = goal
        if kind == "planet":
            left_behind = where == g.board.mission_planet.code and where != g.surface_planet  # N171
            if left_behind or (where == g.surface_planet and not g.free_docks()):
                g.emit("npc_waits", ship=npc.id)
                return
            if g.board.beside_planet(npc.cell, where):
                descend(g, npc, where)
                return
            _approach(g, npc, None, where)
            continue
        target = s.ships[where]
        if can_fire(g, npc, target) is not None:
            attack(g, npc, target)
            continue
        if target.cell is None:  # docked: close in on the planet to fire down (N59)
            if not _approach(g, npc, None, target.docked):
                g.emit("npc_waits", ship=npc.id)
                return
            continue
        if not _approach(g, npc, target, None):
            g.emit("npc_waits", ship=npc.id)
            return


def _goal(g: Game, npc: Ship):
    obj = g.state.objective
    if npc.kind == "ship" and (npc.critical or (obj is not None and obj.ship == npc.id and g.state.tier >= 2)):
        home = g.board.home_of(npc.faction)
        return ("planet", home.code) if home else None
    if npc.kind == "ship":
        surface, mission = g.surface_planet, g.board.mission_planet.code
        renegades = [x for x in g.state.ships.values() if x.faction == "renegade"]
        landed = any(x.docked == surface for x in renegades)
        all_down = all(x.docked in (surface, mission) for x in renegades if x.cell is None) and not _targets(g, npc)
        chase = obj is not None and obj.run == "renegade" and obj.home  # N148: the findings are down at Port Saven
        if landed and (all_down or chase) and not grounded(g, npc, surface):
            return ("planet", surface)
    target = choose_target(g, npc)
    if target is None:
        return None
    g.emit("npc_target", ship=npc.id, target=target.id)
    return ("ship", target.id)


def _should_ascend(g: Game, npc: Ship) -> bool:
    obj = g.state.objective
    if obj is not None and obj.ship == npc.id:  # N46, N47: rise to bring it home, then wait there
        return not obj.home and npc.docked == g.board.mission_planet.code
    if any(c.ship == npc.id and c.cell is not None and not c.captive for c in g.state.crew.values()):
        return False  # N43: an NPC ship waits for its landing party
    home = g.board.home_of(npc.faction)
    if npc.docked == g.surface_planet and not (home and npc.docked == home.code):  # N148: at Port Saven too
        return not any(x.docked == npc.docked for x in g.state.ships.values() if x.faction == "renegade")
    if npc.docked == g.board.mission_planet.code:
        return True  # N171: the mission planet was left behind
    return npc.damage <= npc.shields  # N15: home repairs go on until the hull is whole


def _approach(g: Game, npc: Ship, target: Optional[Ship], planet: Optional[str]) -> bool:
    """Move to the best reachable square and facing; False when nothing better is reachable."""
    points = speed(g, npc)
    if points == 0:
        return False
    options = g.board.reachable(npc.cell, npc.facing, points, g.occupied(npc))
    firing = g.board.firing_positions(target.cell, npc.range) if target is not None and attack_dice(g, npc) else {}

    def score(item):
        (cell, facing), (cost, legs) = item
        if planet is not None:
            near = min(distance(cell, c) for c in g.board.planets[planet].cells)
            return (0, near, cost, cell, facing)
        return (0 if (cell, facing) in firing else 1, distance(cell, target.cell), cost, cell, facing)

    (cell, facing), (cost, legs) = min(options.items(), key=score)
    if cost == 0:
        return False
    move(g, npc, list(legs))
    return True
