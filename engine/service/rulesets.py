"""The rulesets the service can run, each behind the same small interface."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from engine.awaymissions import content as awaymissions_content
from engine.awaymissions import odds as awaymissions_odds
from engine.awaymissions import rules as awaymissions_rules
from engine.awaymissions import state as awaymissions_state
from engine.awaymissions import stored as awaymissions_stored
from engine.renegades import content as renegades_content
from engine.renegades import rules as renegades_rules
from engine.renegades import state as renegades_state
from engine.renegades import text as renegades_text
from engine.service import text
from images import crew_dice


@dataclass(frozen=True)
class Ruleset:
    """One game's rules as the service sees them: pure functions over a state."""

    name: str
    seats: tuple[str, ...]
    new_game: Callable[[dict, int], Any]
    apply: Callable[[Any, str, str], tuple[Any, list[dict]]]
    canonical: Callable[[Any], str]  # the one stored text of a command, or RuleError
    legal_commands: Callable[[Any, str], list[str]]
    awaited: Callable[[Any], list[str]]
    view_for: Callable[[Any, Any], dict]
    to_json: Callable[[Any], bytes]
    from_json: Callable[[bytes | str], Any]
    default_options: dict = field(default_factory=dict)
    dice_events: frozenset[str] = frozenset()
    display_names: Callable[[Any], dict[str, str]] = lambda state: {}
    preview: Callable[[Any, str, str], Any] = lambda state, seat, command: None  # odds of a command, or None
    standing: Callable[[str], bool] = lambda command: False  # a choice sent at any time, answering no decision
    standing_choices: Callable[[Any, str], list[tuple[str, str]]] = lambda state, seat: []  # (label, command) to offer
    window_asked: Callable[[Any, str], Optional[str]] = lambda state, seat: None  # the reaction window a seat is asked
    turn_of: Callable[[Any], Optional[str]] = lambda state: None  # whose turn it is (one table message per turn)
    can_take_back: Callable[[list[dict]], bool] = lambda events: False  # nothing rolled or revealed by them
    load_pack: Callable[[str], Any] = lambda path: None  # parse (and cache) a content pack of this ruleset
    table_seats: Optional[Callable[[dict], tuple[str, ...]]] = None  # seats a game's config asks for
    public_lines: Callable[[list[dict], dict[str, str]], list[str]] = text.public_lines  # events in words
    outdated: Callable[[Any], bool] = lambda state: False  # stored before a field only its log can fill (R92)
    carry_forward: Callable[[Any, list[dict]], Any] = lambda state, events: state  # such a state, from its logged events

    def seats_for(self, config: dict) -> tuple[str, ...]:
        """The seats of a game made with `config` (the ruleset's default seats otherwise)."""
        return self.table_seats(config) if self.table_seats else self.seats


def _away_mission_seats(config: dict) -> tuple[str, ...]:
    """Two seats, or `"seats": 3 or 4` in the config; `"mode": "teams"` is four (2 vs 2)."""
    count = 4 if config.get("mode") == "teams" else int(config.get("seats") or 2)
    if not 2 <= count <= 4:
        raise ValueError("Away Missions seats two, three or four players.")
    return tuple(f"p{i + 1}" for i in range(count))


def _renegades_seats(config: dict) -> tuple[str, ...]:
    """Coalition against Renegades seats two; the co-operative game `"seats": 1 to 4` (two by
    default), every player a Renegade against the NPC Coalition."""
    count = 2 if config.get("mode", "versus") == "versus" else int(config.get("seats") or 2)
    if not 1 <= count <= 4:
        raise ValueError("Renegades seats one to four players.")
    return tuple(f"p{i + 1}" for i in range(count))


AWAY_MISSIONS = Ruleset(
    name="awaymissions",
    seats=("p1", "p2"),
    new_game=awaymissions_rules.new_game,
    apply=awaymissions_rules.apply,
    canonical=awaymissions_rules.canonical,
    legal_commands=awaymissions_rules.legal_commands,
    awaited=awaymissions_rules.awaited,
    view_for=awaymissions_rules.view_for,
    to_json=awaymissions_state.to_json,
    from_json=awaymissions_state.from_json,
    default_options={"pack": "content/starter", "layout": "standard"},
    dice_events=frozenset({"rolled", "rerolled", "roll_off"}),
    display_names=awaymissions_rules.display_names,
    preview=awaymissions_odds.preview,
    standing=awaymissions_rules.is_standing,
    standing_choices=awaymissions_rules.standing_choices,
    window_asked=awaymissions_rules.window_asked,
    turn_of=awaymissions_rules.turn_of,
    can_take_back=awaymissions_rules.can_take_back,
    load_pack=awaymissions_content.load_pack,
    table_seats=_away_mission_seats,
    outdated=awaymissions_stored.outdated,
    carry_forward=awaymissions_stored.carry_forward,
)

RENEGADES = Ruleset(
    name="renegades",
    seats=("p1", "p2"),
    new_game=renegades_rules.new_game,
    apply=renegades_rules.apply,
    canonical=renegades_rules.canonical,
    legal_commands=renegades_rules.legal_commands,
    awaited=renegades_rules.awaited,
    view_for=renegades_rules.view_for,
    to_json=renegades_state.to_json,
    from_json=renegades_state.from_json,
    default_options={"pack": "content/renegades", "mode": "versus"},
    dice_events=frozenset({"ship_attack", "roll_off", "fighters_arrive", *crew_dice.ATTACKS, *crew_dice.TESTS}),
    display_names=renegades_rules.display_names,
    turn_of=renegades_rules.turn_of,
    load_pack=renegades_content.load_pack,
    public_lines=functools.partial(renegades_text.public_lines, fallback=text.public_line),
    table_seats=_renegades_seats,
)

RULESETS: dict[str, Ruleset] = {AWAY_MISSIONS.name: AWAY_MISSIONS, RENEGADES.name: RENEGADES}
