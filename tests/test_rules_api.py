"""The engine's public face: decisions, refusals that change nothing, views, serialisation."""
import random

import pytest

from engine.awaymissions import combat, rules
from engine.awaymissions.autoplay import random_command
from engine.awaymissions.state import from_json, to_json
from engine.errors import RuleError
from tests.conftest import two_player_config


def test_pairing_high_to_low():
    assert combat.compare([5, 4, 2], [5, 1]) == ["cancelled", "hit", "miss"]
    assert combat.compare([3, 3], [3, 2]) == ["cancelled", "hit"]
    assert combat.compare([2], [1, 6]) == ["cancelled"]  # pairs are by rank: 2 meets the 6
    assert combat.compare([6, 4, 4], []) == ["hit", "hit", "hit"]
    assert combat.dice_count(4, 2, 1, 1) == 6 and combat.dice_count(1, -3) == 0


def test_damage_spreads_never_take_a_rating_below_one():
    spreads = combat.damage_spreads({"attack": 2, "defense": 1, "skill": 0, "move": 3}, 2)
    assert {tuple(sorted(s.items())) for s in spreads} == {
        (("attack", 1), ("move", 1)), (("move", 2),)}
    assert combat.damage_room({"attack": 2, "defense": 1, "skill": 0, "move": 3}) == 3


def test_a_new_game_waits_for_the_board_placement():
    state = rules.new_game(two_player_config(), 5)
    assert state.phase == "setup" and len(rules.awaited(state)) == 1
    first = rules.awaited(state)[0]
    assert set(rules.legal_commands(state, first)) == {"corridor federation", "corridor borg"}


def test_a_refused_command_changes_nothing_and_says_why():
    state = rules.new_game(two_player_config(layout="standard"), 3)
    assert rules.awaited(state) == ["p1", "p2"]  # core missions are chosen at the same time
    for seat in ("p1", "p2"):
        state, _ = rules.apply(state, seat, rules.legal_commands(state, seat)[0])
    before = to_json(state)
    seat = rules.awaited(state)[0]
    other = "p2" if seat == "p1" else "p1"
    with pytest.raises(RuleError, match="not your decision"):
        rules.apply(state, other, "start bridge")
    with pytest.raises(RuleError, match="not a free mission board"):
        rules.apply(state, seat, "start kitchen")
    with pytest.raises(RuleError, match="Unknown command"):
        rules.apply(state, seat, "teleport")
    assert to_json(state) == before


def test_every_listed_command_is_accepted():
    state = rules.new_game(two_player_config(), 11)
    rng = random.Random(11)
    for _ in range(150):
        seat = rules.awaited(state)[0]
        for command in rules.legal_commands(state, seat)[:25]:
            rules.apply(state, seat, command)  # must not raise
        seat, command = random_command(state, rng)
        state, _ = rules.apply(state, seat, command)


def test_views_hide_hands_decks_and_dice():
    state = rules.new_game(two_player_config(layout="standard"), 8)
    rng = random.Random(8)
    while state.phase != "action":
        seat, command = random_command(state, rng)
        state, _ = rules.apply(state, seat, command)
    p1_hand = state.player("p1").hand
    assert p1_hand
    public = rules.view_for(state, None)
    mine = rules.view_for(state, "p1")
    theirs = rules.view_for(state, "p2")
    assert "seed" not in public and "dice" not in public
    assert all("hand" not in p and "support_deck" not in p for p in public["players"])
    assert mine["players"][0]["hand"] == p1_hand and "hand" not in mine["players"][1]
    assert "hand" not in theirs["players"][0]
    assert public["players"][0]["hand_count"] == len(p1_hand)


def test_state_round_trips_through_json():
    state = rules.new_game(two_player_config(), 21)
    rng = random.Random(21)
    for _ in range(80):
        seat, command = random_command(state, rng)
        state, _ = rules.apply(state, seat, command)
        assert from_json(to_json(state)) == state


def test_same_seed_and_commands_give_the_same_game():
    def play(seed):
        state = rules.new_game(two_player_config(), seed)
        rng = random.Random(1)
        for _ in range(60):
            seat, command = random_command(state, rng)
            state, _ = rules.apply(state, seat, command)
        return to_json(state)

    assert play(4) == play(4)
    assert play(4) != play(5)
