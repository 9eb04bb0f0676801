"""Final standings on one printable page: A4 portrait at 150 dpi (1240 x 1754 px), black on
white, to pin on the wall at the end of an event.

Every player fits on the page: rows shrink as the field grows. Prize places are marked
with a star and the word "prize", dropped players with "(dropped)", never by colour alone.
"""
from __future__ import annotations

import math
from typing import Sequence

from PIL import Image, ImageDraw

from engine.league.standings import Standing
from images.style import INK, MUTED, WHITE, encode, fit_size, text

WIDTH, HEIGHT = 1240, 1754
MARGIN = 90
TOP = 300
ROW_MOST = 56
COLUMNS = {"rank": 150, "name": 190, "title": 620, "bp": 900, "tiebreak": 1030, "prize": 1050}


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    points = [(cx + (r if i % 2 == 0 else r * 0.45) * math.cos(math.radians(-90 + 36 * i)),
               cy + (r if i % 2 == 0 else r * 0.45) * math.sin(math.radians(-90 + 36 * i))) for i in range(10)]
    draw.polygon(points, fill=INK)


def printable_image(title: str, rows: Sequence[Standing], tiebreak_short: str = "FP", subtitle: str = "") -> Image.Image:
    """The page as a Pillow image (see render_printable)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), WHITE)
    draw = ImageDraw.Draw(image)
    text(draw, (MARGIN, MARGIN), title, fit_size(title, WIDTH - 2 * MARGIN, 64), INK)
    text(draw, (MARGIN, MARGIN + 84), subtitle, fit_size(subtitle, WIDTH - 2 * MARGIN, 30), MUTED)
    row = min(ROW_MOST, (HEIGHT - TOP - MARGIN) // max(len(rows), 1))
    size = max(9, int(row * 0.5))
    heading = TOP - 40
    for key, label, anchor in (("rank", "#", "rm"), ("name", "Player", "lm"), ("title", "Rank", "lm"),
                               ("bp", "BP", "rm"), ("tiebreak", tiebreak_short, "rm")):
        text(draw, (COLUMNS[key], heading), label, 26, MUTED, anchor)
    draw.line([(MARGIN, TOP - 12), (WIDTH - MARGIN, TOP - 12)], fill=INK, width=3)
    for i, standing in enumerate(rows):
        middle = TOP + i * row + row / 2
        if i % 2:
            draw.rectangle((MARGIN, middle - row / 2, WIDTH - MARGIN, middle + row / 2), fill=(236, 236, 236))
        name = standing.name + (" (dropped)" if standing.dropped else "")
        text(draw, (COLUMNS["rank"], middle), str(standing.rank), size, INK, "rm")
        text(draw, (COLUMNS["name"], middle), name, fit_size(name, COLUMNS["title"] - COLUMNS["name"] - 20, size), INK, "lm")
        text(draw, (COLUMNS["title"], middle), standing.title, fit_size(standing.title, 300, size), INK, "lm")
        text(draw, (COLUMNS["bp"], middle), str(standing.battle_points), size, INK, "rm")
        text(draw, (COLUMNS["tiebreak"], middle), str(standing.tiebreak), size, INK, "rm")
        if standing.prize:
            _star(draw, COLUMNS["prize"] + size * 0.4, middle, size * 0.4)
            text(draw, (COLUMNS["prize"] + size, middle), "prize", max(9, int(size * 0.7)), INK, "lm")
    return image


def render_printable(title: str, rows: Sequence[Standing], tiebreak_short: str = "FP", subtitle: str = "") -> bytes:
    """PNG of the one-page final standings."""
    return encode(printable_image(title, rows, tiebreak_short, subtitle))
