"""The orbital board: squares, terrain, the eight directions, ship movement and lines of fire.

Squares are named like 'H8': column letter (A at the west edge), row number (1 at the
north edge). Ships face one of eight directions; see docs/renegades.md.
"""
from __future__ import annotations

import functools
import heapq
from typing import Iterable, Optional

from engine.errors import RuleError
from engine.renegades.content import Orbit, cell_xy, load_pack, xy_cell

DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")  # clockwise
DELTA = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
         "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1)}


class OrbitBoard:
    """The orbital board of a pack, with its terrain as sets of squares."""

    def __init__(self, orbit: Orbit):
        self.spec = orbit
        self.width, self.height = orbit.width, orbit.height
        self.obstructed = frozenset(orbit.obstructed)
        self.planet_of = {cell: p.code for p in orbit.planets for cell in p.cells}
        self.blocking = frozenset(orbit.blocking) | frozenset(self.planet_of)
        self.planets = {p.code: p for p in orbit.planets}
        self.locations = {loc.code: loc for loc in orbit.locations}

    def home_of(self, faction: str):
        return next((p for p in self.planets.values() if p.home == faction), None)

    @property
    def mission_planet(self):
        return next(p for p in self.planets.values() if p.mission)

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def step(self, cell: str, direction: str) -> Optional[str]:
        """The square one step from `cell` in `direction`, or None off the board."""
        x, y = cell_xy(cell)
        dx, dy = DELTA[direction]
        return xy_cell(x + dx, y + dy) if self.on_board(x + dx, y + dy) else None

    def cost_into(self, cell: str) -> int:
        """Movement points to enter a square (N3: obstructed squares cost two)."""
        return 2 if cell in self.obstructed else 1

    def is_cell(self, text: str) -> bool:
        if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
            return False
        return self.on_board(*cell_xy(text.upper()))

    def beside_planet(self, cell: str, planet: str) -> bool:
        """Whether `cell` touches (also diagonally) a square of the planet."""
        return any(distance(cell, c) == 1 for c in self.planets[planet].cells)

    def location_cells(self, code: str) -> list[str]:
        loc = self.locations[code]
        (x0, y0), (x1, y1) = cell_xy(loc.from_), cell_xy(loc.to)
        return [xy_cell(x, y) for y in range(min(y0, y1), max(y0, y1) + 1) for x in range(min(x0, x1), max(x0, x1) + 1)]

    # --- movement -------------------------------------------------------------------
    def walk(self, cell: str, facing: str, legs: list[tuple[str, int]], occupied: Iterable[str]) -> tuple[list[str], str, int]:
        """Follow `legs` (direction, squares) from `cell` facing `facing`.

        Returns the squares entered, the final facing and the points spent; RuleError
        when a step leaves the board or enters a blocked or occupied square (N4).
        """
        taken = set(occupied)
        path, cost = [], 0
        for direction, count in legs:
            if direction != facing:
                cost += 1  # N2: any change of direction costs one point
                facing = direction
            for _ in range(count):
                nxt = self.step(cell, direction)
                if nxt is None:
                    raise RuleError(f"{cell} to the {direction} leaves the board.")
                if nxt in self.blocking:
                    what = "a planet" if nxt in self.planet_of else "blocking terrain"
                    raise RuleError(f"{nxt} is {what}; ships go around it.")
                if nxt in taken:
                    raise RuleError(f"{nxt} holds another ship; ships may not pass through each other (N4).")
                cost += self.cost_into(nxt)
                cell = nxt
                path.append(cell)
        return path, facing, cost

    def reachable(self, cell: str, facing: str, points: int, occupied: Iterable[str]) -> dict[tuple[str, str], tuple[int, list]]:
        """Every (square, facing) a ship can end on with `points`: the cheapest cost and its legs."""
        taken = set(occupied)
        best: dict[tuple[str, str], tuple[int, list]] = {(cell, facing): (0, [])}
        queue = [(0, cell, facing, [])]
        while queue:
            cost, here, face, legs = heapq.heappop(queue)
            if best.get((here, face), (cost + 1,))[0] < cost:
                continue
            options = []
            nxt = self.step(here, face)
            if nxt is not None and nxt not in self.blocking and nxt not in taken:
                grown = legs[:-1] + [(face, legs[-1][1] + 1)] if legs and legs[-1][0] == face else legs + [(face, 1)]
                options.append((cost + self.cost_into(nxt), nxt, face, grown))
            for other in DIRECTIONS:
                if other != face:
                    turned = legs[:-1] if legs and legs[-1][1] == 0 else legs
                    options.append((cost + 1, here, other, turned + [(other, 0)]))
            for new_cost, new_cell, new_face, new_legs in options:
                if new_cost <= points and new_cost < best.get((new_cell, new_face), (points + 1,))[0]:
                    best[(new_cell, new_face)] = (new_cost, new_legs)
                    heapq.heappush(queue, (new_cost, new_cell, new_face, new_legs))
        return best

    # --- fire -----------------------------------------------------------------------
    def line_of_fire(self, cell: str, facing: str, target: str, reach: int) -> Optional[bool]:
        """Whether a ship on `cell` facing `facing` can fire at `target` within `reach`.

        The three lines start on the squares ahead of the ship (ahead-left, ahead,
        ahead-right; N5) and run in the facing direction; range counts from the first
        square of the line to the target's square. Returns None when no line reaches,
        else whether the best line crosses obstructed terrain (True) or is clear (False).
        """
        index = DIRECTIONS.index(facing)
        found = None
        for turn in (-1, 0, 1):
            start = self.step(cell, DIRECTIONS[(index + turn) % 8])
            square, crossed = start, False
            for _ in range(reach):
                if square is None or square in self.blocking:
                    break
                crossed = crossed or square in self.obstructed
                if square == target:
                    found = crossed if found is None else (found and crossed)
                    break
                square = self.step(square, facing)
        return found


def distance(a: str, b: str) -> int:
    """Squares between two squares counting diagonal steps as one."""
    (ax, ay), (bx, by) = cell_xy(a), cell_xy(b)
    return max(abs(ax - bx), abs(ay - by))


@functools.lru_cache(maxsize=8)
def orbit_of(pack_path: str) -> OrbitBoard:
    return OrbitBoard(load_pack(pack_path).orbit)
