"""Run scenario files: a set position, scripted dice, commands, and expectations.

    python -m engine.scenario scenarios/*.yaml

Exits non-zero naming each expectation that failed. The format is in docs/scenarios.md.
"""
from __future__ import annotations

import sys
from typing import Any, Optional

import msgspec
import yaml

from engine.awaymissions import rules
from engine.awaymissions.context import Table
from engine.awaymissions.layout import LayoutSpec
from engine.awaymissions.state import GameState
from engine.errors import PackError, RuleError
from engine.league import arena

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
                         "a Renegades scenario is built by engine.renegades.scenario")
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


def _ruleset(spec: dict[str, Any]):
    """The scenario's ruleset (`ruleset:`, Away Missions when absent): how to build a position,
    apply a command and check expectations."""
    name = spec.get("ruleset", "awaymissions")
    if name == "renegades":
        from engine.renegades import rules as renegades_rules
        from engine.renegades import scenario as renegades_scenario
        return renegades_scenario.build, renegades_rules.apply, renegades_scenario.check
    if name != "awaymissions":
        raise ValueError(f"unknown ruleset '{name}' (awaymissions or renegades)")
    return build, rules.apply, check


def run(spec: dict[str, Any]) -> list[str]:
    """Play one scenario; returns the failures (empty when it passed)."""
    if spec.get("game", "awaymissions") == "captains-battle":
        return _play(spec, build_battle, arena.apply, check_battle)
    try:
        played = _ruleset(spec)
    except ValueError as exc:
        return [f"setup: {exc}"]
    return _play(spec, *played)


def _play(spec: dict[str, Any], make, apply, expect) -> list[str]:
    """Build the position with `make`, send each step's commands through `apply`, and check
    expectations with `expect`: the same steps for every game a scenario can play."""
    failures: list[str] = []
    refusal = spec.get("refused")
    try:
        state = make(spec)
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
            state.dice.scripted.extend(_faces(spec, step.pop("dice")))
        expected_error = step.pop("error", None)
        expectations = step.pop("expect", None)
        for seat, command in step.items():
            try:
                new_state, events = apply(state, seat, str(command))
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
            failures.extend(f"{where}: {f}" for f in expect(state, events, expectations))
    if spec.get("expect"):
        failures.extend(f"final: {f}" for f in expect(state, events, spec["expect"]))
    return failures


def _faces(spec: dict[str, Any], faces: list) -> list[int]:
    """Scripted faces; a Captains' Battle scenario may name attack die faces (hit, critical, blank, bs)."""
    if spec.get("game") != "captains-battle":
        return list(faces)
    return [f if isinstance(f, int) else arena.FACE_NUMBER[str(f).lower()] for f in faces]


# ---- the Arena's Captains' Battle ------------------------------------------------------------


def build_battle(spec: dict[str, Any]) -> arena.Battle:
    """The Captains' Battle position a scenario describes: `fleets` ({p1: "Kirk 8, Sulu 5"}),
    `initiative`, `seed`, then any of `round`, `mission_tokens`, `supply`, per-captain fields
    (`captains: {Kirk: {away: true, materials: 2}}`) and `battle: true` to begin the battle."""
    fleets = {seat: arena.parse_fleet(text) for seat, text in spec["fleets"].items()}
    battle = arena.new_battle(fleets, spec.get("initiative", next(iter(fleets))), spec.get("seed", 1))
    for name in ("round", "mission_tokens", "supply"):
        if name in spec:
            setattr(battle, name, spec[name])
    for name, fields in (spec.get("captains") or {}).items():
        captain = battle.captain(name)
        for field, value in fields.items():
            setattr(captain, field, value)
    battle.dice.scripted = _faces(spec, spec.get("dice", []))
    if spec.get("battle"):
        for captain in battle.captains:
            captain.away = True
        battle.mission_tokens = 0
        arena._begin_battle(battle, [])
    return battle


def check_battle(battle: arena.Battle, events: list[dict], expect: dict[str, Any]) -> list[str]:
    """Expectations of a Captains' Battle: `captains`, `awaiting`, `decision`, `events`,
    `no_events`, `legal` and any top-level field of the battle (phase, result, order ...)."""
    failures = []
    view = _full(battle)
    for key, wanted in expect.items():
        shared = _check_shared(key, wanted, events, arena.awaited(battle), battle.pending,
                               lambda seat: arena.legal_commands(battle, seat))
        if shared is not None:
            failures += shared
        elif key == "captains":
            for name, fields in wanted.items():
                failures += _match(f"captains.{name}", _full(battle.captain(name)), fields)
        elif key in view:
            failures += _match(key, view[key], wanted)
        else:
            failures.append(f"unknown expectation '{key}'")
    return failures


SHARED = ("awaiting", "decision", "events", "no_events", "legal")


def _check_shared(key: str, wanted: Any, events: list[dict], awaited: list[str], pending: list,
                  legal) -> Optional[list[str]]:
    """The expectations every game's scenarios share (None for any other key): `awaiting`
    the seats waited for, `decision` the first pending decision, `events` and `no_events`
    against the last command's events, `legal` against `legal(seat)`."""
    if key == "awaiting":
        expected = [wanted] if isinstance(wanted, str) else wanted
        return [] if awaited == expected else [f"awaiting {awaited}, expected {wanted}"]
    if key == "decision":
        got = _full(pending[0]) if pending else None
        return _match("decision", got, wanted) if got else [f"no decision pending, expected {wanted}"]
    failures: list[str] = []
    if key in ("events", "no_events"):
        for event in wanted:
            seen = any(not _match("", got, event) for got in events)
            if key == "events" and not seen:
                failures.append(f"no event like {event} in {events}")
            elif key == "no_events" and seen:
                failures.append(f"an event like {event} happened")
        return failures
    if key == "legal":
        for seat, sets in wanted.items():
            got = set(legal(seat))
            failures += [f"{seat} cannot '{c}'; legal: {sorted(got)[:40]}" for c in sets.get("includes", []) if c not in got]
            failures += [f"{seat} can '{c}', expected not" for c in sets.get("excludes", []) if c in got]
        return failures
    return None


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
        elif key in SHARED:
            failures += _check_shared(key, wanted, events, rules.awaited(state), state.pending,
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
