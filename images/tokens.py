"""Character tokens: a side-styled shape with a short label and markers for its state.

Markers differ by shape as well as colour: a check mark badge for activated (and a
washed-out token), a shield for take cover, a star with the count for stun (a dashed
ring when incapacitated), a cube for assimilated.
"""
from __future__ import annotations

import functools
import math
from typing import Optional

from PIL import ImageDraw

from images.style import (ASSIMILATED, COVER, HAZARD, INK, WHITE, centred_text, draw_shape, fit_size, ink_on, stamp,
                          washed)


MARKS = ("activated", "cover", "stun", "assimilated")  # the states a token shows


def short_labels(characters: dict[str, dict]) -> dict[str, str]:
    """Character id -> a short unique label from its card code ('REYES' -> 'REY', 'D4-12' -> 'D4')."""
    return dict(_labels(tuple((cid, characters[cid].get("card") or cid) for cid in characters)))


@functools.lru_cache(maxsize=256)
def _labels(codes: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """short_labels for (id, card code) pairs, worked out once per cast (every picture asks)."""
    bases = {}
    for cid, code in codes:
        head = code.split("-")[0]
        bases[cid] = (head if any(ch.isdigit() for ch in head) else code[:3]).upper()
    return tuple(unique_labels(bases).items())


def unique_labels(bases: dict[str, str], used: Optional[set[str]] = None) -> dict[str, str]:
    """Id -> its base label, numbered from 2 where an earlier id (in sorted order) or one of
    the labels already `used` took it."""
    labels: dict[str, str] = {}
    used = set() if used is None else used
    for key in sorted(bases):
        label, n = bases[key], 2
        while label in used:
            label, n = f"{bases[key]}{n}", n + 1
        used.add(label)
        labels[key] = label
    return labels


def draw_token(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, style, label: str, character: dict) -> None:
    """One character token with its label and state markers, centred on (cx, cy)."""
    marks = tuple(map(character.get, MARKS))
    stamp(draw, ("token", tuple(style), label, marks, r), cx, cy, math.ceil(1.5 * r + 12),
          lambda d, x, y: _paint_token(d, x, y, r, style, label, character))


def _paint_token(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, style, label: str, character: dict) -> None:
    colour, shape = style
    fill = washed(colour) if character.get("activated") else colour
    draw_shape(draw, shape, cx, cy, r + 3, INK)
    draw_shape(draw, shape, cx, cy, r, fill, outline=WHITE, width=max(2, round(r / 10)))
    size = fit_size(label, int(r * 1.6), max(10, round(r * 0.85)))
    centred_text(draw, (cx, cy), label, size, ink_on(fill))
    badge = max(6.0, r * 0.42)
    if character.get("activated"):
        _check_badge(draw, cx + r * 0.85, cy - r * 0.85, badge)
    if character.get("cover"):
        _shield_badge(draw, cx - r * 0.85, cy - r * 0.85, badge)
    stun = character.get("stun", 0)
    if stun:
        if stun >= 2:
            _dashed_ring(draw, cx, cy, r + 7)
        _star_badge(draw, cx + r * 0.85, cy + r * 0.85, badge * 1.15, str(stun))
    if character.get("assimilated"):
        _cube_badge(draw, cx - r * 0.85, cy + r * 0.85, badge)


def _check_badge(draw, x: float, y: float, s: float) -> None:
    draw.ellipse((x - s, y - s, x + s, y + s), fill=WHITE, outline=INK, width=2)
    w = max(2, round(s / 3.5))
    draw.line([(x - s * 0.5, y), (x - s * 0.1, y + s * 0.45), (x + s * 0.55, y - s * 0.45)], fill=INK, width=w,
              joint="curve")


def _shield_badge(draw, x: float, y: float, s: float) -> None:
    points = [(x - s, y - s), (x + s, y - s), (x + s, y), (x, y + s * 1.2), (x - s, y)]
    draw.polygon(points, fill=COVER, outline=INK, width=2)


def _star_badge(draw, x: float, y: float, s: float, text: str) -> None:
    points = [(x + (s if i % 2 == 0 else s * 0.55) * math.cos(math.radians(-90 + 36 * i)),
               y + (s if i % 2 == 0 else s * 0.55) * math.sin(math.radians(-90 + 36 * i))) for i in range(10)]
    draw.polygon(points, fill=HAZARD, outline=INK, width=2)
    centred_text(draw, (x, y + 1), text, max(9, round(s * 0.95)), INK)


def _cube_badge(draw, x: float, y: float, s: float) -> None:
    draw.rectangle((x - s, y - s, x + s, y + s), fill=ASSIMILATED, outline=INK, width=2)
    for f in (-1 / 3, 1 / 3):
        draw.line([(x + s * f, y - s), (x + s * f, y + s)], fill=INK, width=1)
        draw.line([(x - s, y + s * f), (x + s, y + s * f)], fill=INK, width=1)


def _dashed_ring(draw, cx: float, cy: float, r: float) -> None:
    steps = 16
    for i in range(0, steps, 2):
        a0, a1 = 360 * i / steps, 360 * (i + 1) / steps
        draw.arc((cx - r, cy - r, cx + r, cy + r), a0, a1, fill=INK, width=3)

