"""Odds before you commit: exact chances of attacks and skill tests.

The counted tables are checked against every roll of every dice count up to 6 against 6,
resolved with the engine's own combat.compare / combat.unopposed; previews of commands on
real positions are checked against the engine itself, by playing the command once for
every possible roll (scripted dice) and counting what the engine did.
"""
import functools
import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from engine.awaymissions import combat, odds, rules
from engine.awaymissions.autoplay import random_command
from engine.awaymissions.scenario import build
from engine.awaymissions.state import to_json
from engine.errors import RuleError
from tests.conftest import two_player_config

FACES = range(1, 7)
COUNTS = range(0, combat.MAX_DICE + 1)


@functools.lru_cache(maxsize=None)
def _lines(count):
    """Every one of the 6**count rolls of `count` dice, tallied by the line it makes (high to low)."""
    return Counter(tuple(sorted(roll, reverse=True)) for roll in itertools.product(FACES, repeat=count))


@functools.lru_cache(maxsize=None)
def _every_roll(dice, opposing):
    """Hits -> how many of the 6**(dice + opposing) rolls give them, by combat.compare.
    The two sides roll independently, so each pair of lines counts the product of the
    rolls that make them."""
    hits = Counter()
    for active, ways in _lines(dice).items():
        for against, other_ways in _lines(opposing).items():
            hits[combat.compare(list(active), list(against)).count("hit")] += ways * other_ways
    assert sum(hits.values()) == 6 ** (dice + opposing)
    return hits


@pytest.mark.parametrize("opposing", COUNTS)
@pytest.mark.parametrize("dice", COUNTS)
def test_hit_chances_equal_every_roll_up_to_six_dice_against_six(dice, opposing):
    counted = _every_roll(dice, opposing)
    total = 6 ** (dice + opposing)
    chances = odds.hit_chances(dice, opposing)
    assert chances == {hits: Fraction(counted[hits], total) for hits in range(dice + 1)}
    assert sum(chances.values()) == 1
    assert odds.hit_ways(dice, opposing) == tuple(counted[hits] for hits in range(dice + 1))


@pytest.mark.parametrize("opposing", COUNTS)
@pytest.mark.parametrize("dice", COUNTS)
def test_damage_chances_equal_every_roll(dice, opposing):
    counted = _every_roll(dice, opposing)
    total = 6 ** (dice + opposing)
    for bonus in (0, 1, 2):
        damage = Counter()
        for hits, ways in counted.items():
            damage[hits + bonus if hits else 0] += ways  # a miss adds no DAMAGE
        assert odds.damage_chances(dice, opposing, bonus) == {d: Fraction(w, total) for d, w in sorted(damage.items())}


def test_joint_rolls_dice_by_dice_agree_too():
    # without grouping rolls into lines: every joint roll of both sides, up to 6 dice in all
    for dice in range(1, 7):
        for opposing in range(0, 7 - dice):
            hits = Counter(combat.compare(list(roll[:dice]), list(roll[dice:])).count("hit")
                           for roll in itertools.product(FACES, repeat=dice + opposing))
            assert odds.hit_ways(dice, opposing) == tuple(hits[h] for h in range(dice + 1))


@pytest.mark.parametrize("dice", COUNTS)
def test_unopposed_tests_equal_every_roll(dice):
    successes = Counter(combat.unopposed(list(roll)).count("hit") for roll in itertools.product(FACES, repeat=dice))
    total = 6 ** dice
    assert odds.hit_chances(dice) == {s: Fraction(successes[s], total) for s in range(dice + 1)}
    for needed in range(1, 7):
        assert odds.pass_chance(dice, None, needed) == Fraction(
            sum(w for s, w in successes.items() if s >= needed), total)


def test_known_values_and_limits():
    assert odds.hit_chances(1, 1) == {0: Fraction(7, 12), 1: Fraction(5, 12)}  # 15 of 36 pairs beat the die
    assert odds.pass_chance(1) == Fraction(1, 2)
    assert odds.hit_chances(0, 6) == {0: 1}
    with pytest.raises(ValueError):
        odds.hit_ways(7, 0)


# --- previews of real commands against the engine itself ----------------------------------------
def _position(characters, pack="content/starter", players=None, hands=None, turn="p1"):
    spec = {"pack": pack, "layout": "standard", "start": {"round": 1, "phase": "action", "turn": turn},
            "characters": characters}
    if players:
        spec["players"] = players
    if hands:
        spec["hands"] = hands
    return build(spec)


def _engine_tally(state, seat, command, dice):
    """Play `command` once for every roll of `dice` dice; tally (successes, damage, stun,
    neutralized) from the engine's events."""
    tally = Counter()
    for roll in itertools.product(FACES, repeat=dice):
        state.dice.scripted = list(roll)  # apply works on a copy: `state` keeps its position
        _, events = rules.apply(state, seat, command)
        resolved = [e for e in events if e["type"] == "resolved"]
        assert len(resolved) == 1, events
        done = resolved[0]
        tally[done["successes"], done.get("damage"), done.get("stun"),
              any(e["type"] == "neutralized" for e in events)] += 1
    state.dice.scripted = []
    return tally


def _chances(tally, key):
    total = sum(tally.values())
    out = Counter()
    for outcome, ways in tally.items():
        out[key(outcome)] += ways
    return {value: Fraction(ways, total) for value, ways in out.items()}


def _assert_attack_matches_engine(state, command, dice, defense):
    seat = state.characters[command.split()[1]].controller
    before = to_json(state)
    preview = odds.preview(state, seat, command)
    assert to_json(state) == before  # a preview changes nothing
    assert (preview.dice, preview.defense) == (dice, defense)
    tally = _engine_tally(state, seat, command, dice + defense)
    assert preview.hits == _chances(tally, lambda o: o[0])
    assert preview.damage == _chances(tally, lambda o: o[1])
    assert preview.stun == _chances(tally, lambda o: o[2]).get(True, 0)
    assert preview.neutralize == _chances(tally, lambda o: o[3]).get(True, 0)
    return preview


def test_attack_preview_on_a_defender_in_cover_with_a_stun_token():
    # REYES: ATTACK 1 + phaser 1 = 2 dice; D4-12: DEFENSE 2 - 1 stun token + cover = 2 dice.
    # D4-12 can lose only 1 peg, so 2 damage or more neutralizes it.
    state = _position({"REYES": {"space": "C5", "ratings": {"attack": 1}},
                       "D4-12": {"space": "E5", "cover": True, "stun": 1,
                                 "ratings": {"attack": 1, "defense": 2, "skill": 1, "move": 1}}})
    state, _ = rules.apply(state, "p1", "activate REYES")
    preview = _assert_attack_matches_engine(state, "attack REYES D4-12 phaser", 2, 2)
    assert preview.damage == odds.damage_chances(2, 2, 1)  # the phaser's DAMAGE 1 on any hit
    assert 0 < preview.neutralize == 1 - preview.hits[0]


def test_attack_preview_with_backup_on_both_sides():
    # FERROW: ATTACK 0 + rifle 2 + backup (SOLIS) = 3 dice; D4-12: DEFENSE 1 + backup (D7-12) = 2 dice
    state = _position({"FERROW": {"space": "C5", "ratings": {"attack": 0}}, "SOLIS": {"space": "C5"},
                       "D4-12": {"space": "E5", "ratings": {"defense": 1}}, "D7-12": {"space": "E5"}})
    state, _ = rules.apply(state, "p1", "activate FERROW")
    preview = _assert_attack_matches_engine(state, "attack FERROW D4-12 phaser-rifle", 3, 2)
    assert preview.damage == odds.damage_chances(3, 2, 1)


def test_stun_weapon_previews(stun_damage_pack):
    # stun weapons with DAMAGE 2: against a Borg the hits are plain damage with +0 DAMAGE (R19) ...
    state = _position({"REYES": {"space": "C5", "ratings": {"attack": 1}},
                       "D4-12": {"space": "E5", "ratings": {"defense": 2}}}, pack=stun_damage_pack)
    state, _ = rules.apply(state, "p1", "activate REYES")
    borg = _assert_attack_matches_engine(state, "attack REYES D4-12 phaser-stun", 2, 2)
    assert borg.damage == odds.damage_chances(2, 2, 0) and borg.stun == 0
    # ... against anyone else any hit is a stun token instead of all damage
    state = _position({"REYES": {"space": "C5", "ratings": {"defense": 1}},
                       "D4-12": {"space": "E5", "ratings": {"attack": 1}}}, pack=stun_damage_pack, turn="p2")
    state, _ = rules.apply(state, "p2", "activate D4-12")
    stunned = _assert_attack_matches_engine(state, "attack D4-12 REYES stun-beam", 2, 1)
    assert stunned.damage == {0: 1} and stunned.stun == 1 - stunned.hits[0] > 0


def test_opposed_skill_test_preview_with_a_challenger_backed_up():
    # LINDQ: SKILL 1 + command 1 = 2 dice; D4-12: SKILL 1 + backup (E1-11) = 2 dice
    state = _position({"LINDQ": {"space": "C1", "ratings": {"skill": 1}}, "D4-12": {"space": "D1"},
                       "E1-11": {"space": "D1"}},
                      players={"p1": {"affiliation": "federation", "team": "federation-away-team", "commander": "LINDQ"},
                               "p2": {"affiliation": "borg", "team": "borg-away-team"}})
    state, _ = rules.apply(state, "p1", "activate LINDQ")
    command = "special LINDQ override-codes D4-12"
    assert command in rules.legal_commands(state, "p1")
    preview = odds.preview(state, "p1", command)
    assert (preview.tester, preview.challenger, preview.dice, preview.opposing, preview.needed) == \
        ("LINDQ", "D4-12", 2, 2, 1)
    tally = _engine_tally(state, "p1", command, 4)
    assert preview.successes == _chances(tally, lambda o: o[0]) == odds.hit_chances(2, 2)
    assert preview.passed == _chances(tally, lambda o: o[0] >= 1)[True]


def test_mission_needing_two_successes_preview():
    # OKAFOR at an operations terminal plays Modulate the Shields:
    # SKILL 0 + engineering 2 = 2 dice, 2 successes needed
    state = _position({"OKAFOR": {"space": "E3", "ratings": {"skill": 0}}, "D4-12": {"space": "I7"}},
                      hands={"p1": ["fed-modulate-shields"]})
    state, _ = rules.apply(state, "p1", "activate OKAFOR")
    command = "play fed-modulate-shields"
    assert command in rules.legal_commands(state, "p1")
    preview = odds.preview(state, "p1", command)
    assert (preview.dice, preview.opposing, preview.needed, preview.specialization) == (2, None, 2, "engineering")
    tally = _engine_tally(state, "p1", command, 2)
    assert preview.successes == _chances(tally, lambda o: o[0])
    assert preview.passed == Fraction(1, 4) == _chances(tally, lambda o: o[0] >= 2)[True]


def test_an_event_played_earlier_counts_and_is_not_used_up_by_the_preview():
    # Aimed Shot: the next attack rolls 1 more die and does 1 more DAMAGE.
    state = _position({"REYES": {"space": "C5"}, "D4-12": {"space": "E5"}}, hands={"p1": ["fed-aimed-shot"]})
    state, _ = rules.apply(state, "p1", "activate REYES")
    state, _ = rules.apply(state, "p1", "play fed-aimed-shot")
    before = to_json(state)
    first = odds.preview(state, "p1", "attack REYES D4-12 phaser")
    again = odds.preview(state, "p1", "attack REYES D4-12 phaser")
    assert to_json(state) == before and first == again
    # REYES: ATTACK 3 + phaser 1 + Aimed Shot 1 = 5 dice against DEFENSE 4; DAMAGE 1 + 1
    assert (first.dice, first.defense) == (5, 4)
    assert first.damage == odds.damage_chances(5, 4, 2)
    state.dice.scripted = [6, 6, 6, 6, 6, 1, 1, 1, 1]
    _, events = rules.apply(state, "p1", "attack REYES D4-12 phaser")
    resolved = next(e for e in events if e["type"] == "resolved")
    assert (len(resolved["dice"]), len(resolved["opposing"]), resolved["damage"]) == (5, 4, 7)


def test_other_commands_have_no_preview_and_illegal_ones_are_refused():
    state = _position({"REYES": {"space": "C5"}, "D4-12": {"space": "E5"}})
    state, _ = rules.apply(state, "p1", "activate REYES")
    assert odds.preview(state, "p1", "move REYES C4") is None
    assert odds.preview(state, "p1", "cover REYES") is None
    with pytest.raises(RuleError, match="not your decision"):
        odds.preview(state, "p2", "attack D4-12 REYES drone-beam")
    with pytest.raises(RuleError, match="no attack"):
        odds.preview(state, "p1", "attack REYES D4-12 bat-leth")
    with pytest.raises(RuleError):
        odds.preview(state, "p1", "attack D4-12 REYES drone-beam")


def _first_roll(state, seat, command):
    """The engine's `rolled` event for a command, answering 'pass' to any interrupt moment first."""
    state, events = rules.apply(state, seat, command)
    while not any(e["type"] == "rolled" for e in events):
        if not state.pending or state.pending[0].kind != "interrupt":
            return None
        state, events = rules.apply(state, state.pending[0].player, "pass")
    return next(e for e in events if e["type"] == "rolled")


def test_previews_in_random_games_roll_the_dice_the_engine_rolls():
    rng = random.Random(14)
    checked = Counter()
    for seed in range(12):
        state = rules.new_game(two_player_config(layout="standard"), seed)
        steps = 0
        while state.phase != "over" and steps < 1500:
            seat = rules.awaited(state)[0]
            legal = rules.legal_commands(state, seat)
            before = to_json(state)
            for command in legal:
                preview = odds.preview(state, seat, command)
                if command.startswith("attack "):
                    assert isinstance(preview, odds.AttackOdds), command
                if preview is None:
                    continue
                assert to_json(state) == before
                chances = preview.hits if isinstance(preview, odds.AttackOdds) else preview.successes
                assert sum(chances.values()) == 1
                if isinstance(preview, odds.AttackOdds):
                    assert sum(preview.damage.values()) == 1
                    expected = (preview.dice, preview.defense)
                else:
                    expected = (preview.dice, preview.opposing or 0)
                rolled = _first_roll(state, seat, command)
                if rolled is None:  # a test that cannot be taken fails without dice
                    assert isinstance(preview, odds.SkillOdds) and preview.dice == 0, command
                    continue
                assert (len(rolled["dice"]), len(rolled["opposing"])) == expected, command
                checked[command.split()[0]] += 1
            seat, command = random_command(state, rng)
            state, _ = rules.apply(state, seat, command)
            steps += 1
    assert checked["attack"] >= 100 and checked["special"] >= 5, checked
