"""The computer crew in Renegades: legal commands only, from its seat's view only, and better
than random play. Its figures over many games: benchmarks/opponent_bench.py --table renegades."""
import random

import pytest

from engine import opponent
from engine.dice import Dice
from engine.renegades import rules
from engine.renegades.autoplay import random_command
from engine.renegades.state import clone, to_json
from engine.service.console import play_local
from tests.test_local_play import scripted

CONFIGS = {
    "solo": {"mode": "coop", "players": [{"seat": "p1"}]},
    "versus": {"players": [{"seat": "p1"}, {"seat": "p2"}]},
    "four": {"players": [{"seat": f"p{i}"} for i in range(1, 5)], "world_cards": 8},
}


def play(config, seed, computers, level="normal"):
    """A complete game, `computers` seats flown by the computer crew, the others at random;
    every computer command is checked to be legal and found without a refused playout."""
    state = rules.new_game(config, seed)
    rng = random.Random(seed)
    log = []
    while state.phase != "over":
        seat = rules.awaited(state)[0]
        if seat in computers:
            choice = opponent.decide("renegades", state, seat, rules.view_for, opponent.level(level), seed,
                                     timed=False)
            assert choice.command in rules.legal_commands(state, seat) and choice.errors == 0
            command = choice.command
        else:
            seat, command = random_command(state, rng)
        state, _ = rules.apply(state, seat, command)
        log.append((seat, command))
        assert len(log) < 2000
    return state, log


@pytest.mark.parametrize("table, computers, level", [
    ("solo", {"p1"}, "normal"), ("versus", {"p2"}, "normal"), ("four", {"p1", "p2", "p3", "p4"}, "easy"),
    ("versus", {"p1", "p2"}, "hard"),
])
def test_the_computer_crew_plays_complete_games_with_legal_commands(table, computers, level):
    state, log = play(CONFIGS[table], 31, computers, level)
    assert state.result is not None
    verbs = {command.split()[0] for seat, command in log if seat in computers}
    assert {"move", "pass"} <= verbs or "attack" in verbs


def test_crew_changes_are_made_only_when_they_help_so_a_turn_never_loops():
    """A station change is a free action: the computer makes one only when the ship flies or
    fights better for it, so it cannot swap crew back and forth for ever."""
    state, log = play(CONFIGS["versus"], 2, {"p1", "p2"})
    changes, run = 0, 0
    for seat, command in log:
        run = run + 1 if command.startswith("station") else 0
        changes = max(changes, run)
    assert changes <= 4


def test_the_computer_crew_beats_random_play():
    """Versus games, the computer flying the Renegade ship and then the Coalition one: its
    enemy ship ends more damaged than its own (the orbital game names no winner yet)."""
    won = 0
    for seed in range(6):
        computer = f"p{seed % 2 + 1}"
        state, _ = play(CONFIGS["versus"], seed, {computer})
        mine = next(s for s in state.ships.values() if s.seat == computer)
        theirs = next(s for s in state.ships.values() if s.kind == "ship" and s.seat not in (None, computer))
        won += theirs.damage > mine.damage
    assert won >= 5


def with_hidden_parts_changed(state, rng):
    """The same game as any seat sees it, with the world deck's unseen cards and order, the
    location deck's order and the dice changed."""
    changed = clone(state)
    pack = rules.Game(state).pack
    unseen = [c for c in pack.world_events if c not in state.world_discard]
    rng.shuffle(unseen)
    changed.world_deck = unseen[:len(state.world_deck)]
    rng.shuffle(changed.location_deck)
    changed.dice = Dice.seeded(rng.getrandbits(64))
    return changed


def test_hidden_decks_and_dice_do_not_change_the_computer_crews_choice():
    state = rules.new_game(CONFIGS["versus"], 8)
    rng, checked = random.Random(8), 0
    while state.phase != "over" and checked < 8:
        seat = rules.awaited(state)[0]
        if len(rules.legal_commands(state, seat)) > 2:
            changed = with_hidden_parts_changed(state, rng)
            assert rules.view_for(changed, seat) == rules.view_for(state, seat)
            assert to_json(changed) != to_json(state)
            level = opponent.level("normal")
            first = opponent.decide("renegades", state, seat, rules.view_for, level, seed=3, timed=False)
            again = opponent.decide("renegades", changed, seat, rules.view_for, level, seed=3, timed=False)
            assert [(c.command, c.playouts, c.win_rate) for c in first.candidates] == \
                   [(c.command, c.playouts, c.win_rate) for c in again.candidates]
            assert first.command == again.command and first.playouts > 0
            checked += 1
        state, _ = rules.apply(state, *random_command(state, rng))
    assert checked == 8


async def test_local_renegades_play_uses_the_computer_crew_and_explains_it(tmp_path):
    ask, _ = scripted(["pass"] * 40)
    said = []
    assert await play_local(str(tmp_path / "local.db"), str(tmp_path / "pictures"), seed=3, ask=ask,
                            say=said.append, ruleset="renegades", level="easy", explain=True) == 0
    text = "\n".join(said)
    assert "Computer acts:" in text and "Rule of thumb:" in text
