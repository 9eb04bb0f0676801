"""The card vocabulary: conditions (`check`) and effects (`do`) that packs combine.

Cards never contain code; they list conditions and effects from this vocabulary
(documented with examples in docs/content-packs.md). Each is a small typed record,
validated when the pack loads.

Conditions look at a *subject* (the character a card is played on or acts with) and at
the card's player. Effects act on the subject unless they say otherwise.
"""
from __future__ import annotations

from typing import Annotated, Literal, Optional, Union

import msgspec

Count = Annotated[int, msgspec.Meta(ge=0, le=20)]
Step = Annotated[int, msgspec.Meta(ge=-9, le=9)]
Side = Literal["friendly", "hostile"]
RollKind = Literal["attack", "defense", "skill"]
Token = Literal["stun", "cover", "activated"]
Terminal = Literal["command", "science", "operations", "medical", "any"]


class _Check(msgspec.Struct, tag_field="check", forbid_unknown_fields=True, omit_defaults=True):
    pass


class AtTerminal(_Check, tag="at_terminal"):
    """The subject stands at a terminal of this type (or any)."""

    terminal: Terminal = "any"


class OnBoard(_Check, tag="on_board"):
    """The subject stands on one of these boards ('corridor' means the Main Corridor)."""

    boards: list[str]


class OnFeature(_Check, tag="on_feature"):
    """The subject stands on a space with this feature (transporter, turbolift)."""

    feature: Literal["transporter", "turbolift"]


class HasSpecialization(_Check, tag="has_specialization"):
    """The subject has this specialization at least `level` times."""

    specialization: str
    level: Annotated[int, msgspec.Meta(ge=1, le=3)] = 1


class HasKeyword(_Check, tag="has_keyword"):
    """The subject has (or, with absent: true, lacks) this keyword."""

    keyword: str
    absent: bool = False


class Adjacent(_Check, tag="adjacent"):
    """A character of that side (optionally with a keyword) is adjacent to the subject."""

    side: Side
    keyword: Optional[str] = None


class CountOf(_Check, tag="count"):
    """A number about the table, from the card player's point of view, is within bounds."""

    what: Literal["friendly_in_play", "hostile_in_play", "hostile_neutralized", "friendly_neutralized",
                  "missions_scored", "boards_held", "terminals_held", "assimilated", "hand"]
    min: Optional[Count] = None
    max: Optional[Count] = None


class RoundIs(_Check, tag="round"):
    """The round number is within bounds."""

    min: Optional[Annotated[int, msgspec.Meta(ge=1, le=3)]] = None
    max: Optional[Annotated[int, msgspec.Meta(ge=1, le=3)]] = None


class Tokens(_Check, tag="tokens"):
    """The subject holds between min and max tokens of a kind (activated/cover count as 0 or 1)."""

    token: Token
    min: Optional[Count] = None
    max: Optional[Count] = None


Condition = Union[AtTerminal, OnBoard, OnFeature, HasSpecialization, HasKeyword, Adjacent, CountOf, RoundIs, Tokens]


class _Do(msgspec.Struct, tag_field="do", forbid_unknown_fields=True, omit_defaults=True):
    pass


class AddDice(_Do, tag="add_dice"):
    """Extra dice (negative: fewer) for a roll, never more than 6.

    Into a roll on the table: `attack` changes the attacker's dice, `defense` the
    defender's, `skill` the subject's side of a skill test; before the dice are rolled
    the change is counted in, afterwards dice are added (or the lowest removed).
    Otherwise it waits for the subject's next roll of that kind this activation.
    """

    roll: RollKind
    count: Step = 1


class AddDamage(_Do, tag="add_damage"):
    """The subject's current or next attack does this much more DAMAGE when it gets through."""

    amount: Step = 1


class ChangeRatings(_Do, tag="rating"):
    """Change current ratings: for the rest of the round, or for good (never above the peg holes)."""

    changes: dict[Literal["attack", "defense", "skill", "move"], Step]
    until: Literal["round", "game"] = "round"


class Restore(_Do, tag="restore"):
    """Put back lost pegs, the rating furthest below its holes first."""

    pegs: Annotated[int, msgspec.Meta(ge=1, le=9)] = 1


class RemovePegs(_Do, tag="remove_pegs"):
    """Damage without dice: the owner spreads it as for an attack."""

    pegs: Annotated[int, msgspec.Meta(ge=1, le=9)] = 1


class SetToken(_Do, tag="token"):
    """Add (or with a negative count remove) tokens on the subject."""

    token: Token
    count: Step = 1


class Move(_Do, tag="move"):
    """The subject may move up to this many spaces (following the movement rules)."""

    steps: Annotated[int, msgspec.Meta(ge=1, le=9)]


class Place(_Do, tag="place"):
    """Put the subject in a chosen space with this feature (or on this board)."""

    feature: Optional[Literal["transporter", "turbolift"]] = None
    board: Optional[str] = None


class Draw(_Do, tag="draw"):
    """The card's player draws cards."""

    pile: Literal["support", "mission"] = "support"
    count: Annotated[int, msgspec.Meta(ge=1, le=9)] = 1


class Discard(_Do, tag="discard"):
    """A player discards cards from hand at random: the card's player or the opponent."""

    who: Literal["self", "opponent"] = "opponent"
    count: Annotated[int, msgspec.Meta(ge=1, le=9)] = 1


class Search(_Do, tag="search"):
    """Find a card with the keyword in your deck (and discard pile) and take it; shuffle after."""

    pile: Literal["support", "mission"]
    keyword: str
    discard_too: bool = False


class BonusPoints(_Do, tag="bonus_points"):
    """The card's player takes bonus point tokens."""

    points: Annotated[int, msgspec.Meta(ge=1, le=9)] = 1


class Score(_Do, tag="score"):
    """This card goes to its player's scoring area."""


class SkillTest(_Do, tag="test"):
    """The subject takes a skill test; success and failure lead to more effects.

    `successes` is how many are needed; `per_extra` runs once for each success beyond that.
    """

    specialization: Optional[str] = None
    opposed: bool = False
    successes: Annotated[int, msgspec.Meta(ge=1, le=6)] = 1
    success: list["Effect"] = []
    failure: list["Effect"] = []
    per_extra: list["Effect"] = []


class GrantActions(_Do, tag="grant_actions"):
    """The activation under way gets more actions."""

    count: Annotated[int, msgspec.Meta(ge=1, le=3)] = 1


class FreeAction(_Do, tag="free_action"):
    """The subject takes one action of this kind at once, outside any activation count."""

    action: Literal["move", "attack", "cover"]


class Cancel(_Do, tag="cancel"):
    """The action that triggered this interrupt ends without resolving."""


class Prevent(_Do, tag="prevent"):
    """The damage about to be taken is this much less."""

    amount: Annotated[int, msgspec.Meta(ge=1, le=9)] = 1


Effect = Union[AddDice, AddDamage, ChangeRatings, Restore, RemovePegs, SetToken, Move, Place, Draw, Discard,
               Search, BonusPoints, Score, SkillTest, GrantActions, FreeAction, Cancel, Prevent]

# When interrupts may be played (always in an opponent's activation), and who the subject is:
TRIGGERS = {
    "attacked": "a hostile has declared an attack on one of your characters (the subject), before dice",
    "rolled": "dice of a roll your character (the subject) is in are on the table, in the re-roll window",
    "damaged": "one of your characters (the subject) is about to lose pegs",
    "activated": "the opponent has just activated a character (the subject)",
    "moved": "a hostile character (the subject) has just finished a move action",
}


class Modifier(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Standing extra dice: for the bearer (equipment, traits) or the player's own characters (permanents)."""

    roll: RollKind
    count: Step = 1
    specialization: Optional[str] = None  # skill tests of this specialization only
    against: Optional[Literal["melee", "ranged"]] = None  # defense against this kind of attack only
    requires: list[Condition] = []  # on the character rolling


class PointsPer(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """End-of-game points for each of something (core missions)."""

    what: Literal["friendly_in_play", "hostile_in_play", "hostile_neutralized", "friendly_neutralized",
                  "missions_scored", "boards_held", "terminals_held", "assimilated"]
    each: Annotated[int, msgspec.Meta(ge=1, le=9)] = 1
