"""Renegades random legal play: 50 complete games keep the invariants, hide the world deck
and replay exactly."""
import json
import random
from collections import Counter

import pytest

from engine.errors import RuleError
from engine.renegades import rules
from engine.renegades.autoplay import random_command
from engine.renegades.board import orbit_of
from engine.renegades.state import from_json, to_json

GAMES = 50
SEEDS = random.Random(20261124).sample(range(10**9), GAMES)
CONFIGS = [
    {"mode": "coop", "players": [{"seat": "p1"}]},  # solo against NPC Coalition ships
    {"players": [{"seat": "p1"}, {"seat": "p2"}]},  # Coalition against Renegades
    {"mode": "coop", "players": [{"seat": "p1"}, {"seat": "p2"}], "world_cards": 8},
    {"players": [{"seat": f"p{i}"} for i in range(1, 5)], "world_cards": 10},
]


def check_invariants(state):
    board = orbit_of(rules.Game(state).pack.path)
    cells = [s.cell for s in state.ships.values() if s.cell is not None]
    assert len(cells) == len(set(cells)), "two ships share a square"
    for ship in state.ships.values():
        assert (ship.cell is None) == (ship.docked is not None), ship
        if ship.cell is not None:
            assert ship.cell not in board.blocking
        assert 0 <= ship.damage <= ship.shields + ship.hull
        for station, code in ship.stations.items():
            assert state.crew[code].ship == ship.id and state.crew[code].station == station
    assert len(state.pending) <= 1


def check_secrets(state, events):
    """No world card still in the deck shows in a public view or event; no dice state or seed."""
    public = json.dumps(rules.view_for(state, None)) + json.dumps(events)
    for code in state.world_deck:
        assert f'"{code}"' not in public, code
    view = rules.view_for(state, "p1")
    assert "dice" not in view and "seed" not in view and "world_deck" not in view


def play_checked(seed, config):
    state = rules.new_game(config, seed)
    rng = random.Random(seed)
    log = []
    while state.phase != "over":
        seat, command = random_command(state, rng)
        before = to_json(state)
        if rng.random() < 0.03:
            with pytest.raises(RuleError):
                rules.apply(state, seat, "attack NOBODY NOWHERE")
            assert to_json(state) == before
        if rng.random() < 0.02:  # every listed command is really legal
            for other in rules.legal_commands(state, seat):
                rules.apply(state, seat, other)
            assert to_json(state) == before
        state, events = rules.apply(state, seat, command)
        check_invariants(state)
        check_secrets(state, events)
        log.append((seat, command))
        assert len(log) < 2000
    return state, log


@pytest.mark.parametrize("chunk", range(5))
def test_random_renegades_games_keep_invariants_and_replay(chunk):
    verbs = Counter()
    for index in range(chunk * GAMES // 5, (chunk + 1) * GAMES // 5):
        seed, config = SEEDS[index], CONFIGS[index % len(CONFIGS)]
        final, log = play_checked(seed, config)
        assert final.result is not None and final.result["outcome"] == "unfinished"
        assert from_json(to_json(final)) == final
        replayed = rules.new_game(config, seed)
        for seat, command in log:
            replayed, _ = rules.apply(replayed, seat, command)
        assert to_json(replayed) == to_json(final), f"seed {seed} did not replay"
        verbs.update(command.split()[0] for _, command in log)
    for verb in ("move", "attack", "pass", "station"):
        assert verbs[verb] > 0, verb
