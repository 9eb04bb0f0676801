"""Exact line of sight agrees with a dense brute-force search on every preset layout.

The reference below shares no code with engine/awaymissions/geometry.py: it samples many
points in each of the two spaces, keeps the part of each line between the spaces, and
tests it against every blocked edge as a closed segment (touching a wall, a closed door
or the edge of the mission area stops a line) and every friendly space as an open square
(passing through its inside stops a line). Sampled points are placed off the grid's
rational points, so a sampled line never runs exactly through a grid corner.
"""
import random

import numpy as np
import pytest

from engine.awaymissions.content import load_pack
from engine.awaymissions.geometry import line_of_sight, passable
from engine.awaymissions.layout import geometry, preset

PRESETS = ("standard", "borg-corridor", "cube")
DENSITIES = (5, 17, 41)  # points per side of a space, tried in turn until a clear line is found


def _points(x, y, per_side):
    offsets = (np.arange(per_side) + 0.5 + np.sqrt(2) / 100) / per_side
    offsets = np.concatenate([offsets, [1e-4 * np.pi, 1 - 1e-4 * np.e]])
    gx, gy = np.meshgrid(offsets, offsets)
    return np.stack([x + gx.ravel(), y + gy.ravel()], axis=1)


def _walls(geo, occupied):
    """Every blocked unit edge as ((x0, y0), (x1, y1))."""
    walls = set()
    for space in geo.spaces.values():
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            neighbour = geo.at.get((space.x + dx, space.y + dy))
            if neighbour is not None and passable(geo, space.id, neighbour, occupied):
                continue
            if dx:
                edge_x = space.x + (dx > 0)
                walls.add(((edge_x, space.y), (edge_x, space.y + 1)))
            else:
                edge_y = space.y + (dy > 0)
                walls.add(((space.x, edge_y), (space.x + 1, edge_y)))
    return np.array(sorted(walls), dtype=float)


def _cross(ox, oy, ax, ay, bx, by):
    return (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)


def _clear_lines(a, b, walls, screens, per_side):
    """Boolean array over sampled lines from space a to space b: True where clear."""
    ps, qs = _points(a[0], a[1], per_side), _points(b[0], b[1], per_side)
    sx, sy = np.repeat(ps[:, 0], len(qs)), np.repeat(ps[:, 1], len(qs))
    dx, dy = np.tile(qs[:, 0], len(ps)) - sx, np.tile(qs[:, 1], len(ps)) - sy
    with np.errstate(divide="ignore", invalid="ignore"):
        # leave a: the first slab boundary met; enter b: the last slab boundary crossed
        tx = np.where(dx > 0, (a[0] + 1 - sx) / dx, np.where(dx < 0, (a[0] - sx) / dx, np.inf))
        ty = np.where(dy > 0, (a[1] + 1 - sy) / dy, np.where(dy < 0, (a[1] - sy) / dy, np.inf))
        t_out = np.minimum(tx, ty)
        tx = np.where(dx > 0, (b[0] - sx) / dx, np.where(dx < 0, (b[0] + 1 - sx) / dx, -np.inf))
        ty = np.where(dy > 0, (b[1] - sy) / dy, np.where(dy < 0, (b[1] + 1 - sy) / dy, -np.inf))
        t_in = np.maximum(tx, ty)
    x0, y0, x1, y1 = sx + t_out * dx, sy + t_out * dy, sx + t_in * dx, sy + t_in * dy
    clear = np.ones(len(sx), dtype=bool)
    lo_x, hi_x = min(a[0], b[0]), max(a[0], b[0]) + 1
    lo_y, hi_y = min(a[1], b[1]), max(a[1], b[1]) + 1
    near = walls[(walls[:, :, 0].max(axis=1) >= lo_x) & (walls[:, :, 0].min(axis=1) <= hi_x)
                 & (walls[:, :, 1].max(axis=1) >= lo_y) & (walls[:, :, 1].min(axis=1) <= hi_y)]
    if len(near):
        wx0, wy0, wx1, wy1 = (near[None, :, i, j] for i, j in ((0, 0), (0, 1), (1, 0), (1, 1)))
        x0c, y0c, x1c, y1c = (v[:, None] for v in (x0, y0, x1, y1))
        d1, d2 = _cross(wx0, wy0, wx1, wy1, x0c, y0c), _cross(wx0, wy0, wx1, wy1, x1c, y1c)
        d3, d4 = _cross(x0c, y0c, x1c, y1c, wx0, wy0), _cross(x0c, y0c, x1c, y1c, wx1, wy1)
        z1, z2, z3, z4 = (np.abs(d) < 1e-9 for d in (d1, d2, d3, d4))
        straddles = ((np.sign(d1) * np.sign(d2) <= 0) | z1 | z2) & ((np.sign(d3) * np.sign(d4) <= 0) | z3 | z4)
        # on the wall's own line (or a zero-length piece, where the spaces share an edge): do they overlap?
        overlap = ((np.maximum(np.minimum(x0c, x1c), np.minimum(wx0, wx1))
                    <= np.minimum(np.maximum(x0c, x1c), np.maximum(wx0, wx1)) + 1e-9)
                   & (np.maximum(np.minimum(y0c, y1c), np.minimum(wy0, wy1))
                      <= np.minimum(np.maximum(y0c, y1c), np.maximum(wy0, wy1)) + 1e-9))
        clear &= ~np.where(z1 & z2, overlap, straddles).any(axis=1)
    ex, ey = x1 - x0, y1 - y0
    with np.errstate(divide="ignore", invalid="ignore"):
        for qx, qy in screens:
            lo = np.zeros(len(sx))
            hi = np.ones(len(sx))
            for start, step, edge in ((x0, ex, qx), (y0, ey, qy)):
                t1, t2 = (edge - start) / step, (edge + 1 - start) / step
                inside = (start > edge) & (start < edge + 1)
                lo = np.where(step == 0, np.where(inside, lo, np.inf), np.maximum(lo, np.minimum(t1, t2)))
                hi = np.where(step == 0, hi, np.minimum(hi, np.maximum(t1, t2)))
            clear &= ~(lo < hi)
    return clear


def _reference(geo, a, b, occupied, screens):
    spa, spb = geo.spaces[a], geo.spaces[b]
    walls = _walls(geo, occupied)
    squares = [(geo.spaces[s].x, geo.spaces[s].y) for s in screens if s not in (a, b)]
    for per_side in DENSITIES:
        if _clear_lines((spa.x, spa.y), (spb.x, spb.y), walls, squares, per_side).any():
            return True
    return False


def _disagreements(geo, occupied, screens=(), pairs=None):
    names = sorted(geo.spaces)
    pairs = pairs or [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    walls = _walls(geo, occupied)
    found = []
    for a, b in pairs:
        exact = line_of_sight(geo, a, b, occupied, screens)
        spa, spb = geo.spaces[a], geo.spaces[b]
        squares = [(geo.spaces[s].x, geo.spaces[s].y) for s in screens if s not in (a, b)]
        sampled = _clear_lines((spa.x, spa.y), (spb.x, spb.y), walls, squares, DENSITIES[0]).any()
        if exact and not sampled:
            sampled = _reference(geo, a, b, occupied, screens)
        if exact != sampled:
            found.append((a, b, exact))
    return found


@pytest.fixture(scope="module")
def pack():
    return load_pack("content/starter")


@pytest.mark.parametrize("doors", ["open", "closed"])
@pytest.mark.parametrize("layout", PRESETS)
def test_exact_line_of_sight_matches_a_dense_search_on_every_pair(pack, layout, doors):
    geo = geometry(pack, preset(pack, layout))
    occupied = set(geo.spaces) if doors == "open" else set()
    assert _disagreements(geo, occupied) == []


def test_friendly_spaces_screen_exactly_as_the_dense_search_says(pack):
    geo = geometry(pack, preset(pack, "standard"))
    rng = random.Random(9)
    names = sorted(geo.spaces)
    for _ in range(12):
        screens = rng.sample(names, 8)
        occupied = set(rng.sample(names, 30)) | set(screens)
        pairs = [tuple(rng.sample(names, 2)) for _ in range(60)]
        assert _disagreements(geo, occupied, screens, pairs) == []


# The pairs of the standard layout (doors open) that the old test of 25 sampled lines
# called blocked: clear lines exist, all of them close to a wall or a door's edge.
SAMPLING_MISSED = [
    ("A5", "D10"), ("A5", "E2"), ("A5", "H4"), ("B1", "E9"), ("B10", "D2"), ("B10", "E5"), ("B2", "E6"),
    ("B4", "C10"), ("B5", "H4"), ("B7", "C1"), ("B8", "C1"), ("B8", "C2"), ("C1", "D7"), ("C10", "D2"),
    ("C10", "D4"), ("C3", "E10"), ("C4", "E9"), ("C4", "I5"), ("C5", "H7"), ("C7", "H5"), ("C8", "D2"),
    ("C9", "D2"), ("D5", "I8"), ("F1", "I10"), ("F10", "H3"), ("F2", "H7"), ("F2", "I10"), ("F5", "I10"),
    ("F6", "I1"), ("F9", "H4"), ("F9", "I1"), ("G2", "J6"), ("G4", "H10"), ("G7", "H1"), ("H1", "I7"),
    ("H10", "I4"),
]


def test_lines_close_to_walls_that_sampling_missed_are_seen(pack):
    geo = geometry(pack, preset(pack, "standard"))
    everywhere = set(geo.spaces)
    assert [pair for pair in SAMPLING_MISSED if not line_of_sight(geo, *pair, everywhere, [])] == []
    assert [pair for pair in SAMPLING_MISSED if not _reference(geo, *pair, everywhere, [])] == []
