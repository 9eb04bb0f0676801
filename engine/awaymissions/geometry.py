"""Distance, doors, movement and line of sight on a laid-out mission area.

All functions take the static Geometry plus who stands where, so they stay pure.
`occupied` is the set of spaces holding any character in the mission area.
Line of sight is exact; docs/rulings.md (R9) says what stops a line.
"""
from __future__ import annotations

from collections import deque
from typing import Callable, Iterable

from engine.awaymissions.layout import Geometry



def door_open(a: str, b: str, occupied: set[str]) -> bool:
    """A door is open while a character stands in a space on either side of it."""
    return a in occupied or b in occupied


def passable(geo: Geometry, a: str, b: str, occupied: set[str]) -> bool:
    """Whether a character can see or measure across the edge between neighbours a and b."""
    kind = geo.edges.get((a, b), "wall")
    return kind == "open" or (kind == "door" and door_open(a, b, occupied))


def adjacent(geo: Geometry, a: str, b: str, occupied: set[str]) -> bool:
    """Whether b is at most one space from a (distance 0 or 1), without a search."""
    return a == b or any(there == b for there, _ in geo.links[a]) and passable(geo, a, b, occupied)


def distance(geo: Geometry, a: str, b: str, occupied: set[str]) -> int | None:
    """Spaces counted from a to b, never across a blocked edge or a closed door.

    Turbolift travel is movement, not measurement: it does not shorten distances.
    None when b cannot be reached at all.
    """
    if a == b:
        return 0
    seen = {a}
    queue = deque([(a, 0)])
    while queue:
        here, d = queue.popleft()
        for there, _ in geo.links[here]:
            if there not in seen and passable(geo, here, there, occupied):
                if there == b:
                    return d + 1
                seen.add(there)
                queue.append((there, d + 1))
    return None


def reachable(geo: Geometry, start: str, steps: int, can_enter: Callable[[str], bool],
              can_stop: Callable[[str], bool]) -> dict[str, list[str]]:
    """Spaces a mover can end in within `steps` moves, each with a shortest path.

    The mover opens every door it stands beside, so doors never stop it; walls and
    blocked doors do. A turbolift space leads to every turbolift space on another board.
    Paths are found breadth first with neighbours in a fixed order, so they are stable.
    """
    paths: dict[str, list[str]] = {start: [start]}
    frontier = [start]
    for _ in range(steps):
        nxt = []
        for here in frontier:
            onward = [there for there, _ in geo.links[here]] + list(geo.lifts.get(here, ()))
            for there in onward:
                if there in paths or not can_enter(there):
                    continue
                paths[there] = paths[here] + [there]
                nxt.append(there)
        frontier = nxt
    return {space: path for space, path in paths.items() if space != start and can_stop(space)}


def line_of_sight(geo: Geometry, a: str, b: str, occupied: set[str], screens: Iterable[str]) -> bool:
    """Whether some straight line from a point of space a reaches a point of space b.

    A line is stopped by walls, blocked doors and closed doors, by leaving the mission
    area, and by passing through a `screens` space (one holding characters friendly to
    the viewer); the two end spaces never stop it. The test is exact (R9): it searches
    every way a line can cross the grid between a and b (`SightLines`) for one that is
    clear now.
    """
    if a == b:
        return True
    key = (a, b) if a < b else (b, a)
    lines = geo.los_memo.get(key)
    if lines is None:
        lines = geo.los_memo[key] = SightLines(geo, *key)
    screens = set(screens)
    screens.discard(a)
    screens.discard(b)
    return lines.any_clear(lambda here, there: there not in screens and passable(geo, here, there, occupied))


# Slopes of lines worth trying, in the orientation SightLines uses: between spaces at
# least as far apart along the main axis as across it, a line through both has a slope
# of at most 3 (or is one of many equivalent lines that do).
_MAX_SLOPE = 8.0
_MIN_AREA = 1e-12


class SightLines:
    """Every distinct way a straight line can cross the grid from space a to space b, on
    this layout: the pair's `Crossings` (which depend only on how far b lies from a), less
    the crossings into cells outside the mission area, with cells named by their spaces.
    Resolved only as far as queries need it."""

    __slots__ = ("_crossings", "_cell", "_children")

    def __init__(self, geo: Geometry, a: str, b: str):
        start, end = geo.spaces[a], geo.spaces[b]
        across = abs(end.y - start.y) > abs(end.x - start.x)  # u is y when the pair is steeper
        at = geo.at
        x0, y0 = start.x, start.y
        if across:
            self._crossings = crossings(True, end.y - y0, end.x - x0)
            self._cell = lambda u, v: at.get((x0 + v, y0 + u))
        else:
            self._crossings = crossings(False, end.x - x0, end.y - y0)
            self._cell = lambda u, v: at.get((x0 + u, y0 + v))
        self._children: dict[int, tuple] = {}

    def any_clear(self, clear: Callable[[str, str], bool]) -> bool:
        """Whether some path's every crossing (from, to) is `clear`."""
        stack = [-1]
        while stack:
            node = stack.pop()
            children = self._children.get(node)
            if children is None:
                children = self._children[node] = self._resolve(node)
            for here, there, onward in children:
                if here is not None and not clear(here, there):
                    continue
                if onward is None:
                    return True
                stack.append(onward)
        return False

    def _resolve(self, node: int) -> tuple:
        """The node's crossings on this layout: (from space, to space, next node or None)."""
        moves = self._crossings.children(node)
        if node < 0:
            return tuple((None, None, onward) for _, _, onward in moves)
        cell = self._cell
        u, v = self._crossings.cell_of(node)
        here = cell(u, v)
        resolved = []
        for nu, nv, onward in moves:
            there = cell(nu, nv)
            if there is not None:
                resolved.append((here, there, onward))
        return tuple(resolved)


_CROSSINGS: dict[tuple[bool, int, int], "Crossings"] = {}


def crossings(across: bool, du: int, dv: int) -> "Crossings":
    """The shared Crossings of a pair of cells `du` apart along its main axis and `dv` across."""
    key = (across, du, dv)
    found = _CROSSINGS.get(key)
    if found is None:
        found = _CROSSINGS[key] = Crossings(du, dv)
    return found


class Crossings:
    """Every distinct way a straight line can cross an unbounded grid from a cell to the
    cell `du` cells further along the main axis u and `dv` across it (|du| >= |dv|).

    The ways form a tree of edge crossings, grown only as far as queries need it. A path
    of crossings is in the tree exactly when some line crosses precisely those edges in
    that order without touching a grid corner (a line through a corner can always be
    nudged off it; see R9), so searching the tree is searching every line. Cells are
    counted from the start cell, so one tree serves every pair the same distance apart on
    every layout; a layout only removes the cells it lacks (SightLines).

    How: along u a line is v = m*s + c, with s counted from the start's near edge.
    Passing through the inside of both end cells, and crossing an edge's inside, are
    linear conditions on (m, c); a path is possible while the region of (m, c) meeting
    all its conditions has area. Each step goes one cell along u or one across v
    (towards the end; both ways when the end is level with the start), clipping the region.
    """

    __slots__ = ("_end", "_nodes", "_children", "_step", "_base")

    def __init__(self, du: int, dv: int):
        ua = va = 0
        ub, vb = du, dv
        self._end = (ub, vb)
        self._step = 1 if ub > ua else -1
        self._base = ua if self._step > 0 else ua + 1
        sb = float(abs(ub - ua))
        # nodes: (u, v, side, region); children: node -> ((u, v, node or None), ...)
        self._nodes: list[tuple] = []
        self._children: dict[int, tuple] = {}
        roots = []
        for side in ((1 if vb > va else -1,) if vb != va else (1, -1)):
            if side > 0:  # rising lines through the insides of a and b
                bounds = ((1.0, 0.0, 0.0), (1.0, 1.0, -va), (0.0, -1.0, va + 1.0),
                          (sb + 1, 1.0, -vb), (-sb, -1.0, vb + 1.0))
            else:  # falling lines
                bounds = ((-1.0, 0.0, 0.0), (0.0, 1.0, -va), (-1.0, -1.0, va + 1.0),
                          (sb, 1.0, -vb), (-sb - 1, -1.0, vb + 1.0))
            region = ((-_MAX_SLOPE, va - 2 * _MAX_SLOPE), (_MAX_SLOPE, va - 2 * _MAX_SLOPE),
                      (_MAX_SLOPE, va + 1 + 2 * _MAX_SLOPE), (-_MAX_SLOPE, va + 1 + 2 * _MAX_SLOPE))
            for alpha, beta, gamma in bounds:
                region = _clip(region, alpha, beta, gamma)
            if _has_area(region):
                self._nodes.append((ua, va, side, region))
                roots.append(len(self._nodes) - 1)
        self._children[-1] = tuple((None, None, root) for root in roots)

    def cell_of(self, node: int) -> tuple[int, int]:
        """(u, v) of a node's cell, counted from the start cell."""
        u, v, _, _ = self._nodes[node]
        return u, v

    def children(self, node: int) -> tuple:
        """(u, v, next node or None at the end) of each crossing a line can make next from
        this node's cell (-1: the roots, one per way the line may slope)."""
        found = self._children.get(node)
        if found is None:
            found = self._children[node] = self._grow(node)
        return found

    def _grow(self, node: int) -> tuple:
        u, v, side, region = self._nodes[node]
        ub, vb = self._end
        step = self._step
        s0 = float((u - self._base) * step if step > 0 else (u + 1 - self._base) * step)
        moves = []
        if u != ub:  # on through the edge ahead, between v and v + 1
            moves.append((u + step, v, ((s0 + 1, 1.0, -v), (-s0 - 1, -1.0, v + 1.0))))
        if v != vb:  # across the side edge towards b: short of it at s0, past it at s0 + 1
            line = v + 1 if side > 0 else v
            moves.append((u, v + side, ((-side * s0, -side, side * line), (side * (s0 + 1), side, -side * line))))
        grown = []
        for nu, nv, conditions in moves:
            clipped = region
            for alpha, beta, gamma in conditions:
                clipped = _clip(clipped, alpha, beta, gamma)
            if not _has_area(clipped):
                continue
            if (nu, nv) == self._end:
                grown.append((nu, nv, None))
            else:
                self._nodes.append((nu, nv, side, clipped))
                grown.append((nu, nv, len(self._nodes) - 1))
        return tuple(grown)


def _clip(poly: tuple, alpha: float, beta: float, gamma: float) -> tuple:
    """The part of a convex polygon in (m, c) where alpha*m + beta*c + gamma >= 0."""
    out = []
    count = len(poly)
    for i in range(count):
        p, q = poly[i], poly[(i + 1) % count]
        fp = alpha * p[0] + beta * p[1] + gamma
        fq = alpha * q[0] + beta * q[1] + gamma
        if fp >= 0:
            out.append(p)
        if (fp >= 0) != (fq >= 0):
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return tuple(out)


def _has_area(poly: tuple) -> bool:
    """Whether a clipped region still has an inside (strict conditions need one)."""
    if len(poly) < 3:
        return False
    return abs(sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(poly, poly[1:] + poly[:1]))) > 2 * _MIN_AREA
