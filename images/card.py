"""A card picture for the rules lookup: name, kind and timing, text, facts and rulings.

Pure: the same card gives the same bytes. Drawn in the board pictures' palette and font,
550 px wide so it reads on a phone; the kind is written out, never shown by colour alone.
"""
from __future__ import annotations

import textwrap

from PIL import Image, ImageDraw

from engine.glossary.cards import CardInfo
from images.style import ATTACK_MARK, COVER, DIM_INK, INK, MOVE_MARK, MUTED, PAPER, RULE, WHITE, encode, fit_size, text

WIDTH = 550
PAD = 20
BAND = 58
LINE = 24
SMALL_LINE = 20
WRAP = 52
KIND_COLOURS = {"interrupt": ATTACK_MARK, "equipment": COVER, "mission": MOVE_MARK, "core": MOVE_MARK}


def _lines(card: CardInfo) -> list[tuple[str, int, tuple]]:
    """(text, size, colour) of each line under the band."""
    lines: list[tuple[str, int, tuple]] = []
    meta = [card.kind.capitalize()]
    if card.timing:
        meta.append(card.timing)
    if card.points is not None:
        meta.append(f"{card.points} point{'s' if card.points != 1 else ''}")
    if card.supply > 1:
        meta.append(f"up to {card.supply} in a deck")
    lines.append((" · ".join(meta), 16, MUTED))
    if card.keywords:
        lines.append(("Keywords: " + ", ".join(card.keywords), 16, MUTED))
    lines.append(("", 8, INK))
    for paragraph in (card.text, *card.facts):
        lines += [(row, 19, INK) for row in textwrap.wrap(paragraph, WRAP)]
    if card.rulings:
        lines.append(("", 8, INK))
        lines.append(("Rulings: " + ", ".join(card.rulings), 16, DIM_INK))
    return lines


def render_card(card: CardInfo) -> bytes:
    """The card as a PNG."""
    lines = _lines(card)
    height = BAND + PAD + sum(LINE if size > 17 else SMALL_LINE for _, size, _ in lines) + PAD
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    band = KIND_COLOURS.get(card.kind, INK)
    draw.rectangle((0, 0, WIDTH, BAND), fill=band)
    title_ink = WHITE if band == INK else INK
    text(draw, (PAD, BAND / 2), card.name, fit_size(card.name, WIDTH - 2 * PAD - 120, 26), title_ink, "lm")
    text(draw, (WIDTH - PAD, BAND / 2), card.code, fit_size(card.code, 160, 14), title_ink, "rm")
    y = BAND + PAD
    for row, size, colour in lines:
        step = LINE if size > 17 else SMALL_LINE
        if row:
            text(draw, (PAD, y + step / 2), row, size, colour, "lm")
        y += step
    draw.rectangle((0, 0, WIDTH - 1, height - 1), outline=RULE, width=2)
    return encode(image)
