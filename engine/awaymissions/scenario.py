"""Scenario positions and expectations for Away Missions (a scenario's ruleset when it names
none; docs/scenarios.md)."""
from __future__ import annotations

from typing import Any

import msgspec

from engine.awaymissions import rules
from engine.awaymissions.context import Table
from engine.awaymissions.layout import LayoutSpec
from engine.awaymissions.state import GameState
from engine.scenario_checks import SHARED, check_shared, full, match

DEFAULT_PLAYERS = {
    "p1": {"affiliation": "federation", "team": "federation-away-team"},
    "p2": {"affiliation": "borg", "team": "borg-away-team"},
}


TABLES = {3: 3, 4: 4, "teams": 4}


def table_players(table: Any) -> dict[str, dict[str, str]]:
    """The seats of a `table: 3`, `4` or `teams` scenario: Federation and Borg starter teams in
    turn (p1 and p3 Federation, p2 and p4 Borg); the second copy of a character is coded with
    its seat's number (REYES-3, NEXUS-4)."""
    if table not in TABLES:
        raise ValueError(f"table must be 3, 4 or teams, not {table!r}")
    return {f"p{i + 1}": dict(DEFAULT_PLAYERS["p1" if i % 2 == 0 else "p2"]) for i in range(TABLES[table])}


def build(spec: dict[str, Any]) -> GameState:
    """The starting position a scenario describes."""
    players = spec.get("players") or (table_players(spec["table"]) if "table" in spec else DEFAULT_PLAYERS)
    layout = spec.get("layout", "standard" if len(players) == 2 else "six")
    config = {
        "pack": spec.get("pack", "content/starter"),
        "players": [{"seat": seat, **seat_spec} for seat, seat_spec in players.items()],
        "layout": layout if isinstance(layout, str) else None,
        "cube": spec.get("cube", False),
    }
    if spec.get("start") is None and spec.get("dice"):
        config["dice"] = list(spec["dice"])  # without a start the dice decide setup's first roll-offs
    if spec.get("table") == "teams":
        config["mode"] = "teams"
    for option in ("mode", "annihilation"):
        if option in spec:
            config[option] = spec[option]
    state = rules.new_game(config, spec.get("seed", 1))
    if isinstance(layout, dict):
        state.layout = msgspec.convert(layout, LayoutSpec)
    start = spec.get("start")
    if start is None:
        return state
    _set_position(state, spec, start)
    return state


PHASES = ("setup", "draw", "action", "over")


def _set_position(state: GameState, spec: dict[str, Any], start: dict[str, Any]) -> None:
    state.pending = []
    state.sequence = []
    state.round = start.get("round", 1)
    state.phase = start.get("phase", "action")
    if state.phase not in PHASES:  # a Renegades position built here would never settle
        raise ValueError(f"unknown Away Missions phase '{state.phase}' ({', '.join(PHASES)}); "
                         "a Renegades scenario says ruleset: renegades")
    state.step = start.get("step", "")
    for seat, boards in spec.get("start_areas", {}).items():
        state.player(seat).start_boards = list(boards)
    for code, fields in (spec.get("characters") or {}).items():
        character = state.characters[code]
        fields = dict(fields)
        if "space" in fields:
            character.space = fields.pop("space")
            character.status = "in_play" if character.space else "reserve"
        for name, value in fields.items():
            if name == "ratings":
                character.ratings.update(value)
            else:
                setattr(character, name, value)
    for seat, cards in (spec.get("hands") or {}).items():
        state.player(seat).hand = list(cards)
    for seat, piles in (spec.get("decks") or {}).items():
        for pile, cards in piles.items():
            setattr(state.player(seat), pile if pile.endswith(("deck", "discard", "area")) else f"{pile}_deck", list(cards))
    for seat, fields in (spec.get("player_fields") or {}).items():
        for name, value in fields.items():
            setattr(state.player(seat), name, value)
    for seat, count in (spec.get("bonus_actions") or {}).items():
        state.player(seat).bonus_actions = count
    if state.phase == "action":
        sides = Table(state).sides()
        if "order" in start:
            state.order = list(start["order"])
        else:
            first = start.get("turn", sides[0])
            first = Table(state).side_of(first) if first in state.seats else first
            state.order = [first] + [s for s in sides if s != first]
        state.turn = 0
    state.dice.scripted = list(spec.get("dice", []))
    rules.advance(Table(state))
    state.version = 0


def check(state: GameState, events: list[dict], expect: dict[str, Any]) -> list[str]:
    """Compare the state (and the last command's events) with expectations."""
    failures = []
    view = full(state)
    table = Table(state)
    for key, wanted in expect.items():
        if key == "characters":
            for code, fields in wanted.items():
                failures += match(f"characters.{code}", view["characters"][code], fields)
        elif key == "players":
            for seat, fields in wanted.items():
                player = dict(view["players"][state.seats.index(seat)])
                player["hand_count"] = len(player.get("hand", []))
                failures += match(f"players.{seat}", player, fields)
        elif key in SHARED:
            failures += check_shared(key, wanted, events, rules.awaited(state), state.pending,
                                      lambda seat: rules.legal_commands(state, seat))
        elif key == "sees":
            for viewer, targets in wanted.items():
                for target, expected in targets.items():
                    got = table.sees(state.characters[viewer], _space_of(state, target))
                    if got != expected:
                        failures.append(f"{viewer} sees {target}: {got}, expected {expected}")
        elif key == "hands_visible":
            for viewer, seats in wanted.items():
                view = rules.view_for(state, viewer)
                for seat, expected in seats.items():
                    got = "hand" in view["players"][state.seats.index(seat)]
                    if got != expected:
                        failures.append(f"{viewer} sees {seat}'s hand: {got}, expected {expected}")
        elif key == "distance":
            for pair, expected in wanted.items():
                a, b = pair.split()
                got = table.distance(_space_of(state, a), _space_of(state, b))
                if got != expected:
                    failures.append(f"distance {pair}: {got}, expected {expected}")
        elif key in view:
            failures += match(key, view[key], wanted)
        else:
            failures.append(f"unknown expectation '{key}'")
    return failures


def _space_of(state: GameState, name: str) -> str:
    character = state.characters.get(name)
    return character.space if character else name
