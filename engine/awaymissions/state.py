"""The game state of an Away Missions game: plain data that serialises to JSON losslessly."""
from __future__ import annotations

from typing import Any, Optional

import msgspec

from engine.awaymissions.layout import LayoutSpec
from engine.codec import StateCodec
from engine.dice import Dice


ASSIMILATED_KEYWORDS = ("Borg", "Drone")


class _Data(msgspec.Struct, omit_defaults=True, gc=False):
    """Plain game data: a tree that never refers back to itself, so the garbage collector
    need not track it (a long-running bot holds many states)."""


class Attack(_Data):
    """An attack a character can use: the pack's record (content.AttackAction), field for
    field, written the same. Its checks were made when the pack was loaded, so copying a
    state (`clone`, before every command) does not repeat them."""

    code: str
    name: str
    dice: int = 0
    damage: int = 0
    melee: bool = False
    stun: bool = False
    assimilate: bool = False
    defensive: bool = False


class Character(_Data):
    """A character of the game: where it is and what is left of it."""

    id: str
    card: str
    name: str
    owner: str
    controller: str
    ratings: dict[str, int]
    pegs: dict[str, int]
    specializations: dict[str, int]
    keywords: list[str]
    attacks: list[Attack]
    status: str = "reserve"  # reserve | in_play | waiting (escalation) | neutralized | returned
    space: Optional[str] = None
    activated: bool = False
    cover: bool = False
    stun: int = 0
    assimilated: bool = False
    assimilated_by: Optional[str] = None  # the seat whose Borg assimilated it ("you assimilated")
    escalation: Optional[int] = None
    equipment: list[str] = []
    traits: list[str] = []
    boosts: dict[str, int] = {}  # rating changes that last until the end of the round

    @property
    def in_play(self) -> bool:
        return self.status == "in_play"

    @property
    def incapacitated(self) -> bool:
        return self.stun >= 2

    def has_keyword(self, keyword: str) -> bool:
        """Printed keywords, plus Borg and Drone for an assimilated character: it is a
        Borg drone for every rule and card while assimilated."""
        return keyword in self.keywords or (self.assimilated and keyword in ASSIMILATED_KEYWORDS)

    @property
    def is_borg(self) -> bool:
        return self.has_keyword("Borg")

    @property
    def is_drone(self) -> bool:
        return self.has_keyword("Drone")


class Player(_Data):
    """A seat at the table, with its cards. Hands and decks are hidden from others."""

    seat: str
    name: str
    team: str
    affiliation: str
    hand: list[str] = []
    support_deck: list[str] = []
    mission_deck: list[str] = []
    support_discard: list[str] = []
    mission_discard: list[str] = []
    scoring_area: list[str] = []
    bonus_points: int = 0
    bonus_actions: int = 0
    core_mission: Optional[str] = None
    start_boards: list[str] = []
    permanents: list[str] = []  # Permanent events in play
    table_missions: list[str] = []  # missions played to the table, not yet scored
    interrupts: list[str] = []  # the interrupt cards of this player's deck list (public, as deck lists are: R30, R95)
    mute: list[str] = []  # pre-passed windows: "attacked" always, "attacked@round", "attacked@activation"

    def passes(self, window: str) -> bool:
        """Whether this player pre-passed `window` (a moment kind or "reroll") for now."""
        return any(entry.split("@")[0] == window for entry in self.mute)

    def end_prepass(self, scope: str) -> None:
        """Drop the pre-passes made for the activation or round (`scope`) that just ended."""
        self.mute = [entry for entry in self.mute if not entry.endswith(f"@{scope}")]


class Decision(_Data):
    """A pause in the game: who must answer, what kind of answer, and its details."""

    kind: str
    player: str
    info: dict[str, Any] = {}
    also: list[str] = []  # teammates who may answer in the player's place (a team decision)

    def answerable_by(self, seat: str) -> bool:
        return seat == self.player or seat in self.also


class Activation(_Data):
    """The activation under way: whose, which character, how many actions are left."""

    player: str
    character: str
    bonus: bool = False
    actions_left: int = 2
    in_action: bool = False  # an action has started and is still being resolved
    acted: bool = False  # an action has been taken (equipment may no longer be played)
    boosts: list[dict[str, Any]] = []  # dice and DAMAGE waiting for a character's next roll
    specials: list[str] = []  # special actions allowed once an activation, taken in this one (R104)


class Roll(_Data):
    """Dice on the dice board: an attack or a skill test, with its re-roll window."""

    kind: str  # attack | skill
    actor: str
    active_player: str
    actor_player: str
    dice: list[int]
    target: Optional[str] = None  # defender or challenger character
    target_player: Optional[str] = None
    opposing: list[int] = []
    attack: Optional[Attack] = None
    specialization: Optional[str] = None
    window: list[str] = []  # players still able to re-roll, in turn order
    turn: int = 0
    passes: int = 0
    stage: str = "rolled"  # declared (interrupts may still come before the dice) | rolled
    extra_damage: int = 0
    then: Optional[dict[str, Any]] = None  # what a card's skill test leads to


class Pending(_Data):
    """Work the engine still has to do, in order: card effects, interrupt windows, damage."""

    kind: str
    data: dict[str, Any] = {}
    in_roll: bool = False  # queued inside a re-roll window: done before the window goes on


class GameState(_Data):
    """Everything about one game. `version` counts accepted commands."""

    pack: str
    seed: int
    dice: Dice
    players: list[Player]
    characters: dict[str, Character]
    layout: LayoutSpec
    phase: str = "setup"  # setup | draw | action | over
    step: str = ""  # sub-step of setup and draw phases
    round: int = 0
    version: int = 0
    pending: list[Decision] = []
    sequence: list[str] = []  # who answers next in a setup or placement step (seats, or teams in a team game)
    order: list[str] = []  # activation order of seats (teams in a team game), from the first-activation roll
    turn: int = 0  # index into order of the side to activate next
    activation: Optional[Activation] = None
    roll: Optional[Roll] = None
    queue: list[Pending] = []
    options: dict[str, Any] = {}
    result: Optional[dict[str, Any]] = None

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
