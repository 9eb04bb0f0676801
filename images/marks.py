"""Highlight marks every board shares: the movement path, the attack line, the target
reticle, and peg rows (a solid dot for a peg left, a ring for a lost one).

Sizes scale with `cell`, the board's pixels per space, so one look serves the Away
Missions spaces and the Renegades squares alike.
"""
from __future__ import annotations

import math
from typing import Iterable, Sequence

from images.style import ATTACK_MARK, INK, MOVE_MARK, dashed_line, stamp

Point = tuple[float, float]


def arrow_head(draw, a: Point, b: Point, colour, size: float) -> None:
    """A filled arrow head at the middle of segment a-b, pointing towards b."""
    (x0, y0), (x1, y1) = a, b
    length = max(1e-6, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    mx, my = (x0 + x1) / 2 + ux * size / 2, (y0 + y1) / 2 + uy * size / 2

    def paint(draw, mx: float, my: float) -> None:
        points = [(mx, my), (mx - ux * size - uy * size * 0.6, my - uy * size + ux * size * 0.6),
                  (mx - ux * size + uy * size * 0.6, my - uy * size - ux * size * 0.6)]
        draw.polygon(points, fill=colour, outline=INK, width=2)
    stamp(draw, ("arrow", ux, uy, tuple(colour), size), mx, my, math.ceil(size * 1.3) + 3, paint)


def path(draw, points: Sequence[Point], cell: float, ground, jumps: Iterable[int] = ()) -> None:
    """A movement path: an orange line cased in ink with a dot on every space and an arrow
    head on every step, dashed on the steps in `jumps` (indices of segments), and a ring
    filled with `ground` where it began."""
    jumps = set(jumps)
    c = cell
    for k, (pa, pb) in enumerate(zip(points, points[1:])):
        if k not in jumps:
            draw.line([pa, pb], fill=INK, width=round(c * 0.13))
            draw.line([pa, pb], fill=MOVE_MARK, width=round(c * 0.08))
        else:
            dashed_line(draw, pa, pb, INK, round(c * 0.08), c * 0.2, c * 0.15)
        for p in (pa, pb):
            r = c * 0.065
            draw.ellipse((p[0] - r, p[1] - r, p[0] + r, p[1] + r), fill=MOVE_MARK, outline=INK, width=2)
        arrow_head(draw, pa, pb, MOVE_MARK, c * 0.2)
    if points:
        x, y = points[0]
        r = c * 0.16
        draw.ellipse((x - r, y - r, x + r, y + r), fill=ground, outline=MOVE_MARK, width=round(c * 0.06))


def attack_line(draw, a: Point, b: Point, cell: float) -> None:
    """The line of an attack, from the attacker towards its target, with an arrow head."""
    c = cell
    draw.line([a, b], fill=INK, width=round(c * 0.12))
    draw.line([a, b], fill=ATTACK_MARK, width=round(c * 0.07))
    if a != b:
        arrow_head(draw, a, b, ATTACK_MARK, c * 0.22)


def reticle(draw, centre: Point, cell: float) -> None:
    """Crosshair around an attacked space: a ring with four ticks (stamped on a palette picture)."""
    c = cell
    r = c * 0.47

    def paint(draw, cx: float, cy: float) -> None:
        for colour, width in ((INK, round(c * 0.09)), (ATTACK_MARK, round(c * 0.05))):
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=width)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                draw.line([(cx + dx * r * 0.78, cy + dy * r * 0.78), (cx + dx * r * 1.08, cy + dy * r * 1.08)],
                          fill=colour, width=width)
    stamp(draw, ("reticle", c), *centre, math.ceil(r * 1.08 + c * 0.09) + 3, paint)


def pegs(draw, holes: Iterable[tuple[float, bool]], y: float, radius: float, colour) -> None:
    """Peg holes along the line at y: a solid dot where a peg is left, a ring where it is lost."""
    for px, filled in holes:
        box = (px - radius, y - radius, px + radius, y + radius)
        if filled:
            draw.ellipse(box, fill=colour)
        else:
            draw.ellipse(box, outline=colour, width=2)
