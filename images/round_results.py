"""A complete round of a league event as one picture: its results, a line per table, above
the standings after it (images/standings.py draws those rows). Same width, type and marks
as the standings picture; posted once in the event's channel when the round completes.
"""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from engine.league.standings import Standing
from images.standings import PAD, SECONDARY, WIDTH, standings_image
from images.style import INK, PAPER, WHITE, encode, fit_size, text

HEADER = 48
LINE = 24


def round_image(title: str, number: int, results: Sequence[str], rows: Sequence[Standing],
                tiebreak_short: str = "FP") -> Image.Image:
    """Round `number`'s `results` (lines) over the standings `rows` after it, as a Pillow image."""
    band = HEADER + PAD + LINE * max(len(results), 1) + PAD
    table = standings_image(title, rows, tiebreak_short, f"Standings after round {number}")
    image = Image.new("RGB", (WIDTH, band + table.height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, HEADER - 8), fill=INK)
    heading = f"{title}: round {number} results"
    text(draw, (PAD, 8), heading, fit_size(heading, WIDTH - 2 * PAD, 22), WHITE)
    for i, line in enumerate(results or ["No games in this round."]):
        text(draw, (PAD, HEADER + PAD + LINE * i), line, fit_size(line, WIDTH - 2 * PAD, 15),
             INK if results else SECONDARY)
    image.paste(table, (0, band))
    return image


def render_round(title: str, number: int, results: Sequence[str], rows: Sequence[Standing],
                 tiebreak_short: str = "FP") -> bytes:
    """PNG of round_image (same round, same bytes)."""
    return encode(round_image(title, number, results, rows, tiebreak_short))
