"""The surface phase: landing parties and what crewmembers do on the planet.

Each crewmember of a landing party has two actions a turn (move, attack, interact,
board, disembark, rally) and free actions (stealth and scan tests, handing over gear,
the surface tactical card). Attacks are in `crew_combat.py`, the med bay and the brig in
`medbay.py`, the non-player figures in `figures.py`.
"""
from __future__ import annotations

from typing import Optional

from engine.errors import RuleError
from engine.renegades.contents.board import distance
from engine.renegades.contents.game import Game
from engine.renegades.contents.ground import near
from engine.renegades.contents.state import CrewMember, Figure, Ship
from engine.renegades.crew import hands
from engine.renegades.crew.crew_abilities import ability
from engine.renegades.crew.pieces import (PARAMETER, PARTY, Piece, can_carry, docked_ship, holds_back, on_surface,
                                     opposed, skill_test, standing, too_far_to_board, weapons)
from engine.renegades.orbit.abilities import half
from engine.renegades.surface import dropped, gear, weather
from engine.renegades.surface.crew_combat import spring_trap


# --- landing -------------------------------------------------------------------------------------
def arm(g: Game, crew: CrewMember) -> None:
    """N28: a crewmember leaving the ship takes a ranged weapon from the armory if it
    carries none, a melee weapon if it carries none, a grenade if it carries none (N192),
    and, if it carries no gear item, the first one of the armory while it has room for an
    item (loot counts), while any are left."""
    armory = g.state.armory.get(crew.ship or "", [])
    taken = []
    hands.ready(g, crew)
    for kind in ("ranged", "melee", "thrown"):
        if not weapons(g, crew, kind):
            code = next((w for w in armory if w in g.pack.weapons and g.pack.weapons[w].type == kind), None)
            if code is not None:
                armory.remove(code)
                crew.gear.append(code)
                hands.grip(g, crew, code)
                taken.append(code)
    carrying = any(gear.item(g.pack, x) for x in crew.gear)
    code = None if carrying else next((x for x in armory if gear.item(g.pack, x)), None)
    items = []
    if code is not None and can_carry(g, crew, code):
        armory.remove(code)
        crew.gear.append(code)
        gear.move(g.state, code, gear.armory_key(crew.ship), crew.id, fullest=True)
        items.append(code)
    if taken or items:
        g.emit("armed", crew=crew.id, weapons=taken, items=items)


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
    taken = {p.cell for p in standing(g)} | set(g.state.docks.values()) | set(g.state.fires)
    free = [c for c in g.ground.cells if c not in taken and c not in g.ground.blocking]
    return min(free, key=lambda c: (distance(c, here), c), default=None)


def step_out(g: Game, crew: CrewMember, ship: Ship, to: Optional[str] = None) -> None:
    """The crewmember leaves the docked ship for the free square nearest the dock, or for
    `to` within half its speed of the dock (a deployment, N166)."""
    if ship.id not in g.state.docks:
        raise RuleError(f"The {ship.name} is not docked on the surface.")
    if len(on_surface(g, ship.id)) >= PARTY:
        raise RuleError(f"At most {PARTY} of a ship's crew may be on the surface at once.")
    if crew.ko or crew.captive or crew.room == "brig":
        raise RuleError(f"{crew.name} cannot leave the ship.")
    cell = beside_dock(g, ship) if to is None else to
    if cell is None:
        raise RuleError("No free square beside the dock.")
    if to is not None and to not in deployment_squares(g, crew, ship):
        raise RuleError(f"{crew.name} cannot reach {to} from the dock at {g.state.docks[ship.id]} with half its speed "
                        f"({half(speed(g, crew))}), without passing an opponent.")
    if crew.station is not None:
        del ship.stations[crew.station]
    crew.station, crew.room, crew.cell = None, None, cell
    g.emit("disembarked", crew=crew.id, ship=ship.id, cell=cell)
    arm(g, crew)
    carry_out(g, crew, ship)


def carry_out(g: Game, crew: CrewMember, ship: Ship) -> None:
    """During the run, the first crewmember stepping out of the ship holding the findings
    on the home surface takes them (N172)."""
    obj = g.state.objective
    if obj is not None and obj.run and obj.ship == ship.id and ship.faction == obj.run:
        obj.ship, obj.holder = None, crew.id
        g.emit("findings_out", crew=crew.id, ship=ship.id, name=obj.name)


def deployment_squares(g: Game, crew: CrewMember, ship: Ship) -> set[str]:
    """N166: the free squares a deploying crewmember reaches from its ship's dock with half
    its speed, passing no opponent."""
    start = g.state.docks[ship.id]
    taken = {p.cell for p in standing(g)}
    paths = g.ground.paths(start, half(speed(g, crew)), frozenset(g.state.containers), passable_for(g, crew, False),
                           flies(g, crew), steady=steady(g, crew))
    return {c for c, (_, passed, _) in paths.items() if c != start and not passed and c not in taken}


def deploy(g: Game, ship: Ship, picks: list[str]) -> None:
    """The landing party deployment on touchdown (a free action): up to three crew step out,
    each `CREW` beside the dock or `CREW=SQUARE` within half its speed of it (N166)."""
    codes = []
    for pick in picks:
        code, _, to = pick.partition("=")
        crew = g.state.crew.get(code)
        if crew is None or crew.ship != ship.id or crew.cell is not None:
            raise RuleError(f"{code} is not aboard the {ship.name}.")
        if to and not g.ground.is_cell(to):
            raise RuleError(f"'{to}' is not a square of the surface board.")
        step_out(g, crew, ship, to or None)
        codes.append(code)
    g.emit("deployed", ship=ship.id, crew=codes)


# --- moving --------------------------------------------------------------------------------------
def speed(g: Game, crew: CrewMember) -> int:
    """Surface speed, one less while carrying an unconscious crewmember, one more this
    round after an extra-move tactic."""
    extra = 1 if crew.rounds.get("extra-move") == g.state.round else 0
    return max(0, crew.speed + extra - (1 if crew.carrying else 0))


def passable_for(g: Game, mover: Piece, sneaking: bool):
    """How a square counts for a path of `mover`: None where it may not go, else how many
    opponents it passes there (each an elude test unless the mover is hidden)."""
    barred = set(g.state.docks.values()) | set(g.state.fires)  # docked ships and fires (N112)
    where = {p.cell: p for p in standing(g) if p is not mover}

    def passable(cell: str) -> Optional[int]:
        if cell in barred:
            return None
        other = where.get(cell)
        if other is None or not opposed(mover, other):
            return 0
        if isinstance(mover, Figure):
            return None  # figures go around their opponents
        return 0 if sneaking or not holds_back(other) else 1  # drones need no elude test
    return passable


def flies(g: Game, crew: CrewMember) -> bool:
    """Whether the crewmember has the flight ability (N109)."""
    return ability(g, crew, "flight") is not None


def steady(g: Game, crew: CrewMember) -> bool:
    """Whether the crewmember wears grav boots: every step one point (N185)."""
    return gear.passive(g, crew, "footing") is not None


def reach(g: Game, crew: CrewMember) -> dict[str, tuple[int, int, list[str]]]:
    """Squares the crewmember may end a move on, with their paths."""
    flying = flies(g, crew)
    paths = g.ground.paths(crew.cell, speed(g, crew), frozenset(g.state.containers),
                           passable_for(g, crew, crew.hidden or flying), flying, steady=steady(g, crew))
    taken = {p.cell for p in standing(g) if p is not crew}
    return {c: v for c, v in paths.items() if c != crew.cell and c not in taken}


def confronting(g: Game, crew: CrewMember) -> list[Piece]:
    """Opponents in base contact that hold the crewmember back (none while it is hidden)."""
    if crew.hidden or crew.rounds.get("fall-back") == g.state.round:
        return []
    return sorted((p for p in standing(g) if p is not crew and opposed(crew, p) and holds_back(p)
                   and distance(p.cell, crew.cell) == 1 and not getattr(p, "hidden", False)),
                  key=lambda p: p.id)


def check_move(g: Game, crew: CrewMember, to: str) -> dict[str, tuple[int, int, list[str]]]:
    """The crewmember's reach (see `reach`) when it may move to `to`; RuleError if not."""
    if crew.rounds.get("pinned") == g.state.round:
        raise RuleError(f"{crew.name} failed to elude this round and may not move.")
    if not g.ground.is_cell(to) or to in g.ground.blocking:
        raise RuleError(f"'{to}' is not an open square of the surface board.")
    options = reach(g, crew)
    if to not in options:
        raise RuleError(f"{crew.name} cannot reach {to} this move (speed {speed(g, crew)}; a step out of "
                        "obstructed terrain, water or a container's square costs two (one in grav boots), walls and opponents' squares bar the way, raised and sunken "
                        "ground are entered by their steps).")
    return options


def move(g: Game, crew: CrewMember, to: str) -> bool:
    """Move the crewmember to `to`. Returns False when it failed to elude at the start
    (it may not move this round but keeps the action)."""
    options = check_move(g, crew, to)
    if not slip_away(g, crew):
        return False
    if crew.hidden:
        faces, passed = stealth_test(g, crew)
        g.emit("stealth", crew=crew.id, dice=faces, passed=bool(passed), moving=True)
        if not passed:
            crew.hidden = False
    start = crew.cell
    cost, _, path = options[to]
    walked = []
    where = {p.cell: p for p in standing(g) if p is not crew}
    flying = flies(g, crew)
    for cell in path:
        other = where.get(cell)
        if other is not None and opposed(crew, other) and holds_back(other) and not crew.hidden and not flying:
            faces, passed = stealth_test(g, crew)
            g.emit("elude", crew=crew.id, away_from=other.id, dice=faces, passed=bool(passed))
            if not passed:
                while walked and walked[-1] in where:  # stop on the last free square before it
                    walked.pop()
                break
        walked.append(cell)
    end = walked[-1] if walked else start
    place(g, crew, end)
    g.emit("crew_moved", crew=crew.id, path=[start] + walked, cost=cost)
    if crew.hidden and not (g.ground.by_wall(end) or end in g.state.containers):  # containers are cover
        crew.hidden = False
        g.emit("noticed", crew=crew.id, cell=end, reason="left the walls and cover")
    return True


def slip_away(g: Game, crew: CrewMember) -> bool:
    """An elude test against each opponent in base contact before a move (N30); False, and
    pinned for the round, at the first failure."""
    for other in confronting(g, crew):
        faces, passed = stealth_test(g, crew)
        g.emit("elude", crew=crew.id, away_from=other.id, dice=faces, passed=bool(passed))
        if not passed:
            crew.rounds["pinned"] = g.state.round
            return False
    return True


def place(g: Game, crew: CrewMember, cell: str) -> None:
    """Put the crewmember (and whoever it carries) on `cell`."""
    crew.cell = cell
    if crew.carrying:
        g.state.crew[crew.carrying].cell = cell


# --- stealth and scanning ------------------------------------------------------------------------
def stealth_test(g: Game, crew: CrewMember) -> tuple[list[int], int]:
    """A stealth (or elude) test: 5+, or what this round's surface condition asks (N160);
    a sensor spoofer carried rolls more dice (N184)."""
    spoofer = gear.passive(g, crew, "stealth")
    return skill_test(g, crew.skills["stealth"] + (spoofer.dice if spoofer else 0), target=weather.stealth_target(g))


def hide_refusal(g: Game, crew: CrewMember) -> Optional[str]:
    """Why the crewmember cannot take a stealth test now (N31, N143), or None."""
    now = g.state.round
    if crew.hidden:
        return f"{crew.name} is already hidden."
    if crew.rounds.get("stealth") == now:
        return f"{crew.name} has had its stealth test this round."
    if crew.rounds.get("attack") == now:
        return f"{crew.name} attacked this round and cannot hide again until the next."
    if crew.rounds.get("exposed") == now:
        return f"{crew.name} was found by a scan and attacked this round and cannot hide again until the next."
    return None


def hide(g: Game, crew: CrewMember) -> None:
    """A free stealth test, once a round (N31)."""
    s = g.state
    refusal = hide_refusal(g, crew)
    if refusal:
        raise RuleError(refusal)
    crew.rounds["stealth"] = s.round
    faces, passed = stealth_test(g, crew)
    crew.hidden = bool(passed)
    g.emit("stealth", crew=crew.id, dice=faces, passed=crew.hidden, moving=False)


def seen_by_scan(g: Game, cell: str, side: Piece) -> list[CrewMember]:
    """Hidden opponents of `side` on the same tile as `cell` and in its line of sight."""
    tile = g.ground.tile_of(cell)
    return sorted((c for c in g.state.crew.values() if c.hidden and c.cell and not c.ko and opposed(side, c)
                   and g.ground.tile_of(c.cell) == tile and weather.sees(g, cell, c.cell)),
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
        c.rounds["found"] = g.state.round
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


# --- interacting ---------------------------------------------------------------------------------
TAKE_TESTS = {"courier": "leadership", "data": "tech", "sample": "medical"}  # the test to take a parameter

def open_container(g: Game, crew: CrewMember, seat: str, cell: str) -> None:
    """Open a container on or beside the crewmember and take what is inside (N33)."""
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
            hands.grip(g, crew, code)
            g.emit("taken", crew=crew.id, item=code)
        else:
            dropped.lay(g, cell, code, crew, "no room to carry it")


def carry(g: Game, crew: CrewMember, code: str) -> None:
    """Pick up an unconscious crewmember on or beside the crewmember (N35)."""
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
    """Pick up the mission parameter lying beside the crewmember (data with a tech test, a
    sample with a medical test, N110), win over the courier (a leadership test) or take the
    courier from an opponent beside it (N34)."""
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
    skill = TAKE_TESTS.get(obj.kind)
    if skill is not None:
        faces, passed = skill_test(g, crew.skills[skill])
        if obj.kind == "courier":
            g.emit("persuade", crew=crew.id, against=None, dice=faces, won=bool(passed))
        else:
            g.emit("parameter_test", crew=crew.id, skill=skill, dice=faces, passed=bool(passed), name=obj.name)
        if not passed:
            return
    obj.holder, obj.cell = crew.id, None
    g.emit("parameter_taken", crew=crew.id, name=obj.name)


def complement(g: Game, ship: Ship) -> list[CrewMember]:
    """Who counts against the ship's capacity (N165): its crew wherever they are and the
    passengers it holds (captives in the med bay), not prisoners in the brig."""
    return [c for c in g.state.crew.values() if c.ship == ship.id and c.room != "brig"]


def board_refusal(g: Game, crew: CrewMember) -> Optional[str]:
    """Why the crewmember cannot step aboard its docked ship now, or None: the ship is not
    docked, it stands too far, or the one it carries would overfill the ship (N165)."""
    ship = docked_ship(g, crew)
    if ship is None:
        return f"The {crew.ship} is not docked on the surface."
    far = too_far_to_board(g, crew, ship)
    if far:
        return far
    return crowded(g, crew, ship)


def crowded(g: Game, crew: CrewMember, ship: Ship) -> Optional[str]:
    """Why the one the crewmember carries may not come aboard with it: the ship is full (N165)."""
    carried = g.state.crew.get(crew.carrying or "")
    capacity = g.pack.ships[ship.id].capacity
    if carried is not None and carried.ship != ship.id and len(complement(g, ship)) >= capacity:
        return (f"The {ship.name} is full ({capacity} crew and passengers, the brig not counted): "
                f"{crew.name} cannot bring {carried.name} aboard.")
    return None


def board(g: Game, crew: CrewMember) -> Ship:
    """Step aboard the crewmember's docked ship from its dock or a square beside it."""
    refusal = board_refusal(g, crew)
    if refusal:
        raise RuleError(refusal)
    ship = docked_ship(g, crew)
    come_aboard(g, crew, ship, "boarded")
    return ship


def come_aboard(g: Game, crew: CrewMember, ship: Ship, event: str, **told) -> None:
    """The crewmember leaves the surface for its ship (told by `event`); an unconscious
    crewmember it carries goes to the med bay, an opponent as a captive; the findings it
    holds come aboard."""
    s = g.state
    crew.cell, crew.hidden = None, False
    carried = s.crew.get(crew.carrying or "")
    if carried is not None:
        crew.carrying = None
        carried.carried_by, carried.cell, carried.room = None, None, "medbay"
        carried.rounds["medbay"] = s.round
        carried.ship = ship.id  # a friend from another ship of the side now serves on this one
        if carried.faction != ship.faction:
            carried.captive = True
            g.emit("captured", crew=carried.id, ship=ship.id)
    g.emit(event, crew=crew.id, ship=ship.id, carried=carried.id if carried else None, **told)
    obj = s.objective
    if obj is not None and obj.holder == crew.id:
        obj.holder, obj.ship = None, ship.id
        g.emit("parameter_aboard", ship=ship.id, name=obj.name)


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
    hands.grip(g, other, item)
    gear.move(g.state, item, crew.id, other.id, fullest=True)
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
