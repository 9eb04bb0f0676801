"""The orbital board: squares, terrain, the eight directions, ship movement and lines of fire.

Squares are named like 'H8': column letter (A at the west edge), row number (1 at the
north edge). Ships face one of eight directions; see docs/renegades.md.
"""
from __future__ import annotations

import functools
import heapq
from typing import Iterable, Optional

from engine.errors import RuleError
from engine.renegades.contents.content import Orbit, cell_xy, load_pack, xy_cell
from engine.renegades.contents.locations import built_orbit

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
        self._next: dict[tuple[str, str], Optional[str]] = {}
        for y in range(self.height):
            for x in range(self.width):
                for direction, (dx, dy) in DELTA.items():
                    inside = self.on_board(x + dx, y + dy)
                    self._next[(xy_cell(x, y), direction)] = xy_cell(x + dx, y + dy) if inside else None

    def home_of(self, faction: str):
        return next((p for p in self.planets.values() if p.home == faction), None)

    @property
    def mission_planet(self):
        return next(p for p in self.planets.values() if p.mission)

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def step(self, cell: str, direction: str) -> Optional[str]:
        """The square one step from `cell` in `direction`, or None off the board."""
        return self._next[(cell, direction)]

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
        cost_of: dict[tuple[str, str], int] = {(cell, facing): 0}
        came_from: dict[tuple[str, str], tuple[str, str]] = {}
        queue = [(0, cell, facing)]
        while queue:
            cost, here, face = heapq.heappop(queue)
            if cost_of[(here, face)] < cost:
                continue
            options = [(cost + 1, here, other) for other in DIRECTIONS if other != face]
            nxt = self._next[(here, face)]
            if nxt is not None and nxt not in self.blocking and nxt not in taken:
                options.append((cost + self.cost_into(nxt), nxt, face))
            for new_cost, new_cell, new_face in options:
                key = (new_cell, new_face)
                if new_cost <= points and new_cost < cost_of.get(key, points + 1):
                    cost_of[key] = new_cost
                    came_from[key] = (here, face)
                    heapq.heappush(queue, (new_cost, new_cell, new_face))
        return {key: (cost, _Legs(came_from, key)) for key, cost in cost_of.items()}

    # --- fire -----------------------------------------------------------------------
    def line_of_fire(self, cell: str, facing: str, target: str, reach: int) -> Optional[bool]:
        """Whether a ship on `cell` facing `facing` can fire at `target` within `reach`.

        The three lines start on the squares ahead of the ship (ahead-left, ahead,
        ahead-right; N5) and run in the facing direction; range counts from the first
        square of the line to the target's square. Returns None when no line reaches,
        else whether the best line crosses obstructed terrain (True) or is clear (False).
        """
        found = None
        for line in self.fire_lines(cell, facing, reach):
            for square, crossed in line:
                if square == target:
                    found = crossed if found is None else (found and crossed)
                    break
        return found

    def fire_lines(self, cell: str, facing: str, reach: int) -> list[list[tuple[str, bool]]]:
        """The three lines of fire of a ship on `cell` facing `facing` (N5): per line, its
        squares within `reach` up to blocking terrain, each with whether the line has crossed
        obstructed terrain by then."""
        index = DIRECTIONS.index(facing)
        lines = []
        for turn in (-1, 0, 1):
            square, crossed, line = self.step(cell, DIRECTIONS[(index + turn) % 8]), False, []
            for _ in range(reach):
                if square is None or square in self.blocking:
                    break
                crossed = crossed or square in self.obstructed
                line.append((square, crossed))
                square = self.step(square, facing)
            lines.append(line)
        return lines

    def firing_positions(self, target: str, reach: int) -> dict[tuple[str, str], bool]:
        """Every (square, facing) from which a ship with `reach` has a line of fire at
        `target`, found by walking back from the target; True where the line is obstructed."""
        back = {d: DIRECTIONS[(i + 4) % 8] for i, d in enumerate(DIRECTIONS)}
        found = {}
        for index, facing in enumerate(DIRECTIONS):
            start = target
            for _ in range(reach):
                if start is None:
                    break
                for turn in (-1, 0, 1):
                    cell = self.step(start, back[DIRECTIONS[(index + turn) % 8]])
                    if cell is not None and (cell, facing) not in found:
                        line = self.line_of_fire(cell, facing, target, reach)
                        if line is not None:
                            found[(cell, facing)] = line
                start = self.step(start, back[facing])
        return found


class _Legs:
    """The legs of a cheapest move to a (square, facing), rebuilt only when asked for."""

    def __init__(self, came_from, key):
        self.came_from, self.key = came_from, key

    def __iter__(self):
        chain = [self.key]
        while chain[-1] in self.came_from:
            chain.append(self.came_from[chain[-1]])
        chain.reverse()
        legs: list[tuple[str, int]] = []
        for (a, face_a), (b, face_b) in zip(chain, chain[1:]):
            if face_a != face_b:
                if legs and legs[-1][1] == 0:
                    legs.pop()
                legs.append((face_b, 0))
            elif legs and legs[-1][0] == face_b:
                legs[-1] = (face_b, legs[-1][1] + 1)
            else:
                legs.append((face_b, 1))
        return iter(legs)


def distance(a: str, b: str) -> int:
    """Squares between two squares counting diagonal steps as one."""
    (ax, ay), (bx, by) = cell_xy(a), cell_xy(b)
    return max(abs(ax - bx), abs(ay - by))


@functools.lru_cache(maxsize=64)
def orbit_of(pack_path: str, layout: tuple[tuple[str, str], ...] = ()) -> OrbitBoard:
    """The orbital board: the pack's fixed one, or built from the location cards of
    `layout` (position, card) (N124)."""
    return OrbitBoard(built_orbit(pack_path, layout) if layout else load_pack(pack_path).orbit)


def layout_key(layout: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """A board layout (position -> card) as a cache key; () for the fixed board."""
    return tuple(sorted(layout.items()))
