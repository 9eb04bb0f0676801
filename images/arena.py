"""The Arena's dice board: the last roll on eight-sided attack dice, then both away teams.

Each die is an octagon showing its face as a symbol and a word (HIT, CRIT, BATTLE
STATIONS, blank), so colour is never the only cue; hits and critical hits are drawn in
Okabe-Ito vermilion. Below, each player's captains: skill, damage boxes (one per skill
point, filled per damage), raw-materials tokens, on the planet or not; a destroyed
captain is struck through, and the captain whose attack comes next is marked with an arrow.
"""
from __future__ import annotations

import math
from typing import Optional

from PIL import Image, ImageDraw

from engine.league.arena import Battle, Captain
from images.style import INK, MUTED, PAPER, STYLES, WHITE, encode, fit_size, polygon_points, text, text_width

WIDTH = 640
PAD = 16
HEADER = 56
DIE_R = 30
DIE_ROW = 104
CAPTAIN_ROW = 46
HIT = STYLES[1][0]  # Okabe-Ito vermilion
LABELS = {"hit": "HIT", "critical": "CRIT", "battle stations": "BATTLE STN", "blank": "blank"}


def last_roll(events: list[dict]) -> Optional[dict]:
    """The last dice rolled among an action's events."""
    return next((e for e in reversed(events) if e.get("type") == "rolled"), None)


def _star(cx: float, cy: float, outer: float, inner: float, points: int = 4) -> list[tuple[float, float]]:
    corners = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        angle = math.radians(-90 + 180 * i / points)
        corners.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    return corners


def draw_attack_die(draw: ImageDraw.ImageDraw, cx: float, cy: float, face: str) -> None:
    """One attack die: an octagon with the face's symbol, its word beneath."""
    scoring = face in ("hit", "critical")
    draw.polygon(polygon_points("octagon", cx, cy, DIE_R), fill=HIT if scoring else WHITE, outline=INK, width=2)
    mark = WHITE if scoring else INK
    if face == "hit":
        draw.polygon(_star(cx, cy, DIE_R * 0.62, DIE_R * 0.2), fill=mark)
    elif face == "critical":
        draw.polygon(_star(cx, cy, DIE_R * 0.66, DIE_R * 0.22, points=6), fill=mark)
        draw.ellipse((cx - 5, cy - 5, cx + 5, cy + 5), fill=HIT)
    elif face == "battle stations":
        for dy in (-7, 5):  # two chevrons
            draw.line([(cx - 12, cy + dy + 6), (cx, cy + dy - 4), (cx + 12, cy + dy + 6)], fill=mark, width=4)
    label = LABELS[face]
    text(draw, (cx, cy + DIE_R + 12), label, fit_size(label, 2 * DIE_R + 12, 12), INK, "mm")


def arena_image(battle: Battle, events: list[dict], names: dict[str, str], title: str = "The Arena") -> Image.Image:
    """The picture as a Pillow image (see render_arena)."""
    roll = last_roll(events)
    fleets = [battle.fleet(p, alive=False) for p in battle.players]
    rows = max(len(f) for f in fleets)
    top = HEADER + (DIE_ROW if roll else 0)
    image = Image.new("RGB", (WIDTH, top + 30 + rows * CAPTAIN_ROW + PAD), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, HEADER - 8), fill=INK)
    text(draw, (PAD, 8), title, fit_size(title, WIDTH - 2 * PAD, 22), WHITE)
    stage = {"space": f"Round {battle.round}: {battle.mission_tokens} mission token(s) left, "
                      f"{battle.supply} raw materials in the pile",
             "battle": f"Captains' Battle, pass {battle.pass_number}",
             "over": f"Captains' Battle over: {names.get(battle.result.winner, '') if battle.result else ''} wins"}
    subtitle = stage[battle.phase]
    text(draw, (PAD, 34), subtitle, fit_size(subtitle, WIDTH - 2 * PAD, 13), WHITE)
    if roll:
        caption = f"{roll['captain']}: " + (f"{roll['damage']} damage" if "damage" in roll else "raw materials")
        text(draw, (PAD, HEADER + 2), caption, 14, INK)
        step = min(2 * DIE_R + 14, (WIDTH - 2 * PAD) / max(len(roll["faces"]), 1))
        for i, face in enumerate(roll["faces"]):
            draw_attack_die(draw, PAD + DIE_R + i * step, HEADER + 22 + DIE_R, face)
    attacker = battle.pending[0].options[0] if battle.pending and battle.pending[0].kind == "attack" else None
    half = WIDTH // 2
    for column, (player, fleet) in enumerate(zip(battle.players, fleets)):
        x = PAD + column * half
        label = names.get(player, player) + (" (initiative)" if player == battle.initiative else "")
        text(draw, (x, top + 4), label, fit_size(label, half - 2 * PAD, 15), INK)
        for i, captain in enumerate(fleet):
            _captain(draw, x, top + 30 + i * CAPTAIN_ROW, half - 2 * PAD, captain, captain.name == attacker)
    return image


def _captain(draw: ImageDraw.ImageDraw, x: int, y: int, width: int, captain: Captain, next_up: bool) -> None:
    ink = MUTED if captain.destroyed else INK
    if next_up:
        draw.polygon([(x, y + 4), (x + 10, y + 11), (x, y + 18)], fill=INK)
    name = f"{captain.name} ({captain.skill})"
    size = fit_size(name, width - 120, 16)
    text(draw, (x + 16, y + 2), name, size, ink)
    if captain.destroyed:
        strike = y + 2 + size * 0.62
        draw.line([(x + 16, strike), (x + 16 + text_width(name, size), strike)], fill=INK, width=2)
    where = "destroyed" if captain.destroyed else ("on the planet" if captain.away else "aboard ship")
    status = f"{where} · {captain.materials} raw materials"
    text(draw, (x + 16, y + 22), status, fit_size(status, width - 16, 12), MUTED)
    box = 10
    for k in range(captain.skill):
        left = x + width - captain.skill * (box + 3) + k * (box + 3)
        filled = k < captain.damage
        draw.rectangle((left, y + 6, left + box, y + 6 + box), fill=HIT if filled else WHITE, outline=INK)


def render_arena(battle: Battle, events: list[dict], names: dict[str, str], title: str = "The Arena") -> bytes:
    """PNG of the last roll and both away teams (same state and events, same bytes)."""
    return encode(arena_image(battle, events, names, title))
