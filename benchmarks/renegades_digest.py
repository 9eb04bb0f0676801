"""Digests of Renegades play, to show that a change of the engine's shape changes no result.

    python3 benchmarks/renegades_digest.py --games 48 > after.txt   # on the changed tree
    (cd OTHER_TREE && python3 benchmarks/renegades_digest.py --games 48) > before.txt
    diff before.txt after.txt                                     # empty: the same play, byte for byte

One line per random game of tests/test_renegades_random_games.py (its seeds and configs):
SHA-256 over the new game, every command with its events and the acting seat's view, and
the final state; then one line per Renegades scenario file: SHA-256 over every command's
events and state, refusals included. The lines name no file paths or timings.
"""
from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import random
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine import scenario  # noqa: E402
from engine.errors import RuleError  # noqa: E402
from engine.renegades.autoplay import random_command  # noqa: E402
from engine.rulesets import ruleset  # noqa: E402
from tests.test_renegades_random_games import SEEDS, game_config  # noqa: E402

RENEGADES = ruleset("renegades")


def game_digest(index: int) -> str:
    """The game of this index played with random legal commands to its end, as one line."""
    seed = SEEDS[index]
    state = RENEGADES.new_game(game_config(index), seed)
    rng = random.Random(seed)
    digest = hashlib.sha256(RENEGADES.to_json(state))
    commands = 0
    while state.phase != "over":
        seat, command = random_command(state, rng)
        state, events = RENEGADES.apply(state, seat, command)
        digest.update(f"{seat} {command}\n{json.dumps(events, sort_keys=True)}\n".encode())
        digest.update(json.dumps(RENEGADES.view_for(state, seat), sort_keys=True, default=str).encode())
        commands += 1
    digest.update(RENEGADES.to_json(state))
    return f"game {index} seed {seed}: {commands} commands, {state.result['outcome']}, {digest.hexdigest()}"


def scenario_digest(path: str) -> str:
    """The scenarios of one file played through the scenario runner, every step recorded."""
    digest = hashlib.sha256()

    def recorded(state, seat, command):
        try:
            state, events = RENEGADES.apply(state, seat, command)
        except RuleError as error:
            digest.update(f"{seat} {command} refused: {error}\n".encode())
            raise
        digest.update(f"{seat} {command}\n{json.dumps(events, sort_keys=True)}\n".encode() + RENEGADES.to_json(state))
        return state, events

    with open(path, encoding="utf-8") as handle:
        specs = yaml.safe_load(handle)
    failures = [scenario._play(spec, RENEGADES.build_scenario, recorded, RENEGADES.check_scenario)
                for spec in (specs if isinstance(specs, list) else [specs])]
    return f"{os.path.basename(path)}: {sum(map(len, failures))} failed, {digest.hexdigest()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=24, help="random games to play (default 24)")
    args = parser.parse_args()
    for index in range(args.games):
        print(game_digest(index), flush=True)
    for path in sorted(glob.glob("scenarios/*.yaml")):
        with open(path, encoding="utf-8") as handle:
            if "ruleset: renegades" in handle.read():
                print(scenario_digest(path), flush=True)


if __name__ == "__main__":
    main()
