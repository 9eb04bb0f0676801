"""The Renegades content pack: crew, ships, fighters, boards and cards as validated data.

A pack is a folder of YAML files whose top-level sections are listed in `SECTIONS`
(see docs/renegades.md). Every entry is checked against the typed schema below, then
cross references (stations, cells on the board) are checked; a bad pack is refused
with every problem found, each with its file and path.

    python -m engine.renegades.contents.content content/renegades
"""
from __future__ import annotations

import functools
import sys
from typing import Annotated, Literal, Optional

import msgspec

from engine.packs import convert as _convert, read_sections, resolve_pack
from engine.errors import PackError

STATIONS = ("commander", "navigation", "weapons", "comms", "engineering")
SKILLS = ("leadership", "search", "piloting", "tech", "stealth", "weapons", "medical")
FACTIONS = ("renegade", "coalition")
COMMANDERS = 4  # players at most, each with a commander and its two tactical cards (N215)
SQUADRONS = ("syphon", "zurathi", "dregg")  # the order NPC squadrons act in
ARMORY = ("arc-pistol", "arc-pistol", "arc-pistol", "arc-blade", "blink-beacon")  # every ship's armory at set-up (N28)

Code = Annotated[str, msgspec.Meta(pattern=r"^[A-Z][A-Z0-9-]{0,15}$")]
Key = Annotated[str, msgspec.Meta(pattern=r"^[a-z][a-z0-9-]{0,31}$")]
Cell = Annotated[str, msgspec.Meta(pattern=r"^[A-Z][1-9][0-9]?$")]
Dice = Annotated[int, msgspec.Meta(ge=0, le=8)]
Faction = Literal["renegade", "coalition"]
Station = Literal["commander", "navigation", "weapons", "comms", "engineering"]
Direction = Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"]


class _Schema(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, frozen=True):
    pass


class Skills(_Schema):
    leadership: Dice
    search: Dice
    piloting: Dice
    tech: Dice
    stealth: Dice
    weapons: Dice
    medical: Dice


class DieBonus(_Schema):
    """+`add` to `dice` dice of a roll."""

    add: Annotated[int, msgspec.Meta(ge=1, le=5)] = 1
    dice: Annotated[int, msgspec.Meta(ge=1, le=3)] = 1


class Surface(_Schema):
    health: Annotated[int, msgspec.Meta(ge=1, le=30)]
    speed: Annotated[int, msgspec.Meta(ge=0, le=12)]
    attack: Dice
    defense: Optional[DieBonus] = None
    abilities: list[Key] = []  # codes of its special abilities on the surface (`crew_abilities`)


class StationBonus(_Schema):
    """A die bonus the crewmember gives the ship's attack or defense rolls from a station."""

    station: Station
    roll: Literal["attack", "defense"]
    add: Annotated[int, msgspec.Meta(ge=1, le=5)] = 1
    dice: Annotated[int, msgspec.Meta(ge=1, le=3)] = 1


class Crew(_Schema):
    code: Code
    name: str
    faction: Faction
    stations: Annotated[list[Station], msgspec.Meta(min_length=1, max_length=2)]
    initiative: Annotated[int, msgspec.Meta(ge=0, le=12)]
    skills: Skills
    surface: Surface
    keywords: list[Key] = []
    bonuses: list[StationBonus] = []


ABILITY_STATIONS = {"command": ("commander", "leadership"), "evasive": ("navigation", "piloting"),
                    "weakness": ("comms", "tech"), "targeting": ("weapons", "weapons"),
                    "overclock": ("engineering", "tech")}  # an ability's station and the skill tested there


class ShipAbility(_Schema):
    """A ship ability, used once a round as a free action by the crewmember at its station
    (`ABILITY_STATIONS`), who must pass a 5+ test of the station's skill. `effect`:
    command (+1 to the ship's initiative), evasive (re-roll defense dice), weakness
    (1 penetrating damage to a target), targeting (re-roll attack dice), overclock (a move
    after attacking)."""

    effect: Literal["command", "evasive", "weakness", "targeting", "overclock"]
    name: str
    text: str
    test: Annotated[int, msgspec.Meta(ge=2, le=6)] = 5  # the test passes with a die this high


class ShipBack(_Schema):
    """The back of a ship card, face up while the shields are down: the station abilities
    then (harder tests, some lost). The +1 bonuses to speed and attack are front-only."""

    abilities: list[ShipAbility] = []


class CrewAbility(_Schema):
    """A crewmember's special ability on the surface (N100). `effect`: rally (an action: a
    party member beside it gets one more action, not for an attack), mend (an action:
    a conscious crewmember of its side on or beside it heals `add` wounds), strike (a
    bonus, no action: +`add` to `dice` attack dice, on `attacks` of that kind, only
    wielding `weapon` when named), charge (a move and an attack as one action), twin (two
    attacks a round), flight (moves over terrain, levels and opponents, N109). `test`: the
    test an action ability makes; failed, the action is kept but the ability is spent for
    the round. `once`: one use a round."""

    code: Key
    name: str
    effect: Literal["rally", "mend", "strike", "charge", "twin", "flight"]
    text: str
    test: Optional[Test] = None
    add: Annotated[int, msgspec.Meta(ge=1, le=5)] = 1
    dice: Annotated[int, msgspec.Meta(ge=1, le=3)] = 1
    attacks: Literal["all", "melee", "ranged"] = "all"
    weapon: Optional[Key] = None
    once: bool = False


class Ship(_Schema):
    code: Code
    name: str
    faction: Faction
    capacity: Annotated[int, msgspec.Meta(ge=5, le=12)]
    range: Annotated[int, msgspec.Meta(ge=1, le=15)]
    shields: Annotated[int, msgspec.Meta(ge=1, le=30)]
    hull: Annotated[int, msgspec.Meta(ge=1, le=30)]
    class_: str = msgspec.field(name="class", default="")
    abilities: list[ShipAbility] = []
    back: Optional[ShipBack] = None  # required by the validator: the card's other side


class Fighter(_Schema):
    code: Key
    name: str
    squadron: Literal["syphon", "zurathi", "dregg"]
    pool: Annotated[int, msgspec.Meta(ge=1, le=6)]
    attack: Dice
    speed: Annotated[int, msgspec.Meta(ge=1, le=12)]
    range: Annotated[int, msgspec.Meta(ge=1, le=15)]
    health: Annotated[int, msgspec.Meta(ge=1, le=20)]


class Planet(_Schema):
    code: Key
    name: str
    cells: Annotated[list[Cell], msgspec.Meta(min_length=1)]
    home: Optional[Faction] = None
    mission: bool = False
    launch: list[Cell] = []
    facing: Direction = "N"


class Location(_Schema):
    """A tile of the board: a rectangle `from`-`to`, one card of the location deck."""

    code: Key
    name: str
    from_: Cell = msgspec.field(name="from")
    to: Cell
    ceiling: Literal["open", "high", "low"] = "open"  # indoors: low keeps giant creatures out (N108)


class Orbit(_Schema):
    name: str
    width: Annotated[int, msgspec.Meta(ge=5, le=26)]
    height: Annotated[int, msgspec.Meta(ge=5, le=26)]
    planets: list[Planet]
    locations: Annotated[list[Location], msgspec.Meta(min_length=1)]
    obstructed: list[Cell] = []
    blocking: list[Cell] = []
    salvage: list[Cell] = []


class SurfaceBoard(_Schema):
    code: Key
    name: str
    width: Annotated[int, msgspec.Meta(ge=5, le=26)]
    height: Annotated[int, msgspec.Meta(ge=5, le=26)]
    docks: list[Cell]
    locations: Annotated[list[Location], msgspec.Meta(min_length=1)]
    blocking: list[Cell] = []
    obstructed: list[Cell] = []
    water: list[Cell] = []
    containers: list[Cell] = []
    elevated: list[Cell] = []  # raised ground, reached by its steps or by flight (N106)
    sunken: list[Cell] = []  # a pit, reached by its steps, flight or a leap (N106, N107)
    doorways: list[Cell] = []  # gaps in a wall: walked through, but shots and scans do not pass (N161)
    steps: list[Cell] = []  # squares of raised or sunken ground with steps to the level beside them
    home: Optional[Faction] = None  # a home planet's surface: the tier 3 run's board (N170)
    base: list[Cell] = []  # a home surface: the employer's base, where the findings are delivered
    guards: list[Guard] = []  # a home surface: the figures posted on it when the run starts (N147)


POSITION_CODES = {"nw", "n", "ne", "w", "c", "e", "sw", "s", "se"}  # a built board's nine tiles
POSITIONS = {"corner": ("nw", "ne", "se", "sw"), "side": ("n", "e", "s", "w"), "center": ("c",)}
TURNS = {"nw": 0, "n": 0, "c": 0, "ne": 1, "e": 1, "se": 2, "s": 2, "sw": 3, "w": 3}  # quarter turns clockwise
DOCK_GAP = 4  # squares at least between a container and every dock, as far as its tile allows (N195)


class SurfaceLocation(_Schema):
    """A surface location card (N124): one side of a tile of a board built from cards. Its
    squares are the tile's own (A1 its north-west square), drawn as placed in the north-west
    corner (`corner`, A1 is then the board's corner and its dock), on the north side (`side`,
    row 1 on the board's edge) or in the centre; on other positions the tile is turned."""

    code: Key
    name: str
    type: Literal["corner", "side", "center"]
    tile: Key  # the physical tile: its two sides are two cards, only one of them placed
    board: Key  # the surface board whose frame (size, docks, tile areas) it fits
    blocking: list[Cell] = []
    obstructed: list[Cell] = []
    water: list[Cell] = []
    containers: list[Cell] = []
    doorways: list[Cell] = []  # gaps in a wall: walked through, but shots and scans do not pass (N161)
    elevated: list[Cell] = []  # raised ground, as on a fixed board (N106, N128)
    sunken: list[Cell] = []
    steps: list[Cell] = []
    ceiling: Literal["open", "high", "low"] = "open"  # the tile's, on a built board (N108, N128)


class OrbitLocation(_Schema):
    """An orbital location card (N124): one side of a tile of the orbital board built from
    cards, drawn and turned like a surface location card. The planets and launch squares
    lie over the tiles: terrain a card puts there does not count."""

    code: Key
    name: str
    type: Literal["corner", "side", "center"]
    tile: Key
    blocking: list[Cell] = []
    obstructed: list[Cell] = []
    salvage: list[Cell] = []


class Weapon(_Schema):
    """A surface weapon; a thrown one (a grenade, N192) makes an attack of `attack` dice on
    everyone within `blast` squares of where it lands, and is spent."""

    code: Key
    name: str
    type: Literal["ranged", "melee", "thrown"]
    kind: Literal["pistol", "rifle", "melee", "grenade"]
    range: Annotated[int, msgspec.Meta(ge=1, le=15)]
    bonus: Optional[DieBonus] = None
    attack: Dice = 0
    blast: Annotated[int, msgspec.Meta(ge=0, le=2)] = 0


class SearchItem(_Schema):
    """What a container holds."""

    code: Key
    name: str
    kind: Literal["loot", "weapon", "trap", "heal", "empty"]
    value: Annotated[int, msgspec.Meta(ge=0)] = 0
    weapon: Optional[Key] = None
    attack: Dice = 0
    heal: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0


class SalvageItem(_Schema):
    """What a salvage token in orbit holds; `count` copies go into the salvage deck.
    scrap: worth `value` digits; parts: repair `repair` damage; explosive: `attack` red dice
    on the ship that collects it unscanned; empty: nothing."""

    code: Key
    name: str
    kind: Literal["scrap", "parts", "explosive", "empty"]
    count: Annotated[int, msgspec.Meta(ge=1, le=30)] = 1
    value: Annotated[int, msgspec.Meta(ge=0)] = 0
    repair: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0
    attack: Dice = 0


class Villain(_Schema):
    """A non-player figure of the surface: a villain commander or warrior, a creature or a drone."""

    code: Code
    name: str
    species: Key
    rank: Literal["commander", "warrior", "creature", "drone"]
    pool: Annotated[int, msgspec.Meta(ge=1, le=6)]
    health: Annotated[int, msgspec.Meta(ge=1, le=30)]
    speed: Annotated[int, msgspec.Meta(ge=0, le=12)]
    attack: Dice
    range: Annotated[int, msgspec.Meta(ge=1, le=15)]
    search: Dice
    defense: Optional[DieBonus] = None
    escort: Optional[Code] = None
    keywords: list[Key] = []  # giant: kept out of low-ceilinged tiles (N108)


class Test(_Schema):
    skill: Literal["leadership", "search", "piloting", "tech", "stealth", "weapons", "medical"]
    station: Optional[Station] = None
    target: Annotated[int, msgspec.Meta(ge=2, le=6)] = 5


class Tactical(_Schema):
    """A commander's tactical card. `effect` names what a surface card does in play
    and orbital): extra-move (one more square to a crewmember's moves this round), aim (+1
    to one attack die this round, a crewmember beside the commander), fall-back (no elude
    tests this round), cover (+1 to one defense die of a crewmember this round); orbital: burn
    (after a move, another move of up to half the ship's speed), brace (+1 to one defense die
    of the ship for the rest of the round), lock (re-roll the lowest attack die of the ship's
    next attack this round), press (one more die on the ship's next attack this round)."""

    code: Key
    name: str
    type: Literal["orbital", "surface"]
    test: Test
    text: str
    effect: Optional[Literal["extra-move", "aim", "fall-back", "cover", "burn", "brace", "lock", "press"]] = None


class Parameter(_Schema):
    """The mission parameter: in the container on `cell`, or a person standing there
    (courier: a leadership test to win over), or lying there (data: a tech test to take;
    sample: a medical test, N110)."""

    kind: Literal["container", "courier", "data", "sample"]
    cell: Cell
    name: str


class Guard(_Schema):
    villain: Code
    cell: Cell


class BuiltPlacement(_Schema):
    """Where a mission's parameter lies and its guards stand on a built board, when its
    fixed board has them off the centre tile (N127)."""

    cell: Cell
    guards: list[Guard] = []


class Mission(_Schema):
    code: Key
    name: str
    campaigns: list[Key]
    reward: Annotated[int, msgspec.Meta(ge=0)]
    story: str
    setup: str
    parameter: Parameter
    center: Key  # built boards: the surface location card its centre needs (N124)
    surface: Key = "veyra-outpost"
    guards: list[Guard] = []
    built: Optional[BuiltPlacement] = None  # its squares on a built board, if not the fixed ones (N127)

    def placement(self, built: bool) -> tuple[str, list[Guard]]:
        """The parameter's square and the guards on the board in play: fixed, or built (N127)."""
        if built and self.built is not None:
            return self.built.cell, self.built.guards
        return self.parameter.cell, self.guards


class WorldEffect(_Schema):
    kind: Literal["story", "damage", "repair", "fighters", "enemies", "fire", "weather"]  # fire: a square burns (N111)
    area: Literal["all", "obstructed"] = "all"
    amount: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0
    squadron: Optional[Literal["syphon", "zurathi", "dregg"]] = None
    villain: Optional[Code] = None  # enemies: the figures rolled for
    commander: Optional[Code] = None  # enemies: a commander placed whatever the roll
    most: Annotated[int, msgspec.Meta(ge=0, le=6)] = 0
    table: list[Annotated[int, msgspec.Meta(ge=0, le=6)]] = []  # enemies: how many for each face of the die (N214)
    also: Optional[Code] = None  # enemies of two species: the second rolled for on its own, elsewhere (N214)
    also_most: Annotated[int, msgspec.Meta(ge=0, le=6)] = 0
    also_table: list[Annotated[int, msgspec.Meta(ge=0, le=6)]] = []
    stealth: Annotated[int, msgspec.Meta(ge=0, le=6)] = 0  # weather: the face stealth tests need next round (N160)
    sight: Annotated[int, msgspec.Meta(ge=0, le=12)] = 0  # weather: how far anybody sees next round (N160)


class WorldEvent(_Schema):
    code: Key
    name: str
    where: Literal["orbit", "surface"]
    text: str
    effect: WorldEffect
    keywords: list[Key] = []


class Ending(_Schema):
    """The epic ending a campaign title leads to (see content/renegades/campaign.yaml)."""

    name: str
    kind: Literal["alliance", "showdown", "race"]
    text: str


class CampaignTitle(_Schema):
    """One of the campaign titles printed on mission cards."""

    code: Key
    name: str
    ending: Ending


class GearEffect(_Schema):
    """What a gear item does on the surface (N180-N185). `kind`: blink (an action: its
    carrier goes back aboard its own ship, wherever it is), mend (an action: the carrier or
    a conscious friend beside it loses `heal` wounds), stealth (carried: `dice` more dice on
    every stealth test), footing (carried: every step costs one movement point). Blink and
    mend are used by command and spend a token a use; stealth and footing work by
    themselves."""

    kind: Literal["blink", "mend", "stealth", "footing"]
    heal: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0
    dice: Annotated[int, msgspec.Meta(ge=0, le=3)] = 0


USED_GEAR = ("blink", "mend")  # effects used by command, a token a use (N181)


class Gear(_Schema):
    """A card of the weapons & gear deck sold during shore leave; an item has an `effect`
    in the game and `text` saying it in a sentence."""

    code: Key
    name: str
    kind: Literal["weapon", "item"]
    cost: Annotated[int, msgspec.Meta(ge=0)]
    energy: Optional[Annotated[int, msgspec.Meta(ge=1, le=10)]] = None  # None: never runs down
    count: Annotated[int, msgspec.Meta(ge=1, le=10)] = 1
    effect: Optional[GearEffect] = None
    text: str = ""

    @property
    def used(self) -> bool:
        """Used by command, spending a token each time (N181), rather than working by itself."""
        return self.effect is not None and self.effect.kind in USED_GEAR


class Upgrade(_Schema):
    """A card of the upgrade deck: crew training (a skill) or a ship component (a stat)."""

    code: Key
    name: str
    target: Literal["crew", "ship"]
    add: Annotated[int, msgspec.Meta(ge=1, le=5)]
    cost: Annotated[int, msgspec.Meta(ge=0)]
    xp: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0
    skill: Optional[Literal["leadership", "search", "piloting", "tech", "stealth", "weapons", "medical"]] = None
    stat: Optional[Literal["range", "shields", "hull"]] = None
    keyword: Optional[Key] = None  # crew: only crew with this keyword or station


class ShoreLeave(_Schema):
    """Shore leave prices the rulebook leaves open (rulings N84, N87, N176, N216)."""

    recruit: Annotated[int, msgspec.Meta(ge=0)]
    ransom: Annotated[int, msgspec.Meta(ge=0)]
    starting_digits: Annotated[int, msgspec.Meta(ge=0)] = 0
    energy: Annotated[int, msgspec.Meta(ge=0)] = 10  # digits an energy token (N176)
    failure: Annotated[int, msgspec.Meta(ge=0)] = 0  # digits a player of the side that lost a mission pays (N216)


class PackInfo(_Schema):
    name: str
    version: str
    ruleset: Literal["renegades"]  # so tools of other rulesets pass the pack by
    description: str = ""


SECTIONS = {"crew": Crew, "ships": Ship, "fighters": Fighter, "surfaces": SurfaceBoard,
            "surface_locations": SurfaceLocation, "orbit_locations": OrbitLocation,
            "tactical": Tactical, "missions": Mission, "world_events": WorldEvent,
            "weapons": Weapon, "search_items": SearchItem, "villains": Villain,
            "salvage": SalvageItem, "crew_abilities": CrewAbility,
            "campaigns": CampaignTitle, "gear": Gear, "upgrades": Upgrade}


class Pack(msgspec.Struct, frozen=True):
    info: PackInfo
    path: str
    orbit: Orbit
    crew: dict[str, Crew]
    ships: dict[str, Ship]
    fighters: dict[str, Fighter]
    surfaces: dict[str, SurfaceBoard]
    surface_locations: dict[str, SurfaceLocation]
    orbit_locations: dict[str, OrbitLocation]
    tactical: dict[str, Tactical]
    missions: dict[str, Mission]
    world_events: dict[str, WorldEvent]
    weapons: dict[str, Weapon]
    search_items: dict[str, SearchItem]
    salvage: dict[str, SalvageItem]
    crew_abilities: dict[str, CrewAbility]
    villains: dict[str, Villain]
    campaigns: dict[str, CampaignTitle]
    gear: dict[str, Gear]
    upgrades: dict[str, Upgrade]
    shore_leave: ShoreLeave

    def used_by_command(self, code: str) -> bool:
        """Whether `code` is gear used by command, spending a token a use (N181)."""
        card = self.gear.get(code)
        return card is not None and card.used


@functools.lru_cache(maxsize=1024)
def cell_xy(cell: str) -> tuple[int, int]:
    """'H8' -> (7, 7): zero-based column and row."""
    return ord(cell[0]) - ord("A"), int(cell[1:]) - 1


def xy_cell(x: int, y: int) -> str:
    return f"{chr(ord('A') + x)}{y + 1}"


def turned(cell: str, turns: int, size: int) -> tuple[int, int]:
    """A tile's square turned `turns` quarter turns clockwise: (x, y) within the tile."""
    x, y = cell_xy(cell)
    for _ in range(turns):
        x, y = size - 1 - y, x
    return x, y


def placed(cell: str, position: str, area) -> str:
    """A location card's square on the board, its card turned to `position` in the tile `area`."""
    (x0, y0), (x1, _) = cell_xy(area.from_), cell_xy(area.to)
    x, y = turned(cell, TURNS[position], x1 - x0 + 1)
    return xy_cell(x0 + x, y0 + y)


def _gap(a: str, b: str) -> int:
    """Squares between two squares, a diagonal step counting one."""
    (ax, ay), (bx, by) = cell_xy(a), cell_xy(b)
    return max(abs(ax - bx), abs(ay - by))


def _tile_squares(area) -> list[str]:
    (x0, y0), (x1, y1) = cell_xy(area.from_), cell_xy(area.to)
    return [xy_cell(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]


def _dock_gap_problems(where: str, containers: list[str], docks: list[str], areas: list) -> list[str]:
    """N195: a container lies at least DOCK_GAP squares from every dock, or, where no square
    of its tile is that far from a dock (a corner tile round its own dock), as far as any."""
    problems = []
    for cell in containers:
        squares = next((_tile_squares(a) for a in areas if cell in _tile_squares(a)), [cell])
        for dock in docks:
            wanted = min(DOCK_GAP, max(_gap(c, dock) for c in squares))
            if _gap(cell, dock) < wanted:
                problems.append(f"{where}: the container {cell} is {_gap(cell, dock)} squares from the dock {dock}; "
                                f"a container lies at least {DOCK_GAP} from every dock, or as far as its tile "
                                "allows (N195)")
    return problems


def load_pack(path: str) -> Pack:
    """Load and validate the pack in folder `path`; raise PackError listing every problem."""
    return _load(resolve_pack(path))


@functools.lru_cache(maxsize=8)
def _load(path: str) -> Pack:
    problems: list[str] = []
    raw = read_sections(path, set(SECTIONS) | {"pack", "orbit", "shore_leave"}, problems)
    for needed in ("pack", "orbit", "shore_leave", *SECTIONS):
        if needed not in raw:
            problems.append(f"pack: no {needed} section")
    info = _convert(raw.get("pack"), "pack", PackInfo, problems)
    orbit = _convert(raw.get("orbit"), "orbit", Orbit, problems)
    shore_leave = _convert(raw.get("shore_leave"), "shore_leave", ShoreLeave, problems)
    sections: dict[str, dict] = {}
    for section, schema in SECTIONS.items():
        file, body = raw.get(section, ("?", []))
        if not isinstance(body, list):
            problems.append(f"{file}: $.{section}: expected a list")
            body = []
        entries: dict = {}
        for index, entry in enumerate(body):
            value = _convert((file, entry), f"{section}[{index}]", schema, problems)
            if value is None:
                continue
            if value.code in entries:
                problems.append(f"{file}: $.{section}[{index}].code: '{value.code}' is used twice")
            entries[value.code] = value
        sections[section] = entries
    if problems or info is None or orbit is None or shore_leave is None:
        raise PackError(problems or ["pack: could not be read"])
    pack = Pack(info=info, path=path, orbit=orbit, shore_leave=shore_leave, **sections)
    problems = _cross_check(pack)
    if problems:
        raise PackError(problems)
    return pack



def _location_problems(pack: "Pack") -> list[str]:
    """Location cards (N124): surface cards on a board with nine tiles named by position,
    one container each, a corner's dock square open; every card inside its tile, two cards
    at most to a tile of one type, enough tiles for a centre, four sides and four corners;
    a mission's centre card holds its parameter and guards."""
    sizes = {code: _tile_size(b) for code, b in pack.surfaces.items()
             if {loc.code for loc in b.locations} == POSITION_CODES}
    orbit_codes = {loc.code for loc in pack.orbit.locations}
    problems = _deck_problems("surface_locations", pack.surface_locations.values(), lambda c: c.board, sizes)
    if pack.orbit_locations:
        problems += _deck_problems("orbit_locations", pack.orbit_locations.values(), lambda c: "orbit",
                                   {"orbit": _tile_size(pack.orbit)} if orbit_codes == POSITION_CODES else {})
    for card in pack.surface_locations.values():
        where = f"surface_locations.{card.code}"
        if len(card.containers) != 1:
            problems.append(f"{where}: a tile has one container, not {len(card.containers)}")
        problems += _doorway_problems(where, card) + _steps_problems(where, card)
        if card.type == "corner" and "A1" in (card.blocking + card.obstructed + card.water + card.containers
                                             + card.elevated + card.sunken):
            problems.append(f"{where}: A1 is the corner's dock and must stay open ground")
        board = pack.surfaces.get(card.board)
        if board is not None and card.board in sizes:
            areas = {loc.code: loc for loc in board.locations}
            for position in POSITIONS[card.type]:
                problems += _dock_gap_problems(f"{where} ({position})", [placed(c, position, areas[position])
                                                                         for c in card.containers],
                                               board.docks, [areas[position]])
    for mission in pack.missions.values():
        card = pack.surface_locations.get(mission.center)
        if card is None or card.type != "center" or card.board != mission.surface:
            problems.append(f"missions.{mission.code}: no centre location card '{mission.center}' of {mission.surface}")
            continue
        problems += _centre_problems(mission, card, pack.surfaces[mission.surface])
    return problems


def _guard_problems(pack: Pack, where: str, guards: list[Guard]) -> list[str]:
    return [f"{where}: no villain '{guard.villain}'" for guard in guards if guard.villain not in pack.villains]


def _doorway_problems(where: str, board) -> list[str]:
    """N161: a doorway is an open square set in a wall, with blocking squares on both sides
    of it (west and east, or north and south)."""
    problems = []
    closed = set(board.blocking) | set(board.obstructed) | set(board.water) | set(board.containers)
    for cell in board.doorways:
        x, y = cell_xy(cell)
        if cell in closed:
            problems.append(f"{where}: the doorway {cell} must be an open square")
        elif not any({xy_cell(x - dx, y - dy), xy_cell(x + dx, y + dy)} <= set(board.blocking)
                     for dx, dy in ((1, 0), (0, 1))):
            problems.append(f"{where}: the doorway {cell} is not set in a wall (blocking squares on two opposite sides)")
    return problems


def _steps_problems(where: str, board) -> list[str]:
    """N106: steps lie on raised or sunken ground."""
    return [f"{where}: steps at {cell}, which is neither elevated nor sunken" for cell in board.steps
            if cell not in board.elevated and cell not in board.sunken]


def _deck_problems(section: str, cards, board_of, sizes: dict[str, int]) -> list[str]:
    """One section's location cards: each on a board with the nine tiles (board -> tile
    size), its squares inside its tile, two sides of one type at most to a tile, and enough
    tiles of each type."""
    problems = []
    tiles: dict[str, list] = {}
    for card in cards:
        board = board_of(card)
        if board not in sizes:
            problems.append(f"{section}.{card.code}: no board '{board}' with the nine tiles {sorted(POSITION_CODES)}")
            continue
        size = sizes[board]
        cells = [c for field in ("blocking", "obstructed", "water", "containers", "salvage", "elevated", "sunken")
                 for c in getattr(card, field, [])]
        problems += [f"{section}.{card.code}: {c} is off its {size}x{size} tile" for c in cells
                     if max(cell_xy(c)) >= size]
        tiles.setdefault(f"{board}/{card.tile}", []).append(card)
    for tile, found in tiles.items():
        if len(found) > 2 or len({c.type for c in found}) > 1:
            problems.append(f"{section}: tile {tile} has {len(found)} sides of types "
                            f"{sorted({c.type for c in found})} (two sides of one type at most)")
    for board in {key.split("/")[0] for key in tiles}:
        for kind, wanted in (("corner", 4), ("side", 4), ("center", 1)):
            have = {key for key, found in tiles.items() if key.startswith(board + "/") and found[0].type == kind}
            if len(have) < wanted:
                problems.append(f"{section}: the {board} board needs {wanted} {kind} tiles, not {len(have)}")
    return problems


def _tile_size(board) -> int:
    """The side of a board's square tiles (its centre tile's width)."""
    centre = next(loc for loc in board.locations if loc.code == "c")
    return cell_xy(centre.to)[0] - cell_xy(centre.from_)[0] + 1


def _centre_problems(mission, card: "SurfaceLocation", board: SurfaceBoard) -> list[str]:
    """The parameter's container and the guards' squares of a built board (N127) on the
    centre card, placed."""
    centre = next(loc for loc in board.locations if loc.code == "c")
    x0, y0 = cell_xy(centre.from_)

    def placed(cells):
        return {xy_cell(x0 + cell_xy(c)[0], y0 + cell_xy(c)[1]) for c in cells}
    problems = []
    cell, guards = mission.placement(built=True)
    (cx0, cy0), (cx1, cy1) = cell_xy(centre.from_), cell_xy(centre.to)
    outside = [c for c in [g.cell for g in guards] + [cell]
               if not (cx0 <= cell_xy(c)[0] <= cx1 and cy0 <= cell_xy(c)[1] <= cy1)]
    if outside:
        problems.append(f"missions.{mission.code}: {', '.join(outside)} off the centre tile "
                        f"{centre.from_}-{centre.to}, which a built board takes from '{card.code}' (N124); "
                        "give the mission its squares on a built board (`built`, N127)")
    if mission.parameter.kind == "container" and cell not in placed(card.containers):
        problems.append(f"missions.{mission.code}: {cell} is no container of '{card.code}'")
    for c in [g.cell for g in guards] + ([cell] if mission.parameter.kind != "container" else []):
        if c in placed(card.blocking + card.containers):
            problems.append(f"missions.{mission.code}: {c} is not open on '{card.code}'")
    return problems


def _card_problems(ship: Ship) -> list[str]:
    """A ship card has two sides, each with an ability at most once per effect."""
    problems = [] if ship.back is not None else [f"ships.{ship.code}: the card needs a back side (`back`)"]
    for side, found in (("front", ship.abilities), ("back", ship.back.abilities if ship.back else [])):
        effects = [a.effect for a in found]
        problems += [f"ships.{ship.code}: the {side} has '{e}' twice" for e in sorted(set(effects))
                     if effects.count(e) > 1]
    return problems

def _cross_check(pack: Pack) -> list[str]:
    problems = []
    orbit = pack.orbit

    def off_board(cells, width, height, where):
        for cell in cells:
            x, y = cell_xy(cell)
            if not (0 <= x < width and 0 <= y < height):
                problems.append(f"{where}: {cell} is off the {width}x{height} board")

    off_board(orbit.obstructed + orbit.blocking + orbit.salvage, orbit.width, orbit.height, "orbit")
    for planet in orbit.planets:
        off_board(planet.cells + planet.launch, orbit.width, orbit.height, f"orbit.planets.{planet.code}")
    for location in orbit.locations:
        off_board([location.from_, location.to], orbit.width, orbit.height, f"orbit.locations.{location.code}")
    for faction in FACTIONS:
        homes = [p for p in orbit.planets if p.home == faction]
        if len(homes) != 1 or not homes[0].launch:
            problems.append(f"orbit.planets: the {faction} faction needs exactly one home with launch squares")
        if not any(s.faction == faction for s in pack.ships.values()):
            problems.append(f"ships: no {faction} ship")
    for ship in pack.ships.values():
        problems += _card_problems(ship)
    problems += _location_problems(pack)
    if not any(p.mission for p in orbit.planets):
        problems.append("orbit.planets: no mission planet")
    for board in pack.surfaces.values():
        off_board(board.docks + board.blocking + board.obstructed + board.water + board.containers
                  + board.elevated + board.sunken + board.base, board.width, board.height, f"surfaces.{board.code}")
        if bool(board.home) != bool(board.base):
            problems.append(f"surfaces.{board.code}: a home surface needs its base, and only a home surface has one")
        off_board(board.doorways, board.width, board.height, f"surfaces.{board.code}")
        where = f"surfaces.{board.code}"
        problems += _doorway_problems(where, board) + _steps_problems(where, board)
        problems += _dock_gap_problems(where, board.containers, board.docks, board.locations)
        for location in board.locations:
            off_board([location.from_, location.to], board.width, board.height,
                      f"surfaces.{board.code}.locations.{location.code}")
        problems += _guard_problems(pack, f"surfaces.{board.code}", board.guards)
        if board.guards and not board.home:
            problems.append(f"surfaces.{board.code}: only a home surface posts guards of its own (N147)")
        closed = set(board.blocking) | set(board.water) | set(board.containers) | set(board.docks) | set(board.base)
        for guard in board.guards:
            if guard.cell in closed:
                problems.append(f"surfaces.{board.code}: the guard's square {guard.cell} is not open ground")
    for faction in ("renegade", "coalition"):
        if sum(1 for b in pack.surfaces.values() if b.home == faction) != 1:
            problems.append(f"surfaces: the {faction} faction needs exactly one home surface (the tier 3 run, N170)")
    for mission in pack.missions.values():
        board = pack.surfaces.get(mission.surface)
        if board is None:
            problems.append(f"missions.{mission.code}: no surface board '{mission.surface}'")
        elif mission.parameter.kind == "container" and mission.parameter.cell not in board.containers:
            problems.append(f"missions.{mission.code}: no container on {mission.parameter.cell}")
        problems += _guard_problems(pack, f"missions.{mission.code}",
                                    mission.guards + (mission.built.guards if mission.built else []))
        for title in mission.campaigns:
            if title not in pack.campaigns:
                problems.append(f"missions.{mission.code}: unknown campaign title '{title}'")
    for event in pack.world_events.values():
        if event.effect.kind == "weather" and not (event.effect.stealth or event.effect.sight):
            problems.append(f"world_events.{event.code}: a weather card changes stealth or sight")
        for code in (event.effect.villain, event.effect.commander, event.effect.also):
            if code is not None and code not in pack.villains:
                problems.append(f"world_events.{event.code}: no villain '{code}'")
        if event.effect.also is not None and (event.effect.kind != "enemies"
                                              or not (event.effect.also_most or event.effect.also_table)):
            problems.append(f"world_events.{event.code}: a second species comes on an enemies card, with its "
                            "`also_most` or `also_table`")
        if any(len(t) not in (0, 6) for t in (event.effect.table, event.effect.also_table)):
            problems.append(f"world_events.{event.code}: a roll table gives a number for each of the six faces")
    for weapon in pack.weapons.values():
        if (weapon.type == "thrown") != (weapon.kind == "grenade") or (weapon.type == "thrown") != bool(weapon.attack):
            problems.append(f"weapons.{weapon.code}: a grenade is thrown, with attack dice, and only it")
    for item in pack.search_items.values():
        if item.kind == "weapon" and item.weapon not in pack.weapons:
            problems.append(f"search_items.{item.code}: no weapon '{item.weapon}'")
    for item in pack.salvage.values():
        needed = {"scrap": item.value, "parts": item.repair, "explosive": item.attack}.get(item.kind, 1)
        if not needed:
            problems.append(f"salvage.{item.code}: a {item.kind} token needs its amount")
    for card in pack.tactical.values():
        orbital = card.effect in ("burn", "brace", "lock", "press")
        if card.effect is not None and orbital != (card.type == "orbital"):
            problems.append(f"tactical.{card.code}: effect '{card.effect}' is not for a {card.type} card")
    for kind in ("orbital", "surface"):  # N215: each of four commanders takes one of each
        dealt = sum(1 for card in pack.tactical.values() if card.type == kind)
        if dealt < COMMANDERS:
            problems.append(f"tactical: {dealt} {kind} cards; each of {COMMANDERS} commanders takes one (N215)")
    for villain in pack.villains.values():
        if villain.escort is not None and villain.escort not in pack.villains:
            problems.append(f"villains.{villain.code}: no escort '{villain.escort}'")
    for needed in ARMORY:
        if needed not in pack.weapons and needed not in pack.gear:
            problems.append(f"weapons: the armory needs '{needed}'")
    for gear in pack.gear.values():
        problems += _gear_problems(pack, gear)
    for upgrade in pack.upgrades.values():
        wanted = "skill" if upgrade.target == "crew" else "stat"
        if getattr(upgrade, wanted) is None or (upgrade.skill and upgrade.stat):
            problems.append(f"upgrades.{upgrade.code}: a {upgrade.target} upgrade names a {wanted} (and only that)")
    for ability in pack.crew_abilities.values():
        if ability.weapon is not None and ability.weapon not in pack.weapons:
            problems.append(f"crew_abilities.{ability.code}: no weapon '{ability.weapon}'")
        if (ability.test is not None) != (ability.effect == "mend"):
            problems.append(f"crew_abilities.{ability.code}: a mend ability has a test, the others none")
    for crew in pack.crew.values():
        for code in crew.surface.abilities:
            if code not in pack.crew_abilities:
                problems.append(f"crew.{crew.code}: no crew ability '{code}'")
        for bonus in crew.bonuses:
            if bonus.station not in crew.stations:
                problems.append(f"crew.{crew.code}: a bonus at {bonus.station}, not one of its stations")
    return problems


def _gear_problems(pack: Pack, gear: Gear) -> list[str]:
    """A weapon card names a surface weapon; an item card has an effect, its text, the
    number its effect needs, and tokens when it is used by command (N180, N181)."""
    where = f"gear.{gear.code}"
    if gear.kind == "weapon":
        return [] if gear.code in pack.weapons else [f"{where}: a weapon card with no surface weapon '{gear.code}'"]
    effect = gear.effect
    if effect is None or not gear.text:
        return [f"{where}: an item needs its `effect` and `text`"]
    needed = {"mend": "heal", "stealth": "dice"}.get(effect.kind)
    problems = [f"{where}: a {effect.kind} item needs `{needed}`"] if needed and not getattr(effect, needed) else []
    if gear.used and gear.energy is None:
        problems.append(f"{where}: an item used by command runs down: it needs `energy`")
    return problems


def main(argv: list[str]) -> int:
    path = argv[0] if argv else "content/renegades"
    try:
        pack = load_pack(path)
    except PackError as error:
        print("\n".join(error.problems))
        return 1
    print(f"ok    {path}: {len(pack.crew)} crew, {len(pack.ships)} ships, {len(pack.fighters)} fighters, "
          f"{len(pack.world_events)} world events")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
