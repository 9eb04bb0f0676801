"""Distance, doors, movement and line of sight on a laid-out mission area.

All functions take the static Geometry plus who stands where, so they stay pure.
`occupied` is the set of spaces holding any character in the mission area.
See docs/rulings.md for how line of sight is sampled.
"""
from __future__ import annotations

import functools
import math
from collections import deque
from typing import Callable, Iterable

from engine.awaymissions.layout import Geometry

# Points sampled in each unit square for line of sight: the centre and four points
# near the corners (inset so that a line never starts on a wall).
_INSET = 0.15
SAMPLES = ((0.5, 0.5), (_INSET, _INSET), (1 - _INSET, _INSET), (_INSET, 1 - _INSET), (1 - _INSET, 1 - _INSET))
_EPS = 1e-9


def door_open(a: str, b: str, occupied: set[str]) -> bool:
    """A door is open while a character stands in a space on either side of it."""
    return a in occupied or b in occupied


def passable(geo: Geometry, a: str, b: str, occupied: set[str]) -> bool:
    """Whether a character can see or measure across the edge between neighbours a and b."""
    kind = geo.edges.get((a, b), "wall")
    return kind == "open" or (kind == "door" and door_open(a, b, occupied))


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
    """Whether some line from a point in space a reaches a point in space b.

    A line is stopped by walls, blocked doors and closed doors, by leaving the mission
    area, and by passing through a `screens` space (one holding characters friendly to
    the viewer). The two end spaces never stop it.
    """
    if a == b:
        return True
    screens = set(screens)
    for crossings, cells in _segment_paths(geo, a, b):
        if screens.isdisjoint(cells) and all(
                any(mid not in screens and all(passable(geo, p, q, occupied) for p, q in edges)
                    for edges, mid in options)
                for options in crossings):
            return True
    return False


def _segment_paths(geo: Geometry, a: str, b: str):
    """The distinct ways sampled lines between a and b cross the grid (memoised per geometry).

    Lines are the same both ways, so the pair is stored once. The centre-to-centre
    line comes first and is traced on its own, because it alone usually settles the
    question; the other lines are traced only when it is blocked.
    """
    key = (a, b) if a < b else (b, a)
    memo = geo.los_memo
    centre = memo.get(("centre",) + key, False)
    if centre is False:
        traced = _trace(geo, key[0], key[1], SAMPLES[0], SAMPLES[0])
        centre = memo[("centre",) + key] = (traced[0], tuple(sorted(traced[1]))) if traced else None
    if centre is not None:
        yield centre
    rest = memo.get(key)
    if rest is None:
        distinct = {}
        for sa in SAMPLES:
            for sb in SAMPLES:
                if sa is SAMPLES[0] and sb is SAMPLES[0]:
                    continue
                path = _trace(geo, key[0], key[1], sa, sb)
                if path is not None:
                    distinct[(path[0], tuple(sorted(path[1])))] = None
        distinct.pop(centre, None)
        # tuples of strings only: the garbage collector stops tracking them, so a large
        # memo costs the collector nothing
        rest = memo[key] = tuple(sorted(distinct, key=lambda p: len(p[0])))
    yield from rest


def _trace(geo: Geometry, a: str, b: str, sa: tuple[float, float], sb: tuple[float, float]):
    """Walk the unit squares the line from point `sa` of space a to point `sb` of b passes.

    Returns (crossings, cells passed in between) or None when the line leaves the
    mission area. Each crossing is a tuple of options ((edge, ...), middle cell or None);
    a crossing straight through a grid corner has two options, one around each side,
    and the line gets through if either way round is clear.
    """
    start, end = geo.spaces[a], geo.spaces[b]
    cx, cy = start.x, start.y
    here = a
    crossings: list[tuple] = []
    cells: set[str] = set()
    for corner, sx, sy in _steps(end.x - start.x, end.y - start.y, sa, sb):
        if corner:
            via_x, via_y = geo.at.get((cx + sx, cy)), geo.at.get((cx, cy + sy))
            cx, cy = cx + sx, cy + sy
            there = geo.at.get((cx, cy))
            if there is None or (via_x is None and via_y is None):
                return None
            crossings.append(tuple((((here, via), (via, there)), via) for via in (via_x, via_y) if via is not None))
        else:
            cx, cy = cx + sx, cy + sy
            there = geo.at.get((cx, cy))
            if there is None:
                return None
            crossings.append(((((here, there),), None),))
        if there != b:
            cells.add(there)
        here = there
    return tuple(crossings), cells


@functools.lru_cache(maxsize=65536)
def _steps(ddx: int, ddy: int, sa: tuple[float, float], sb: tuple[float, float]) -> tuple[tuple[bool, int, int], ...]:
    """Grid steps of a line between two unit squares `ddx`, `ddy` apart (translation-free).

    Each step is (through a corner?, step in x, step in y).
    """
    x0, y0 = sa
    x1, y1 = ddx + sb[0], ddy + sb[1]
    dx, dy = x1 - x0, y1 - y0
    step_x = 1 if dx > 0 else -1
    step_y = 1 if dy > 0 else -1
    xs = [(k - x0) / dx for k in _between(x0, x1)] if abs(dx) > _EPS else []
    ys = [(k - y0) / dy for k in _between(y0, y1)] if abs(dy) > _EPS else []
    steps = []
    i = j = 0
    while i < len(xs) or j < len(ys):
        if i < len(xs) and j < len(ys) and abs(xs[i] - ys[j]) < 1e-7:
            steps.append((True, step_x, step_y))
            i += 1
            j += 1
        elif j >= len(ys) or (i < len(xs) and xs[i] < ys[j]):
            steps.append((False, step_x, 0))
            i += 1
        else:
            steps.append((False, 0, step_y))
            j += 1
    return tuple(steps)


def _between(a: float, b: float) -> list[int]:
    """Whole grid lines strictly between coordinates a and b, in the order met from a."""
    lo, hi = sorted((a, b))
    lines = list(range(math.floor(lo) + 1, math.ceil(hi)))
    return lines if a <= b else lines[::-1]
