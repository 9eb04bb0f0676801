"""The game in hand: a state being changed by one command, with its pack, its boards and the
events so far; every rule module works on one."""
from __future__ import annotations

from typing import Optional

from engine.renegades.contents.board import OrbitBoard, layout_key, orbit_of
from engine.renegades.contents.content import load_pack
from engine.renegades.contents.ground import Ground, ground_of
from engine.renegades.contents.state import GameState, Ship

MAX_DICE = 8  # the box holds eight red and eight black dice (N8)


class Game:
    """A state being changed by one command, with its pack, board and the events so far."""

    def __init__(self, state: GameState):
        self.state = state
        self.pack = load_pack(state.pack)
        self.board: OrbitBoard = orbit_of(self.pack.path, layout_key(state.orbit_layout))
        self.events: list[dict] = []
        self.answering: list = []  # the decisions the command being applied answers

    @property
    def ground(self) -> Ground:
        """The mission's surface board (built from location cards when it has a layout, N124)."""
        return ground_of(self.pack.path, self.state.surface, layout_key(self.state.surface_layout))

    @property
    def surface_planet(self) -> str:
        """The planet whose surface board is in play: the mission planet, or during tier 3's
        run the home of the side carrying the findings (N170)."""
        obj = self.state.objective
        return self.board.home_of(obj.run).code if obj is not None and obj.run else self.board.mission_planet.code

    def free_docks(self) -> list[str]:
        """Docks of the surface board with no ship on them and nobody standing there (N26)."""
        s = self.state
        taken = set(s.docks.values()) | {c.cell for c in s.crew.values() if c.cell and not c.ko}
        taken |= {f.cell for f in s.figures.values()}
        return [d for d in self.ground.docks if d not in taken]

    def emit(self, kind: str, **data) -> None:
        self.events.append({"type": kind, **data})

    def crew_at(self, ship: Ship, station: str):
        code = ship.stations.get(station)
        return self.state.crew[code] if code else None

    def occupied(self, but: Optional[Ship] = None) -> set[str]:
        return {s.cell for s in self.state.ships.values() if s.cell and s is not but}
