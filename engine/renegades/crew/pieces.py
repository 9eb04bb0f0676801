"""The pieces of the surface: crewmembers made from their cards, where crew and figures
are, who opposes whom, skill tests and what a crewmember may carry."""
from __future__ import annotations

from typing import Optional, Union

import msgspec

from engine.renegades.contents.board import distance
from engine.renegades.contents.game import MAX_DICE, Game
from engine.renegades.contents.state import CrewMember, Figure, Ship

ACTIONS = 2  # each crewmember's actions a turn
PARTY = 3  # at most three of a ship's crew on the surface at once
CARRY = {"pistol": 2, "rifle": 1, "melee": 1, "grenade": 2}  # weapons a crewmember may carry
ITEMS = 3  # search items a crewmember may carry
PARAMETER = "mission-parameter"  # what the mission's container holds
Piece = Union[CrewMember, Figure]


# --- tests ---------------------------------------------------------------------------------------
def skill_test(g: Game, dice: int, plus: int = 0, target: int = 5) -> tuple[list[int], int]:
    """Roll `dice` dice (at most eight); `plus` is added to one die. Returns the faces and
    how many reach `target` (5+ unless said; a test passes with one)."""
    faces = g.state.dice.roll(min(MAX_DICE, dice)) if dice > 0 else []
    if plus and faces:
        faces[faces.index(min(faces))] += plus
    return faces, sum(1 for f in faces if f >= target)


# --- who is where --------------------------------------------------------------------------------
def standing(g: Game) -> list[Piece]:
    """Everything that occupies a square: conscious crew not carried, and the figures."""
    s = g.state
    found: list[Piece] = [c for c in s.crew.values() if c.cell is not None and not c.ko]
    return found + [f for f in s.figures.values() if not f.boarded]


def party(g: Game, ship: str) -> list[CrewMember]:
    """The conscious crew of `ship` on the surface (boarders of an opposing ship included)."""
    return [c for c in g.state.crew.values()
            if c.ship == ship and (c.cell is not None or c.boarded) and not c.ko and not c.captive]


def on_surface(g: Game, ship: str) -> list[CrewMember]:
    """Every crewmember of `ship` on the surface or boarding, conscious or not (the three-at-once limit)."""
    return [c for c in g.state.crew.values() if c.ship == ship and (c.cell is not None or c.boarded) and not c.captive]


def aboard(g: Game, ship: str) -> list[CrewMember]:
    return sorted((c for c in g.state.crew.values() if c.ship == ship and c.cell is None and not c.boarded),
                  key=lambda c: c.id)


def party_initiative(g: Game, ship: str) -> int:
    """The sum of the initiatives of the ship's conscious crew on the surface."""
    return sum(c.initiative for c in party(g, ship))


def is_giant(g: Game, f: Figure) -> bool:
    """Giant figures stay out of low-ceilinged tiles and shoot in through their doorways (N108, N161)."""
    return "giant" in g.pack.villains[f.code].keywords


def opposed(a: Piece, b: Piece) -> bool:
    """Crew of the two factions oppose each other; every figure opposes every crewmember;
    villains (drones too) stand together against creatures (N162)."""
    if isinstance(a, Figure) and isinstance(b, Figure):
        return (a.rank == "creature") != (b.rank == "creature")
    if isinstance(a, CrewMember) and isinstance(b, CrewMember):
        return a.faction != b.faction
    return True


def friendly(a: Piece, b: Piece) -> bool:
    """Whether `a` may fire through `b` (N36): crew of one faction, villains and drones
    together; creatures are nobody's friends, not even each other's."""
    creature = any(isinstance(x, Figure) and x.rank == "creature" for x in (a, b))
    return not creature and not opposed(a, b)


def is_npc(g: Game, piece: Piece) -> bool:
    """Whether nobody plays the piece: a figure, or crew of a non-player ship."""
    ship = g.state.ships.get(getattr(piece, "ship", None) or "")
    return isinstance(piece, Figure) or (ship is not None and ship.seat is None)


def holds_back(piece: Piece) -> bool:
    """Whether leaving base contact with `piece` needs an elude test (drones need none)."""
    return not (isinstance(piece, Figure) and piece.rank == "drone")


def docked_ship(g: Game, crew: CrewMember) -> Optional[Ship]:
    ship = g.state.ships.get(crew.ship or "")
    if ship is None or ship.id not in g.state.docks:
        return None
    return ship


def too_far_to_board(g: Game, crew: CrewMember, ship: Ship) -> Optional[str]:
    """Why the crewmember, not beside the docked ship's dock, cannot board it; None beside it."""
    dock = g.state.docks[ship.id]
    if distance(crew.cell, dock) > 1:
        return f"{crew.name} must stand beside the dock at {dock} to board."
    return None


def card_of(g: Game, piece: Piece) -> Optional[str]:
    """The docked ship on whose card the piece fights (N115, N163): the one it boarded, or a
    crewmember's own while it is conscious aboard it; None for everybody else."""
    if isinstance(piece, Figure):
        return piece.boarded
    if piece.ko:
        return None
    if piece.boarded:
        return piece.boarded
    if piece.cell is None and piece.ship in g.state.docks and not piece.captive and piece.room != "brig":
        return piece.ship
    return None


def piece(g: Game, code: str) -> Optional[Piece]:
    return g.state.crew.get(code) or g.state.figures.get(code)


# --- weapons -------------------------------------------------------------------------------------
def weapons(g: Game, crew: CrewMember, kind: str) -> list:
    """The crewmember's weapons of `kind` ('ranged', 'melee' or 'thrown')."""
    return [g.pack.weapons[w] for w in crew.gear if w in g.pack.weapons and g.pack.weapons[w].type == kind]


def can_carry(g: Game, crew: CrewMember, code: str) -> bool:
    if code in g.pack.weapons:
        kind = g.pack.weapons[code].kind
        return sum(1 for w in crew.gear if w in g.pack.weapons and g.pack.weapons[w].kind == kind) < CARRY[kind]
    return not laden(g, crew)


def laden(g: Game, crew: CrewMember) -> bool:
    """Whether the crewmember carries as many items as it may: the players' reason to drop one (N186)."""
    return sum(1 for w in crew.gear if w not in g.pack.weapons) >= ITEMS


def crewmember(card, ship: str, station: Optional[str] = None) -> CrewMember:
    """A crewmember in play from its card, serving on `ship`."""
    surface = card.surface
    return CrewMember(id=card.code, name=card.name, faction=card.faction, initiative=card.initiative,
                      stations=list(card.stations), skills=msgspec.to_builtins(card.skills), ship=ship,
                      station=station, health=surface.health, speed=surface.speed, attack=surface.attack,
                      defense=[surface.defense.add, surface.defense.dice] if surface.defense else [],
                      abilities=list(surface.abilities))
