"""The standings as a picture: place, name and title, Battle Points as a bar, tiebreak points.

Sized for a phone (550 px wide). Marks are words and symbols, never colour alone: a tie
without its roll-off yet is "=", a provisional score carries "*", and a dropped player is
struck through and says so. The one accent colour is Okabe-Ito blue.
"""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from engine.league.standings import Standing
from images.style import INK, PAPER, STYLES, WHITE, blend, encode, fit_size, text, text_width

WIDTH = 550
PAD = 14
HEADER = 56
LABELS = 24
ROW = 40
RANK_RIGHT = 50
NAME_X = 62
NAME_WIDTH = 230
BP_RIGHT = 340
BAR_X, BAR_WIDTH, BAR_HEIGHT = 350, 120, 14
TIEBREAK_RIGHT = WIDTH - PAD
BAR = STYLES[0][0]  # Okabe-Ito blue
SECONDARY = blend(INK, PAPER, 0.25)  # titles, labels and notes: grey, still AA contrast on both row grounds
NOTES = {"tied": "= tied: the roll-off comes when the round is complete",
         "provisional": "* provisional: the round is not complete yet",
         "dropped": "struck through: dropped (past games count)"}


def row_top(index: int) -> int:
    """The top edge of the `index`-th row (0 is the leader)."""
    return HEADER + LABELS + index * ROW


def bar_length(battle_points: int, most: int) -> int:
    """Pixels of a player's Battle Points bar; the leader's fills it."""
    return round(BAR_WIDTH * battle_points / most) if most > 0 else 0


def notes_for(rows: Sequence[Standing]) -> list[str]:
    """The footnotes the marks in these rows need."""
    return [NOTES[mark] for mark in NOTES if any(getattr(r, mark) for r in rows)]


def standings_image(title: str, rows: Sequence[Standing], tiebreak_short: str = "FP",
                    subtitle: str = "") -> Image.Image:
    """The standings picture as a Pillow image (see render_standings)."""
    notes = notes_for(rows)
    height = row_top(max(len(rows), 1)) + PAD + 20 * len(notes)
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, HEADER - 8), fill=INK)
    text(draw, (PAD, 8), title, fit_size(title, WIDTH - 2 * PAD, 22), WHITE)
    text(draw, (PAD, 34), subtitle, fit_size(subtitle, WIDTH - 2 * PAD, 13), WHITE)
    labels_y = HEADER + LABELS / 2 - 4
    text(draw, (RANK_RIGHT, labels_y), "#", 13, SECONDARY, "rm")
    text(draw, (NAME_X, labels_y), "Player and rank", 13, SECONDARY, "lm")
    text(draw, (BP_RIGHT, labels_y), "BP", 13, SECONDARY, "rm")
    text(draw, (TIEBREAK_RIGHT, labels_y), tiebreak_short, 13, SECONDARY, "rm")
    if not rows:
        text(draw, (NAME_X, row_top(0) + ROW / 2), "No players yet.", 16, SECONDARY, "lm")
    most = max((r.battle_points for r in rows), default=0)
    for i, row in enumerate(rows):
        _row(draw, row_top(i), row, most)
    for k, note in enumerate(notes):
        text(draw, (PAD, row_top(max(len(rows), 1)) + 6 + 20 * k), note, fit_size(note, WIDTH - 2 * PAD, 13), SECONDARY)
    return image


def _row(draw: ImageDraw.ImageDraw, top: int, row: Standing, most: int) -> None:
    if row.rank % 2 == 0:
        draw.rectangle((0, top, WIDTH, top + ROW - 1), fill=WHITE)
    ink = SECONDARY if row.dropped else INK
    middle = top + ROW / 2
    text(draw, (RANK_RIGHT, middle), ("=" if row.tied else "") + str(row.rank), 18, ink, "rm")
    size = fit_size(row.name, NAME_WIDTH, 17)
    text(draw, (NAME_X, top + 4), row.name, size, ink)
    if row.dropped:
        strike = top + 4 + size * 0.62
        draw.line([(NAME_X, strike), (NAME_X + text_width(row.name, size), strike)], fill=INK, width=2)
    rank = row.title + (" · prize" if row.prize else "") + (" · dropped" if row.dropped else "")
    text(draw, (NAME_X, top + 24), rank, fit_size(rank, NAME_WIDTH, 12), SECONDARY)
    text(draw, (BP_RIGHT, middle), str(row.battle_points), 18, ink, "rm")
    length = bar_length(row.battle_points, most)
    if length:
        draw.rectangle((BAR_X, middle - BAR_HEIGHT / 2, BAR_X + length - 1, middle + BAR_HEIGHT / 2), fill=BAR)
    text(draw, (TIEBREAK_RIGHT, middle), str(row.tiebreak) + ("*" if row.provisional else ""), 18, ink, "rm")


def render_standings(title: str, rows: Sequence[Standing], tiebreak_short: str = "FP", subtitle: str = "") -> bytes:
    """PNG of the standings rows, best first (same rows, same bytes)."""
    return encode(standings_image(title, rows, tiebreak_short, subtitle))
