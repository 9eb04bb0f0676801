"""Fire on the surface (N111, N112): a world event sets a square burning at a random
location; nobody enters or crosses a burning square until a crewmember beside it puts the
fire out (an action with a tech test)."""
from __future__ import annotations

from engine.errors import RuleError
from engine.renegades.contents.board import distance
from engine.renegades.contents.game import Game
from engine.renegades.contents.state import CrewMember
from engine.renegades.crew.pieces import skill_test, standing

FIRE_TOKENS = 4  # the box holds four fire tokens


def ignite(g: Game) -> None:
    """Set a free square of the top surface location card's tile burning (none once all
    the fire tokens are out, or when the tile has no free square); reshuffle the deck."""
    s = g.state
    location = s.surface_deck[0]
    taken = {p.cell for p in standing(g)} | set(s.docks.values()) | set(s.containers) | set(s.fires) \
        | set(s.dropped) | set(g.ground.docks) | g.ground.blocking
    if s.objective is not None and s.objective.cell:
        taken.add(s.objective.cell)
    free = [c for c in g.ground.tile_cells(location) if c not in taken]
    cell = free[s.dice.below(len(free))] if free and len(s.fires) < FIRE_TOKENS else None
    if cell is not None:
        s.fires.append(cell)
    s.dice.shuffle(s.surface_deck)
    g.emit("fire_starts", location=location, cell=cell)


def douse(g: Game, crew: CrewMember, cell: str) -> None:
    """Fight the fire on a square beside the crewmember: a tech test; passed, it is out."""
    s = g.state
    if cell not in s.fires or distance(cell, crew.cell) != 1:
        raise RuleError(f"No fire burns beside {crew.name} at {cell}.")
    faces, passed = skill_test(g, crew.skills["tech"])
    if passed:
        s.fires.remove(cell)
    g.emit("douse", crew=crew.id, cell=cell, dice=faces, passed=bool(passed))


def legal(g: Game, crew: CrewMember) -> list[str]:
    return [f"douse {crew.id} {cell}" for cell in sorted(g.state.fires) if distance(cell, crew.cell) == 1]
