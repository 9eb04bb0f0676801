"""Passing reaction windows in advance (R41): for the activation, the round, or always;
private, and observable by the opponent only as the absence of the window."""
import random

import pytest

from engine.awaymissions import rules
from engine.awaymissions.autoplay import random_command
from engine.errors import RuleError
from engine.service import text
from tests.conftest import two_player_config

WINDOWS = ("interrupt", "reroll")


def until_window(seed: int, seat: str = "p2"):
    """A random game played until `seat` is asked a window; (state, the rng)."""
    rng = random.Random(seed)
    state = rules.new_game(two_player_config(), seed)
    for _ in range(3000):
        asked = next((d for d in state.pending if d.player == seat), None)
        if asked is not None and asked.kind in WINDOWS and state.round >= 1:
            return state, rng
        who, command = random_command(state, rng)
        state, _ = rules.apply(state, who, command)
    pytest.skip("no window in this game")


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_passing_the_round_in_advance_looks_to_the_opponent_exactly_like_passing(seed):
    state, _ = until_window(seed)
    muted, events = rules.apply(state, "p2", "mute all round")
    passed, _ = rules.apply(state, "p2", "pass")
    assert rules.view_for(muted, "p1") == rules.view_for(passed, "p1")
    assert rules.view_for(muted, None) == rules.view_for(passed, None)
    assert [text.public_line(e, {}) for e in events if e["type"] in ("mute", "unmute")] == [""]
    assert text.private_lines(events)["p2"][0].startswith("You pass in advance: reroll")
    assert all(entry.endswith("@round") for entry in muted.player("p2").mute)
    assert "mute" in rules.view_for(muted, "p2")["players"][1]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_round_pre_pass_asks_nothing_until_the_round_ends_and_then_lapses(seed):
    state, rng = until_window(seed)
    state, _ = rules.apply(state, "p2", "mute all round")
    round_number = state.round
    while state.round == round_number and state.phase != "over":
        asked = next((d for d in state.pending if d.player == "p2"), None)
        assert asked is None or asked.kind not in WINDOWS, asked
        who, command = random_command(state, rng)
        state, _ = rules.apply(state, who, command)
    assert state.player("p2").mute == []


def test_an_activation_pre_pass_lapses_when_the_activation_ends():
    state, rng = until_window(2)
    state, _ = rules.apply(state, "p2", "mute attacked moved activation")
    assert state.player("p2").mute == ["attacked@activation", "moved@activation"]
    while state.activation is not None:
        who, command = random_command(state, rng)
        state, _ = rules.apply(state, who, command)
    assert state.player("p2").mute == []


def test_a_pre_pass_may_be_sent_out_of_turn_replaced_and_taken_back():
    state = rules.new_game(two_player_config(), 5)
    state, _ = rules.apply(state, "p1", "mute reroll")
    state, _ = rules.apply(state, "p1", "mute reroll round")
    assert state.player("p1").mute == ["reroll@round"], "the newer choice replaces the older"
    state, _ = rules.apply(state, "p1", "unmute all")
    assert state.player("p1").mute == []
    for bad in ("mute", "mute round", "mute all forever", "unmute reroll round"):
        with pytest.raises(RuleError, match="Say which windows"):
            rules.apply(state, "p1", bad)
    assert rules.is_standing("mute all") and not rules.is_standing("pass")
