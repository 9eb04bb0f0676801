"""Away-team status: each character's ratings as peg rows, its tokens, equipment and traits.

A filled peg is a solid dot and an empty hole a ring, so health reads without colour.
Neutralized characters are washed out and struck through; assimilated ones carry the
cube marker and say whose they were.
"""
from __future__ import annotations

from PIL import Image

from engine.awaymissions.content import RATINGS, load_pack
from images.board import score
from images.style import (DIM_INK, GREY, INK, MUTED, PAPER, RULE, WHITE, canvas, draw_shape, encode, fit_size, pen,
                          side_styles, team_name, teams_of, text, text_width)
from images import marks
from images.tokens import draw_token, short_labels

COLUMN = 480
GAP = 16
HEADER = 44
ROW = 100
PEG = 5
PEG_LINE = 64  # pegs' centre line below a row's top
ABBREVIATIONS = {"attack": "ATK", "defense": "DEF", "skill": "SKL", "move": "MOV"}
STATUS_WORDS = {"reserve": "in reserve", "waiting": "waiting to escalate", "returned": "returned to its owner",
                "neutralized": "NEUTRALIZED"}


def _state_words(ch: dict, names: dict[str, str]) -> str:
    if ch.get("status") != "in_play":
        words = [STATUS_WORDS.get(ch.get("status"), ch.get("status", ""))]
    else:
        words = [f"in {ch['space']}" if ch.get("space") else "in play"]
    if ch.get("assimilated"):
        words.append(f"ASSIMILATED (was {names.get(ch.get('owner'), ch.get('owner'))}'s)")
    if ch.get("activated"):
        words.append("activated")
    if ch.get("cover"):
        words.append("taking cover")
    stun = ch.get("stun", 0)
    if stun >= 2:
        words.append("INCAPACITATED (2 stun)")
    elif stun:
        words.append("stunned (1 stun)")
    return " · ".join(words)


def peg_rows(x: float, y: float, ch: dict, holes_max: int) -> list[tuple[str, float, list[tuple[float, bool]]]]:
    """Per rating along the line at y: (rating, label x, [(hole centre x, peg in it), ...])."""
    rows = []
    for name in RATINGS:
        value = ch.get("ratings", {}).get(name, 0)
        holes = max(ch.get("pegs", {}).get(name, value), value)
        rows.append((name, x, [(x + 42 + k * 13, k < value) for k in range(holes)]))
        x += 42 + holes_max * 13 + 10
    return rows


def _pegs(draw, x: float, y: float, ch: dict, dim: bool, holes_max: int) -> None:
    """Four groups: the rating's name, then one dot per peg left and one ring per empty hole."""
    colour = DIM_INK if dim else INK
    for name, label_x, holes in peg_rows(x, y, ch, holes_max):
        text(draw, (label_x, y), ABBREVIATIONS[name], 14, MUTED, "lm")
        marks.pegs(draw, holes, y, PEG, colour)


def _row(draw, x: int, y: int, cid: str, ch: dict, label: str, style, names, cards, holes_max: int) -> None:
    dim = ch.get("status") == "neutralized"
    token_style = (GREY, style[1]) if dim else style
    draw_token(draw, x + 32, y + 32, 22, token_style, label, ch)
    title = f"{label}  {ch.get('name', cid)}"
    size = fit_size(title, COLUMN - 80, 19)
    text(draw, (x + 68, y + 6), title, size, MUTED if dim else INK)
    if dim:
        draw.line([(x + 68, y + 6 + size * 0.62), (x + 68 + text_width(title, size),
                                                     y + 6 + size * 0.62)], fill=INK, width=2)
    words = _state_words(ch, names)
    text(draw, (x + 68, y + 32), words, fit_size(words, COLUMN - 80, 15), INK if dim or ch.get("assimilated") else MUTED)
    _pegs(draw, x + 8, y + PEG_LINE, ch, dim, holes_max)
    gear = [cards[c].name if c in cards else c for c in ch.get("equipment", []) + ch.get("traits", [])]
    if gear:
        line = "Carries: " + ", ".join(gear)
        text(draw, (x + 8, y + 78), line, fit_size(line, COLUMN - 16, 14), INK)


def render_status(view: dict, seat: str | None = None) -> bytes:
    """PNG of every away team (or only `seat`'s) as the public view shows them."""
    return encode(status_image(view, seat))


def header(view: dict, pack, player: dict) -> str:
    """A player's heading: name, team (in a team game), side, points and cards in hand."""
    side = player.get("affiliation", "").replace("-", " ").title()
    team = f"{team_name(player['team'])} · " if teams_of(view) else ""
    head = f"{player['name']} · {team}{side} · {score(view, pack, player['seat'])} pts"
    if "hand_count" in player:
        head += f" · {player['hand_count']} cards in hand"
    return head


def team_columns(view: dict) -> list[dict]:
    """The players in drawing order: in a team game, alternately from each team, so that in
    two columns each team has a column of its own."""
    teams = sorted(teams_of(view).items())
    if not teams:
        return list(view.get("players", []))
    return [p for row in zip(*(members for _, members in teams)) for p in row]


def panel_layout(view: dict, seat: str | None = None):
    """(size, [(player, x, top)] for team headers, {character id: (x, top)} for rows, holes_max)."""
    characters = view.get("characters", {})
    players = [p for p in team_columns(view) if seat is None or p["seat"] == seat]
    order = sorted(characters, key=lambda cid: (characters[cid].get("status") != "in_play", cid))
    teams = [(p, [cid for cid in order if characters[cid].get("controller") == p["seat"]]) for p in players]
    holes_max = max((max(max(c.get("pegs", {}).values(), default=0), max(c.get("ratings", {}).values(), default=0))
                     for c in characters.values()), default=0)
    cols = min(2, max(1, len(teams)))
    heads, rows = [], {}
    top = GAP
    for band in range(0, len(teams), cols):
        members_max = 0
        for col, (player, members) in enumerate(teams[band:band + cols]):
            x = GAP + col * (COLUMN + GAP)
            heads.append((player, x, top))
            for k, cid in enumerate(members):
                rows[cid] = (x, top + HEADER + k * ROW)
            members_max = max(members_max, len(members))
        top += HEADER + members_max * ROW + GAP
    size = (cols * COLUMN + (cols + 1) * GAP, max(top, HEADER + 2 * GAP))
    return size, heads, rows, holes_max


def status_image(view: dict, seat: str | None = None) -> Image.Image:
    """The away-team status panel as a Pillow image (see render_status)."""
    pack = load_pack(view["pack"])
    characters = view.get("characters", {})
    labels = short_labels(characters)
    styles = side_styles(view.get("players", []))
    names = {p["seat"]: p["name"] for p in view.get("players", [])}
    size, heads, rows, holes_max = panel_layout(view, seat)
    image = canvas(size, PAPER)
    draw = pen(image)
    for player, x, top in heads:
        colour, shape = styles[player["seat"]]
        middle = top + (HEADER - 6) / 2
        draw.rounded_rectangle((x, top, x + COLUMN, top + HEADER - 6), radius=6, fill=INK)
        draw_shape(draw, shape, x + 20, middle, 10, colour, outline=WHITE, width=2)
        head = header(view, pack, player)
        text(draw, (x + 38, middle), head, fit_size(head, COLUMN - 50, 19), WHITE, "lm")
    taken = set(rows.values())
    for cid, (x, y) in rows.items():
        if (x, y - ROW) in taken:
            draw.line([(x + 8, y - 2), (x + COLUMN - 8, y - 2)], fill=RULE, width=1)
        ch = characters[cid]
        _row(draw, x, y, cid, ch, labels[cid], styles[ch["controller"]], names, pack.cards, holes_max)
    return image
