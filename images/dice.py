"""The dice board: the actor's dice and the opposing dice lined up high to low in pairs.

Built from the events of one roll ("rolled", any "rerolled", then "resolved"). Each
pair is joined by a bar naming its outcome; cancelled, missed and ignored dice are
dimmed and struck through; an uncontested die faces an empty dashed slot; a die that
was re-rolled shows the faces it replaced, struck through, on its outer side.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from engine.awaymissions.content import load_pack
from images.style import (GREY, INK, MUTED, PAPER, WHITE, canvas, centred_text, dashed_line, decider, digest, dimmed,
                          encode, fit_size, ink_on, pen, side_styles, stamp, team_name, teams_of, text, text_width)
from images.tokens import MARKS, draw_token, short_labels

WIDTH = 640
DIE = 58
SMALL = 38
ROW = 76
LEFT_X, RIGHT_X = 215, 425
TOP = 150
BAR = 64  # the title bar's height
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
ROLL_GOES_ON = ("rerolled", "reroll_passed", "resolved")  # events of a roll after its "rolled"
NO_SIDE = (GREY, "circle")  # the colour and shape of a character no side controls
TAGS = {"attack": {"hit": "HIT", "cancelled": "cancelled", "miss": "miss"},
        "skill": {"hit": "SUCCESS", "cancelled": "cancelled", "miss": "fail"}}


@dataclass
class Die:
    """A die on the board and the faces it replaced by re-rolls, oldest first."""

    face: int
    replaced: list[int] = field(default_factory=list)


def _line_up(faces: list[int]) -> list[Die]:
    return [Die(f) for f in sorted(faces, reverse=True)]


def apply_reroll(dice: list[Die], indices: list[int], after: list[int]) -> list[Die]:
    """The dice after re-rolling those at `indices`; each new die remembers what it replaced."""
    kept = [d for i, d in enumerate(dice) if i not in indices]
    gone = sorted((dice[i] for i in indices if i < len(dice)), key=lambda d: -d.face)
    fresh = Counter(after) - Counter(d.face for d in kept)
    faces = sorted(fresh.elements(), reverse=True)
    if len(faces) != len(gone):
        return _line_up(after)
    new = [Die(f, old.replaced + [old.face]) for f, old in zip(faces, gone)]
    return sorted(kept + new, key=lambda d: -d.face)


@dataclass
class Board:
    """What the dice board shows, gathered from one roll's events."""

    kind: str
    actor: str | None
    target: str | None
    dice: list[Die]
    opposing: list[Die]
    rerolls: list[dict]
    resolved: dict | None
    weapon: str | None
    after: list[dict]
    passes: list[dict] = field(default_factory=list)  # "reroll_passed": who kept the dice


def gather(events: list[dict]) -> Board | None:
    """The last roll among `events`, or None when they hold no roll."""
    starts = [i for i, e in enumerate(events) if e["type"] == "rolled"]
    if not starts:
        return None
    roll = events[starts[-1]]
    weapon = next((e.get("weapon") for e in events[:starts[-1]] if e["type"] == "attack"), None)
    board = Board(roll.get("kind", "attack"), roll.get("actor"), roll.get("target"), _line_up(roll.get("dice", [])),
                  _line_up(roll.get("opposing", [])), [], None, weapon, [])
    for event in events[starts[-1] + 1:]:
        if event["type"] == "rerolled":
            side = "dice" if event.get("side") == "actor" else "opposing"
            setattr(board, side, apply_reroll(getattr(board, side), event.get("indices", []), event["after"]))
            board.rerolls.append(event)
        elif event["type"] == "reroll_passed":
            board.passes.append(event)
        elif event["type"] == "resolved":
            board.resolved = event
            if [d.face for d in board.dice] != event["dice"]:
                board.dice = _line_up(event["dice"])
            if [d.face for d in board.opposing] != event.get("opposing", []):
                board.opposing = _line_up(event.get("opposing", []))
        elif board.resolved is not None and event["type"] in ("damaged", "neutralized", "assimilated"):
            board.after.append(event)
    return board


def draw_die(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, face: int, colour, dim: bool = False,
             ring: bool = False) -> None:
    """A die face with pips (a number above six); dimmed dice are washed out and struck through."""
    stamp(draw, ("die", size, face, tuple(colour), dim, ring), cx, cy, math.ceil(size / 2 + 8),
          lambda d, x, y: _paint_die(d, x, y, size, face, colour, dim, ring))


def _paint_die(draw, cx: float, cy: float, size: float, face: int, colour, dim: bool, ring: bool) -> None:
    h = size / 2
    fill = dimmed(colour) if dim else colour
    pip = MUTED if dim else ink_on(colour)
    if ring:
        draw.rounded_rectangle((cx - h - 5, cy - h - 5, cx + h + 5, cy + h + 5), radius=size / 5 + 4, fill=INK)
    draw.rounded_rectangle((cx - h, cy - h, cx + h, cy + h), radius=size / 5, fill=fill,
                           outline=MUTED if dim else INK, width=2)
    if dim:
        draw.line([(cx - h - 3, cy + h + 3), (cx + h + 3, cy - h - 3)], fill=GREY, width=3)
    if face not in PIPS:  # a bonus took it past six: the number instead of pips
        centred_text(draw, (cx, cy), str(face), round(size * 0.55), pip)
        return
    step, r = size * 0.27, size * 0.085
    for dx, dy in PIPS[face]:
        x, y = cx + dx * step, cy + dy * step
        draw.ellipse((x - r, y - r, x + r, y + r), fill=pip)


def _words(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def result_lines(board: Board, labels: dict[str, str], names: dict[str, str], cards: dict,
                 teams: dict[str, str] | None = None) -> list[str]:
    """The outcome in words, what followed from it, and who re-rolled what. In a team game
    (`teams`: seat -> team) each answer to the team's re-roll window names the teammate who
    gave it, also a pass."""
    teams = teams or {}
    label = lambda cid: labels.get(cid, cid or "?")  # noqa: E731
    lines = []
    res = board.resolved
    if res is None:
        lines.append("Dice rolled; not resolved yet.")
    elif board.kind == "attack":
        hits, damage = res.get("successes", 0), res.get("damage", 0)
        if hits == 0:
            lines.append("No hits: no damage.")
        elif res.get("stun"):
            lines.append(f"{_words(hits, 'hit', 'hits')} with a stun weapon: {label(board.target)} is stunned.")
        else:
            bonus = damage - hits
            lines.append(f"{_words(hits, 'hit', 'hits')}" + (f" + {bonus} DAMAGE" if bonus > 0 else "")
                         + f" = {damage} damage to {label(board.target)}.")
    else:
        n = res.get("successes", 0)
        against = f" against {label(board.target)}" if board.target else " (4+ each)"
        lines.append(f"{_words(n, 'success', 'successes')}{against}.")
    for event in board.after:
        who = label(event.get("character"))
        if event["type"] == "damaged":
            lost = ", ".join(f"{v} {k.upper()}" for k, v in event.get("reduced", {}).items())
            lines.append(f"{who} loses {lost}.")
        elif event["type"] == "neutralized":
            lines.append(f"{who} is neutralized.")
        else:
            lines.append(f"{who} is assimilated, placed in {event.get('space', '?')}.")
    for event in board.rerolls:
        side = "attack" if board.kind == "attack" else "skill"
        if event.get("side") != "actor":
            side = "defense" if board.kind == "attack" else "challenger"
        card = cards[event["card"]].name if event.get("card") in cards else event.get("card", "a card")
        before = ", ".join(str(event["before"][i]) for i in event.get("indices", []) if i < len(event["before"]))
        team = f" for {team_name(teams[event['seat']])}" if event.get("seat") in teams else ""
        lines.append(f"Re-roll: {names.get(event.get('seat'), event.get('seat'))}{team} played {card} on "
                     f"{_words(len(event.get('indices', [])), side + ' die', side + ' dice')} ({before}).")
    for event in board.passes:
        if event.get("seat") in teams:
            lines.append(f"Re-roll window: {names.get(event['seat'], event['seat'])} kept the dice "
                         f"for {team_name(teams[event['seat']])}.")
    return lines


def render_dice(view: dict, events: list[dict], waiting: bool = True) -> bytes | None:
    """PNG of the dice board for the last roll in `events` (None when there is no roll).
    With `waiting` False it leaves out who the open re-roll window waits for (a table
    message says it), so the picture changes only with the roll."""
    image = dice_image(view, events, waiting)
    return None if image is None else encode(image)


@dataclass
class Shown:
    """Everything the dice board draws: the roll, its two sides' tokens and the lines below."""

    board: Board
    characters: dict
    labels: dict[str, str]
    styles: dict  # character id -> (colour, shape) of its side, for the two tokens drawn (actor and target)
    lines: list[str]


def shown(view: dict, events: list[dict], waiting: bool = True) -> Shown | None:
    """What the dice board of `events` shows (None when they hold no roll)."""
    board = gather(events)
    if board is None:
        return None
    pack = load_pack(view["pack"])
    characters = view.get("characters", {})
    labels = short_labels(characters)
    sides = side_styles(view.get("players", []))
    names = {p["seat"]: p["name"] for p in view.get("players", [])}
    styles = {cid: sides.get(characters[cid].get("controller"), NO_SIDE) for cid in (board.actor, board.target)
              if cid in characters}
    teams = {p["seat"]: team for team, members in teams_of(view).items() for p in members}
    lines = result_lines(board, labels, names, pack.cards, teams)
    if waiting and board.resolved is None and view.get("pending"):
        deciders = ", ".join(dict.fromkeys(decider(p, names) for p in view["pending"]))
        lines.append(f"Re-roll window open: waiting for {deciders}.")
    return Shown(board, characters, labels, styles, lines)


def dice_key(view: dict, events: list[dict], waiting: bool = False) -> str | None:
    """A digest of what the dice board of `events` draws (None when they hold no roll): the
    title, the dice with the faces they replaced, the outcome, the two tokens and the lines
    (a pass that names nobody leaves it alone). The same key draws the same picture."""
    found = shown(view, events, waiting)
    if found is None:
        return None
    board = found.board
    tokens = {cid: [found.styles[cid], found.labels[cid], [found.characters[cid].get(k) for k in MARKS]]
              for cid in (board.actor, board.target) if cid in found.characters}
    return digest({"title": [board.kind, found.labels.get(board.actor, board.actor),
                             found.labels.get(board.target, board.target), board.weapon],
                   "dice": [[d.face, d.replaced] for d in board.dice],
                   "opposing": [[d.face, d.replaced] for d in board.opposing],
                   "outcome": board.resolved.get("outcome", []) if board.resolved else None,
                   "tokens": tokens, "lines": found.lines})


def dice_image(view: dict, events: list[dict], waiting: bool = True) -> Image.Image | None:
    """The dice board as a Pillow image (see render_dice)."""
    found = shown(view, events, waiting)
    if found is None:
        return None
    board, characters, labels, lines = found.board, found.characters, found.labels, found.lines

    def style(cid):
        return found.styles.get(cid, NO_SIDE)

    rows = max(len(board.dice), len(board.opposing), 1)
    height = TOP + rows * ROW + 24 + 34 + (len(lines) - 1) * 28 + 20
    image = canvas((WIDTH, height), PAPER)
    draw = pen(image)
    actor, target = labels.get(board.actor, board.actor), labels.get(board.target, board.target)
    if board.kind == "attack":
        title = f"{actor} attacks {target}" + (f" with {board.weapon}" if board.weapon else "")
        heads = ("ATTACK", "DEFENSE")
    elif board.target:
        title, heads = f"{actor} skill test, challenged by {target}", ("TESTER", "CHALLENGER")
    else:
        title, heads = f"{actor} skill test", ("SKILL", "4+ SUCCEEDS")
    draw.rectangle((0, 0, WIDTH, BAR), fill=INK)
    centred_text(draw, (WIDTH / 2, BAR / 2), title, fit_size(title, WIDTH - 40, 28), WHITE, ((0, 0, WIDTH, BAR), INK))
    half = (RIGHT_X - LEFT_X) // 2  # each head on the paper of its half, nothing drawn there yet
    for x, head, cid in ((LEFT_X, heads[0], board.actor), (RIGHT_X, heads[1], board.target)):
        centred_text(draw, (x, 124), head, 18, INK, ((x - half, BAR, x + half, TOP), PAPER))
        if cid in characters:
            draw_token(draw, x, 92, 15, style(cid), labels[cid], characters[cid])
    actor_colour = style(board.actor)[0]
    target_colour = style(board.target)[0]
    outcome = board.resolved.get("outcome", []) if board.resolved else []
    tags = TAGS["attack" if board.kind == "attack" else "skill"]
    for i in range(rows):
        cy = TOP + i * ROW + ROW / 2
        a = board.dice[i] if i < len(board.dice) else None
        d = board.opposing[i] if i < len(board.opposing) else None
        result = outcome[i] if i < len(outcome) and a else None
        if a and d:
            draw.line([(LEFT_X, cy), (RIGHT_X, cy)], fill=INK if result == "hit" else MUTED, width=6)
        elif a and board.target is not None:
            stamp(draw, ("uncontested lead",), (LEFT_X + RIGHT_X) / 2, cy, (RIGHT_X - LEFT_X) // 2 + 4, _paint_lead)
            stamp(draw, ("uncontested slot",), RIGHT_X, cy, math.ceil(DIE / 2 + 4), _paint_empty_slot)
        if a:
            draw_die(draw, LEFT_X, cy, DIE, a.face, actor_colour, dim=result in ("cancelled", "miss"),
                     ring=result == "hit")
            _history(draw, a, LEFT_X - DIE / 2 - 22 - SMALL / 2, -1, cy, actor_colour)
        if d:
            draw_die(draw, RIGHT_X, cy, DIE, d.face, target_colour, dim=a is None and board.resolved is not None,
                     ring=result == "cancelled")
            _history(draw, d, RIGHT_X + DIE / 2 + 22 + SMALL / 2, 1, cy, target_colour)
        tag = tags.get(result) if result else ("ignored" if d and not a and board.resolved else None)
        if tag and a and not d and result in ("hit", "miss"):
            tag = ("4+ " if result == "hit" else "1-3 ") + tag
        if tag:
            size = 19 if result == "hit" else 16
            stamp(draw, ("tag", tag, result == "hit"), (LEFT_X + RIGHT_X) / 2, cy, text_width(tag, size) // 2 + 10,
                  lambda d, x, y: _paint_tag(d, x, y, tag, size, result == "hit"))
    y = TOP + rows * ROW + 24
    low = TOP + rows * ROW  # below the rows only these lines are drawn, each below the last
    for i, line in enumerate(lines):
        size = 24 if i == 0 else 17
        size = fit_size(line, WIDTH - 40, size)
        box = text(draw, (20, y), line, size, MUTED if line.startswith("Re-roll:") else INK,
                   clear=((0, low, WIDTH, height), PAPER))
        low = max(low, box[3]) if box else low
        y += 34 if i == 0 else 28
    return image


def _paint_lead(draw, mx: float, cy: float) -> None:
    """The dashed line from an uncontested die (at LEFT_X) towards the empty slot facing it,
    painted around the middle mx between the two (stamped apart from the slot: two small
    pieces paste in less time than one spanning both)."""
    half = (RIGHT_X - LEFT_X) / 2
    dashed_line(draw, (mx - half, cy), (mx + half - DIE / 2 - 4, cy), MUTED, 3, 8, 7)


def _paint_empty_slot(draw, cx: float, cy: float) -> None:
    """The empty slot facing an uncontested die, at cx, on the dice board's paper (so the
    word in it is stamped whole)."""
    h = DIE / 2
    draw.rectangle((cx - h + 2, cy - h + 2, cx + h - 2, cy + h - 2), fill=PAPER)
    corners = [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]
    for p, q in zip(corners, corners[1:] + corners[:1]):
        dashed_line(draw, p, q, MUTED, 2, 7, 6)
    centred_text(draw, (cx, cy), "none", 15, MUTED)


def _paint_tag(draw, mx: float, cy: float, tag: str, size: int, hit: bool) -> None:
    """A pill naming a pair's outcome: solid for a hit or success."""
    w = text_width(tag, size)
    draw.rounded_rectangle((mx - w / 2 - 7, cy - 13, mx + w / 2 + 7, cy + 13), radius=6,
                           fill=INK if hit else PAPER, outline=INK if hit else MUTED)
    centred_text(draw, (mx, cy), tag, size, WHITE if hit else MUTED)


def _history(draw, die: Die, x: float, direction: int, cy: float, colour) -> None:
    """Faces a re-rolled die replaced, struck through, beside it with an arrow towards it."""
    for k, face in enumerate(reversed(die.replaced)):
        hx = x + direction * k * (SMALL + 22)
        draw_die(draw, hx, cy, SMALL, face, colour, dim=True)
        tail = hx - direction * (SMALL / 2 + 3)
        tip = hx - direction * (SMALL / 2 + 19)
        draw.line([(tail, cy), (tip + direction * 6, cy)], fill=INK, width=3)
        draw.polygon([(tip, cy), (tip + direction * 8, cy - 6), (tip + direction * 8, cy + 6)], fill=INK)
