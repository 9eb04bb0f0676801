"""The board snapshot: the mission area, who stands where, and the last action highlighted.

The static layer (floors, walls, open edges, features, coordinates) depends only on
the pack and the layout, so it is drawn once, mapped onto the fixed palette; the doors
are drawn on a copy of it kept per layout and doors (open beside a character, else
closed), and that is copied for every snapshot. Tokens, highlights and the footer are
drawn on the copy, straight in the palette.
"""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass

import msgspec
from PIL import Image, ImageDraw

from engine.awaymissions.content import Pack, load_pack
from engine.awaymissions.layout import Geometry, LayoutSpec, geometry
from images.style import (BOARD_NAME, CORRIDOR_FLOOR, FLOOR, GLYPH, GREY, HAZARD, INK, LIFT_FLOOR,
                          MUTED, OPEN_EDGE, PAPER, VOID, WHITE, centred_text, dashed_line, decider, digest, draw_shape, encode,
                          clipped, fit_size, pen, side_styles, stamp, team_name, teams_of, text, text_width,
                          to_palette)
from images import marks
from images.tokens import draw_token, short_labels

MARGIN = 34
FOOTER = 104
SMALL_CELL = 64  # spaces narrower than this (six-board layouts) get bigger lone tokens
SOLO_SMALL_CELL = 0.36  # a lone token's radius there, in cells
WALL = 8
TERMINAL_LETTERS = {"command": "C", "science": "S", "operations": "O", "medical": "M"}
_STATIC_LIMIT = 16
# events about one character that get a dashed square around its space
FOCUS_EVENTS = ("cover", "recovered", "special", "placed", "damaged", "stunned", "assimilated", "restored",
                "equipped", "trait", "token", "ratings_changed", "boost", "card_played")


@dataclass(frozen=True)
class Frame:
    """Where the grid sits in the picture."""

    cell: int
    cols: int
    rows: int

    @property
    def size(self) -> tuple[int, int]:
        return self.cols * self.cell + 2 * MARGIN, self.rows * self.cell + 2 * MARGIN + FOOTER

    def box(self, x: int, y: int) -> tuple[int, int, int, int]:
        left, top = MARGIN + x * self.cell, MARGIN + y * self.cell
        return left, top, left + self.cell, top + self.cell

    def centre(self, x: int, y: int) -> tuple[float, float]:
        left, top, _, _ = self.box(x, y)
        return left + self.cell / 2, top + self.cell / 2

    def edge(self, a, b) -> tuple[tuple[float, float], tuple[float, float]]:
        """End points of the edge between neighbouring spaces a and b."""
        if a.y == b.y:
            x = MARGIN + max(a.x, b.x) * self.cell
            top = MARGIN + a.y * self.cell
            return (x, top), (x, top + self.cell)
        y = MARGIN + max(a.y, b.y) * self.cell
        left = MARGIN + a.x * self.cell
        return (left, y), (left + self.cell, y)


def cell_size(cols: int) -> int:
    """Pixels per space: large for the 2-player boards, smaller for wide 6-board layouts."""
    return max(56, min(84, 880 // max(cols, 1)))


_STATIC: dict[tuple, tuple[Image.Image, Frame]] = {}


def static_layer(pack: Pack, spec: LayoutSpec) -> tuple[Image.Image, Frame]:
    """The drawn mission area without doors or characters, in the fixed palette, cached
    per pack and layout (the last 16)."""
    key = (pack.path, spec.key())
    found = _STATIC.get(key)
    if found is None:
        if len(_STATIC) >= _STATIC_LIMIT:
            _STATIC.pop(next(iter(_STATIC)))
        found = _STATIC[key] = _draw_static(pack, mission_area(pack, spec))
    return found


_DOORS: dict[tuple, Image.Image] = {}
_DOORS_LOCK = threading.Lock()


def doors_layer(pack: Pack, spec: LayoutSpec, geo: Geometry, opened: tuple[bool, ...]) -> Image.Image:
    """The static layer with its doors drawn, each open or closed as `opened` says (in the
    order of `geo.doors`), cached per pack, layout and doors (the last 16): doors change
    only when somebody steps beside one, so most snapshots start from a copy of this."""
    key = (pack.path, spec.key(), opened)
    found = _DOORS.get(key)
    if found is None:
        base, frame = static_layer(pack, spec)
        found = base.copy()
        draw = pen(found)
        for (a, b), is_open in zip(geo.doors, opened):
            _door(draw, frame, geo.spaces[a], geo.spaces[b], is_open)
        with _DOORS_LOCK:  # pictures are drawn on worker threads
            if len(_DOORS) >= _STATIC_LIMIT:
                _DOORS.pop(next(iter(_DOORS)), None)
            _DOORS[key] = found
    return found


def mission_area(pack: Pack, spec: LayoutSpec) -> Geometry:
    """The layout's geometry; empty while no board has been placed."""
    if not spec.corridor and not spec.placements:
        return Geometry({}, {}, [], {})
    return geometry(pack, spec)


def _draw_static(pack: Pack, geo: Geometry) -> tuple[Image.Image, Frame]:
    cols = max((s.x for s in geo.spaces.values()), default=7) + 1
    rows = max((s.y for s in geo.spaces.values()), default=3) + 1
    frame = Frame(cell_size(cols), cols, rows)
    image = Image.new("RGB", frame.size, VOID)
    draw = ImageDraw.Draw(image)
    if not geo.spaces:
        centred_text(draw, (frame.size[0] / 2, (frame.size[1] - FOOTER) / 2), "The mission area is not laid out yet",
                     24, WHITE)
    c = frame.cell
    for space in geo.spaces.values():
        board = pack.boards[space.board]
        floor = LIFT_FLOOR if "turbolift" in space.features else (
            CORRIDOR_FLOOR if board.kind == "corridor" else FLOOR)
        draw.rectangle(frame.box(space.x, space.y), fill=floor)
    _board_names(draw, pack, geo, frame)
    for space in geo.spaces.values():
        _features(draw, frame, space)
        left, top, _, _ = frame.box(space.x, space.y)
        text(draw, (left + 5, top + 3), space.id, max(11, c // 6), MUTED)
    walls = []
    for (a, b), kind in geo.edges.items():
        if a < b and kind == "open":
            draw.line(frame.edge(geo.spaces[a], geo.spaces[b]), fill=OPEN_EDGE, width=2)
        elif a < b and kind == "wall":
            walls.append(frame.edge(geo.spaces[a], geo.spaces[b]))
    for space in geo.spaces.values():
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if (space.x + dx, space.y + dy) not in geo.at:
                walls.append(_outer_edge(frame, space, dx, dy))
    for (x0, y0), (x1, y1) in walls:
        h = WALL / 2
        draw.rectangle((min(x0, x1) - h, min(y0, y1) - h, max(x0, x1) + h - 1, max(y0, y1) + h - 1), fill=INK)
    _axes(draw, geo, frame)
    draw.rectangle((0, frame.size[1] - FOOTER, frame.size[0], frame.size[1]), fill=PAPER)
    return to_palette(image), frame


def _outer_edge(frame: Frame, space, dx: int, dy: int):
    left, top, right, bottom = frame.box(space.x, space.y)
    if dx:
        x = right if dx > 0 else left
        return (x, top), (x, bottom)
    y = bottom if dy > 0 else top
    return (left, y), (right, y)


def _board_names(draw, pack: Pack, geo: Geometry, frame: Frame) -> None:
    """Each board's name, faint, across its middle (a board used twice is named twice)."""
    seen: set[str] = set()
    for space in geo.spaces.values():
        if space.id in seen or "turbolift" in space.features and space.board.startswith("corridor"):
            continue
        part, todo = [], [space.id]
        while todo:
            sid = todo.pop()
            if sid in seen:
                continue
            seen.add(sid)
            part.append(geo.spaces[sid])
            here = geo.spaces[sid]
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                there = geo.at.get((here.x + dx, here.y + dy))
                if there and geo.spaces[there].board == space.board and "turbolift" not in (
                        geo.spaces[there].features if space.board.startswith("corridor") else ()):
                    todo.append(there)
        xs = [s.x for s in part]
        ys = [s.y for s in part]
        x0, y0 = frame.box(min(xs), min(ys))[:2]
        x1, y1 = frame.box(max(xs), max(ys))[2:]
        name = pack.boards[space.board].name.split(" (")[0].upper()
        size = max(12, frame.cell // 4)
        centred_text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), name, size, BOARD_NAME)


def _features(draw, frame: Frame, space) -> None:
    left, top, right, bottom = frame.box(space.x, space.y)
    c = frame.cell
    cx, cy = frame.centre(space.x, space.y)
    if "turbolift" in space.features:
        s = c * 0.16
        for sign in (-1, 1):
            tip = cy + sign * s * 2.1
            base = cy + sign * s * 0.5
            draw.polygon([(cx, tip), (cx - s, base), (cx + s, base)], fill=GLYPH)
        text(draw, (right - 5, bottom - 3), "LIFT", max(10, c // 7), MUTED, "rb")
    if "transporter" in space.features:
        for k in (0.18, 0.28, 0.38):
            r = c * k
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=GLYPH, width=2)
        text(draw, (right - 5, bottom - 3), "TR", max(10, c // 7), MUTED, "rb")
    terminals = [TERMINAL_LETTERS[f] for f in space.features if f in TERMINAL_LETTERS]
    for i, letter in enumerate(terminals):
        s = max(16, c // 4)
        x0, y1 = left + 5 + i * (s + 3), bottom - 5
        draw.rounded_rectangle((x0, y1 - s, x0 + s, y1), radius=3, fill=INK)
        centred_text(draw, (x0 + s / 2, y1 - s / 2), letter, s - 4, WHITE)


def _axes(draw, geo: Geometry, frame: Frame) -> None:
    """Column letters above and below, row numbers left and right, as players type them."""
    cols = {s.x: s.id.rstrip("0123456789") for s in geo.spaces.values()}
    rows = {s.y: s.id.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for s in geo.spaces.values()}
    size = 20
    bottom = MARGIN + frame.rows * frame.cell
    right = MARGIN + frame.cols * frame.cell
    for x, letter in cols.items():
        cx = frame.centre(x, 0)[0]
        centred_text(draw, (cx, MARGIN / 2), letter, size, WHITE)
        centred_text(draw, (cx, bottom + MARGIN / 2), letter, size, WHITE)
    for y, number in rows.items():
        cy = frame.centre(0, y)[1]
        centred_text(draw, (MARGIN / 2, cy), number, size, WHITE)
        centred_text(draw, (right + MARGIN / 2, cy), number, size, WHITE)


def _door(draw, frame: Frame, a, b, is_open: bool) -> None:
    """Closed: a wall-thick bar striped yellow. Open: only the frame ends, a thin dashed line
    between. Each kind of door is drawn once and stamped."""
    (x0, y0), (x1, y1) = frame.edge(a, b)
    half = ((x1 - x0) / 2, (y1 - y0) / 2)
    stamp(draw, ("door", half, is_open, frame.cell), (x0 + x1) / 2, (y0 + y1) / 2, math.ceil(frame.cell / 2 + WALL),
          lambda d, cx, cy: _paint_door(d, frame, (cx - half[0], cy - half[1]), (cx + half[0], cy + half[1]), is_open))


def _paint_door(draw, frame: Frame, start, end, is_open: bool) -> None:
    (x0, y0), (x1, y1) = start, end
    h = WALL / 2
    if not is_open:
        draw.rectangle((min(x0, x1) - h, min(y0, y1) - h, max(x0, x1) + h - 1, max(y0, y1) + h - 1), fill=INK)
        dashed_line(draw, (x0, y0), (x1, y1), HAZARD, WALL - 4, frame.cell / 9, frame.cell / 14)
        return
    stub = frame.cell * 0.16
    horizontal = y0 == y1
    for end, sign in (((x0, y0), 1), ((x1, y1), -1)):
        ex, ey = end
        fx, fy = (ex + sign * stub, ey) if horizontal else (ex, ey + sign * stub)
        draw.rectangle((min(ex, fx) - h, min(ey, fy) - h, max(ex, fx) + h - 1, max(ey, fy) + h - 1), fill=INK)
    inner = ((x0 + stub, y0), (x1 - stub, y1)) if horizontal else ((x0, y0 + stub), (x1, y1 - stub))
    dashed_line(draw, *inner, INK, 2, frame.cell / 14, frame.cell / 9)


def _positions(frame: Frame, space, count: int) -> list[tuple[float, float, float]]:
    """(cx, cy, r) for `count` tokens sharing a space, all visible."""
    cx, cy = frame.centre(space.x, space.y)
    c = frame.cell
    if count == 1:  # bigger on the six-board layouts, drawn small, so a phone still reads them
        return [(cx, cy + c * 0.04, c * (SOLO_SMALL_CELL if c < SMALL_CELL else 0.27))]
    if count == 2:
        return [(cx - c * 0.235, cy + c * 0.06, c * 0.22), (cx + c * 0.235, cy + c * 0.06, c * 0.22)]
    spots = [(-1, -1), (1, -1), (-1, 1), (1, 1)]
    return [(cx + dx * c * 0.21, cy + dy * c * 0.2 + c * 0.06, c * 0.17) for dx, dy in spots[:count]]


def _path(draw, frame: Frame, geo: Geometry, path: list[str]) -> None:
    """The movement path, dashed where a turbolift jumps."""
    spaces = [geo.spaces[s] for s in path if s in geo.spaces]
    jumps = [k for k, (a, b) in enumerate(zip(spaces, spaces[1:])) if abs(a.x - b.x) + abs(a.y - b.y) != 1]
    marks.path(draw, [frame.centre(s.x, s.y) for s in spaces], frame.cell, FLOOR, jumps)


def _attack_line(draw, frame: Frame, geo: Geometry, source: str, target: str) -> None:
    if source not in geo.spaces or target not in geo.spaces:
        return
    a, b = geo.spaces[source], geo.spaces[target]
    marks.attack_line(draw, frame.centre(a.x, a.y), frame.centre(b.x, b.y), frame.cell)


def _subject(event: dict):
    """The character an event is about (a played card names its target)."""
    return event.get("target") if event["type"] == "card_played" else event.get("character")


def _focus(draw, frame: Frame, space) -> None:
    """A dashed square around a space an event pointed at (e.g. a card's target)."""
    left, top, right, bottom = frame.box(space.x, space.y)
    inset = 5
    corners = [(left + inset, top + inset), (right - inset, top + inset), (right - inset, bottom - inset),
               (left + inset, bottom - inset)]
    for p, q in zip(corners, corners[1:] + corners[:1]):
        dashed_line(draw, p, q, INK, 3, frame.cell / 10, frame.cell / 14)


def score(view: dict, pack: Pack, seat: str) -> int:
    """Points in a player's scoring area plus bonus points."""
    player = next(p for p in view["players"] if p["seat"] == seat)
    cards = sum(pack.cards[code].points for code in player.get("scoring_area", ()) if code in pack.cards)
    return cards + player.get("bonus_points", 0)


def _words(kind: str) -> str:
    return kind.replace("_", " ").replace("-", " ")


def activation_line(view: dict, labels: dict[str, str]) -> str:
    """"Ann activating REYES, 1 action left" while an activation is under way, else ""."""
    act = view.get("activation")
    if not act:
        return ""
    names = {p["seat"]: p["name"] for p in view["players"]}
    left = act.get("actions_left", 0)
    return (f"{names.get(act['player'], act['player'])} activating {labels.get(act['character'], act['character'])}"
            f"{' (bonus action)' if act.get('bonus') else ''}, {left} action{'s' if left != 1 else ''} left")


def footer_lines(view: dict, events: list[dict], labels: dict[str, str], waiting: bool = True) -> list[str]:
    """Round and phase, whose decision it is (unless `waiting` is False), and the last action in words."""
    names = {p["seat"]: p["name"] for p in view["players"]}
    phase = view.get("phase", "setup")
    first = f"Round {view.get('round', 0)} of 3 · {phase.capitalize()} phase"
    result = view.get("result")
    if result:
        winner = result.get("winner")
        winner = names.get(winner, team_name(winner)) if isinstance(winner, str) else None
        first += " · Game over" + (f": {winner} wins" if winner else "")
    second = ""
    if waiting:
        parts = [f"{decider(p, names)} ({_words(p['kind'])})" for p in view.get("pending", [])]
        second = " · ".join(part for part in ("Waiting for " + ", ".join(dict.fromkeys(parts)) if parts else "",
                                               activation_line(view, labels)) if part)
    third = []
    for event in events:
        if event["type"] == "moved" and event.get("path"):
            third.append(f"{labels.get(event['character'], event['character'])} moved "
                         + " > ".join(event["path"]))
        elif event["type"] == "attack":
            third.append(f"{labels.get(event['attacker'], event['attacker'])} attacked "
                         f"{labels.get(event['target'], event['target'])} with {event.get('weapon', 'a weapon')}")
    return [first, second, "Last: " + "; ".join(third) if third else ""]


def footer_entries(view: dict, pack: Pack) -> list[tuple[str, int, list[str]]]:
    """The footer's scores: (who, points, seats whose token shapes go before it). A team game
    shows each team with its members and their points added up ('Team A: Ann + Cy', 7)."""
    teams = teams_of(view)
    if teams:
        return [(f"{team_name(team)}: {' + '.join(p['name'] for p in members)}",
                 sum(score(view, pack, p['seat']) for p in members), [p["seat"] for p in members])
                for team, members in sorted(teams.items())]
    return [(p["name"], score(view, pack, p["seat"]), [p["seat"]]) for p in view.get("players", [])]


SCORE_SIZE = 20  # the scores' and the first line's font
LINE_SIZE = 18  # the lines below them
SMALLEST = 12  # a line too long shrinks to this size, then is cut
GAP = 24  # at least this between the first line and the scores


def score_texts(entries: list[tuple[str, int, list[str]]], room: int) -> list[str]:
    """The scores' texts ('Ann 3'), names cut to an even share of `room` pixels (their
    shapes included) when they would not all fit whole: a long name never runs over the
    round or off the picture."""
    texts = [f"{who} {points}" for who, points, _ in entries]
    if sum(text_width(t, SCORE_SIZE) + 20 + 20 * len(seats) for t, (_, _, seats) in zip(texts, entries)) <= room:
        return texts
    share = room // len(entries)
    return [f"{clipped(who, SCORE_SIZE, share - 20 - 20 * len(seats) - text_width(f' {points}', SCORE_SIZE))} {points}"
            for who, points, seats in entries]


def board_key(view: dict) -> str:
    """A digest of the board a picture without the waiting line shows (`waiting=False`):
    every character's public state, the layout, round, phase, result and scores. Two
    views with the same key draw the same board, so a table need not upload it again."""
    pack = load_pack(view["pack"])
    shown = {"layout": view.get("layout"), "characters": view.get("characters", {}), "round": view.get("round"),
             "phase": view.get("phase"), "result": view.get("result"),
             "scores": [(p["seat"], p["name"], score(view, pack, p["seat"])) for p in view.get("players", [])]}
    return digest(shown)


def render_board(view: dict, events: list[dict] | tuple = (), waiting: bool = True) -> bytes:
    """PNG of the mission area for a public view, highlighting what `events` describe.
    With `waiting` False the footer leaves out whose decision it is and the activation under
    way (a table message says it in words), so the picture changes only with the board."""
    return encode(board_image(view, events, waiting))


def board_image(view: dict, events: list[dict] | tuple = (), waiting: bool = True) -> Image.Image:
    """The board snapshot as a Pillow image in the fixed palette (see render_board)."""
    pack = load_pack(view["pack"])
    spec = msgspec.convert(view["layout"], LayoutSpec)
    geo = mission_area(pack, spec)
    frame = static_layer(pack, spec)[1]
    characters = view.get("characters", {})
    labels = short_labels(characters)
    styles = side_styles(view.get("players", []))
    placed: dict[str, list[str]] = {}
    for cid in sorted(characters):
        ch = characters[cid]
        if ch.get("status") == "in_play" and ch.get("space") in geo.spaces:
            placed.setdefault(ch["space"], []).append(cid)
    image = doors_layer(pack, spec, geo, tuple(a in placed or b in placed for a, b in geo.doors)).copy()
    draw = pen(image)
    targets = []
    for event in events:
        if event["type"] == "moved":
            _path(draw, frame, geo, event.get("path", []))
        elif event["type"] == "attack":
            _attack_line(draw, frame, geo, event.get("from"), event.get("to"))
            targets.append(event.get("to"))
    for sid, cids in placed.items():
        space = geo.spaces[sid]
        for cid, (cx, cy, r) in zip(cids, _positions(frame, space, len(cids))):
            ch = characters[cid]
            style = styles.get(ch.get("controller"), (GREY, "circle"))
            draw_token(draw, cx, cy, r, style, labels[cid], ch)
    for sid in targets:
        if sid in geo.spaces:
            marks.reticle(draw, frame.centre(geo.spaces[sid].x, geo.spaces[sid].y), frame.cell)
    focused = {characters[_subject(e)].get("space") for e in events
               if e["type"] in FOCUS_EVENTS and _subject(e) in characters}
    for sid in sorted(s for s in focused if s in geo.spaces and s not in targets):
        _focus(draw, frame, geo.spaces[sid])
    _footer(draw, view, events, labels, styles, frame, pack, waiting)
    return image


def _footer(draw, view, events, labels, styles, frame: Frame, pack: Pack, waiting: bool = True) -> None:
    width, height = frame.size
    top = height - FOOTER
    lines = footer_lines(view, events, labels, waiting)
    x = MARGIN
    right = width - MARGIN
    scores = top + 34  # the scores' row: each entry on paper left of the entries and shapes drawn before it
    low = scores  # the lines below it: on paper below everything drawn before each
    entries = footer_entries(view, pack)
    room = right - x - min(text_width(lines[0], SCORE_SIZE), (right - x) // 3) - GAP
    for entry, (_, _, seats) in reversed(list(zip(score_texts(entries, room), entries))):
        w = text_width(entry, SCORE_SIZE)
        box = text(draw, (right, top + 20), entry, SCORE_SIZE, INK, "rm", ((0, top, right + 4, scores), PAPER))
        low = max(low, box[3]) if box else low
        for n, seat in enumerate(reversed(seats)):
            colour, shape = styles[seat]
            draw_shape(draw, shape, right - w - 14 - n * 20, top + 20, 8, colour, outline=INK, width=2)
        right -= w + 20 + 20 * len(seats)
    for i, line in enumerate(lines):
        room = (right - x - 4) if i == 0 else width - 2 * x
        size = SCORE_SIZE if i == 0 else fit_size(line, room, LINE_SIZE, SMALLEST)
        line = clipped(line, size, room)
        clear = ((0, top, right + 4, scores) if i == 0 else (0, low, width, height), PAPER)
        box = text(draw, (x, top + 20 + i * 30), line, size, INK if i < 2 else MUTED, "lm", clear)
        low = max(low, box[3]) if box else low
