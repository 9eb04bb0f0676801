"""The game state of a Renegades game: plain data that serialises to JSON losslessly."""
from __future__ import annotations

from typing import Any, Optional

import msgspec

from engine.codec import StateCodec
from engine.dice import Dice


class _Data(msgspec.Struct, omit_defaults=True, gc=False):
    """Plain game data (a tree without cycles, so the garbage collector can skip it)."""


class CrewMember(_Data):
    """A crewmember: whose, which ship and station, and its wounds."""

    id: str
    name: str
    faction: str
    initiative: int
    stations: list[str]
    skills: dict[str, int]
    ship: Optional[str] = None  # the ship it serves on (a captive: the ship holding it)
    station: Optional[str] = None  # None: off station (aboard, in `room`, or on the surface)
    wounds: int = 0
    health: int = 0  # surface health: unconscious at `health` wounds
    speed: int = 0  # surface squares a move
    attack: int = 0  # surface attack dice
    defense: list[int] = []  # [add, dice] of its defense bonus, or empty
    abilities: list[str] = []  # special abilities on the surface (rally)
    cell: Optional[str] = None  # its square on the surface board; None while aboard
    boarded: Optional[str] = None  # the opposing docked ship it has boarded (fighting on its card, N114)
    room: Optional[str] = None  # aboard and off station: medbay | brig | None (crew quarters)
    ko: bool = False  # unconscious
    captive: bool = False  # held by the other side (in the med bay, then the brig)
    turned_from: Optional[str] = None  # the faction it served before it was turned
    carrying: Optional[str] = None  # an unconscious crewmember it carries
    carried_by: Optional[str] = None
    gear: list[str] = []  # weapons and search items it carries
    wielding: Optional[list[str]] = None  # the weapons in its hands (None: never set, it holds what suits, N221)
    upgrades: list[str] = []  # campaign upgrade cards trained (already added to its skills)
    hidden: bool = False  # passed a stealth test and not found since
    rounds: dict[str, int] = {}  # the round it last did a once-a-round thing: attack, scan, stealth, pinned, medbay
    hurt_by: dict[str, int] = {}  # wounds taken this round, by attacker (NPC targeting)
    assigned: Optional[str] = None  # an NPC crewmember's target this round


class Ship(_Data):
    """A hero ship (with crew stations) or an NPC fighter on the orbital board."""

    id: str
    name: str
    faction: str  # renegade | coalition | syphon | zurathi | dregg
    kind: str  # ship | fighter
    seat: Optional[str] = None  # None: a non-player ship
    cell: Optional[str] = None  # None while docked on a planet
    facing: str = "N"
    range: int = 6
    shields: int = 10
    hull: int = 6
    damage: int = 0  # shield damage first, then hull damage (a fighter's health is `shields`)
    stations: dict[str, str] = {}  # station -> crewmember id
    attack: int = 0  # fighters only: dice rolled
    speed: int = 0  # fighters only: movement points
    docked: Optional[str] = None  # the planet it is docked on
    docked_round: int = 0  # the round it descended (no ascend in the same round)
    risen_round: int = 0  # the round it last ascended (no descend in the same round, N144)
    left_from: Optional[str] = None  # the square it descended from
    attacked_round: int = 0  # the round it last attacked (one attack a round)
    hurt_by: dict[str, int] = {}  # damage taken this round, by attacker (NPC targeting)
    assigned: Optional[str] = None  # an NPC's target this round
    upgrades: list[str] = []  # campaign upgrade cards fitted (already added to its stats)
    ability_round: int = 0  # the round it last declared a ship ability (one a round)
    scan_round: int = 0  # the round it last scanned salvage (one scan a round)
    boosts: dict[str, list[int]] = {}  # effect -> [the round it holds for, dice]: abilities and tactics waiting

    @property
    def shields_up(self) -> bool:
        return self.damage < self.shields

    @property
    def hull_damage(self) -> int:
        return max(0, self.damage - self.shields)

    @property
    def critical(self) -> bool:
        """Critically damaged: damage has reached shields plus hull."""
        return self.kind == "ship" and self.damage >= self.shields + self.hull


class Figure(_Data):
    """A non-player figure on the surface: villain commander or warrior, creature, drone."""

    id: str
    code: str  # its villain card
    name: str
    species: str
    rank: str  # commander | warrior | creature | drone
    cell: str
    health: int
    speed: int
    attack: int
    range: int
    search: int
    defense: list[int] = []
    damage: int = 0
    guard: bool = False  # placed by the mission to guard its tile until roused
    escort_of: Optional[str] = None  # the commander it walks beside
    hurt_by: dict[str, int] = {}  # damage taken this round, by crewmember
    target: Optional[str] = None  # this round's target
    last_target: Optional[str] = None  # last round's target (warriors do not share two rounds running)
    engaged: Optional[str] = None  # the crewmember it fights until one falls (warriors, drones)
    boarded: Optional[str] = None  # the docked ship on whose card it fights (N163); `cell` stays its dock
    pursuing: Optional[str] = None  # a roused guard's intruder, followed out of the room (N164)
    struck: Optional[str] = None  # a commander's last victim in its path (it turns to another next time, N213)


class Objective(_Data):
    """The mission parameter: where it is and who has it."""

    kind: str  # container | courier | data | sample
    name: str
    cell: Optional[str] = None  # lying or standing on the surface (None: carried or aboard)
    sealed: bool = True  # a container parameter still shut in its container
    holder: Optional[str] = None  # the crewmember carrying it (or followed by the courier)
    ship: Optional[str] = None  # the ship it is aboard
    home: bool = False  # tier 2 and 3: brought home
    delivered: bool = False  # tier 3: handed to the employer
    run: Optional[str] = None  # tier 3: the faction whose home surface the findings cross (N170)


class Strike(_Data):
    """An attack waiting for its attacker's player to place the bonuses (N122)."""

    kind: str  # ship | crew
    attacker: str
    target: str
    seat: Optional[str]  # who places them (None: an NPC, by the written rule)
    dice: list[int]  # the red dice as first rolled
    red: list[int]  # after any re-rolls, before the bonuses
    bonuses: list[list[int]]  # [add, dice] to place
    info: dict[str, Any] = {}  # the rest of the attack: obstructed, ranged, aimed


class Draft(_Data):
    """The crew draft at set-up (N219): who picks for which ship, in what order, and the
    set-up that waits for its last pick."""

    crews: dict[str, list[str]]  # ship -> the crewmembers drafted for it so far
    pickers: dict[str, str]  # ship -> the seat choosing its crew
    order: list[str]  # the ship choosing at each pick
    config: dict[str, Any]  # the rest of the set-up (new_game's config)
    rolls: dict[str, list[int]] = {}  # ship -> its picker's dice for the order
    made: int = 0  # picks made


class Player(_Data):
    seat: str
    name: str
    faction: str
    ships: list[str]
    tactical: list[str] = []  # the commander's orbital and surface tactical cards (face up)


class Decision(_Data):
    """A pause in the game: who must answer, what kind of answer, and its details."""

    kind: str
    player: str
    info: dict[str, Any] = {}


class Turn(_Data):
    """The ship whose turn it is in the orbital phase."""

    ship: str
    actions_left: int = 2
    acted: bool = False  # an action was taken (crew may no longer change stations)
    attacked: bool = False
    moved: bool = False  # the ship moved this turn (an orbital tactical card follows a move)
    done: bool = False  # the player passed: no free move after the last action either
    crew: dict[str, int] = {}  # surface phase: actions left to each crewmember of the party


class GameState(_Data):
    """Everything about one game. `version` counts accepted commands."""

    pack: str
    seed: int
    dice: Dice
    mode: str  # versus | coop
    players: list[Player]
    crew: dict[str, CrewMember]
    ships: dict[str, Ship]
    mission: str
    tier: int = 1
    phase: str = "orbital"  # draft | landing | orbital | surface | world | event | over
    round: int = 1
    version: int = 0
    order: list[str] = []  # ship ids in this round's orbital order
    turn: int = 0  # index into order of the ship acting next
    current: Optional[Turn] = None
    pending: list[Decision] = []
    world_deck: list[str] = []  # hidden order
    world_discard: list[str] = []
    last_round: Optional[int] = None  # the round after the last world card: the final one
    world_clock: Optional[int] = None  # the round whose end drew the first world card (N20)
    location_deck: list[str] = []  # orbital locations, reshuffled after each use
    orbit_layout: dict[str, str] = {}  # built boards: tile position -> orbital location card (N124); {} the fixed board
    salvage: list[str] = []  # squares holding salvage tokens
    salvage_items: dict[str, str] = {}  # square -> what its salvage token holds (hidden until collected)
    salvage_deck: list[str] = []  # the salvage tokens not yet on the board (hidden order)
    salvage_peeks: dict[str, list[str]] = {}  # seat -> salvage squares its scans looked into (private)
    surface: str = ""  # the mission's surface board
    surface_layout: dict[str, str] = {}  # built boards: tile position -> location card (N124); {} the fixed board
    docks: dict[str, str] = {}  # ship id -> its dock square on the surface board
    containers: dict[str, str] = {}  # square -> search item inside (hidden until opened)
    peeks: dict[str, list[str]] = {}  # seat -> container squares it has scanned (private)
    dropped: dict[str, list[str]] = {}  # square -> weapons and items lying face up there (public)
    fires: list[str] = []  # burning squares of the surface (public)
    weather: Optional[str] = None  # the world card whose surface condition holds this round (N160)
    figures: dict[str, Figure] = {}  # non-player figures on the surface
    figures_made: int = 0
    surface_deck: list[str] = []  # surface locations, reshuffled after each use
    armory: dict[str, list[str]] = {}  # ship id -> weapons and gear items left aboard
    energy: dict[str, dict[str, list[int]]] = {}  # items used by command (N181): holder -> code -> tokens a copy (public)
    items_fly: bool = False  # a campaign's mission: gear items flew from the campaign armories (N125)
    objective: Optional[Objective] = None
    digits: dict[str, int] = {}  # faction -> digits earned (loot, knock-outs, rewards)
    bounties: dict[str, str] = {}  # seat -> the crewmember it hunts (secret to the other side)
    bounties_paid: list[str] = []  # seats whose bounty was paid
    fighters_made: int = 0
    strike: Optional[Strike] = None  # an attack paused for its bonuses (N122)
    result: Optional[dict[str, Any]] = None
    draft: Optional[Draft] = None  # the crew draft under way at set-up (N219)

    def player(self, seat: str) -> Player:
        for p in self.players:
            if p.seat == seat:
                return p
        raise KeyError(seat)

    @property
    def seats(self) -> list[str]:
        return [p.seat for p in self.players]


_codec = StateCodec(GameState)
to_json = _codec.to_json
from_json = _codec.from_json
clone = _codec.clone
to_builtins = _codec.to_builtins
