"""Renegades crew and ship status: each hero ship's shields and hull as peg rows, whether
it is critically damaged, where it is, who holds each station, and the crew aboard off
station or gone down to the planet (the view's crew fields `cell`, `room`, `wounds`,
`ko`); then, when there are any, the gear its crew carry (crew `gear`, with the tokens left
on each copy of gear used by command, `energy`), the weapons and gear items left
in its armory (`armory`), its campaign upgrades (crew and ship `upgrades`) and the
prisoners in its brig (crew of the other side with `captive`); the NPC fighters in play
on one line.

A shield or hull point left is a solid dot and a lost one a ring, so damage reads
without colour; shields down and critical damage are also said in words, with the side of
the ship card face up (the back while the shields are down, N121).
"""
from __future__ import annotations

from collections import Counter

from PIL import Image

from engine.renegades.contents.content import STATIONS, load_pack
from images import marks
from images.orbit import FACTION_NAMES, ship_labels, ships_of, style_of
from images.style import (DIM_INK, HAZARD, INK, MUTED, PAPER, RULE, WHITE, canvas, draw_shape, encode, fit_size, pen,
                          text, text_width)

WIDTH = 560
GAP = 14
HEADER = 40
LINE = 24
PEG = 6
PEG_STEP = 17
PEG_X = 110
STATION_NAMES = {"commander": "Command", "navigation": "Navigation", "weapons": "Weapons", "comms": "Comms",
                 "engineering": "Engineering"}
ROOMS = {"medbay": "Med bay", "brig": "Brig"}


def crew_lines(view: dict, code: str) -> list[tuple[str, str]]:
    """(station or state, crewmember) rows of one ship: its stations in order, then its crew
    off station: down on the planet (a surface square), in the med bay or brig, or aboard."""
    ship = view["ships"][code]
    rows = [(STATION_NAMES[s], ship["stations"][s]) for s in STATIONS if s in ship.get("stations", {})]
    rows += [("Vacant", STATION_NAMES[s]) for s in STATIONS if s not in ship.get("stations", {})]
    seated = set(ship.get("stations", {}).values())
    crew = view.get("crew", {})
    for cid in sorted(crew):
        member = crew[cid]
        if member.get("ship") != code or cid in seated or member.get("captive"):
            continue
        if member.get("boarded"):
            where = f"Boarding the {view['ships'].get(member['boarded'], {}).get('name', member['boarded'])}"
        elif member.get("cell"):
            where = f"Down at {member['cell']}"
        elif member.get("room"):
            where = ROOMS.get(member["room"], member["room"].title())
        else:
            where = "Aboard"
        rows.append((where, cid))
    return rows


def hold_lines(view: dict, code: str) -> list[tuple[str, str]]:
    """(heading, text) rows of what one ship holds beyond its crew, each only when it has
    any: Gear (who carries what), Armory (weapons aboard), Upgrades (crew and ship) and
    Brig (prisoners of the other side)."""
    names = _names(view["pack"])
    crew = view.get("crew", {})
    own = [cid for cid in sorted(crew) if crew[cid].get("ship") == code and not crew[cid].get("captive")]
    energy = view.get("energy", {})
    gear = [f"{_short(crew[c], c)}: {_carried(crew[c]['gear'], energy.get(c, {}), names)}"
            for c in own if crew[c].get("gear")]
    upgrades = [f"{_short(crew[c], c)}: {', '.join(names.get(u, u) for u in crew[c]['upgrades'])}"
                for c in own if crew[c].get("upgrades")]
    fitted = view["ships"][code].get("upgrades") or []
    if fitted:
        upgrades.append("ship: " + ", ".join(names.get(u, u) for u in fitted))
    armory = Counter(names.get(w, w) for w in view.get("armory", {}).get(code, []))
    brig = [f"{_who(view, c)}, {FACTION_NAMES.get(crew[c]['faction'], crew[c]['faction'])}"
            for c in sorted(crew) if crew[c].get("ship") == code and crew[c].get("captive")]
    rows = [("Gear", "; ".join(gear)), ("Armory", ", ".join(f"{n} x{k}" if k > 1 else n for n, k in armory.items())), ("Upgrades", "; ".join(upgrades)),
            ("Brig", "; ".join(brig))]
    return [(heading, said) for heading, said in rows if said]


def _carried(codes: list[str], tokens: dict[str, list[int]], names: dict[str, str]) -> str:
    """'Arc pistol, Field med kit (1), Emergency blink beacon (spent)': what a crewmember
    carries, with the tokens left on each copy of gear used by command (N181)."""
    left = {code: list(copies) for code, copies in tokens.items()}
    said = []
    for code in codes:
        name = names.get(code, code)
        if left.get(code):
            count = left[code].pop(0)
            name += f" ({count})" if count else " (spent)"
        said.append(name)
    return ", ".join(said)


def _names(pack_path: str) -> dict[str, str]:
    """Names of the pack's weapons, search items, gear and upgrades by code."""
    pack = load_pack(pack_path)
    return {code: card.name for deck in (pack.gear, pack.weapons, pack.search_items, pack.upgrades)
            for code, card in deck.items()}


def _short(member: dict, cid: str) -> str:
    return member.get("name", cid).split()[-1]


def _who(view: dict, cid: str) -> str:
    member = view.get("crew", {}).get(cid)
    if member is None:
        return cid
    wounds = member.get("wounds", 0)
    return (f"{member.get('name', cid)} ({cid})" + (f", {wounds} wound{'s' if wounds != 1 else ''}" if wounds else "")
            + (", unconscious" if member.get("ko") else ""))


def _card_height(view: dict, code: str) -> int:
    return HEADER + LINE * (3 + len(crew_lines(view, code)) + len(hold_lines(view, code))) + GAP


def render_ship_status(view: dict, seat: str | None = None) -> bytes:
    """PNG of every hero ship (or only `seat`'s) as the public view shows them."""
    return encode(ship_status_image(view, seat))


def shown_ships(view: dict, seat: str | None) -> list[str]:
    """Hero ships in the picture: players' in seat order, then NPC ships."""
    order = {p["seat"]: i for i, p in enumerate(view.get("players", []))}
    ships = view["ships"]
    codes = [c for c, s in ships.items() if s.get("kind") == "ship" and (seat is None or s.get("seat") == seat)]
    return sorted(codes, key=lambda c: (order.get(ships[c].get("seat"), len(order)), c))


def ship_status_image(view: dict, seat: str | None = None) -> Image.Image:
    """The status picture as a Pillow image (see render_ship_status)."""
    view = {**view, "ships": ships_of(view)}
    codes = shown_ships(view, seat)
    fighters = sorted(c for c, s in view["ships"].items() if s.get("kind") == "fighter")
    height = GAP + sum(_card_height(view, c) for c in codes) + (LINE * 2 if fighters and seat is None else 0) + GAP
    image = canvas((WIDTH, max(height, 80)), PAPER)
    draw = pen(image)
    names = {p["seat"]: p["name"] for p in view.get("players", [])}
    labels = ship_labels(view["ships"])
    top = GAP
    for code in codes:
        _card(draw, top, view, code, names, labels[code])
        top += _card_height(view, code)
    if fighters and seat is None:
        line = "Fighters: " + ", ".join(
            f"{labels[c]} {view['ships'][c].get('cell') or '?'} "
            f"({view['ships'][c]['shields'] - view['ships'][c]['damage']} health)" for c in fighters)
        text(draw, (GAP, top + LINE / 2), line, fit_size(line, WIDTH - 2 * GAP, 17), INK, "lm")
    return image


def peg_holes(x: float, total: int, left: int) -> list[tuple[float, bool]]:
    """Peg hole centres along a row from x, the first `left` of `total` filled."""
    return [(x + k * PEG_STEP, k < left) for k in range(total)]


def _card(draw, top: int, view: dict, code: str, names: dict, label: str) -> None:
    ship = view["ships"][code]
    colour, shape = style_of(ship)
    draw.rounded_rectangle((GAP, top, WIDTH - GAP, top + HEADER - 6), radius=6, fill=INK)
    middle = top + (HEADER - 6) / 2
    draw_shape(draw, shape, GAP + 20, middle, 10, colour, outline=WHITE, width=2)
    owner = names.get(ship.get("seat"), "played by the game (NPC)")
    head = f"{label}  {ship['name']} · {FACTION_NAMES.get(ship['faction'], ship['faction'])} · {owner}"
    text(draw, (GAP + 38, middle), head, fit_size(head, WIDTH - 2 * GAP - 50, 19), WHITE, "lm")
    y = top + HEADER + LINE / 2
    shields, hull, damage = ship["shields"], ship["hull"], ship["damage"]
    critical = damage >= shields + hull
    where = f"at {ship['cell']} facing {ship['facing']}" if ship.get("cell") else f"docked on {ship.get('docked')}"
    state = "CRITICALLY DAMAGED" if critical else ("shields DOWN" if damage >= shields else "shields up")
    side = "card: BACK" if damage >= shields else "card: front"  # the back's abilities while the shields are down
    line = f"{where} · {state} · {side}"
    text(draw, (GAP + 8, y), line, fit_size(line, WIDTH - 2 * GAP - 16, 17), INK, "lm")
    if critical:
        width = text_width(line, fit_size(line, WIDTH - 2 * GAP - 16, 17))
        draw.rectangle((GAP + 4, y + 10, GAP + 12 + width, y + 12), fill=HAZARD)
    for row, (name, total, left) in enumerate((("SHIELDS", shields, max(0, shields - damage)),
                                               ("HULL", hull, max(0, hull - max(0, damage - shields)))), 1):
        ry = y + row * LINE
        text(draw, (GAP + 8, ry), name, 14, MUTED, "lm")
        marks.pegs(draw, peg_holes(GAP + PEG_X, total, left), ry, PEG, DIM_INK if critical else INK)
        text(draw, (GAP + PEG_X + total * PEG_STEP + 4, ry), f"{left}/{total}", 14, MUTED, "lm")
    y += 3 * LINE
    for k, (station, cid) in enumerate(crew_lines(view, code)):
        ry = y + k * LINE
        if k:
            draw.line([(GAP + 8, ry - LINE / 2), (WIDTH - GAP - 8, ry - LINE / 2)], fill=RULE, width=1)
        text(draw, (GAP + 8, ry), station, 15, MUTED, "lm")
        who = _who(view, cid) if station != "Vacant" else f"nobody at {cid}"
        text(draw, (GAP + PEG_X, ry), who, fit_size(who, WIDTH - 2 * GAP - PEG_X - 8, 17), INK, "lm")
    y += len(crew_lines(view, code)) * LINE
    for k, (heading, said) in enumerate(hold_lines(view, code)):
        ry = y + k * LINE
        draw.line([(GAP + 8, ry - LINE / 2), (WIDTH - GAP - 8, ry - LINE / 2)], fill=RULE, width=1)
        text(draw, (GAP + 8, ry), heading.upper(), 14, MUTED, "lm")
        text(draw, (GAP + PEG_X, ry), said, fit_size(said, WIDTH - 2 * GAP - PEG_X - 8, 16), INK, "lm")
