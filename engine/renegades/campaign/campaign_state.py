"""The state of a Renegades campaign (engine/renegades/campaign/campaign.py): plain data that
serialises to JSON losslessly, like a game's state."""
from __future__ import annotations

from typing import Any, Optional

import msgspec

from engine.codec import StateCodec
from engine.dice import Dice
from engine.errors import RuleError

PHASES = ("briefing", "mission", "shore_leave", "over", "abandoned")


class _Data(msgspec.Struct, omit_defaults=True, gc=False):
    """Plain campaign data."""


class Hand(_Data):
    """A crewmember on a campaign roster (or in a brig): what it earned and what it suffered."""

    code: str
    name: str
    faction: str  # the faction it serves now
    xp: int = 0
    wounds: int = 0
    ko: bool = False  # unconscious when the last mission ended
    upgrades: list[str] = []
    turned_from: Optional[str] = None  # the faction it served before it was turned


class Captain(_Data):
    """One player's side of the campaign: ship, crew, brig, armory and purse."""

    seat: str
    name: str
    faction: str
    ship: str
    crew: dict[str, Hand] = {}  # aboard (the brig not counted)
    flying: list[str] = []  # the five who man the stations on the next mission (N81)
    brig: dict[str, Hand] = {}  # prisoners
    armory: list[str] = []
    energy: dict[str, list[int]] = {}  # gear code -> tokens on each copy of it in the armory, fullest first (N174)
    ship_upgrades: list[str] = []
    ship_damage: int = 0
    digits: int = 0
    earned: int = 0  # digits earned over the whole campaign (the ending's tie-break)
    won: int = 0  # missions won
    gear_offer: list[str] = []  # shore leave: the cards turned over for this player (private)
    upgrade_offer: list[str] = []
    tried: list[str] = []  # prisoners this player tried to turn this shore leave
    ready: bool = False  # done with shore leave


class Mission(_Data):
    """A mission played: what it was and how it went."""

    number: int
    mission: str
    outcome: str
    winner: Optional[str] = None
    digits: dict[str, int] = {}  # seat -> digits it brought


class Campaign(_Data):
    """Everything about one campaign. `version` counts accepted commands."""

    pack: str
    seed: int
    dice: Dice
    title: str
    planned: int
    mode: str
    captains: list[Captain]
    tier: int = 1
    world_cards: int = 6
    quick: bool = False  # every mission is the quicker game (N57)
    boards: str = "fixed"  # every mission's boards: fixed, or built from location cards (N124)
    phase: str = "briefing"  # see PHASES
    version: int = 0
    deck: list[str] = []  # missions bearing the title, hidden order (N80)
    played: list[Mission] = []
    current: Optional[str] = None  # the mission being played
    mission_seed: Optional[int] = None
    gear_deck: list[str] = []
    gear_discard: list[str] = []
    upgrade_deck: list[str] = []
    upgrade_discard: list[str] = []
    ending: Optional[dict[str, Any]] = None

    def captain(self, seat: str) -> Captain:
        for c in self.captains:
            if c.seat == seat:
                return c
        raise RuleError("You are not in this campaign.")

    @property
    def seats(self) -> list[str]:
        return [c.seat for c in self.captains]


_codec = StateCodec(Campaign)
to_json = _codec.to_json
from_json = _codec.from_json
clone = _codec.clone
to_builtins = _codec.to_builtins
