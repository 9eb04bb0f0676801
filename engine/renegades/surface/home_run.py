"""Tier 3's run across the home planet's surface (N170-N173).

When a player's ship rises from the mission planet with the mission parameter, the surface
in play becomes the surface board of that ship's home (Port Saven for the Renegades, Earth
for the Coalition): the mission planet's surface is left behind and its crew are taken
back aboard their own ships (N171). The ship docks at home, its crew carry the findings
out and must bring them to the employer's base on that board; the other side may land
there too and give chase. The findings delivered win the mission; carried aboard one of
the other side's ships there, they are lost to it (N172).
"""
from __future__ import annotations

from typing import Optional

from engine.renegades.contents.board import distance
from engine.renegades.contents.game import Game
from engine.renegades.contents.state import CrewMember, Ship
from engine.renegades.surface import gear, landing, stocking


def home_surface(g: Game, faction: str) -> str:
    """The code of the faction's home surface board."""
    return next(b.code for b in g.pack.surfaces.values() if b.home == faction)


def begin(g: Game, ship: Ship) -> None:
    """Tier 3: the ship carrying the parameter, a player's or an NPC's (N145), left the
    mission planet. Every crewmember still on its surface goes back aboard its own ship
    (the unconscious to the med bay); the surface in play becomes the ship's home surface,
    its containers filled and its guards posted (N171, N147)."""
    s = g.state
    obj = s.objective
    if s.tier != 3 or obj is None or obj.ship != ship.id or obj.run:
        return
    obj.run = ship.faction
    recovered = switch(g, ship.faction)
    g.emit("home_run", ship=ship.id, faction=ship.faction, board=s.surface, name=g.ground.name,
           recovered=recovered, containers=len(s.containers), guards=sorted(s.figures))


def switch(g: Game, faction: str) -> list[str]:
    """Leave the mission planet's surface for the faction's home surface, stocked with its
    containers and guards (N147); the crew who were on it, now back aboard."""
    s = g.state
    recovered = []
    for crew in sorted(s.crew.values(), key=lambda c: c.id):
        if crew.cell is not None or crew.boarded is not None:
            _recover(g, crew)
            recovered.append(crew.id)
    s.surface = home_surface(g, faction)
    s.surface_layout, s.docks, s.containers, s.peeks = {}, {}, {}, {}
    s.dropped, s.fires, s.figures = {}, [], {}
    s.energy = {holder: held for holder, held in s.energy.items() if not holder.startswith(gear.square_key(""))}
    s.surface_deck = [loc.code for loc in g.ground.spec.locations]
    s.dice.shuffle(s.surface_deck)
    stocking.stock(g, g.ground.spec.guards)
    home = g.board.home_of(faction).code
    for ship in sorted(s.ships.values(), key=lambda x: x.id):  # N149: already docked at that home
        if ship.docked == home and g.free_docks():
            landing.dock(g, ship)
    return recovered


def _recover(g: Game, crew: CrewMember) -> None:
    crew.cell, crew.boarded, crew.hidden, crew.carrying, crew.carried_by = None, None, False, None, None
    if crew.ko:
        crew.room = "medbay"
        crew.rounds["medbay"] = g.state.round


def delivery_square(g: Game, crew: CrewMember) -> Optional[str]:
    """The base square nearest `crew` with nobody else standing on it: where an NPC carrying
    the findings heads (N146)."""
    taken = {c.cell for c in g.state.crew.values() if c is not crew} | {f.cell for f in g.state.figures.values()}
    free = [cell for cell in g.ground.spec.base if cell not in taken]
    return min(free, key=lambda cell: (distance(cell, crew.cell), cell), default=None)


def delivered(g: Game) -> Optional[CrewMember]:
    """The crewmember of the home side standing conscious on the base with the findings,
    if there is one (N172)."""
    obj = g.state.objective
    holder = g.state.crew.get(obj.holder or "") if obj is not None and obj.run else None
    if holder is None or holder.ko or holder.faction != obj.run or holder.cell not in g.ground.spec.base:
        return None
    return holder
