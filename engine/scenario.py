"""Run scenario files: a set position, scripted dice, commands, and expectations.

    python -m engine.scenario scenarios/*.yaml

Exits non-zero naming each expectation that failed. The format is in docs/scenarios.md.
"""
from __future__ import annotations

import sys
from typing import Any

import msgspec
import yaml

from engine import rulesets
from engine.errors import PackError, RuleError
from engine.league import arena
from engine.scenario_checks import check_shared, full, match


def run(spec: dict[str, Any]) -> list[str]:
    """Play one scenario; returns the failures (empty when it passed)."""
    if spec.get("game", "awaymissions") == "captains-battle":
        return _play(spec, build_battle, arena.apply, check_battle)
    try:
        played = rulesets.ruleset(spec.get("ruleset", "awaymissions"))
    except ValueError as exc:
        return [f"setup: {exc}"]
    return _play(spec, played.build_scenario, played.apply, played.check_scenario)


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
    view = full(battle)
    for key, wanted in expect.items():
        shared = check_shared(key, wanted, events, arena.awaited(battle), battle.pending,
                               lambda seat: arena.legal_commands(battle, seat))
        if shared is not None:
            failures += shared
        elif key == "captains":
            for name, fields in wanted.items():
                failures += match(f"captains.{name}", full(battle.captain(name)), fields)
        elif key in view:
            failures += match(key, view[key], wanted)
        else:
            failures.append(f"unknown expectation '{key}'")
    return failures


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
