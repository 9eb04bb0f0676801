"""The rulesets by name, each behind the same pure verbs: its rules, its content packs, its cards
in words and its scenarios.

Whatever needs "the ruleset called X" looks it up here (the scenario runner, the glossary's card
lookup); engine/service/rulesets.py adds what the table needs (seats, dice events, words).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from engine.awaymissions import card_facts as awaymissions_cards
from engine.awaymissions import content as awaymissions_content
from engine.awaymissions import odds as awaymissions_odds
from engine.awaymissions import rules as awaymissions_rules
from engine.awaymissions import scenario as awaymissions_scenario
from engine.awaymissions import state as awaymissions_state
from engine.awaymissions import stored as awaymissions_stored
from engine.awaymissions import story as awaymissions_story
from engine.renegades import rules as renegades_rules
from engine.renegades import scenario as renegades_scenario
from engine.renegades import story as renegades_story
from engine.renegades.contents import card_facts as renegades_cards
from engine.renegades.contents import content as renegades_content
from engine.renegades.contents import state as renegades_state


@dataclass(frozen=True, kw_only=True)
class Ruleset:
    """One game's rules: pure functions over a state, its packs and its scenarios."""

    name: str
    new_game: Callable[[dict, int], Any]
    apply: Callable[[Any, str, str], tuple[Any, list[dict]]]
    canonical: Callable[[Any], str]  # the one stored text of a command, or RuleError
    legal_commands: Callable[[Any, str], list[str]]
    awaited: Callable[[Any], list[str]]
    view_for: Callable[[Any, Any], dict]
    to_json: Callable[[Any], bytes]
    from_json: Callable[[bytes | str], Any]
    load_pack: Callable[[str], Any]  # parse (and cache) a content pack of this ruleset
    card_facts: Callable[[Any], list[dict]]  # every card of a pack in words (the card lookup)
    build_scenario: Callable[[dict], Any]  # the position a scenario describes
    check_scenario: Callable[[Any, list[dict], dict], list[str]]  # a scenario's failed expectations
    display_names: Callable[[Any], dict[str, str]] = lambda state: {}
    preview: Callable[[Any, str, str], Any] = lambda state, seat, command: None  # odds of a command, or None
    standing: Callable[[str], bool] = lambda command: False  # a choice sent at any time, answering no decision
    standing_choices: Callable[[Any, str], list[tuple[str, str]]] = lambda state, seat: []  # (label, command) to offer
    turn_of: Callable[[Any], Optional[str]] = lambda state: None  # whose turn it is (one table message per turn)
    stage: Callable[[Any], tuple[int, Optional[str]]] = lambda state: (0, None)  # round, activation key (replays)
    secrets: Callable[[Any, str], dict[str, list[str]]] = lambda state, seat: {}  # what only a seat knows (codes)
    can_take_back: Callable[[list[dict]], bool] = lambda events: False  # nothing rolled or revealed by them
    window_asked: Callable[[Any, str], Optional[str]] = lambda state, seat: None  # the reaction window a seat is asked
    futile: Callable[[Any, str, str], bool] = lambda state, seat, command: False  # a legal answer that can change nothing for the seat
    outdated: Callable[[Any], bool] = lambda state: False  # stored before a field only its log can fill (R92)
    carry_forward: Callable[[Any, list[dict]], Any] = lambda state, events: state  # such a state, from its logged events
    scene: Callable[[Any], Optional[tuple[str, str]]] = lambda state: None  # (picture, key) of a recap frame
    tally: Callable[[dict, list[dict], dict[str, str]], Any] = lambda view, events, names: None  # a finished game's engine.story.Tally


AWAY_MISSIONS = Ruleset(
    name="awaymissions",
    new_game=awaymissions_rules.new_game,
    apply=awaymissions_rules.apply,
    canonical=awaymissions_rules.canonical,
    legal_commands=awaymissions_rules.legal_commands,
    awaited=awaymissions_rules.awaited,
    view_for=awaymissions_rules.view_for,
    to_json=awaymissions_state.to_json,
    from_json=awaymissions_state.from_json,
    load_pack=awaymissions_content.load_pack,
    card_facts=awaymissions_cards.card_facts,
    build_scenario=awaymissions_scenario.build,
    check_scenario=awaymissions_scenario.check,
    display_names=awaymissions_rules.display_names,
    preview=awaymissions_odds.preview,
    standing=awaymissions_rules.is_standing,
    standing_choices=awaymissions_rules.standing_choices,
    turn_of=awaymissions_rules.turn_of,
    stage=awaymissions_rules.stage,
    secrets=awaymissions_rules.secrets,
    can_take_back=awaymissions_rules.can_take_back,
    window_asked=awaymissions_rules.window_asked,
    futile=awaymissions_rules.futile,
    outdated=awaymissions_stored.outdated,
    carry_forward=awaymissions_stored.carry_forward,
    scene=awaymissions_story.scene,
    tally=awaymissions_story.tally,
)

RENEGADES = Ruleset(
    name="renegades",
    new_game=renegades_rules.new_game,
    apply=renegades_rules.apply,
    canonical=renegades_rules.canonical,
    legal_commands=renegades_rules.legal_commands,
    awaited=renegades_rules.awaited,
    view_for=renegades_rules.view_for,
    to_json=renegades_state.to_json,
    from_json=renegades_state.from_json,
    load_pack=renegades_content.load_pack,
    card_facts=renegades_cards.card_facts,
    build_scenario=renegades_scenario.build,
    check_scenario=renegades_scenario.check,
    display_names=renegades_rules.display_names,
    turn_of=renegades_rules.turn_of,
    stage=renegades_rules.stage,
    secrets=renegades_rules.secrets,
    scene=renegades_story.scene,
    tally=renegades_story.tally,
)

RULESETS: dict[str, Ruleset] = {AWAY_MISSIONS.name: AWAY_MISSIONS, RENEGADES.name: RENEGADES}


def ruleset(name: str) -> Ruleset:
    """The ruleset called `name`; ValueError naming the known ones otherwise."""
    if name not in RULESETS:
        raise ValueError(f"unknown ruleset '{name}' ({' or '.join(RULESETS)})")
    return RULESETS[name]
