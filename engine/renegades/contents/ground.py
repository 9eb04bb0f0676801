"""The planet surface board: squares, terrain, tiles, crew movement costs and lines of sight.

Squares are named like the orbital board's ('F6': column letter from the west edge, row
number from the north edge). Figures move in any of the eight directions; see
docs/renegades.md for the board of the starter pack.
"""
from __future__ import annotations

import functools
import heapq
from typing import Callable, Optional

from engine.renegades.contents.board import DELTA, distance
from engine.renegades.contents.content import SurfaceBoard, cell_xy, load_pack, xy_cell
from engine.renegades.contents.locations import built_board


class Ground:
    """One surface board of a pack, with its terrain as sets of squares."""

    def __init__(self, spec: SurfaceBoard):
        self.spec = spec
        self.code, self.name = spec.code, spec.name
        self.width, self.height = spec.width, spec.height
        self.blocking = frozenset(spec.blocking)
        self.slow = frozenset(spec.obstructed) | frozenset(spec.water)  # two points to leave (N27)
        self.obstructed = frozenset(spec.obstructed)
        self.doorways = frozenset(spec.doorways)
        self.docks = list(spec.docks)
        self.tiles = {loc.code: loc for loc in spec.locations}
        self.cells = [xy_cell(x, y) for y in range(self.height) for x in range(self.width)]
        self._tile_of = {}
        for loc in spec.locations:
            (x0, y0), (x1, y1) = cell_xy(loc.from_), cell_xy(loc.to)
            for y in range(min(y0, y1), max(y0, y1) + 1):
                for x in range(min(x0, x1), max(x0, x1) + 1):
                    self._tile_of[xy_cell(x, y)] = loc.code
        self._around = {c: self._neighbours(c) for c in self.cells}
        self._xy = {c: cell_xy(c) for c in self.cells}
        self.level = {**{c: 1 for c in spec.elevated}, **{c: -1 for c in spec.sunken}}  # ground: 0 (absent)
        self.steps = frozenset(spec.steps)
        self.sunken = frozenset(spec.sunken)
        self.low = frozenset(c for loc in spec.locations if loc.ceiling == "low" for c in self.tile_cells(loc.code))
        self._ledges = {c: frozenset(n for n in self._around[c] if not self.on_foot(c, n)) for c in self.cells}

    def _neighbours(self, cell: str) -> list[str]:
        x, y = cell_xy(cell)
        return [xy_cell(x + dx, y + dy) for dx, dy in DELTA.values()
                if 0 <= x + dx < self.width and 0 <= y + dy < self.height]

    def is_cell(self, text: str) -> bool:
        if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
            return False
        x, y = cell_xy(text.upper())
        return 0 <= x < self.width and 0 <= y < self.height

    def around(self, cell: str) -> list[str]:
        return self._around[cell]

    def tile_of(self, cell: str) -> Optional[str]:
        return self._tile_of.get(cell)

    def tile_cells(self, code: str) -> list[str]:
        return [c for c in self.cells if self._tile_of.get(c) == code]

    def by_wall(self, cell: str) -> bool:
        """Touching blocking terrain or the board's edge, or on obstructed terrain: where a
        hidden crewmember may stay hidden (N31)."""
        return cell in self.obstructed or len(self._around[cell]) < 8 or any(
            c in self.blocking for c in self._around[cell])

    def on_foot(self, here: str, there: str) -> bool:
        """N106: a step between neighbours of different levels needs steps on one of them."""
        level = self.level
        return level.get(here, 0) == level.get(there, 0) or here in self.steps or there in self.steps

    def at_edge(self, cell: str) -> bool:
        """Beside lower ground: where a piece on raised ground sees down, or is seen from below."""
        top = self.level.get(cell, 0)
        return any(self.level.get(c, 0) < top for c in self._around[cell])

    def cost_from(self, cell: str, containers: frozenset) -> int:
        """N27: a step out of obstructed terrain, water or a container's square costs two
        points, any other step one (so stepping into such a square costs one)."""
        return 2 if cell in self.slow or cell in containers else 1

    def paths(self, start: str, points: int, containers: frozenset, passable: Callable[[str], Optional[int]],
              flying: bool = False, barred: frozenset = frozenset(),
              steady: bool = False) -> dict[str, tuple[int, int, list[str]]]:
        """Every square reachable from `start` within `points`: (cost, opponents passed, path).

        `passable(cell)` is None where the mover may not go, else how many opponents it
        passes there (their square needs an elude test). N30: among paths of equal cost the
        one passing fewest opponents wins, then the one with fewest diagonal steps, then the
        one whose last step comes from the square first by column and row. On foot a change
        of level needs steps (N106); `flying` pays one point a square and ignores levels
        (N109); `barred` squares may not be entered (low ceilings for giants, N108);
        `steady` (grav boots, N185) pays one point a square and keeps to the levels.
        """
        xy = self._xy
        climbing = bool(self.level) and not flying
        blocked = self.blocking | barred if barred else self.blocking
        open_to: dict[str, Optional[int]] = {}  # passable(), asked once a square, as the search reaches it
        best: dict[str, tuple] = {start: (0, 0, 0, (-1, -1))}
        came: dict[str, str] = {}
        queue = [(0, 0, 0, (-1, -1), start)]
        while queue:
            cost, passed, diagonal, origin, here = heapq.heappop(queue)
            if best[here] != (cost, passed, diagonal, origin):
                continue
            hx, hy = xy[here]
            ledges = self._ledges[here] if climbing else ()
            step = cost + (1 if flying or steady else self.cost_from(here, containers))
            if step > points:
                continue
            for nxt in self._around[here]:
                if nxt in open_to:
                    extra = open_to[nxt]
                else:
                    extra = open_to[nxt] = None if nxt in blocked else passable(nxt)
                if extra is None or nxt in ledges:
                    continue
                nx, ny = xy[nxt]
                key = (step, passed + extra, diagonal + (1 if nx != hx and ny != hy else 0), (hx, hy))
                if nxt not in best or key < best[nxt]:
                    best[nxt] = key
                    came[nxt] = here
                    heapq.heappush(queue, key + (nxt,))
        found = {}
        for cell, (cost, passed, _, _) in best.items():
            path, here = [], cell
            while here != start:
                path.append(here)
                here = came[here]
            found[cell] = (cost, passed, path[::-1])
        return found

    def line_of_sight(self, a: str, b: str, through_doorways: bool = False, lobbed: bool = False) -> bool:
        """N36: a straight line between the centres of the squares crosses no blocking
        square (squares it only grazes at a corner do not block) and, N161, no doorway (a
        piece standing in one sees out to both sides; `through_doorways`: a giant shooting
        in, N108). N106: between levels the
        higher of the two must stand at the edge, and ground higher than both blocks; a
        `lobbed` grenade goes over both (N193)."""
        level = {} if lobbed else self.level
        top = max(level.get(a, 0), level.get(b, 0))
        if level and level.get(a, 0) != level.get(b, 0) and not self.at_edge(a if level.get(a, 0) == top else b):
            return False
        return not any(cell in self.blocking or (cell in self.doorways and not through_doorways)
                       or level.get(cell, 0) > top for cell in between(a, b))


def between(a: str, b: str) -> list[str]:
    """The squares a straight line from the centre of `a` to the centre of `b` passes
    through, ends left out (each step rounded to the nearest square, N36)."""
    (ax, ay), (bx, by) = cell_xy(a), cell_xy(b)
    steps = max(abs(bx - ax), abs(by - ay))
    return [xy_cell(round(ax + (bx - ax) * i / steps + 1e-9), round(ay + (by - ay) * i / steps + 1e-9))
            for i in range(1, steps)]


def near(a: str, b: str) -> bool:
    """On the same or neighbouring squares."""
    return distance(a, b) <= 1


@functools.lru_cache(maxsize=64)
def ground_of(pack_path: str, code: str, layout: tuple[tuple[str, str], ...] = ()) -> Ground:
    """The surface board `code`: the pack's fixed one, or built from the location cards of
    `layout` (position, card) (N124)."""
    return Ground(built_board(pack_path, code, layout) if layout else load_pack(pack_path).surfaces[code])
