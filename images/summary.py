"""The end-of-game summary picture: the final score and how each point was earned, the
missions completed, each piece's damage dealt and taken, the dice luck of each side (hits
rolled against the hits the exact odds expected), the players' average and longest turn
times, and whether the dice seal was verified.

    render_summary(title, tally, turns, names, seal_line, verified)   # PNG bytes

Sized for a phone (760 px wide); marks are words and signs, never colour alone.
"""
from __future__ import annotations

from typing import Optional

from PIL import Image

from engine.service.text import duration
from engine.story import Tally, Turns
from images.style import (ASSIMILATED, INK, MOVE_MARK, PAPER, RULE, STYLES, WHITE, blend, canvas, encode,
                          fit_size, pen, team_name, text)

WIDTH = 760
PAD = 18
HEADER = 64
HEADING = 38
ROW = 26
NOTE = 21
DAMAGE_ROWS = 14  # pieces listed; the rest are counted in one line
SECONDARY = blend(INK, PAPER, 0.25)
LUCKY, UNLUCKY = STYLES[0][0], MOVE_MARK  # Okabe-Ito blue and orange, beside a + or - sign
BAR_X, BAR_HALF, BAR_HEIGHT = 600, 70, 10


def score_words(score: int, unit: str, missions: int) -> str:
    """'5 points · 1 mission completed'."""
    return (f"{score} {unit if score != 1 else unit.removesuffix('s')} · {missions} mission"
            + ("" if missions == 1 else "s") + " completed")


def lines_of(tally: Tally, turns: dict[str, Turns], names: dict[str, str]) -> list[tuple[str, tuple]]:
    """The summary's rows, top to bottom: (kind, content), kind one of heading, side, note,
    columns, piece, luck, turns."""
    rows: list[tuple[str, tuple]] = [("heading", ("Final score",))]
    for side, name in tally.sides.items():
        if side not in tally.totals:
            continue
        rows.append(("side", (name, score_words(tally.totals[side], tally.unit, tally.missions.get(side, 0)))))
        rows += [("note", (f"{points:+d}  {how}",)) for how, points in tally.points.get(side, [])]
    for team, (sides, score, missions) in tally.teams.items():
        members = ", ".join(tally.sides.get(side, side) for side in sides)
        rows.append(("side", (f"{team_name(team)} ({members})", score_words(score, tally.unit, missions))))
    pieces = sorted(set(tally.dealt) | set(tally.taken), key=lambda p: (-tally.dealt.get(p, 0), -tally.taken.get(p, 0), p))
    pieces = [p for p in pieces if tally.dealt.get(p, 0) or tally.taken.get(p, 0)]
    rows += [("heading", ("Damage dealt and taken",))] + [("columns", ("dealt", "taken"))] * bool(pieces)
    rows += [("piece", (tally.pieces.get(p, p), tally.dealt.get(p, 0), tally.taken.get(p, 0)))
             for p in pieces[:DAMAGE_ROWS]]
    if len(pieces) > DAMAGE_ROWS:
        rows.append(("note", (f"and {len(pieces) - DAMAGE_ROWS} more with less",)))
    if not pieces:
        rows.append(("note", ("No damage was dealt.",)))
    rows.append(("heading", ("Dice luck: hits rolled against the exact odds",)))
    most = max((abs(tally.hits[s] - float(tally.expected[s])) for s in tally.hits), default=0.0)
    for side, name in tally.sides.items():
        if side in tally.rolls:
            expected = float(tally.expected[side])
            rows.append(("luck", (name, f"{tally.hits[side]} hits, {expected:.1f} expected "
                                        f"({tally.hits[side] - expected:+.1f}) in {tally.rolls[side]} "
                                        + ("roll" if tally.rolls[side] == 1 else "rolls"),
                                  (tally.hits[side] - expected) / most if most else 0.0)))
    if not tally.rolls:
        rows.append(("note", ("No dice were rolled.",)))
    rows.append(("heading", ("Turn times",)))
    for seat, took in sorted(turns.items()):
        rows.append(("turns", (names.get(seat, seat), f"average {duration(took.average)} · longest "
                                                      f"{duration(took.longest)} · {took.answers} answers")))
    return rows


HEIGHTS = {"heading": HEADING, "side": ROW, "note": NOTE, "columns": NOTE, "piece": NOTE, "luck": ROW, "turns": ROW}


def summary_image(title: str, tally: Tally, turns: dict[str, Turns], names: dict[str, str], seal_line: str,
                  verified: Optional[bool]) -> Image.Image:
    """The summary as a palette picture (see render_summary)."""
    rows = lines_of(tally, turns, names)
    height = HEADER + sum(HEIGHTS[kind] for kind, _ in rows) + HEADING + 2 * NOTE + PAD
    image = canvas((WIDTH, height), PAPER)
    draw = pen(image)
    draw.rectangle((0, 0, WIDTH, HEADER - 10), fill=INK)
    text(draw, (PAD, 10), title, fit_size(title, WIDTH - 2 * PAD, 24), WHITE)
    y = HEADER
    for kind, content in rows:
        _row(draw, kind, content, y)
        y += HEIGHTS[kind]
    _row(draw, "heading", ("Dice seal",), y)
    mark = {True: "VERIFIED", False: "NOT VERIFIED", None: "not checked"}[verified]
    colour = ASSIMILATED if verified else (UNLUCKY if verified is False else SECONDARY)
    text(draw, (PAD, y + HEADING), mark, 16, colour)
    text(draw, (PAD + 140, y + HEADING + 2), seal_line, fit_size(seal_line, WIDTH - 2 * PAD - 140, 13), SECONDARY)
    return image


def _row(draw, kind: str, content: tuple, y: int) -> None:
    right = WIDTH - PAD
    if kind == "heading":
        text(draw, (PAD, y + 12), content[0], 19, INK)
        draw.line([(PAD, y + HEADING - 4), (right, y + HEADING - 4)], fill=RULE, width=2)
    elif kind in ("side", "turns"):
        name, said = content
        text(draw, (PAD, y + 4), name, fit_size(name, 300, 17), INK)
        text(draw, (right, y + 5), said, fit_size(said, WIDTH - 340, 15), INK, "ra")
    elif kind == "note":
        text(draw, (PAD + 22, y + 3), content[0], fit_size(content[0], WIDTH - 2 * PAD - 22, 14), SECONDARY)
    elif kind == "columns":
        for x, label in zip((right - 90, right), content):
            text(draw, (x, y + 3), label, 13, SECONDARY, "ra")
    elif kind == "piece":
        name, dealt, taken = content
        text(draw, (PAD + 22, y + 2), name, fit_size(name, WIDTH - 2 * PAD - 200, 15), INK)
        for x, number in ((right - 90, dealt), (right, taken)):
            text(draw, (x, y + 2), str(number), 15, INK, "ra")
    elif kind == "luck":
        name, said, share = content
        text(draw, (PAD, y + 4), name, fit_size(name, 220, 17), INK)
        text(draw, (BAR_X - BAR_HALF - 12, y + 5), said, fit_size(said, BAR_X - BAR_HALF - 260, 15), INK, "ra")
        middle = y + ROW / 2
        draw.line([(BAR_X, middle - 9), (BAR_X, middle + 9)], fill=INK, width=2)
        length = round(BAR_HALF * share)
        if length:
            box = (BAR_X, middle - BAR_HEIGHT / 2, BAR_X + length, middle + BAR_HEIGHT / 2)
            draw.rectangle((min(box[0], box[2]), box[1], max(box[0], box[2]), box[3]), fill=LUCKY if length > 0 else UNLUCKY)


def render_summary(title: str, tally: Tally, turns: dict[str, Turns], names: dict[str, str], seal_line: str,
                   verified: Optional[bool]) -> bytes:
    """PNG of a finished game's summary (same numbers, same bytes)."""
    return encode(summary_image(title, tally, turns, names, seal_line, verified))
