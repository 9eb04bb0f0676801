"""The Renegades orbital board: planets, terrain, ships with their facing, the acting ship's
lines of fire, and the last moves and attacks highlighted.

The static layer (space, grid, nebula, hulks, planets, coordinates) depends only on the
pack, so it is drawn once and copied for every snapshot. A ship is its faction's shape
and colour with a short label and a white nose on the side it faces; the squares its
weapons reach are ringed in yellow, so range reads without colour too.
"""
from __future__ import annotations

import functools
import math
from typing import Optional

import msgspec
from PIL import Image, ImageDraw

from engine.renegades.contents.board import DELTA, OrbitBoard, layout_key, orbit_of
from engine.renegades.contents.content import xy_cell
from engine.renegades.contents.state import Ship
from images import marks
from images.style import (GREY, HAZARD, INK, MUTED, PAPER, STYLES, VOID, WHITE, blend, centred_text, digest,
                          draw_shape, encode, fit_size, ink_on, pen, stamp, text, to_palette, washed)
from images.grid import GridFrame
from images.tokens import unique_labels

CELL = 44
MARGIN = 30
FOOTER = 104
SPACE = VOID
GRID = blend(WHITE, VOID, 0.75)  # one of the palette's exact anti-aliasing steps
NEBULA = GRID  # obstructed squares are filled in the grid's colour and marked with waves
HULK = GREY
# (colour, shape) per faction: shape and label tell them apart without colour
FACTION_STYLES = {
    "renegade": STYLES[1],   # vermilion square
    "coalition": STYLES[0],  # blue circle
    "syphon": STYLES[2],     # green diamond
    "zurathi": STYLES[3],    # purple hexagon
    "dregg": STYLES[5],      # sky-blue octagon
}
FACTION_NAMES = {"renegade": "Renegade", "coalition": "Coalition", "syphon": "Syphon", "zurathi": "Zurathi",
                 "dregg": "Dregg"}


def ships_of(view: dict) -> dict[str, dict]:
    """The view's ships with every field filled in (a view leaves out fields at their defaults)."""
    return {code: msgspec.structs.asdict(msgspec.convert(ship, Ship)) for code, ship in view.get("ships", {}).items()}


def style_of(ship: dict) -> tuple[tuple[int, int, int], str]:
    """A ship's (colour, shape) by faction."""
    return FACTION_STYLES.get(ship.get("faction"), (GREY, "circle"))


def ship_labels(ships: dict[str, dict]) -> dict[str, str]:
    """Ship id -> a short unique label: 'KESTREL' -> 'KES', fighter 'DREGG-4' -> 'D4'."""
    bases = {}
    for code in ships:
        head, _, number = code.partition("-")
        bases[code] = f"{head[0]}{number}" if number else code[:3]
    return unique_labels(bases)


@functools.lru_cache(maxsize=8)
def static_layer(pack_path: str, layout: tuple = ()) -> tuple[Image.Image, GridFrame]:
    """The orbital board without ships or highlights, drawn once per pack."""
    board = orbit_of(pack_path, layout)
    frame = GridFrame(board.width, board.height, CELL, MARGIN, FOOTER)
    image = Image.new("RGB", frame.size, SPACE)
    draw = ImageDraw.Draw(image)
    for y in range(board.height):
        for x in range(board.width):
            square = xy_cell(x, y)
            left, top, right, bottom = frame.box(square)
            if square in board.obstructed:
                draw.rectangle((left, top, right, bottom), fill=NEBULA)
                for k in (0.3, 0.62):
                    _wave(draw, left + 6, right - 6, top + frame.cell * k, MUTED)
            elif square in board.blocking and square not in board.planet_of:
                draw.rectangle((left + 3, top + 3, right - 3, bottom - 3), fill=HULK, outline=INK, width=2)
                draw.line([(left + 9, top + 9), (right - 9, bottom - 9)], fill=INK, width=3)
                draw.line([(left + 9, bottom - 9), (right - 9, top + 9)], fill=INK, width=3)
            draw.rectangle((left, top, right, bottom), outline=GRID, width=1)
    for planet in board.planets.values():
        _planet(draw, frame, planet)
    _axes(draw, board, frame)
    draw.rectangle((0, frame.size[1] - FOOTER, frame.size[0], frame.size[1]), fill=PAPER)
    return to_palette(image), frame


def _wave(draw, x0: float, x1: float, y: float, colour) -> None:
    """A short wavy line: the nebula's mark, so obstructed squares read without colour."""
    step = (x1 - x0) / 6
    points = [(x0 + i * step, y + (3 if i % 2 else -3)) for i in range(7)]
    draw.line(points, fill=colour, width=2, joint="curve")


def _planet(draw, frame: GridFrame, planet) -> None:
    """A planet spans its squares as one rounded body with its name; a home is tinted in its
    faction's colour and outlined in ink, the mission planet is yellow and ringed in yellow."""
    boxes = [frame.box(c) for c in planet.cells]
    left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
    right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
    colour = FACTION_STYLES[planet.home][0] if planet.home else HAZARD
    fill = washed(colour)
    draw.rounded_rectangle((left + 2, top + 2, right - 2, bottom - 2), radius=frame.cell // 2, fill=fill,
                           outline=INK if planet.home else HAZARD, width=3)
    name = planet.name.upper()
    vertical = bottom - top > right - left
    if vertical:
        for i, word in enumerate(name.split()):
            size = fit_size(word, right - left - 12, 12)
            centred_text(draw, ((left + right) / 2, (top + bottom) / 2 + (i - 0.5 * (len(name.split()) - 1)) * 14),
                         word, size, ink_on(fill))
    else:  # only across the middle square: docked ships sit on the end squares
        centred_text(draw, ((left + right) / 2, (top + bottom) / 2), name, fit_size(name, frame.cell + 6, 15),
                     ink_on(fill))


def _axes(draw, board: OrbitBoard, frame: GridFrame) -> None:
    """Column letters above and below, row numbers left and right, as commands name squares."""
    bottom = MARGIN + board.height * frame.cell
    right = MARGIN + board.width * frame.cell
    for x in range(board.width):
        letter = xy_cell(x, 0)[0]
        cx = MARGIN + (x + 0.5) * frame.cell
        centred_text(draw, (cx, MARGIN / 2), letter, 18, WHITE)
        centred_text(draw, (cx, bottom + MARGIN / 2), letter, 18, WHITE)
    for y in range(board.height):
        cy = MARGIN + (y + 0.5) * frame.cell
        centred_text(draw, (MARGIN / 2, cy), str(y + 1), 16, WHITE)
        centred_text(draw, (right + MARGIN / 2, cy), str(y + 1), 16, WHITE)


# --- what moves ----------------------------------------------------------------------
def positions_before(view: dict, events: list[dict]) -> list[tuple[dict, dict[str, Optional[str]]]]:
    """Each event with the ships' squares just before it, found by walking back from the
    view's squares through the events (a docked ship has no square)."""
    where = {code: ship.get("cell") for code, ship in view.get("ships", {}).items()}
    before = []
    for event in reversed(events):
        kind, ship = event["type"], event.get("ship")
        if kind == "ship_moved" and event.get("path"):
            where[ship] = event["path"][0]
        elif kind == "descended":
            where[ship] = event.get("cell")
        elif kind == "ascended":
            where[ship] = None
        elif kind == "fighter_destroyed":
            where[ship] = event.get("cell")
        elif kind == "fighters_arrive":
            for code in event.get("fighters", []):
                where[code] = None
        before.append((event, dict(where)))
    before.reverse()
    return before


def range_squares(view: dict, board: OrbitBoard) -> dict[str, bool]:
    """The squares the acting ship's weapons reach now (its three lines of fire within its
    range), each with whether the line is obstructed there; {} when no ship is acting."""
    current = view.get("current") or {}
    ship = view.get("ships", {}).get(current.get("ship"))
    if ship is None or not ship.get("cell"):
        return {}
    ship = msgspec.convert(ship, Ship)
    found: dict[str, bool] = {}
    for line in board.fire_lines(ship.cell, ship.facing, ship.range):
        for square, crossed in line:
            found[square] = found.get(square, True) and crossed
    return found


def ship_spot(frame: GridFrame, board: OrbitBoard, view: dict, code: str) -> Optional[tuple[float, float, float]]:
    """(cx, cy, r) of a ship's token: on its square, or on its planet's squares when docked."""
    ship = view["ships"][code]
    if ship.get("cell"):
        cx, cy = frame.centre(ship["cell"])
        return cx, cy, frame.cell * 0.4
    planet = board.planets.get(ship.get("docked") or "")
    if planet is None:
        return None
    docked = sorted(c for c, s in view["ships"].items() if s.get("docked") == planet.code and not s.get("cell"))
    ends = [planet.cells[0], planet.cells[-1]] + list(planet.cells[1:-1])  # the name is in the middle
    square = ends[docked.index(code) % len(ends)]
    cx, cy = frame.centre(square)
    return cx, cy, frame.cell * 0.28


def draw_ship(draw, cx: float, cy: float, r: float, ship: dict, label: str, acting: bool = False) -> None:
    """A ship token: faction shape and colour, a white nose towards its facing, its label;
    a ring when it is acting, a star when critically damaged, washed out when docked."""
    critical = ship.get("kind") == "ship" and ship.get("damage", 0) >= ship.get("shields", 0) + ship.get("hull", 0)
    key = ("ship", style_of(ship), bool(ship.get("cell")), ship.get("facing", "N"), critical, label, acting, r)
    stamp(draw, key, cx, cy, math.ceil(1.7 * r + 6),
          lambda d, x, y: _paint_ship(d, x, y, r, ship, label, acting, critical))


def _paint_ship(draw, cx: float, cy: float, r: float, ship: dict, label: str, acting: bool, critical: bool) -> None:
    colour, shape = style_of(ship)
    fill = washed(colour) if not ship.get("cell") else colour
    dx, dy = DELTA.get(ship.get("facing", "N"), (0, -1))
    length = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / length, dy / length
    tip = (cx + ux * r * 1.62, cy + uy * r * 1.62)
    wing = r * 0.55
    base = (cx + ux * r * 0.78, cy + uy * r * 0.78)
    nose = [tip, (base[0] - uy * wing, base[1] + ux * wing), (base[0] + uy * wing, base[1] - ux * wing)]
    if acting:
        draw.ellipse((cx - r * 1.45, cy - r * 1.45, cx + r * 1.45, cy + r * 1.45), outline=HAZARD, width=3)
    draw_shape(draw, shape, cx, cy, r + 2, INK)
    draw_shape(draw, shape, cx, cy, r, fill, outline=WHITE, width=2)
    draw.polygon(nose, fill=WHITE, outline=INK, width=2)
    centred_text(draw, (cx, cy), label, fit_size(label, int(r * 1.5), max(10, round(r * 0.95))), ink_on(fill))
    if critical:
        _star(draw, cx - r * 0.9, cy - r * 0.9, r * 0.42)


def _star(draw, x: float, y: float, s: float) -> None:
    points = [(x + (s if i % 2 == 0 else s * 0.5) * math.cos(math.radians(-90 + 36 * i)),
               y + (s if i % 2 == 0 else s * 0.5) * math.sin(math.radians(-90 + 36 * i))) for i in range(10)]
    draw.polygon(points, fill=HAZARD, outline=INK, width=1)


def _range_overlay(draw, frame: GridFrame, squares: dict[str, bool]) -> None:
    """Each square in reach: an inset yellow frame and a dot (a hollow dot past obstruction)."""
    for square, crossed in squares.items():
        left, top, right, bottom = frame.box(square)
        draw.rectangle((left + 3, top + 3, right - 3, bottom - 3), outline=HAZARD, width=2)
        cx, cy = frame.centre(square)
        r = frame.cell * 0.08
        if crossed:
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=HAZARD, width=2)
        else:
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=HAZARD)


def _planet_centre(frame: GridFrame, board: OrbitBoard, code: Optional[str]) -> Optional[tuple[float, float]]:
    planet = board.planets.get(code or "")
    if planet is None:
        return None
    points = [frame.centre(c) for c in planet.cells]
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


HIGHLIGHTED = ("ship_moved", "descended", "ascended", "fighter_destroyed", "fighters_arrive", "ship_attack")


def orbit_key(view: dict, events: list[dict] | tuple = ()) -> str:
    """A digest of what the orbital board draws: the board, ships, salvage, the acting ship
    and its actions left, the footer's counts and the ship events it highlights. The same
    key draws the same picture (the crew's doings on the surface leave it alone)."""
    current = view.get("current") or {}
    return digest({"pack": view["pack"], "layout": view.get("orbit_layout"), "ships": ships_of(view),
                   "salvage": view.get("salvage"), "acting": [current.get("ship"), current.get("actions_left")],
                   "players": view.get("players"), "result": view.get("result"), "round": view.get("round"),
                   "phase": view.get("phase"), "world": view.get("world_deck_count"),
                   "events": [e for e in events if e["type"] in HIGHLIGHTED]})


def render_orbit(view: dict, events: list[dict] | tuple = ()) -> bytes:
    """PNG of the orbital board for a public view, highlighting what `events` describe."""
    return encode(orbit_image(view, list(events)))


def orbit_image(view: dict, events: list[dict] | tuple = ()) -> Image.Image:
    """The orbital board as a Pillow image (see render_orbit)."""
    layout = layout_key(view.get("orbit_layout") or {})  # a board built from location cards (N124)
    board = orbit_of(view["pack"], layout)
    base, frame = static_layer(view["pack"], layout)
    image = base.copy()
    draw = pen(image)
    ships = ships_of(view)
    view = {**view, "ships": ships}
    labels = ship_labels(ships)
    for square in view.get("salvage", []):
        if square not in board.blocking:
            cx, cy = frame.centre(square)
            s = frame.cell * 0.14
            draw.polygon([(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)], fill=MUTED, outline=WHITE)
    _range_overlay(draw, frame, range_squares(view, board))
    targets = []
    for event, where in positions_before(view, list(events)):
        if event["type"] == "ship_moved" and event.get("path"):
            marks.path(draw, [frame.centre(s) for s in event["path"]], frame.cell, SPACE)
        elif event["type"] == "ship_attack":
            source = where.get(event["ship"])
            target = where.get(event["target"])
            a = frame.centre(source) if source else None
            b = frame.centre(target) if target else _planet_centre(frame, board, ships.get(event["target"], {})
                                                                   .get("docked"))
            if a and b:
                marks.attack_line(draw, a, b, frame.cell)
                targets.append(b)
    acting = (view.get("current") or {}).get("ship")
    for code in sorted(ships):
        spot = ship_spot(frame, board, view, code)
        if spot is not None:
            draw_ship(draw, *spot, ships[code], labels[code], acting=code == acting)
    for event in events:
        if event["type"] == "fighter_destroyed" and event.get("cell"):
            cx, cy = frame.centre(event["cell"])
            s = frame.cell * 0.3
            for sign in (1, -1):
                draw.line([(cx - s, cy - sign * s), (cx + s, cy + sign * s)], fill=INK, width=7)
                draw.line([(cx - s, cy - sign * s), (cx + s, cy + sign * s)], fill=HAZARD, width=3)
    for point in targets:
        marks.reticle(draw, point, frame.cell)
    _footer(draw, view, events, labels, frame)
    return image


def footer_lines(view: dict, events: list[dict], labels: dict[str, str]) -> list[str]:
    """Round, phase and world deck; who acts and with how many actions; the last actions."""
    names = {p["seat"]: p["name"] for p in view.get("players", [])}
    first = (f"Round {view.get('round', 1)} · {view.get('phase', 'orbital').capitalize()} phase · "
             f"{view.get('world_deck_count', 0)} world card(s) left")
    result = view.get("result")
    if result:
        first += f" · Game over: {result.get('outcome', 'ended')}"
    second = ""
    current = view.get("current")
    if current and not result:
        ship = view.get("ships", {}).get(current.get("ship"), {})
        left = current.get("actions_left", 2)
        who = names.get(ship.get("seat"), ship.get("seat") or "NPC")
        second = (f"{who}: {ship.get('name', current.get('ship'))} ({labels.get(current.get('ship'), '?')}) acts, "
                  f"{left} action{'s' if left != 1 else ''} left · yellow squares: its weapons' range "
                  f"{ship.get('range', 0)}")
    last = []
    for event in events:
        if event["type"] == "ship_moved" and event.get("path"):
            last.append(f"{labels.get(event['ship'], event['ship'])} moved {' > '.join(event['path'])}")
        elif event["type"] == "ship_attack":
            last.append(f"{labels.get(event['ship'], event['ship'])} fired on "
                        f"{labels.get(event['target'], event['target'])}: {event.get('damage', 0)} damage")
    return [first, second, ("Last: " + "; ".join(last)) if last else ""]


def _footer(draw, view: dict, events: list[dict], labels: dict[str, str], frame: GridFrame) -> None:
    width, height = frame.size
    top = height - FOOTER
    for i, line in enumerate(footer_lines(view, events, labels)):
        size = fit_size(line, width - 2 * MARGIN + 20, 19 if i == 0 else 17)
        text(draw, (MARGIN - 10, top + 20 + i * 30), line, size, INK if i < 2 else MUTED, "lm")
