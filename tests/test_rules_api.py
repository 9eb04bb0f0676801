"""The engine's public face: decisions, refusals that change nothing, views, serialisation."""
import random

import pytest

from engine.awaymissions import combat, rules, stored
from engine.awaymissions.autoplay import random_command
from engine.awaymissions.state import from_json, to_json
from engine.errors import RuleError
from tests.conftest import multi_config, two_player_config


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


def test_the_only_spread_is_the_one_damage_spreads_lists_when_it_lists_one():
    import itertools
    for values in itertools.product(range(0, 5), repeat=4):
        ratings = dict(zip(("attack", "defense", "skill", "move"), values))
        for damage in range(0, combat.damage_room(ratings) + 1):
            spreads = combat.damage_spreads(ratings, damage)
            only = combat.only_spread(ratings, damage)
            assert (only is not None) == (len(spreads) == 1), (ratings, damage)
            if only is not None:
                assert list(only.items()) == list(spreads[0].items())  # the same pegs, in the same order


def test_an_attack_leaves_no_reference_cycles_for_the_collector():
    """Whatever an attack allocates, and the listing of damage spreads, is freed as soon as
    it is let go, so the collector has nothing to find after them (the spreads were walked
    by a closure calling itself)."""
    import gc

    from images.demo import midgame_state
    state = midgame_state()
    gc.collect()
    gc.disable()
    try:
        after, events = rules.apply(state, "p1", "attack FERROW D4-12 phaser-rifle")
        assert [d.kind for d in after.pending] == ["damage"]  # several spreads: the owner picks
        assert len(combat.damage_spreads({"attack": 3, "defense": 3, "skill": 2, "move": 4}, 3)) > 1
        del after, events
        assert gc.collect() == 0
    finally:
        gc.enable()


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


def _in_action_phase(seed):
    """A two-player game played at random until its first action phase."""
    state = rules.new_game(two_player_config(layout="standard"), seed)
    rng = random.Random(seed)
    while state.phase != "action":
        seat, command = random_command(state, rng)
        state, _ = rules.apply(state, seat, command)
    return state


def test_views_hide_hands_decks_and_dice():
    state = _in_action_phase(8)
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


def test_interrupt_lists_are_public_and_held_interrupts_are_not():
    """R95: every seat and the public view see each player's interrupt list (the deck
    list's interrupts); which of them a player holds stays in the hidden hand."""
    state = _in_action_phase(8)
    listed = state.player("p1").interrupts
    assert listed
    for viewer in ("p2", None):
        p1 = rules.view_for(state, viewer)["players"][0]
        assert p1["interrupts"] == listed and "hand" not in p1


def test_state_round_trips_through_json():
    state = rules.new_game(two_player_config(), 21)
    rng = random.Random(21)
    for _ in range(80):
        seat, command = random_command(state, rng)
        state, _ = rules.apply(state, seat, command)
        assert from_json(to_json(state)) == state


def test_a_state_stored_before_assimilated_by_takes_it_from_the_logged_events():
    """R92: two Borg players (p2, p4); SOLIS was assimilated by p4's drone and has since gone
    back to p1, so nothing on the board says whose it was; REYES was assimilated by SOLIS
    while p4 controlled it. The logged events name the assimilating characters."""
    state = rules.new_game(multi_config(4), 1)
    for code in ("SOLIS", "REYES"):
        state.characters[code].assimilated = True
    state.characters["SOLIS"].status = "returned"
    state.characters["REYES"].controller = "p4"
    old = from_json(to_json(state))
    assert stored.outdated(old)
    events = [{"type": "rolled", "dice": [6]},
              {"type": "assimilated", "character": "SOLIS", "by": "E1-11-4"},
              {"type": "assimilated", "character": "REYES", "by": "SOLIS"}]
    carried = stored.carry_forward(old, events)
    assert {c.id: c.assimilated_by for c in carried.characters.values() if c.assimilated} == {
        "SOLIS": "p4", "REYES": "p4"}
    assert not stored.outdated(carried) and stored.outdated(old)  # the stored state is not changed
    assert stored.carry_forward(old, []) is old  # no logged assimilation: nothing is guessed


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


def _started():
    state = rules.new_game(two_player_config(layout="standard"), 3)
    return state, rules.awaited(state)[0]


@pytest.mark.parametrize("command", [None, b"pass", 42, ["pass"]])
def test_a_command_that_is_not_text_is_refused_with_a_rule_error(command):
    state, seat = _started()
    with pytest.raises(RuleError, match="line of text"):
        rules.apply(state, seat, command)


@pytest.mark.parametrize("command", ["core fed-core-hold-the-ship ; DROP TABLE games; --",
                                     "pass please", "keep it", "core fed-core-hold-the-ship\ncore x"])
def test_extra_words_and_second_lines_are_refused(command):
    state, seat = _started()
    before = to_json(state)
    with pytest.raises(RuleError):
        rules.apply(state, seat, command)
    assert to_json(state) == before


def test_look_alike_letters_are_folded_to_ascii_and_other_scripts_refused():
    assert rules.canonical("\u017fpecial REYE\u017f \u017fteady-the-line") == "special REYES steady-the-line"
    assert rules.canonical("move \u212aX C4") == "move KX C4"  # the Kelvin sign is a K
    for digits in ("\u0663", "\u09e9", "\u0be9"):  # Arabic-Indic, Bengali, Tamil three
        with pytest.raises(RuleError, match="plain letters"):
            rules.canonical(f"damage REYES attack={digits}")
    with pytest.raises(RuleError, match="plain letters"):
        rules.canonical("move REYES \u0421\u0034")  # a Cyrillic capital es


def test_canonical_text_has_one_case_per_kind_of_word():
    assert rules.canonical("  MOVE reyes c4 ") == "move REYES C4"
    assert rules.canonical("Play FED-Away-Team-Kit reyes") == "play fed-away-team-kit REYES"
    assert rules.canonical("damage d4-12 ATTACK=1 Move=1") == "damage D4-12 attack=1 move=1"


def test_refusals_quote_at_most_80_characters_of_the_input():
    state, seat = _started()
    for command in ["q" * 64, "core " + "x" * 64, "core " + "y" * 500, "z" * 3000, "move " + "w" * 63 + " A1 " + "v" * 90]:
        with pytest.raises(RuleError) as refused:
            rules.apply(state, seat, command)
        message = str(refused.value)
        longest_run = max(len(run) for run in message.replace("'", " ").split())
        assert longest_run <= 80, message


def test_mute_is_refused_once_the_game_is_over():
    state, seat = _started()
    state.phase = "over"
    with pytest.raises(RuleError, match="over"):
        rules.apply(state, seat, "mute reroll")
