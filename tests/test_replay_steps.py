"""A game's steps rebuilt from its log (engine/service/steps.py): every ruleset and table,
the public view at each step, where rounds and activations begin, take-backs, and a log
the running rules refuse."""
import json
import random

import pytest

from engine.awaymissions import autoplay as away_autoplay
from engine.renegades import autoplay as renegades_autoplay
from engine.service import steps
from engine.service.replay import TAKE_BACK
from engine.service.rulesets import RULESETS
from tests.conftest import multi_config, two_player_config

TABLES = {
    "away missions, 2 players": ("awaymissions", two_player_config(), away_autoplay.random_command),
    "away missions, 3 players": ("awaymissions", multi_config(3, layout="six"), away_autoplay.random_command),
    "away missions, 2 vs 2": ("awaymissions", multi_config(4, teams=True, layout="six"), away_autoplay.random_command),
    "renegades, coalition vs renegades": ("renegades", {"players": [{"seat": "p1"}, {"seat": "p2"}]},
                                          renegades_autoplay.random_command),
    "renegades, co-op of 2": ("renegades", {"mode": "coop", "players": [{"seat": "p1"}, {"seat": "p2"}]},
                              renegades_autoplay.random_command),
    "renegades, 4 players": ("renegades", {"players": [{"seat": f"p{i}"} for i in range(1, 5)], "world_cards": 10},
                             renegades_autoplay.random_command),
}


def played(name: str, seed: int = 7, moves: int = 10_000):
    """(ruleset, config, log of (seat, command, events JSON), final state) of a random game."""
    ruleset_name, config, choose = TABLES[name]
    ruleset = RULESETS[ruleset_name]
    state, rng, log = ruleset.new_game(config, seed), random.Random(seed), []
    while state.phase != "over" and len(log) < moves:
        seat, command = choose(state, rng)
        state, events = ruleset.apply(state, seat, command)
        log.append((seat, command, json.dumps(events)))
    return ruleset, config, log, state


def hands_in(view: dict) -> list:
    return [p["hand"] for p in view.get("players", []) if "hand" in p]


@pytest.mark.parametrize("name", list(TABLES))
def test_every_step_of_a_whole_game_is_its_public_view_with_rounds_and_activations_marked(name):
    ruleset, config, log, final = played(name)
    walked = list(steps.walk(ruleset, config, 7, log))
    assert [s.number for s in walked] == list(range(len(log) + 1))
    assert ruleset.to_json(walked[-1].state) == ruleset.to_json(final)
    for step in walked:
        assert step.view == ruleset.view_for(step.state, None) and not hands_in(step.view)
        assert all("private" not in e for e in step.events)
    assert any("private" in e for s in walked for e in s.logged) == (ruleset.name == "awaymissions")
    marks = steps.marks_of(walked)
    rounds = sorted(marks.rounds)
    assert rounds == list(range(rounds[0], final.round + 1)) and len(rounds) >= 2
    for number, begins in marks.rounds.items():  # a round begins where the step before was in another
        assert walked[begins].round == number and (begins == 0 or walked[begins - 1].round != number)
    assert len(marks.activations) > len(rounds)
    for begins in marks.activations:
        before, step = walked[begins - 1], walked[begins]
        assert step.activation is not None and (before.activation != step.activation or before.round != step.round)
    inside = [s.number for s in walked if s.activation is not None and s.number not in marks.activations]
    assert inside, "an activation lasts more than one step"
    for number in inside:
        assert walked[number].activation == walked[number - 1].activation
    step, again = steps.step_at(ruleset, config, 7, log, len(log) // 2)
    assert step.number == len(log) // 2 and again == marks
    assert step.view == walked[len(log) // 2].view


def test_renegades_activations_are_ship_turns_in_orbit_and_party_activations_on_the_surface():
    """Ruling P40: both kinds are steps to jump to."""
    for seed in range(1, 30):
        ruleset, config, log, _ = played("renegades, coalition vs renegades", seed)
        walked = list(steps.walk(ruleset, config, seed, log))
        phases = {walked[n].state.phase for n in steps.marks_of(walked).activations}
        if phases >= {"orbital", "surface"}:
            return
    raise AssertionError("no game of 29 saw a landing party activate")


def test_marks_lead_to_the_activation_and_round_before_and_after():
    marks = steps.Marks(rounds={0: 0, 1: 10, 2: 30}, activations=[12, 15, 31], last=40)
    assert marks.previous_activation(15) == 12 and marks.previous_activation(14) == 12
    assert marks.previous_activation(12) is None and marks.next_activation(12) == 15
    assert marks.next_activation(31) is None and marks.activation_number(14) == 1
    assert marks.activation_number(5) == 0 and marks.activation_number(40) == 3


def test_a_take_back_returns_to_the_step_before_the_action_it_takes_back():
    ruleset, config, log, _ = played("away missions, 2 players", moves=6)
    seat, command, events = log[-1]
    taken = log + [("p1" if seat == "p2" else "p2", TAKE_BACK, json.dumps([{"type": "taken_back"}]))]
    walked = list(steps.walk(ruleset, config, 7, taken))
    assert walked[-1].view == {**walked[-3].view, "version": walked[-1].state.version}
    assert walked[-1].state.version == len(taken)


def test_a_log_the_running_rules_refuse_is_unwatchable_from_that_move():
    ruleset, config, log, _ = played("away missions, 2 players", moves=8)
    for damaged, at in [(log[:4] + [(log[4][0], "nonsense", "[]")] + log[5:], 5),
                        ([(None, TAKE_BACK, "[]")] + log, 1)]:  # a take-back of nothing
        walked = []
        with pytest.raises(steps.Unwatchable) as refused:
            for step in steps.walk(ruleset, config, 7, damaged):
                walked.append(step)
        assert refused.value.at == at and len(walked) == at


@pytest.mark.parametrize("name", ["away missions, 2 vs 2", "renegades, coalition vs renegades"])
def test_a_tape_kept_while_the_game_goes_on_rebuilds_every_step_as_a_fresh_walk(name):
    """The replay desk keeps a tape per game in memory: walked on as the log grows, any step
    rebuilt from its nearest kept step is the step a walk from the deal gives."""
    ruleset, config, log, _ = played(name)
    walked = list(steps.walk(ruleset, config, 7, log))
    tape = steps.Tape(ruleset, config, 7)
    step, marks = tape.step(log[:60], 59)
    assert ruleset.to_json(step.state) == ruleset.to_json(walked[59].state) and marks == steps.marks_of(walked[:61])
    for number in random.Random(3).sample(range(len(log) + 1), 25) + [0, len(log), len(log) + 5]:
        step, marks = tape.step(log, number)
        expected = walked[min(number, len(log))]
        assert step.number == expected.number and step.view == expected.view and step.events == expected.events
        assert (step.round, step.activation, step.new_round, step.new_activation) == \
            (expected.round, expected.activation, expected.new_round, expected.new_activation)
        assert marks == steps.marks_of(walked)
    assert len(tape.kept) == len(log) // steps.Tape.KEPT + 1


def test_a_game_the_running_packs_cannot_deal_is_unwatchable_from_the_deal():
    ruleset, config, log, _ = played("away missions, 2 players", moves=3)
    with pytest.raises(steps.Unwatchable) as refused:
        steps.Tape(ruleset, {**config, "pack": "content/nowhere"}, 7).step(log, 2)
    assert refused.value.at == 0 and "the deal" in str(refused.value)
