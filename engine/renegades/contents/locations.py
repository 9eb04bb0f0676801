"""Boards built from location cards (N124): the mission's centre card, then the shuffled
location cards in order, each to the first free position of its type, the flip side of a
tile already placed and a card with no free position left discarded. A board's frame
(size, docks or planets, tile areas) is its fixed board's; the cards bring the terrain
(raised and sunken ground and steps too, N128), the containers or salvage, the tile names
and ceilings, turned to face their position."""
from __future__ import annotations

import functools

import msgspec

from engine.dice import Dice
from engine.errors import RuleError
from engine.renegades.contents.content import POSITIONS, Orbit, Pack, SurfaceBoard, load_pack, placed

TERRAIN = ("blocking", "obstructed", "water", "containers", "doorways", "elevated", "sunken", "steps")


def deal_layout(pack: Pack, board: str, center: str | None, dice: Dice) -> dict[str, str]:
    """Position -> location card for the surface board `board` built from the pack's cards."""
    return _deal({code: c for code, c in pack.surface_locations.items() if c.board == board}, center, dice, board)


def deal_orbit(pack: Pack, dice: Dice) -> dict[str, str]:
    """Position -> location card for the orbital board built from the pack's cards."""
    return _deal(dict(pack.orbit_locations), None, dice, "orbital")


def _deal(cards: dict, center: str | None, dice: Dice, board: str) -> dict[str, str]:
    layout: dict[str, str] = {}
    tiles: set[str] = set()
    if center is not None:
        layout["c"], tiles = center, {cards[center].tile}
    deck = sorted(code for code in cards if code != center)
    dice.shuffle(deck)
    for code in deck:
        card = cards[code]
        free = [p for p in POSITIONS[card.type] if p not in layout]
        if card.tile in tiles or not free:  # the flip side of a placed tile, or no room for its type
            continue
        layout[free[0]] = code
        tiles.add(card.tile)
    if len(layout) < sum(len(p) for p in POSITIONS.values()):
        raise RuleError(f"The pack's location cards cannot build the {board} board (a centre, four sides, "
                        "four corners on different tiles).")
    return layout


def _laid(cards: dict, areas: dict, layout, fields) -> tuple[dict[str, list[str]], list]:
    """Each field's squares from the cards of `layout` (position, card), turned and placed
    on their tile areas, and the areas named after their cards."""
    terrain: dict[str, list[str]] = {field: [] for field in fields}
    locations = []
    for position, card_code in layout:
        card, area = cards[card_code], areas[position]
        for field in fields:
            terrain[field] += [placed(cell, position, area) for cell in getattr(card, field)]
        locations.append(msgspec.structs.replace(area, name=card.name))
    order = list(areas)
    locations.sort(key=lambda loc: order.index(loc.code))
    return terrain, locations


@functools.lru_cache(maxsize=64)
def built_board(pack_path: str, code: str, layout: tuple[tuple[str, str], ...]) -> SurfaceBoard:
    """The surface board `code` with each tile area taken by its card of `layout`: the
    card's terrain, levels (N128) and ceiling."""
    pack = load_pack(pack_path)
    base = pack.surfaces[code]
    terrain, locations = _laid(pack.surface_locations, {loc.code: loc for loc in base.locations}, layout, TERRAIN)
    cards = {position: pack.surface_locations[card] for position, card in layout}
    locations = [msgspec.structs.replace(loc, ceiling=cards[loc.code].ceiling) for loc in locations]
    return msgspec.structs.replace(base, locations=locations, **{k: sorted(v) for k, v in terrain.items()})


@functools.lru_cache(maxsize=64)
def built_orbit(pack_path: str, layout: tuple[tuple[str, str], ...]) -> Orbit:
    """The orbital board with each tile area taken by its card of `layout`; the planets and
    launch squares stay clear of the cards' terrain."""
    pack = load_pack(pack_path)
    base = pack.orbit
    terrain, locations = _laid(pack.orbit_locations, {loc.code: loc for loc in base.locations}, layout,
                               ("blocking", "obstructed", "salvage"))
    clear = {c for p in base.planets for c in p.cells + p.launch}
    return msgspec.structs.replace(base, locations=locations,
                                   **{k: sorted(set(v) - clear) for k, v in terrain.items()})
