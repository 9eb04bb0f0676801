"""Run scenario files: a set position, scripted dice, commands, and expectations.

    python -m engine.scenario scenarios/*.yaml

Exits non-zero naming each expectation that failed. The format is in docs/scenarios.md.
"""
from __future__ import annotations

import sys
from typing import Any

import msgspec
import yaml

from engine.awaymissions import rules
from engine.awaymissions.context import Table
from engine.awaymissions.layout import LayoutSpec
from engine.awaymissions.state import GameState
from engine.errors import PackError, RuleError

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


def _set_position(state: GameState, spec: dict[str, Any], start: dict[str, Any]) -> None:
    state.pending = []
    state.sequence = []
    state.round = start.get("round", 1)
    state.phase = start.get("phase", "action")
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


def run(spec: dict[str, Any]) -> list[str]:
    """Play one scenario; returns the failures (empty when it passed)."""
    failures: list[str] = []
    refusal = spec.get("refused")
    try:
        state = build(spec)
    except (RuleError, PackError) as exc:
        if refusal is None:
            return [f"setup: the game was refused: {exc}"]
        if str(refusal).lower() not in str(exc).lower():
            return [f"setup: the game was refused with {str(exc)!r}, expected {refusal!r}"]
        return []
    except (KeyError, ValueError, TypeError, msgspec.ValidationError) as exc:
        return [f"setup: the scenario's position cannot be built: {type(exc).__name__}: {exc}"]
    if refusal is not None:
        return [f"setup: the game was made, expected it refused with {refusal!r}"]
    events: list[dict] = []
    for index, step in enumerate(spec.get("steps", [])):
        where = f"step {index + 1}"
        step = dict(step)
        if "dice" in step:
            state.dice.scripted.extend(step.pop("dice"))
        expected_error = step.pop("error", None)
        expectations = step.pop("expect", None)
        for seat, command in step.items():
            try:
                new_state, events = rules.apply(state, seat, str(command))
            except RuleError as exc:
                if expected_error is None:
                    failures.append(f"{where}: {seat}: {command}: refused: {exc}")
                    return failures
                if expected_error.lower() not in str(exc).lower():
                    failures.append(f"{where}: {seat}: {command}: error was {exc!r}, expected {expected_error!r}")
                continue
            if expected_error is not None:
                failures.append(f"{where}: {seat}: {command}: accepted, expected error {expected_error!r}")
            state = new_state
        if expectations:
            failures.extend(f"{where}: {f}" for f in check(state, events, expectations))
    if spec.get("expect"):
        failures.extend(f"final: {f}" for f in check(state, events, spec["expect"]))
    return failures


def check(state: GameState, events: list[dict], expect: dict[str, Any]) -> list[str]:
    """Compare the state (and the last command's events) with expectations."""
    failures = []
    view = _full(state)
    table = Table(state)
    for key, wanted in expect.items():
        if key == "characters":
            for code, fields in wanted.items():
                failures += _match(f"characters.{code}", view["characters"][code], fields)
        elif key == "players":
            for seat, fields in wanted.items():
                player = dict(view["players"][state.seats.index(seat)])
                player["hand_count"] = len(player.get("hand", []))
                failures += _match(f"players.{seat}", player, fields)
        elif key == "awaiting":
            got = rules.awaited(state)
            if got != ([wanted] if isinstance(wanted, str) else wanted):
                failures.append(f"awaiting {got}, expected {wanted}")
        elif key == "decision":
            got = _full(state.pending[0]) if state.pending else None
            failures += _match("decision", got, wanted) if got else [f"no decision pending, expected {wanted}"]
        elif key == "events":
            for event in wanted:
                if not any(not _match("", got, event) for got in events):
                    failures.append(f"no event like {event} in {events}")
        elif key == "no_events":
            for event in wanted:
                if any(not _match("", got, event) for got in events):
                    failures.append(f"an event like {event} happened")
        elif key == "legal":
            for seat, sets in wanted.items():
                got = set(rules.legal_commands(state, seat))
                for command in sets.get("includes", []):
                    if command not in got:
                        failures.append(f"{seat} cannot '{command}'; legal: {sorted(got)[:40]}")
                for command in sets.get("excludes", []):
                    if command in got:
                        failures.append(f"{seat} can '{command}', expected not")
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
            failures += _match(key, view[key], wanted)
        else:
            failures.append(f"unknown expectation '{key}'")
    return failures


def _space_of(state: GameState, name: str) -> str:
    character = state.characters.get(name)
    return character.space if character else name


def _full(value: Any) -> Any:
    """Builtins of a state with every field present (defaults included)."""
    if isinstance(value, msgspec.Struct):
        return {name: _full(getattr(value, name)) for name in value.__struct_fields__}
    if isinstance(value, dict):
        return {k: _full(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_full(v) for v in value]
    return value


def _match(path: str, got: Any, wanted: Any) -> list[str]:
    if isinstance(wanted, dict) and isinstance(got, dict):
        out = []
        for key, value in wanted.items():
            if key not in got:
                out.append(f"{path}.{key}: missing, expected {value!r}")
                continue
            out += _match(f"{path}.{key}", got[key], value)
        return out
    if got != wanted:
        return [f"{path}: {got!r}, expected {wanted!r}"]
    return []


def run_file(path: str) -> list[str]:
    """Run every scenario in a YAML file (one document or a list)."""
    with open(path, encoding="utf-8") as handle:
        loaded = yaml.safe_load(handle)
    specs = loaded if isinstance(loaded, list) else [loaded]
    failures = []
    for spec in specs:
        name = spec.get("name", path)
        failures += [f"{path}: {name}: {f}" for f in run(spec)]
    return failures


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip())
        return 2
    failed = 0
    for path in argv:
        problems = run_file(path)
        if problems:
            failed += 1
            print("\n".join(problems))
        else:
            print(f"ok    {path}")
    print(f"{len(argv) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
