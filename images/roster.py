"""The Renegades campaign roster as a picture: one card per player with the ship (damage,
components), each crewmember (flying next or in reserve, XP, wounds or unconscious,
training, turned), the brig, the armory and the purse.

A crewmember who flies the next mission has a solid dot, one in reserve a ring; injuries
are said in words (and an unconscious one is underlined in yellow), so nothing depends
on colour alone. A pure function of the campaign's view (`campaign.view_for`) and names.
"""
from __future__ import annotations

from PIL import Image, ImageDraw

from images.orbit import FACTION_NAMES, style_of
from images.style import HAZARD, INK, MUTED, PAPER, RULE, WHITE, draw_shape, encode, fit_size, text

WIDTH = 560
GAP = 14
HEADER = 40
LINE = 24
DOT = 6
NAME_X = 40


def _rows(captain: dict) -> int:
    return 1 + len(captain.get("crew", {})) + 2


def _card_height(captain: dict) -> int:
    return HEADER + LINE * _rows(captain) + GAP


def dot_centre(top: int, row: int) -> tuple[int, int]:
    """Where the flying/reserve dot of crew row `row` (0-based) of a card starting at `top` is."""
    return GAP + 20, int(top + HEADER + LINE * (row + 1) + LINE / 2)


def roster_image(view: dict, names: dict[str, str]) -> Image.Image:
    """The roster picture as a Pillow image (see render_roster)."""
    captains = view["captains"]
    height = GAP + LINE + sum(_card_height(c) for c in captains) + GAP
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    played = len(view.get("played", []))
    head = f"{names.get(view['title'], view['title'])}: mission {played} of {view['planned']} played"
    text(draw, (GAP, GAP + LINE / 2), head, fit_size(head, WIDTH - 2 * GAP, 19), INK, "lm")
    top = GAP + LINE
    for captain in captains:
        _card(draw, top, captain, names)
        top += _card_height(captain)
    return image


def render_roster(view: dict, names: dict[str, str]) -> bytes:
    """PNG of the campaign roster as `view` shows it."""
    return encode(roster_image(view, names))


def _card(draw: ImageDraw.ImageDraw, top: int, captain: dict, names: dict[str, str]) -> None:
    colour, shape = style_of({"faction": captain["faction"]})
    draw.rounded_rectangle((GAP, top, WIDTH - GAP, top + HEADER - 6), radius=6, fill=INK)
    middle = top + (HEADER - 6) / 2
    draw_shape(draw, shape, GAP + 20, middle, 10, colour, outline=WHITE, width=2)
    head = (f"{captain['name']} · {names.get(captain['ship'], captain['ship'])} · "
            f"{FACTION_NAMES[captain['faction']]} · {captain.get('digits', 0)} digits · {captain.get('won', 0)} won")
    text(draw, (GAP + 38, middle), head, fit_size(head, WIDTH - 2 * GAP - 50, 19), WHITE, "lm")
    y = top + HEADER + LINE / 2
    fitted = ", ".join(names.get(u, u) for u in captain.get("ship_upgrades", [])) or "no components"
    damage = captain.get("ship_damage", 0)
    line = f"Ship: {fitted}" + (f" · {damage} damage" if damage else "")
    text(draw, (GAP + 8, y), line, fit_size(line, WIDTH - 2 * GAP - 16, 16), MUTED, "lm")
    flying = set(captain.get("flying", []))
    for row, (code, hand) in enumerate(captain.get("crew", {}).items()):
        cx, cy = dot_centre(top, row)
        draw.line([(GAP + 8, cy - LINE / 2), (WIDTH - GAP - 8, cy - LINE / 2)], fill=RULE, width=1)
        if code in flying:
            draw.ellipse((cx - DOT, cy - DOT, cx + DOT, cy + DOT), fill=INK)
        else:
            draw.ellipse((cx - DOT, cy - DOT, cx + DOT, cy + DOT), outline=INK, width=2)
        marks = [f"{hand.get('xp', 0)} XP"]
        if hand.get("ko"):
            marks.append("UNCONSCIOUS")
        elif hand.get("wounds"):
            marks.append(f"{hand['wounds']} wounds")
        marks += [names.get(u, u) for u in hand.get("upgrades", [])]
        if hand.get("turned_from"):
            marks.append(f"turned from {FACTION_NAMES[hand['turned_from']]}")
        line = f"{hand['name']} · " + " · ".join(marks)
        size = fit_size(line, WIDTH - 2 * GAP - NAME_X - 8, 17)
        text(draw, (GAP + NAME_X, cy), line, size, INK, "lm")
        if hand.get("ko"):
            draw.rectangle((GAP + NAME_X, cy + 9, WIDTH - GAP - 8, cy + 11), fill=HAZARD)
    y = top + HEADER + LINE * (_rows(captain) - 1) - LINE / 2
    brig = ", ".join(names.get(p, p) for p in captain.get("brig", {})) or "empty"
    text(draw, (GAP + 8, y), f"Brig: {brig}", fit_size(f"Brig: {brig}", WIDTH - 2 * GAP - 16, 16), MUTED, "lm")
    armory = "Armory: " + (", ".join(names.get(g, g) for g in captain.get("armory", [])) or "empty")
    text(draw, (GAP + 8, y + LINE), armory, fit_size(armory, WIDTH - 2 * GAP - 16, 16), MUTED, "lm")
