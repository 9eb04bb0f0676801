"""Weapons and items dropped face up on the surface, and picking them up again (N104, N105).

A crewmember may drop what it carries on its square or one beside it (a free action), and
what it finds with no room to carry it is dropped on the container's square instead of
being lost; any crewmember on or beside such a square may pick an item up (an action).
Dropped items are public: the state's `dropped` maps a square to what lies there.
"""
from __future__ import annotations

from engine.errors import RuleError
from engine.renegades.contents.game import Game
from engine.renegades.contents.ground import near
from engine.renegades.contents.state import CrewMember, GameState
from engine.renegades.crew import hands
from engine.renegades.crew.pieces import can_carry, laden
from engine.renegades.surface import gear


def lay(g: Game, cell: str, item: str, crew: CrewMember, reason: str) -> None:
    """Put `item` face up on `cell`."""
    g.state.dropped.setdefault(cell, []).append(item)
    g.emit("dropped", crew=crew.id, item=item, cell=cell, reason=reason)


def _open_square(g: Game, cell: str) -> bool:
    """A square an item may lie on: on the board, no wall, no shut container, no dock."""
    return g.ground.is_cell(cell) and cell not in g.ground.blocking and cell not in g.state.containers \
        and cell not in g.ground.docks and cell not in g.state.fires


def drop(g: Game, crew: CrewMember, item: str, cell: str) -> None:
    """Drop a weapon or item the crewmember carries on its square or one beside it (N104)."""
    if item not in crew.gear:
        raise RuleError(f"{crew.name} carries no '{item}'.")
    if not _open_square(g, cell) or not near(cell, crew.cell):
        raise RuleError(f"{crew.name} drops things on its own square or an open one beside it "
                        "(no wall, shut container, dock or fire).")
    crew.gear.remove(item)
    gear.move(g.state, item, crew.id, gear.square_key(cell), fullest=False)
    lay(g, cell, item, crew, "dropped")


def pick_up(g: Game, crew: CrewMember, cell: str, item: str) -> None:
    """Take a dropped item from the crewmember's square or one beside it (N105)."""
    lying = g.state.dropped.get(cell, [])
    if item not in lying or not near(cell, crew.cell):
        raise RuleError(f"No '{item}' lies on or beside {crew.name} at {cell}.")
    if not can_carry(g, crew, item):
        raise RuleError(f"{crew.name} has no room to carry '{item}'; give or drop something first.")
    lying.remove(item)
    if not lying:
        del g.state.dropped[cell]
    crew.gear.append(item)
    hands.grip(g, crew, item)
    gear.move(g.state, item, gear.square_key(cell), crew.id, fullest=True)
    g.emit("picked_up", crew=crew.id, item=item, cell=cell)


def legal(g: Game, crew: CrewMember) -> tuple[list[str], list[str]]:
    """(pick-ups, drops) open to the crewmember: actions and free actions. Drops are listed
    on its own square; a drop beside it is legal too."""
    s = g.state
    pick = [f"pickup {crew.id} {cell} {item}" for cell in sorted(s.dropped) if near(cell, crew.cell)
            for item in sorted(set(s.dropped[cell])) if can_carry(g, crew, item)]
    put = [f"drop {crew.id} {item}" for item in sorted(set(crew.gear))] if _open_square(g, crew.cell) else []
    return pick, put


def with_reason(state: GameState, options: list[str]) -> list[str]:
    """For the players (N186): the options without the drops of crew that still have room
    for another item, as a drop then only lengthens the game."""
    if not any(o.startswith("drop ") for o in options):
        return options
    g = Game(state)
    return [o for o in options if not o.startswith("drop ") or laden(g, state.crew[o.split()[1]])]
