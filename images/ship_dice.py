"""The dice board of Renegades ship combat: for each attack in the events, the red
attack dice and the black defense dice as the engine rolled them, and the outcome.

Red dice that hit (4 or more after bonuses) are ringed, misses are dimmed and struck
through, a die a station bonus raised says so, a penetrating die (7 or more) is tagged
(PEN) as one no black die can block, and black dice the obstruction re-rolled are marked.
Every mark is a shape or a word as well as a colour.
"""
from __future__ import annotations

from typing import Optional

from PIL import Image

from images.dice import draw_die
from images.orbit import ships_of
from images.style import INK, MUTED, PAPER, STYLES, WHITE, canvas, centred_text, digest, encode, fit_size, pen, text

WIDTH = 600
DIE = 46
STEP = 56
FIRST_X = 150
RED = STYLES[1][0]  # vermilion
BLACK = INK
TITLE = 46
ROW = 84
HIT = 4  # a red die of 4 or more hits
PENETRATING = 7  # a red die of 7 or more cannot be blocked


def attacks(events: list[dict]) -> list[dict]:
    """The ship attacks among `events`, in order."""
    return [e for e in events if e["type"] == "ship_attack"]


def ship_dice_key(view: dict, events: list[dict]) -> Optional[str]:
    """A digest of what the ship dice board of `events` draws (None when nothing fired): each
    attack as rolled and the names of the ships in it. The same key draws the same picture."""
    found = attacks(events)
    if not found:
        return None
    ships = ships_of(view)
    names = {code: _name(ships, code) for attack in found for code in (attack["ship"], attack["target"])}
    return digest({"attacks": found, "names": names})


def render_ship_dice(view: dict, events: list[dict]) -> Optional[bytes]:
    """PNG of the dice of every ship attack in `events` (None when nothing fired)."""
    image = ship_dice_image(view, events)
    return None if image is None else encode(image)


def ship_dice_image(view: dict, events: list[dict]) -> Optional[Image.Image]:
    """The ship-combat dice board as a Pillow image (see render_ship_dice)."""
    found = attacks(events)
    if not found:
        return None
    ships = ships_of(view)
    height = sum(_block_height(a) for a in found) + 10
    image = canvas((WIDTH, height), PAPER)
    draw = pen(image)
    top = 0
    for attack in found:
        _block(draw, top, attack, ships)
        top += _block_height(attack)
    return image


def _block_height(attack: dict) -> int:
    return TITLE + 2 * ROW + 2 * 28 + 14


def _name(ships: dict, code: str) -> str:
    ship = ships.get(code, {})
    name = ship.get("name") or code.title()
    return f"{name} {code}" if ship.get("kind") == "fighter" else name


def outcome_lines(attack: dict, ships: dict) -> list[str]:
    """The attack's result in words."""
    hits, blocked, damage = attack.get("hits", 0), attack.get("blocked", 0), attack.get("damage", 0)
    target = _name(ships, attack["target"])
    first = "No hits." if hits == 0 else (
        f"{hits} hit{'s' if hits != 1 else ''}"
        + (f" ({attack['penetrating']} penetrating)" if attack.get("penetrating") else "")
        + f", {blocked} blocked: {damage} damage to the {target}.")
    second = ("Obstructed line: the defender re-rolled dice that blocked nothing."
              if attack.get("obstructed") else "Clear line of fire.")
    return [first, second]


def _block(draw, top: int, attack: dict, ships: dict) -> None:
    title = f"{_name(ships, attack['ship'])} fires on the {_name(ships, attack['target'])}"
    draw.rectangle((0, top, WIDTH, top + TITLE - 6), fill=INK)
    centred_text(draw, (WIDTH / 2, top + (TITLE - 6) / 2), title, fit_size(title, WIDTH - 30, 24), WHITE)
    red_row = top + TITLE + ROW / 2 - 8
    black_row = red_row + ROW
    text(draw, (16, red_row - 9), "RED", 20, INK, "lm")
    text(draw, (16, red_row + 13), "attack", 15, MUTED, "lm")
    text(draw, (16, black_row - 9), "BLACK", 20, INK, "lm")
    text(draw, (16, black_row + 13), "defense", 15, MUTED, "lm")
    rolled = attack.get("dice", [])
    after = attack.get("attack", rolled)
    red = sorted(zip(after, rolled), key=lambda pair: -pair[0])
    for i, (face, raw) in enumerate(red):
        x = FIRST_X + i * STEP
        draw_die(draw, x, red_row, DIE, face, RED, dim=face < HIT, ring=face >= HIT)
        tag = "PEN" if face >= PENETRATING else (f"+{face - raw}" if face != raw else "")
        if tag:
            centred_text(draw, (x, red_row + DIE / 2 + 13), tag, 14, INK)
    rerolled = set(attack.get("rerolled", []))
    black = sorted(enumerate(attack.get("defense", [])), key=lambda pair: -pair[1])
    for i, (index, face) in enumerate(black):
        x = FIRST_X + i * STEP
        draw_die(draw, x, black_row, DIE, face, BLACK)
        if index in rerolled:
            centred_text(draw, (x, black_row + DIE / 2 + 13), "re-rolled", 13, INK)
    if not black:
        text(draw, (FIRST_X - DIE / 2, black_row), "none: no hits to block", 16, MUTED, "lm")
    y = black_row + ROW / 2 + 6
    for k, line in enumerate(outcome_lines(attack, ships)):
        text(draw, (16, y + k * 28), line, fit_size(line, WIDTH - 32, 20 if k == 0 else 16), INK if k == 0 else MUTED)
