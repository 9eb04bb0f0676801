"""The Renegades planet surface: the 12x12 board with its tiles and terrain, the docks and
the ships docked there, the crew of both sides, the NPC figures, the shut containers, the
mission parameter, and the last moves and attacks highlighted.

Everything is drawn from the public view's `surface` (see "The view" in docs/renegades.md),
never from a container's contents. A crewmember is its faction's shape and colour (Renegade
vermilion square, Coalition blue circle, as on the orbital board) with a short label; an
NPC figure is dark with a white label, its shape telling its rank. Every mark has a shape
as well as a colour: a hidden crewmember is washed out inside a dashed ring, an unconscious
one shrinks into its square's corner under a cross, a shut container is a crossed box, the
mission parameter a yellow star.
"""
from __future__ import annotations

import functools
import math
from typing import Iterable, Optional

from PIL import Image, ImageDraw

from engine.renegades.contents.content import cell_xy, xy_cell
from images.style import (ATTACK_MARK, COVER, CORRIDOR_FLOOR, FLOOR, GREY, HAZARD, INK, MOVE_MARK, MUTED, PAPER,
                          VOID, WHITE, blend, centred_text, dashed_line, digest, draw_shape, encode,
                          fit_size,
                          ink_on, pen, text, text_width, to_palette, washed)
from images import marks
from images.orbit import FACTION_STYLES
from images.grid import GridFrame
from images.tokens import short_labels, unique_labels

CELL = 42
MARGIN = 26
LINE = 24
FOOTER = 7 * LINE + 14
LAST_SIZE = 13  # the smallest size of the line of last actions
TOKEN = 0.36  # a standing piece's radius, in squares
WALL_MARK = GREY
ROCK = MUTED
# an NPC figure's shape by rank; every figure is dark with a white label
RANK_SHAPES = {"commander": "hexagon", "warrior": "octagon", "creature": "triangle", "drone": "diamond"}
FIGURE = INK
LEGEND = ["Square: Renegade crew · circle: Coalition crew · dark: NPC figure (yellow rim: on guard)",
          "Crossed box: shut container · star: mission parameter · dashed ring: hidden · cross: unconscious",
          "Yellow rim: raised ground · orange rim: sunken · bars: steps · LOW: no giants · dashed sill: doorway"]


# --- the board without pieces ----------------------------------------------------------------------
def _terrain_key(surface: dict) -> tuple:
    """What the static layer depends on, hashable."""
    tiles = tuple((t["code"], t["name"] + (" · low" if t.get("ceiling") == "low" else ""), t["from"], t["to"])
                  for t in surface.get("tiles", []))
    levels = tuple(tuple(surface.get(key, [])) for key in ("elevated", "sunken", "steps", "base"))
    return (surface["width"], surface["height"], tuple(surface.get("blocking", [])),
            tuple(surface.get("obstructed", [])), tuple(surface.get("water", [])), tuple(surface.get("docks", [])),
            tiles, levels, tuple(surface.get("doorways", [])))


@functools.lru_cache(maxsize=8)
def static_layer(key: tuple) -> tuple[Image.Image, GridFrame]:
    """The surface board without pieces or highlights, drawn once per terrain."""
    width, height, blocking, obstructed, water, docks, tiles, (elevated, sunken, steps, base), doorways = key
    frame = GridFrame(width, height, CELL, MARGIN, FOOTER)
    image = Image.new("RGB", frame.size, VOID)
    draw = ImageDraw.Draw(image)
    tile_of = {}
    for index, (code, name, start, end) in enumerate(tiles):
        (x0, y0), (x1, y1) = cell_xy(start), cell_xy(end)
        for y in range(min(y0, y1), max(y0, y1) + 1):
            for x in range(min(x0, x1), max(x0, x1) + 1):
                tile_of[xy_cell(x, y)] = index
    for y in range(height):
        for x in range(width):
            square = xy_cell(x, y)
            left, top, right, bottom = frame.box(square)
            index = tile_of.get(square, 0)
            draw.rectangle((left, top, right, bottom), fill=CORRIDOR_FLOOR if index % 2 else FLOOR)
            if square in blocking:
                _wall(draw, frame, square)
            elif square in water:
                _water(draw, frame, square)
            elif square in obstructed:
                _rocks(draw, frame, square)
            elif square in elevated or square in sunken:
                _level(draw, frame, square, square in elevated, square in steps)
            draw.rectangle((left, top, right, bottom), outline=blend(FLOOR, INK, 0.25), width=1)
    for square in base:  # tier 3's run: the employer's base (N172), a white double frame
        left, top, right, bottom = frame.box(square)
        draw.rectangle((left + 3, top + 3, right - 3, bottom - 3), outline=WHITE, width=3)
        draw.rectangle((left + 8, top + 8, right - 8, bottom - 8), outline=WHITE, width=1)
    for square in doorways:
        _doorway(draw, frame, square, blocking)
    for square in docks:
        left, top, right, bottom = frame.box(square)
        draw.rectangle((left + 2, top + 2, right - 2, bottom - 2), outline=HAZARD, width=4)
        draw.rectangle((left + 5, top + 5, right - 5, bottom - 5), outline=INK, width=1)
    _tile_edges(draw, frame, tile_of)
    for code, name, start, end in tiles:
        _tile_name(draw, frame, name, start, end)
    _axes(draw, frame)
    draw.rectangle((0, frame.size[1] - FOOTER, frame.size[0], frame.size[1]), fill=PAPER)
    return to_palette(image), frame


def _wall(draw, frame: GridFrame, square: str) -> None:
    """Blocking terrain: a dark block with diagonal hatching."""
    left, top, right, bottom = frame.box(square)
    draw.rectangle((left, top, right, bottom), fill=VOID)
    for k in range(-frame.cell, frame.cell, 10):
        draw.line([(left + max(0, k), top + max(0, -k)), (left + min(frame.cell, frame.cell + k),
                                                          top + min(frame.cell, frame.cell - k))],
                  fill=WALL_MARK, width=1)


def _doorway(draw, frame: GridFrame, square: str, blocking: tuple) -> None:
    """A doorway (N161): wall stubs on the sides it is set in and a dashed sill along the
    wall's line, open to walk through, closed to shots and scans."""
    left, top, right, bottom = frame.box(square)
    x, y = cell_xy(square)
    across = xy_cell(x, y - 1) in blocking and xy_cell(x, y + 1) in blocking  # the wall runs north-south
    stub = frame.cell * 0.22
    mid_x, mid_y = (left + right) / 2, (top + bottom) / 2
    if across:
        draw.rectangle((mid_x - 4, top, mid_x + 4, top + stub), fill=VOID)
        draw.rectangle((mid_x - 4, bottom - stub, mid_x + 4, bottom), fill=VOID)
        dashed_line(draw, (mid_x, top + stub), (mid_x, bottom - stub), VOID, 2, 4, 3)
    else:
        draw.rectangle((left, mid_y - 4, left + stub, mid_y + 4), fill=VOID)
        draw.rectangle((right - stub, mid_y - 4, right, mid_y + 4), fill=VOID)
        dashed_line(draw, (left + stub, mid_y), (right - stub, mid_y), VOID, 2, 4, 3)


def _water(draw, frame: GridFrame, square: str) -> None:
    """Water: sky blue with white waves."""
    left, top, right, bottom = frame.box(square)
    draw.rectangle((left, top, right, bottom), fill=COVER)
    for k in (0.32, 0.68):
        _wave(draw, left + 6, right - 6, top + frame.cell * k, WHITE)


def _wave(draw, x0: float, x1: float, y: float, colour) -> None:
    step = (x1 - x0) / 6
    draw.line([(x0 + i * step, y + (3 if i % 2 else -3)) for i in range(7)], fill=colour, width=2, joint="curve")


def _level(draw, frame: GridFrame, square: str, raised: bool, steps: bool) -> None:
    """Raised ground: lighter with a yellow rim; sunken: darker with an orange rim (the
    rulebook's rim colours); steps: three bars across the square."""
    left, top, right, bottom = frame.box(square)
    fill, rim = (blend(FLOOR, WHITE, 0.55), HAZARD) if raised else (blend(FLOOR, INK, 0.35), MOVE_MARK)
    draw.rectangle((left, top, right, bottom), fill=fill)
    draw.rectangle((left + 2, top + 2, right - 2, bottom - 2), outline=rim, width=3)
    if steps:
        for k in (0.35, 0.5, 0.65):
            y = top + frame.cell * k
            draw.line([(left + 9, y), (right - 9, y)], fill=INK, width=2)


def _rocks(draw, frame: GridFrame, square: str) -> None:
    """Obstructed terrain: three small rocks."""
    left, top, _, _ = frame.box(square)
    c = frame.cell
    for fx, fy, s in ((0.28, 0.35, 0.13), (0.68, 0.3, 0.1), (0.5, 0.72, 0.15)):
        x, y, r = left + c * fx, top + c * fy, c * s
        draw.polygon([(x - r, y + r * 0.7), (x - r * 0.3, y - r), (x + r * 0.5, y - r * 0.6), (x + r, y + r * 0.7)],
                     fill=ROCK, outline=INK, width=1)


def _tile_edges(draw, frame: GridFrame, tile_of: dict) -> None:
    """A thick line where one tile meets another."""
    for square, index in tile_of.items():
        x, y = cell_xy(square)
        left, top, right, bottom = frame.box(square)
        east, south = xy_cell(x + 1, y), xy_cell(x, y + 1)
        if east in tile_of and tile_of[east] != index:
            draw.line([(right, top), (right, bottom)], fill=INK, width=3)
        if south in tile_of and tile_of[south] != index:
            draw.line([(left, bottom), (right, bottom)], fill=INK, width=3)


def _tile_name(draw, frame: GridFrame, name: str, start: str, end: str) -> None:
    """The tile's name on a small plate across the middle of its top edge."""
    (x0, y0), (x1, y1) = cell_xy(start), cell_xy(end)
    left, top = MARGIN + min(x0, x1) * frame.cell, MARGIN + min(y0, y1) * frame.cell
    span = (abs(x1 - x0) + 1) * frame.cell
    label = name.upper()
    size = fit_size(label, span - 16, 10, 8)
    half = text_width(label, size) / 2 + 4
    cx = left + span / 2
    draw.rectangle((cx - half, top + 1, cx + half, top + 13), fill=FLOOR, outline=MUTED, width=1)
    centred_text(draw, (cx, top + 7), label, size, INK)


def _axes(draw, frame: GridFrame) -> None:
    """Column letters above and below, row numbers left and right, as commands name squares."""
    right, bottom = MARGIN + frame.cols * frame.cell, MARGIN + frame.rows * frame.cell
    for x in range(frame.cols):
        cx = MARGIN + (x + 0.5) * frame.cell
        centred_text(draw, (cx, MARGIN / 2), xy_cell(x, 0)[0], 16, WHITE)
        centred_text(draw, (cx, bottom + MARGIN / 2), xy_cell(x, 0)[0], 16, WHITE)
    for y in range(frame.rows):
        cy = MARGIN + (y + 0.5) * frame.cell
        centred_text(draw, (MARGIN / 2, cy), str(y + 1), 14, WHITE)
        centred_text(draw, (right + MARGIN / 2, cy), str(y + 1), 14, WHITE)


# --- who is where ---------------------------------------------------------------------------------
def style_of(faction: Optional[str]) -> tuple[tuple[int, int, int], str]:
    """A crewmember's (colour, shape) by faction."""
    return FACTION_STYLES.get(faction or "", (GREY, "circle"))


def figure_labels(figures: dict[str, dict], taken: Iterable[str] = ()) -> dict[str, str]:
    """Figure id -> a short label with the number commands name it by: the initial of each
    word of its card and its number ('SYPHON-W1' -> 'SW1', 'DRONE3' -> 'D3'); a figure alone
    of its card keeps three letters ('VHORR' -> 'VHO'). A label already used (by the crew's
    `taken` or an earlier figure) is numbered on."""
    bases = {}
    for code in figures:
        stem = code.rstrip("0123456789")
        number = code[len(stem):]
        bases[code] = "".join(word[:1] for word in stem.split("-")) + number if number else stem.replace("-", "")[:3]
    return unique_labels(bases, set(taken))


def label_room(r: float, crew: bool) -> tuple[int, int]:
    """(width, largest font size) a token of radius `r` gives its label; a label fits when it
    is no wider than that at the font size `fit_size` picks."""
    return (int(r * 1.6), max(9, round(r * 0.8))) if crew else (int(r * 1.7), max(9, round(r * 0.7)))


def positions_before(surface: dict, events: list[dict]) -> list[tuple[dict, dict[str, Optional[str]]]]:
    """Each event with the crew's and figures' squares just before it, found by walking back
    from the view through the events (None: not on the board then, or not known)."""
    where = {code: c.get("cell") for code, c in surface.get("crew", {}).items()}
    where.update({code: f.get("cell") for code, f in surface.get("figures", {}).items()})
    before = []
    for event in reversed(events):
        kind = event["type"]
        if kind in ("crew_moved", "figure_moved") and event.get("path"):
            where[event.get("crew") or event.get("figure")] = event["path"][0]
        elif kind == "figure_defeated":
            where[event["figure"]] = event.get("cell")
        elif kind == "disembarked":
            where[event["crew"]] = None
        elif kind == "enemies_arrive":
            for code in event.get("figures", []):
                where[code] = None
        before.append((event, dict(where)))
    before.reverse()
    return before


def on_the_surface(view: dict) -> bool:
    """Whether the surface is worth a picture: the surface phase, or crew on it (figures
    alone, such as the guards set up with the mission, are not)."""
    return view.get("phase") == "surface" or bool((view.get("surface") or {}).get("crew"))


HIGHLIGHTED = ("crew_moved", "figure_moved", "figure_defeated", "disembarked", "enemies_arrive", "crew_attack",
               "trap", "grenade", "knocked_out", "opened", "dropped", "picked_up")


def surface_key(view: dict, events: list[dict] | tuple = ()) -> Optional[str]:
    """A digest of what the surface picture draws (None while it is not `on_the_surface`):
    the surface, the ships docked there, the footer's round, phase and acting party, and
    the events it highlights or lists."""
    if not on_the_surface(view):
        return None
    return digest({"surface": view["surface"], "ships": view.get("ships"), "players": view.get("players"),
                   "round": view.get("round"), "phase": view.get("phase"), "result": view.get("result"),
                   "current": view.get("current"), "events": [e for e in events if e["type"] in HIGHLIGHTED]})


def surface_image_in_play(view: dict, events: list[dict] | tuple = ()) -> Optional[Image.Image]:
    """The surface board while `on_the_surface` (see render_surface), else None."""
    return surface_image(view, list(events)) if on_the_surface(view) else None


# --- drawing ------------------------------------------------------------------------------------------
def render_surface(view: dict, events: list[dict] | tuple = ()) -> bytes:
    """PNG of the planet surface for a public view, highlighting what `events` describe."""
    return encode(surface_image(view, list(events)))


def surface_image(view: dict, events: list[dict] | tuple = ()) -> Image.Image:
    """The surface board as a Pillow image (see render_surface)."""
    events = list(events)
    surface = view["surface"]
    base, frame = static_layer(_terrain_key(surface))
    image = base.copy()
    draw = pen(image)
    ships = view.get("ships", {})
    for code, square in sorted(surface.get("docked", {}).items()):
        _docked_ship(draw, frame, square, code, ships.get(code, {}), len(surface.get("boarded", {}).get(code, [])))
    for square in surface.get("containers", []):
        _crate(draw, frame, square)
    for square, items in sorted(surface.get("dropped", {}).items()):
        _dropped(draw, frame, square, len(items))
    for square in surface.get("fires", []):
        _flames(draw, frame, square)
    crew = surface.get("crew", {})
    figures = surface.get("figures", {})
    labels = short_labels(crew)
    flabels = figure_labels(figures, labels.values())
    targets = _highlights(draw, frame, surface, events)
    figures = {code: f for code, f in figures.items() if not f.get("boarded")}  # aboard: counted at the dock
    standing = {c["cell"] for c in crew.values() if not c.get("ko")} | {f["cell"] for f in figures.values()}
    objective = surface.get("objective") or {}
    if objective.get("cell") and not objective.get("holder"):
        cx, cy = frame.centre(objective["cell"])
        occupied = objective["cell"] in standing
        if occupied:
            cx, cy = cx - frame.cell * 0.3, cy - frame.cell * 0.3
        _star(draw, cx, cy, frame.cell * (0.2 if occupied else 0.3))
    for code in sorted(figures):
        figure = figures[code]
        cx, cy = frame.centre(figure["cell"])
        _figure(draw, cx, cy, frame.cell * TOKEN, figure, flabels[code])
        _health(draw, frame, figure["cell"], figure.get("health", 0), figure.get("damage", 0))
    for code in sorted(crew, key=lambda c: (bool(crew[c].get("ko")), c)):  # the fallen last: seen in their corner
        member = crew[code]
        if member.get("ko"):
            cx, cy = frame.centre(member["cell"])
            if member["cell"] in standing:  # beside the one standing there (or carrying it)
                _crew(draw, cx - frame.cell * 0.26, cy + frame.cell * 0.22, frame.cell * 0.2, member, labels[code])
            else:
                _crew(draw, cx, cy, frame.cell * 0.3, member, labels[code])
            continue
        cx, cy = frame.centre(member["cell"])
        _crew(draw, cx, cy, frame.cell * TOKEN, member, labels[code])
        _health(draw, frame, member["cell"], member.get("health", 0), member.get("wounds", 0))
        if objective.get("holder") == code:
            _star(draw, cx + frame.cell * 0.32, cy - frame.cell * 0.3, frame.cell * 0.17)
    for point in targets:
        marks.reticle(draw, point, frame.cell)
    _footer(draw, view, events, labels, flabels, frame)
    return image


def _docked_ship(draw, frame: GridFrame, square: str, code: str, ship: dict, boarders: int = 0) -> None:
    """A docked ship fills its dock in its faction's washed colour, its label along the top;
    boarded, a reddish purple frame and the boarders' number under the label."""
    left, top, right, bottom = frame.box(square)
    colour, _ = style_of(ship.get("faction"))
    draw.rectangle((left + 6, top + 6, right - 6, bottom - 6), fill=washed(colour))
    centred_text(draw, ((left + right) / 2, top + 12), code[:3], 11, INK)
    if boarders:
        draw.rectangle((left + 6, top + 6, right - 6, bottom - 6), outline=ATTACK_MARK, width=4)
        centred_text(draw, ((left + right) / 2, bottom - 14), f"x{boarders}", 11, INK)


def _crate(draw, frame: GridFrame, square: str) -> None:
    """A shut container: a crossed box in the square's upper right corner."""
    left, top, right, _ = frame.box(square)
    s = frame.cell * 0.15
    x, y = right - s - 4, top + s + 4
    draw.rectangle((x - s, y - s, x + s, y + s), fill=WHITE, outline=INK, width=2)
    draw.line([(x - s, y - s), (x + s, y + s)], fill=INK, width=1)
    draw.line([(x - s, y + s), (x + s, y - s)], fill=INK, width=1)


def _dropped(draw, frame: GridFrame, square: str, count: int) -> None:
    """Gear lying face up: a white tag with how many things lie there, in the lower right corner."""
    _, _, right, bottom = frame.box(square)
    s = frame.cell * 0.14
    x, y = right - s - 5, bottom - s - 10
    draw.rounded_rectangle((x - s - 1, y - s, x + s + 1, y + s), radius=3, fill=WHITE, outline=INK, width=2)
    centred_text(draw, (x, y), str(count), 10, INK)


def _flames(draw, frame: GridFrame, square: str) -> None:
    """A burning square: three orange tongues of flame with yellow hearts."""
    left, top, _, bottom = frame.box(square)
    c = frame.cell
    for fx, h in ((0.3, 0.5), (0.5, 0.7), (0.7, 0.45)):
        x, base = left + c * fx, bottom - c * 0.15
        draw.polygon([(x - c * 0.13, base), (x, base - c * h), (x + c * 0.13, base)], fill=MOVE_MARK, outline=INK)
        draw.polygon([(x - c * 0.06, base), (x, base - c * h * 0.5), (x + c * 0.06, base)], fill=HAZARD)


def _star(draw, x: float, y: float, s: float) -> None:
    """The mission parameter's mark."""
    points = [(x + (s if i % 2 == 0 else s * 0.45) * math.cos(math.radians(-90 + 36 * i)),
               y + (s if i % 2 == 0 else s * 0.45) * math.sin(math.radians(-90 + 36 * i))) for i in range(10)]
    draw.polygon(points, fill=HAZARD, outline=INK, width=2)


def _crew(draw, cx: float, cy: float, r: float, member: dict, label: str) -> None:
    """A crewmember: washed out in a dashed ring when hidden, crossed out when unconscious."""
    colour, shape = style_of(member.get("faction"))
    fill = washed(colour) if member.get("hidden") or member.get("ko") else colour
    draw_shape(draw, shape, cx, cy, r + 2, INK)
    draw_shape(draw, shape, cx, cy, r, fill, outline=WHITE, width=2)
    centred_text(draw, (cx, cy), label, fit_size(label, *label_room(r, crew=True)), ink_on(fill))
    if member.get("hidden"):
        ring = r * 1.32
        for i in range(0, 16, 2):
            draw.arc((cx - ring, cy - ring, cx + ring, cy + ring), 360 * i / 16, 360 * (i + 1) / 16, fill=INK,
                     width=3)
    if member.get("ko"):
        for sign in (1, -1):
            draw.line([(cx - r, cy - sign * r), (cx + r, cy + sign * r)], fill=INK, width=3)


def _figure(draw, cx: float, cy: float, r: float, figure: dict, label: str) -> None:
    """An NPC figure: dark, its rank's shape, a white label; a guard has a yellow rim."""
    shape = RANK_SHAPES.get(figure.get("rank"), "hexagon")
    if figure.get("guard"):
        draw_shape(draw, shape, cx, cy, r + 5, HAZARD, outline=INK, width=1)
    draw_shape(draw, shape, cx, cy, r + 2, WHITE)
    draw_shape(draw, shape, cx, cy, r, FIGURE, outline=WHITE, width=1)
    centred_text(draw, (cx, cy + (3 if shape == "triangle" else 0)), label,
                 fit_size(label, *label_room(r, crew=False)), WHITE)


def _health(draw, frame: GridFrame, square: str, health: int, lost: int) -> None:
    """Health left as a bar along the square's bottom: filled for what is left."""
    if health <= 0:
        return
    left, _, right, bottom = frame.box(square)
    width = (right - left - 8) / health
    for i in range(health):
        x = left + 4 + i * width
        box = (round(x), bottom - 6, round(x + width) - 1, bottom - 2)
        draw.rectangle(box, fill=INK if i < health - lost else WHITE, outline=INK, width=1)


def _highlights(draw, frame: GridFrame, surface: dict, events: list[dict]) -> list[tuple[float, float]]:
    """The paths of the last moves and the lines of the last attacks; returns the points
    attacked (their reticles go above the pieces)."""
    targets = []
    for event, where in positions_before(surface, events):
        kind = event["type"]
        if kind in ("crew_moved", "figure_moved") and len(event.get("path", [])) > 1:
            marks.path(draw, [frame.centre(s) for s in event["path"]], frame.cell, FLOOR)
        elif kind == "crew_attack":
            source, target = where.get(event["attacker"]), where.get(event["target"])
            if source and target:
                a, b = frame.centre(source), frame.centre(target)
                marks.attack_line(draw, a, b, frame.cell)
                targets.append(b)
        elif kind in ("trap", "grenade") and event.get("cell"):
            cx, cy = frame.centre(event["cell"])
            r = frame.cell * (2.5 if kind == "trap" else 1.5)  # a trap's two squares, a grenade's blast
            if kind == "grenade" and where.get(event["crew"]):
                marks.attack_line(draw, frame.centre(where[event["crew"]]), (cx, cy), frame.cell)
                targets.append((cx, cy))
            for k in range(24):
                a0 = math.radians(15 * k)
                a1 = math.radians(15 * k + 8)
                dashed_line(draw, (cx + r * math.cos(a0), cy + r * math.sin(a0)),
                            (cx + r * math.cos(a1), cy + r * math.sin(a1)), ATTACK_MARK, 4, 8, 1)
        elif kind == "figure_defeated" and event.get("cell"):
            cx, cy = frame.centre(event["cell"])
            s = frame.cell * 0.3
            for sign in (1, -1):
                draw.line([(cx - s, cy - sign * s), (cx + s, cy + sign * s)], fill=INK, width=7)
                draw.line([(cx - s, cy - sign * s), (cx + s, cy + sign * s)], fill=HAZARD, width=3)
    return targets


# --- the words under the board ----------------------------------------------------------------------
def objective_line(view: dict, labels: dict[str, str]) -> str:
    """Where the mission parameter is, as far as everyone may know."""
    obj = view["surface"].get("objective")
    if not obj:
        return "No mission parameter on this surface."
    name = obj.get("name", "the mission parameter")
    if obj.get("delivered"):
        where = "delivered"
    elif obj.get("home") and not obj.get("run"):  # tier 3's run (N170): still to be carried
        where = "brought home"
    elif obj.get("ship"):
        where = f"aboard the {view.get('ships', {}).get(obj['ship'], {}).get('name', obj['ship'])}"
    elif obj.get("holder"):
        where = f"with {labels.get(obj['holder'], obj['holder'])} (star)"
    elif obj.get("cell"):
        where = f"at {obj['cell']} (star)"
    elif obj.get("sealed"):
        where = "sealed in its container, still shut"
    else:
        where = "not on the board"
    if obj.get("run") and not obj.get("delivered"):
        where += ", bound for the employer's base (white frames)"
    return f"Mission: {name}, {where}."


def footer_lines(view: dict, events: list[dict], labels: dict[str, str], flabels: dict[str, str]) -> list[str]:
    """Round, phase and board; who acts; the mission parameter; the last actions; a legend."""
    surface = view["surface"]
    names = {p["seat"]: p.get("name", p["seat"]) for p in view.get("players", [])}
    first = (f"Round {view.get('round', 1)} · {str(view.get('phase', 'surface')).capitalize()} phase · "
             f"{surface.get('name', 'the surface')} · {surface.get('location_deck_count', 0)} location card(s) left")
    weather = surface.get("weather")
    if weather:
        first += f" · {weather['name']}: " + ", ".join(
            ([f"stealth {weather['stealth']}+"] if weather.get("stealth") else [])
            + ([f"sight {weather['sight']} squares"] if weather.get("sight") else []))
    if view.get("result"):
        first += f" · Game over: {view['result'].get('outcome', 'ended')}"
    second = ""
    current = view.get("current") or {}
    if view.get("phase") == "surface" and current.get("crew") and not view.get("result"):
        ship = view.get("ships", {}).get(current.get("ship"), {})
        who = names.get(ship.get("seat"), ship.get("seat") or "NPC")
        left = ", ".join(f"{labels.get(c, c)} {n}" for c, n in sorted(current["crew"].items()) if n)
        second = f"{who}: the {ship.get('name', current.get('ship'))} party acts · actions left: {left or 'none'}"
    name = {**labels, **flabels}
    last = []
    for event in events:
        kind = event["type"]
        if kind in ("crew_moved", "figure_moved") and len(event.get("path", [])) > 1:
            mover = event.get("crew") or event.get("figure")
            last.append(f"{name.get(mover, mover)} moved {' > '.join(event['path'])}")
        elif kind == "crew_attack":
            last.append(f"{name.get(event['attacker'], event['attacker'])} attacked "
                        f"{name.get(event['target'], event['target'])}: {event.get('wounds', 0)} wound(s)")
        elif kind == "knocked_out":
            last.append(f"{name.get(event['crew'], event['crew'])} knocked out")
        elif kind == "figure_defeated":
            last.append(f"{name.get(event['figure'], event['figure'])} defeated")
        elif kind == "opened":
            last.append(f"{name.get(event['crew'], event['crew'])} opened the container at {event['cell']}")
        elif kind == "trap":
            last.append(f"a booby trap went off at {event['cell']}")
        elif kind == "grenade":
            last.append(f"{name.get(event['crew'], event['crew'])} threw a grenade at {event['cell']}")
        elif kind in ("dropped", "picked_up"):
            verb = "dropped" if kind == "dropped" else "picked up"
            last.append(f"{name.get(event['crew'], event['crew'])} {verb} {event['item']} at {event['cell']}")
    legend = [LEGEND[0] + (" · purple dock: boarded (xN boarders)" if surface.get("boarded") else ""),
              LEGEND[1] + (" · numbered tag: gear dropped there" if surface.get("dropped") else ""),
              LEGEND[2] + (" · flames: fire, impassable" if surface.get("fires") else "")
              + (" · white double frame: the employer's base" if surface.get("base") else "")]
    return [first, second, objective_line(view, labels), _latest(last, _line_width(surface)), *legend]


def _line_width(surface: dict) -> int:
    """The pixels a footer line may take under a board of that width."""
    return surface["width"] * CELL + 30


def _latest(actions: list[str], width: int) -> str:
    """'Last: ...' with as many of the latest actions as fit in `width` at LAST_SIZE,
    saying how many earlier ones it leaves out."""
    for start in range(len(actions)):
        left = f"(+{start} earlier) " if start else ""
        line = f"Last: {left}" + "; ".join(actions[start:])
        if text_width(line, LAST_SIZE) <= width:
            return line
    return f"Last: (+{len(actions) - 1} earlier) {actions[-1]}" if actions else ""


def _footer(draw, view: dict, events: list[dict], labels: dict[str, str], flabels: dict[str, str],
            frame: GridFrame) -> None:
    top = frame.size[1] - FOOTER + 8
    for i, line in enumerate(footer_lines(view, events, labels, flabels)):
        size = fit_size(line, _line_width(view["surface"]), 17 if i == 0 else 15 if i < 4 else LAST_SIZE, 8)
        text(draw, (MARGIN - 14, top + LINE / 2 + i * LINE), line, size, INK if i < 3 else MUTED, "lm")
