"""The surface phase: landing parties and what crewmembers do on the planet.

Each crewmember of a landing party has two actions a turn (move, attack, interact,
board, disembark) and free actions (stealth and scan tests). Crew combat, unconscious
crew, the med bay and prisoners live here too; non-player figures are in `figures.py`.
"""
from __future__ import annotations

from typing import Optional, Union

from engine.errors import RuleError
from engine.renegades import orbit
from engine.renegades.board import distance
from engine.renegades.ground import near
from engine.renegades.orbit import Game
from engine.renegades.state import CrewMember, Figure, Ship

ACTIONS = 2  # each crewmember's actions a turn
PARTY = 3  # at most three of a ship's crew on the surface at once
CARRY = {"pistol": 2, "rifle": 1, "melee": 1}  # weapons a crewmember may carry
ITEMS = 3  # search items a crewmember may carry
PARAMETER = "mission-parameter"  # what the mission's container holds
Piece = Union[CrewMember, Figure]


# --- tests ---------------------------------------------------------------------------------------
def skill_test(g: Game, dice: int, plus: int = 0) -> tuple[list[int], int]:
    """Roll `dice` dice (at most eight); `plus` is added to one die. Returns the faces and
    how many are 5 or more (a test passes with one)."""
    faces = g.state.dice.roll(min(orbit.MAX_DICE, dice)) if dice > 0 else []
    if plus and faces:
        faces[faces.index(min(faces))] += plus
    return faces, sum(1 for f in faces if f >= 5)


# --- who is where --------------------------------------------------------------------------------
def standing(g: Game) -> list[Piece]:
    """Everything that occupies a square: conscious crew not carried, and the figures."""
    s = g.state
    found: list[Piece] = [c for c in s.crew.values() if c.cell is not None and not c.ko]
    return found + list(s.figures.values())


def occupant(g: Game, cell: str) -> Optional[Piece]:
    return next((p for p in standing(g) if p.cell == cell), None)


def party(g: Game, ship: str) -> list[CrewMember]:
    """The conscious crew of `ship` on the surface."""
    return [c for c in g.state.crew.values()
            if c.ship == ship and c.cell is not None and not c.ko and not c.captive]


def on_surface(g: Game, ship: str) -> list[CrewMember]:
    """Every crewmember of `ship` on the surface, conscious or not (the three-at-once limit)."""
    return [c for c in g.state.crew.values() if c.ship == ship and c.cell is not None and not c.captive]


def aboard(g: Game, ship: str) -> list[CrewMember]:
    return sorted((c for c in g.state.crew.values() if c.ship == ship and c.cell is None),
                  key=lambda c: c.id)


def party_initiative(g: Game, ship: str) -> int:
    """The sum of the initiatives of the ship's conscious crew on the surface."""
    return sum(c.initiative for c in party(g, ship))


def opposed(a: Piece, b: Piece) -> bool:
    """Crew of the two factions oppose each other; every figure opposes every crewmember."""
    if isinstance(a, Figure) and isinstance(b, Figure):
        return False
    if isinstance(a, CrewMember) and isinstance(b, CrewMember):
        return a.faction != b.faction
    return True


def holds_back(piece: Piece) -> bool:
    """Whether leaving base contact with `piece` needs an elude test (drones need none)."""
    return not (isinstance(piece, Figure) and piece.rank == "drone")


def docked_ship(g: Game, crew: CrewMember) -> Optional[Ship]:
    ship = g.state.ships.get(crew.ship or "")
    if ship is None or ship.id not in g.state.docks:
        return None
    return ship


def piece(g: Game, code: str) -> Optional[Piece]:
    return g.state.crew.get(code) or g.state.figures.get(code)


# --- weapons -------------------------------------------------------------------------------------
def weapons(g: Game, crew: CrewMember, kind: str) -> list:
    """The crewmember's weapons of `kind` ('ranged' or 'melee')."""
    return [g.pack.weapons[w] for w in crew.gear if w in g.pack.weapons and g.pack.weapons[w].type == kind]


def can_carry(g: Game, crew: CrewMember, code: str) -> bool:
    if code in g.pack.weapons:
        kind = g.pack.weapons[code].kind
        return sum(1 for w in crew.gear if w in g.pack.weapons and g.pack.weapons[w].kind == kind) < CARRY[kind]
    return sum(1 for w in crew.gear if w not in g.pack.weapons) < ITEMS


def arm(g: Game, crew: CrewMember) -> None:
    """N28: a crewmember leaving the ship takes an arc pistol from the armory if it carries
    no ranged weapon, and the arc blade if it carries no melee weapon, while any are left."""
    armory = g.state.armory.get(crew.ship or "", [])
    taken = []
    for kind in ("ranged", "melee"):
        if not weapons(g, crew, kind):
            code = next((w for w in armory if g.pack.weapons[w].type == kind), None)
            if code is not None:
                armory.remove(code)
                crew.gear.append(code)
                taken.append(code)
    if taken:
        g.emit("armed", crew=crew.id, weapons=taken)


# --- landing -------------------------------------------------------------------------------------
def dock(g: Game, ship: Ship) -> str:
    """N26: a ship touching down takes the first free dock (no ship on it, nobody standing
    there), Renegades from the first dock of the board's list, the Coalition from the last."""
    free = g.free_docks()
    docks = g.ground.docks if ship.faction == "renegade" else list(reversed(g.ground.docks))
    cell = next((d for d in docks if d in free), None)
    if cell is None:
        raise RuleError("Every dock on the surface is taken or has somebody standing on it.")
    g.state.docks[ship.id] = cell
    return cell


def beside_dock(g: Game, ship: Ship) -> Optional[str]:
    """The free square nearest the ship's dock (then first by name): where crew step out."""
    here = g.state.docks[ship.id]
    taken = {p.cell for p in standing(g)} | set(g.state.docks.values())
    free = [c for c in g.ground.cells if c not in taken and c not in g.ground.blocking]
    return min(free, key=lambda c: (distance(c, here), c), default=None)


def step_out(g: Game, crew: CrewMember, ship: Ship) -> None:
    if ship.id not in g.state.docks:
        raise RuleError(f"The {ship.name} is not docked on the surface.")
    if len(on_surface(g, ship.id)) >= PARTY:
        raise RuleError(f"At most {PARTY} of a ship's crew may be on the surface at once.")
    if crew.ko or crew.captive or crew.room == "brig":
        raise RuleError(f"{crew.name} cannot leave the ship.")
    cell = beside_dock(g, ship)
    if cell is None:
        raise RuleError("No free square beside the dock.")
    if crew.station is not None:
        del ship.stations[crew.station]
    crew.station, crew.room, crew.cell = None, None, cell
    g.emit("disembarked", crew=crew.id, ship=ship.id, cell=cell)
    arm(g, crew)


def deploy(g: Game, ship: Ship, codes: list[str]) -> None:
    """The landing party deployment on touchdown (a free action): up to three crew step out."""
    for code in codes:
        crew = g.state.crew.get(code)
        if crew is None or crew.ship != ship.id or crew.cell is not None:
            raise RuleError(f"{code} is not aboard the {ship.name}.")
        step_out(g, crew, ship)
    g.emit("deployed", ship=ship.id, crew=list(codes))


# --- moving --------------------------------------------------------------------------------------
def speed(g: Game, crew: CrewMember) -> int:
    """Surface speed, one less while carrying an unconscious crewmember, one more this
    round after an extra-move tactic."""
    extra = 1 if crew.rounds.get("extra-move") == g.state.round else 0
    return max(0, crew.speed + extra - (1 if crew.carrying else 0))


def passable_for(g: Game, mover: Piece, sneaking: bool):
    """How a square counts for a path of `mover`: None where it may not go, else how many
    opponents it passes there (each an elude test unless the mover is hidden)."""
    docks = set(g.state.docks.values())
    where = {p.cell: p for p in standing(g) if p is not mover}

    def passable(cell: str) -> Optional[int]:
        if cell in docks:
            return None
        other = where.get(cell)
        if other is None or not opposed(mover, other):
            return 0
        if isinstance(mover, Figure):
            return None  # figures go around their opponents
        return 0 if sneaking else 1
    return passable


def reach(g: Game, crew: CrewMember) -> dict[str, tuple[int, int, list[str]]]:
    """Squares the crewmember may end a move on, with their paths."""
    paths = g.ground.paths(crew.cell, speed(g, crew), frozenset(g.state.containers),
                           passable_for(g, crew, crew.hidden))
    taken = {p.cell for p in standing(g) if p is not crew}
    return {c: v for c, v in paths.items() if c != crew.cell and c not in taken}


def confronting(g: Game, crew: CrewMember) -> list[Piece]:
    """Opponents in base contact that hold the crewmember back (none while it is hidden)."""
    if crew.hidden or crew.rounds.get("fall-back") == g.state.round:
        return []
    return sorted((p for p in standing(g) if p is not crew and opposed(crew, p) and holds_back(p)
                   and distance(p.cell, crew.cell) == 1 and not getattr(p, "hidden", False)),
                  key=lambda p: p.id)


def move(g: Game, crew: CrewMember, to: str) -> bool:
    """Move the crewmember to `to`. Returns False when it failed to elude at the start
    (it may not move this round but keeps the action)."""
    s = g.state
    if crew.rounds.get("pinned") == s.round:
        raise RuleError(f"{crew.name} failed to elude this round and may not move.")
    if not g.ground.is_cell(to) or to in g.ground.blocking:
        raise RuleError(f"'{to}' is not an open square of the surface board.")
    options = reach(g, crew)
    if to not in options:
        raise RuleError(f"{crew.name} cannot reach {to} this move (speed {speed(g, crew)}; obstructed terrain, "
                        "water and containers cost two, walls and opponents' squares bar the way).")
    for other in confronting(g, crew):
        faces, passed = skill_test(g, crew.skills["stealth"])
        g.emit("elude", crew=crew.id, away_from=other.id, dice=faces, passed=bool(passed))
        if not passed:
            crew.rounds["pinned"] = s.round
            return False
    if crew.hidden:
        faces, passed = skill_test(g, crew.skills["stealth"])
        g.emit("stealth", crew=crew.id, dice=faces, passed=bool(passed), moving=True)
        if not passed:
            crew.hidden = False
    start = crew.cell
    cost, _, path = options[to]
    walked = []
    where = {p.cell: p for p in standing(g) if p is not crew}
    for cell in path:
        other = where.get(cell)
        if other is not None and opposed(crew, other) and not crew.hidden:
            faces, passed = skill_test(g, crew.skills["stealth"])
            g.emit("elude", crew=crew.id, away_from=other.id, dice=faces, passed=bool(passed))
            if not passed:
                while walked and walked[-1] in where:  # stop on the last free square before it
                    walked.pop()
                break
        walked.append(cell)
    end = walked[-1] if walked else start
    place(g, crew, end)
    g.emit("crew_moved", crew=crew.id, path=[start] + walked, cost=cost)
    if crew.hidden and not g.ground.by_wall(end):
        crew.hidden = False
        g.emit("noticed", crew=crew.id, cell=end, reason="left the walls and cover")
    return True


def place(g: Game, crew: CrewMember, cell: str) -> None:
    crew.cell = cell
    if crew.carrying:
        g.state.crew[crew.carrying].cell = cell
    obj = g.state.objective
    if obj is not None and obj.holder == crew.id and obj.kind == "courier":
        obj.cell = None


# --- stealth and scanning ------------------------------------------------------------------------
def hide(g: Game, crew: CrewMember) -> None:
    """A free stealth test, once a round (N31)."""
    s = g.state
    if crew.hidden:
        raise RuleError(f"{crew.name} is already hidden.")
    if crew.rounds.get("stealth") == s.round:
        raise RuleError(f"{crew.name} has had its stealth test this round.")
    if crew.rounds.get("attack") == s.round:
        raise RuleError(f"{crew.name} attacked this round and cannot hide again until the next.")
    crew.rounds["stealth"] = s.round
    faces, passed = skill_test(g, crew.skills["stealth"])
    crew.hidden = bool(passed)
    g.emit("stealth", crew=crew.id, dice=faces, passed=crew.hidden, moving=False)


def seen_by_scan(g: Game, cell: str, side: Piece) -> list[CrewMember]:
    """Hidden opponents of `side` on the same tile as `cell` and in its line of sight."""
    tile = g.ground.tile_of(cell)
    return sorted((c for c in g.state.crew.values() if c.hidden and c.cell and not c.ko and opposed(side, c)
                   and g.ground.tile_of(c.cell) == tile and g.ground.line_of_sight(cell, c.cell)),
                  key=lambda c: c.id)


def scan_room(g: Game, scanner: Piece, dice: int) -> None:
    """A search test of the scanner's tile that finds the hidden opponents in its sight.
    NPCs roll it only when somebody is hidden on their tile (N32): otherwise it finds nothing."""
    if isinstance(scanner, Figure) or g.state.ships[scanner.ship].seat is None:
        tile = g.ground.tile_of(scanner.cell)
        if not any(c.hidden and c.cell and g.ground.tile_of(c.cell) == tile and opposed(scanner, c)
                   for c in g.state.crew.values()):
            return
    faces, passed = skill_test(g, dice)
    found = seen_by_scan(g, scanner.cell, scanner) if passed else []
    for c in found:
        c.hidden = False
    g.emit("scan_room", by=scanner.id, tile=g.ground.tile_of(scanner.cell), dice=faces, passed=bool(passed),
           found=[c.id for c in found])


def scan(g: Game, crew: CrewMember, seat: str, cell: Optional[str]) -> None:
    """A free search test, once a round: of the room (tile), or of a container beside it."""
    s = g.state
    if crew.rounds.get("scan") == s.round:
        raise RuleError(f"{crew.name} has made its search test this round.")
    if cell is None:
        crew.rounds["scan"] = s.round
        scan_room(g, crew, crew.skills["search"])
        return
    if cell not in s.containers or not near(cell, crew.cell):
        raise RuleError(f"No shut container on or beside {crew.name} at {cell}.")
    crew.rounds["scan"] = s.round
    faces, passed = skill_test(g, crew.skills["search"])
    if passed and cell not in s.peeks.setdefault(seat, []):
        s.peeks[seat].append(cell)
    g.emit("scan_container", crew=crew.id, cell=cell, dice=faces, passed=bool(passed))


# --- combat --------------------------------------------------------------------------------------
def reach_of(g: Game, attacker: Piece, target: Piece) -> Optional[tuple[bool, tuple[int, int]]]:
    """(ranged?, weapon bonus) when `attacker` can attack `target` from where it stands."""
    if target.cell is None or attacker.cell is None:
        return None
    gap = distance(attacker.cell, target.cell)
    if isinstance(attacker, Figure):
        if gap <= 1:
            return False, (0, 0)
        if attacker.range > 1 and gap <= attacker.range and g.ground.line_of_sight(attacker.cell, target.cell):
            return True, (0, 0)
        return None
    if gap <= 1:
        best = max(((w.bonus.add * w.bonus.dice, (w.bonus.add, w.bonus.dice)) for w in weapons(g, attacker, "melee")
                    if w.bonus), default=(0, (0, 0)))
        return False, best[1]
    guns = [w for w in weapons(g, attacker, "ranged") if w.range >= gap]
    if not guns or not g.ground.line_of_sight(attacker.cell, target.cell):
        return None
    best = max(guns, key=lambda w: (w.bonus.add * w.bonus.dice if w.bonus else 0, w.code))
    return True, ((best.bonus.add, best.bonus.dice) if best.bonus else (0, 0))


def attack_refusal(g: Game, crew: CrewMember, target: Piece) -> Optional[str]:
    if crew.rounds.get("attack") == g.state.round:
        return f"{crew.name} has already attacked this round (one attack a round)."
    if target is crew or not opposed(crew, target):
        return f"{target.name} is not an opponent."
    if target.cell is None or getattr(target, "ko", False):
        return f"{target.name} is not standing on the surface."
    if getattr(target, "hidden", False):
        return f"{target.name} is hidden; a successful scan of the room finds it."
    if reach_of(g, crew, target) is None:
        return (f"{target.name} ({target.cell}) is out of reach: melee needs base contact, a ranged attack "
                "a ranged weapon with the range and a line of sight clear of walls.")
    return None


def strike(g: Game, attacker: Piece, target: Piece) -> None:
    """One attack: red dice as many as the attack value, bonuses on the highest dice (N10),
    4s and more hit; a black die per hit, paired for the most blocks; each hit left is a
    wound. A ranged attack on a target in obstructed terrain lets it re-roll two idle dice."""
    ranged, (add, count) = reach_of(g, attacker, target)
    dice = g.state.dice
    rolled = dice.roll(min(orbit.MAX_DICE, attacker.attack))
    red = orbit.bump_highest(rolled, add, count) if add else list(rolled)
    if isinstance(attacker, CrewMember) and attacker.rounds.get("aim") == g.state.round:
        red = orbit.bump_highest(red, 1, 1)
    hits = sorted((r for r in red if r >= 4), reverse=True)
    black = dice.roll(len(hits))
    defense = [tuple(target.defense)] if target.defense else []
    rerolled: list[int] = []
    if ranged and black and target.cell in g.ground.obstructed:
        _, used = orbit.best_defense(hits, black, defense)
        rerolled = sorted((i for i in range(len(black)) if i not in used), key=lambda i: black[i])[:2]
        for i in rerolled:
            black[i] = dice.roll(1)[0]
    blocked, _ = orbit.best_defense(hits, black, defense)
    wounds = len(hits) - blocked
    if isinstance(attacker, CrewMember):
        attacker.rounds["attack"] = g.state.round
        attacker.hidden = False
    g.emit("crew_attack", attacker=attacker.id, target=target.id, ranged=ranged, dice=rolled, attack=red,
           hits=len(hits), defense=black, rerolled=rerolled, blocked=blocked, wounds=wounds)
    hurt(g, target, wounds, attacker.id)


def hurt(g: Game, target: Piece, wounds: int, by: Optional[str]) -> None:
    if wounds <= 0:
        return
    if by is not None:
        target.hurt_by[by] = target.hurt_by.get(by, 0) + wounds
    if isinstance(target, Figure):
        target.damage = min(target.health, target.damage + wounds)
        if target.damage >= target.health:
            defeat(g, target, by)
        return
    target.wounds = min(target.health, target.wounds + wounds)
    if target.wounds >= target.health and not target.ko:
        knock_out(g, target, by)


def defeat(g: Game, figure: Figure, by: Optional[str]) -> None:
    """A defeated figure leaves the board for good (it may come back with another card)."""
    del g.state.figures[figure.id]
    for other in g.state.figures.values():
        if other.escort_of == figure.id:
            other.escort_of = None
    killer = g.state.crew.get(by or "")
    if killer is not None:
        reward = {"commander": 100, "creature": 100, "warrior": 50, "drone": 20}[figure.rank]
        g.state.digits[killer.faction] = g.state.digits.get(killer.faction, 0) + reward
    g.emit("figure_defeated", figure=figure.id, cell=figure.cell, by=by)


def knock_out(g: Game, crew: CrewMember, by: Optional[str]) -> None:
    """An unconscious crewmember leaves a token on its square; what it carried is dropped."""
    s = g.state
    crew.ko, crew.hidden = True, False
    if crew.carrying:
        s.crew[crew.carrying].carried_by = None
        crew.carrying = None
    obj = s.objective
    if obj is not None and obj.holder == crew.id:
        obj.holder, obj.cell = None, crew.cell
        g.emit("parameter_dropped", cell=crew.cell, name=obj.name)
    killer = s.crew.get(by or "")
    if killer is not None and killer.faction != crew.faction:
        s.digits[killer.faction] = s.digits.get(killer.faction, 0) + 50
    for figure in s.figures.values():
        if figure.engaged == crew.id:
            figure.engaged = None
    g.emit("knocked_out", crew=crew.id, cell=crew.cell, by=by)


# --- interacting ---------------------------------------------------------------------------------
def open_container(g: Game, crew: CrewMember, seat: str, cell: str) -> None:
    s = g.state
    if cell not in s.containers or not near(cell, crew.cell):
        raise RuleError(f"No shut container on or beside {crew.name} at {cell}.")
    code = s.containers.pop(cell)
    obj = s.objective
    if code == PARAMETER:
        obj.sealed, obj.cell, obj.holder = False, None, crew.id
        g.emit("opened", crew=crew.id, cell=cell, item=PARAMETER, name=obj.name)
        return
    item = g.pack.search_items[code]
    g.emit("opened", crew=crew.id, cell=cell, item=code, name=item.name)
    if item.kind == "trap":
        if cell in s.peeks.get(seat, []):
            g.emit("trap_disarmed", cell=cell)
        else:
            spring_trap(g, cell, item.attack)
    elif item.kind == "heal":
        healed = min(item.heal, crew.wounds)
        crew.wounds -= healed
        g.emit("healed", crew=crew.id, amount=healed)
    elif item.kind in ("weapon", "loot"):
        code = item.weapon if item.kind == "weapon" else item.code
        if can_carry(g, crew, code):
            crew.gear.append(code)
            g.emit("taken", crew=crew.id, item=code)
        else:
            g.emit("discarded", crew=crew.id, item=code, reason="no room to carry it")


def spring_trap(g: Game, cell: str, dice: int) -> None:
    """N33: a booby trap makes one attack of `dice` red dice on every figure and conscious
    crewmember within two squares, each defending on its own."""
    victims = sorted((p for p in standing(g) if distance(p.cell, cell) <= 2), key=lambda p: p.id)
    g.emit("trap", cell=cell, victims=[p.id for p in victims])
    for victim in victims:
        if victim.id in g.state.crew or victim.id in g.state.figures:
            red = g.state.dice.roll(min(orbit.MAX_DICE, dice))
            hits = sorted((r for r in red if r >= 4), reverse=True)
            black = g.state.dice.roll(len(hits))
            blocked, _ = orbit.best_defense(hits, black, [tuple(victim.defense)] if victim.defense else [])
            g.emit("trap_attack", target=victim.id, attack=red, defense=black, wounds=len(hits) - blocked)
            hurt(g, victim, len(hits) - blocked, None)


def carry(g: Game, crew: CrewMember, code: str) -> None:
    other = g.state.crew.get(code)
    if other is None or not other.ko or other.cell is None or not near(other.cell, crew.cell):
        raise RuleError(f"{code} is not an unconscious crewmember on or beside {crew.name}.")
    if other.carried_by:
        raise RuleError(f"{other.name} is already being carried.")
    if crew.carrying:
        raise RuleError(f"{crew.name} is already carrying somebody.")
    crew.carrying, other.carried_by, other.cell = other.id, crew.id, crew.cell
    g.emit("carried", crew=crew.id, carries=other.id)


def take(g: Game, crew: CrewMember) -> None:
    """Pick up the mission parameter lying beside the crewmember, win over the courier
    (a leadership test) or take the courier from an opponent beside it (N34)."""
    s = g.state
    obj = s.objective
    if obj is None or obj.ship or obj.sealed and obj.kind == "container":
        raise RuleError("The mission parameter is not there to take.")
    holder = s.crew.get(obj.holder or "")
    if holder is not None:
        if obj.kind != "courier" or holder.faction == crew.faction or not near(holder.cell, crew.cell):
            raise RuleError(f"{obj.name} is with {holder.name}; only a courier can be talked away, "
                            "by an opponent beside its escort.")
        mine, ours = skill_test(g, crew.skills["leadership"])
        theirs, held = skill_test(g, holder.skills["leadership"])
        won = ours > held
        g.emit("persuade", crew=crew.id, against=holder.id, dice=mine, against_dice=theirs, won=won)
        if won:
            obj.holder = crew.id
        return
    if obj.cell is None or not near(obj.cell, crew.cell):
        raise RuleError(f"{obj.name} is not on or beside {crew.name}.")
    if obj.kind == "courier":
        faces, passed = skill_test(g, crew.skills["leadership"])
        g.emit("persuade", crew=crew.id, against=None, dice=faces, won=bool(passed))
        if not passed:
            return
    obj.holder, obj.cell = crew.id, None
    g.emit("parameter_taken", crew=crew.id, name=obj.name)


def board(g: Game, crew: CrewMember) -> Ship:
    """Step aboard the crewmember's docked ship from its dock or a square beside it; an
    unconscious crewmember it carries goes to the med bay, an opponent as a captive."""
    s = g.state
    ship = docked_ship(g, crew)
    if ship is None:
        raise RuleError(f"The {crew.ship} is not docked on the surface.")
    if distance(crew.cell, s.docks[ship.id]) > 1:
        raise RuleError(f"{crew.name} must stand beside the dock at {s.docks[ship.id]} to board.")
    crew.cell, crew.hidden = None, False
    carried = s.crew.get(crew.carrying or "")
    if carried is not None:
        crew.carrying = None
        carried.carried_by, carried.cell, carried.room = None, None, "medbay"
        carried.rounds["medbay"] = s.round
        if carried.ship != ship.id:
            carried.ship, carried.captive = ship.id, True
            g.emit("captured", crew=carried.id, ship=ship.id)
    g.emit("boarded", crew=crew.id, ship=ship.id, carried=carried.id if carried else None)
    obj = s.objective
    if obj is not None and obj.holder == crew.id:
        obj.holder, obj.ship = None, ship.id
        g.emit("parameter_aboard", ship=ship.id, name=obj.name)
    return ship


# --- free actions and abilities ------------------------------------------------------------------
def give(g: Game, crew: CrewMember, other_code: str, item: str) -> None:
    """Hand a weapon or item to a friendly crewmember beside it (N50)."""
    other = g.state.crew.get(other_code)
    if other is None or other.cell is None or other.ko or other.faction != crew.faction \
            or distance(other.cell, crew.cell) != 1:
        raise RuleError(f"{other_code} is not a conscious friendly crewmember beside {crew.name}.")
    if item not in crew.gear:
        raise RuleError(f"{crew.name} carries no '{item}'.")
    if not can_carry(g, other, item):
        raise RuleError(f"{other.name} has no room to carry '{item}'.")
    crew.gear.remove(item)
    other.gear.append(item)
    g.emit("given", crew=crew.id, to=other.id, item=item)


def surface_card(g: Game, seat: str):
    """The seat's surface tactical card, if it has one with an effect."""
    player = g.state.player(seat)
    return next((g.pack.tactical[c] for c in player.tactical
                 if g.pack.tactical[c].type == "surface" and g.pack.tactical[c].effect), None)


def tactic(g: Game, commander: CrewMember, seat: str, target_code: str) -> None:
    """Play the surface tactical card once a round (N51): the commander, on the surface,
    makes the card's test; passed, the effect goes to the target crewmember of its side."""
    s = g.state
    card = surface_card(g, seat)
    if card is None:
        raise RuleError("You hold no surface tactical card.")
    if "commander" not in commander.stations:
        raise RuleError(f"Only a commander plays tactical cards; {commander.name} is not one.")
    if commander.rounds.get("tactic") == s.round:
        raise RuleError("A tactical card is played once a round.")
    target = s.crew.get(target_code)
    if target is None or target.cell is None or target.ko or target.faction != commander.faction:
        raise RuleError(f"{target_code} is not conscious crew of your side on the surface.")
    if card.effect == "aim" and distance(target.cell, commander.cell) > 1:
        raise RuleError(f"{card.name} is for a crewmember beside the commander.")
    commander.rounds["tactic"] = s.round
    faces, passed = skill_test(g, commander.skills[card.test.skill])
    if passed:
        target.rounds[card.effect] = s.round
    g.emit("tactic", crew=commander.id, card=card.code, target=target.id, dice=faces, passed=bool(passed))


# --- the med bay and the brig --------------------------------------------------------------------
def medic_aboard(g: Game, ship: Ship) -> bool:
    """A conscious crewmember of the ship's own side whose station is comms and who has
    medical skill (N35); medics of NPC Coalition ships heal nobody."""
    return ship.seat is not None and any(c.ship == ship.id and c.cell is None and not c.ko and not c.captive and "comms" in c.stations
               and c.skills["medical"] > 0 for c in g.state.crew.values())


def heal_round(g: Game) -> None:
    """End of the round: crew in a med bay with a medic aboard heal two wounds (not in the
    round they were brought in); the unconscious wake at fewer wounds than their health;
    a healed captive goes to the brig as a prisoner. Tier 3: no healing aboard the ship
    carrying the mission parameter."""
    s = g.state
    for crew in sorted(s.crew.values(), key=lambda c: c.id):
        ship = s.ships.get(crew.ship or "")
        if crew.room != "medbay" or ship is None or crew.rounds.get("medbay") == s.round:
            continue
        if s.tier == 3 and s.objective is not None and s.objective.ship == ship.id:
            continue
        if not medic_aboard(g, ship) or not crew.wounds:
            continue
        amount = min(2, crew.wounds)
        crew.wounds -= amount
        g.emit("healed", crew=crew.id, amount=amount, at="medbay")
        if crew.ko and crew.wounds < crew.health:
            crew.ko = False
            g.emit("revived", crew=crew.id, ship=ship.id)
        if crew.captive and not crew.ko:
            crew.room = "brig"
            g.emit("prisoner", crew=crew.id, ship=ship.id)
        elif not crew.wounds:
            crew.room = None


def turn_prisoners(g: Game) -> None:
    """End of the orbital phase: every prisoner in a brig is tested (N37): the captor's
    highest-initiative conscious crewmember aboard against the prisoner, leadership
    successes compared; more for the captor turns the prisoner (+5 on one die against a
    prisoner who once served the captor's side)."""
    s = g.state
    for prisoner in sorted(s.crew.values(), key=lambda c: c.id):
        if prisoner.room != "brig":
            continue
        ship = s.ships[prisoner.ship]
        crew = [c for c in aboard(g, ship.id) if not c.ko and not c.captive]
        if not crew:
            continue
        leader = max(crew, key=lambda c: (c.initiative, c.id))
        plus = 5 if prisoner.turned_from == ship.faction else 0
        ours_dice, ours = skill_test(g, leader.skills["leadership"], plus)
        theirs_dice, theirs = skill_test(g, prisoner.skills["leadership"])
        turned = ours > theirs
        g.emit("turn_attempt", prisoner=prisoner.id, ship=ship.id, leader=leader.id, dice=ours_dice,
               prisoner_dice=theirs_dice, turned=turned)
        if turned:
            prisoner.turned_from, prisoner.faction = prisoner.faction, ship.faction
            prisoner.captive, prisoner.room = False, None
