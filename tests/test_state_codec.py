"""The same state always gives the same bytes and the same views, whatever its values are
made of (msgspec leaves a default out by identity, engine/codec.py), for both rulesets and
Renegades campaigns; a game stored by the earlier encoder still replays and verifies."""
import dataclasses
import json
import random

import msgspec
import pytest
from hypothesis import given, settings, strategies as st

from db import GameRow, LogEntry
from engine.awaymissions import rules as away
from engine.awaymissions import state as away_state
from engine.awaymissions.autoplay import random_command as away_command
from engine.renegades import rules as renegades
from engine.renegades.autoplay import random_command as renegades_command
from engine.renegades.campaign import campaign
from engine.renegades.contents import state as renegades_state
from engine.service import audit, replay
from engine.service.rulesets import RULESETS
from tests.conftest import two_player_config

RULESETS_PLAYED = {
    "awaymissions": (away, away_state, away_command, lambda: two_player_config()),
    "renegades": (renegades, renegades_state, renegades_command,
                  lambda: {"mode": "coop", "players": [{"seat": "p1"}, {"seat": "p2"}]}),
}


def fresh(value, pick=lambda: True):
    """`value` rebuilt with new, equal objects for the strings and numbers `pick` chooses: what
    decoding JSON or upper-casing a command makes, never the shared default object."""
    if isinstance(value, msgspec.Struct):
        copy = msgspec.structs.replace(value)
        for name in value.__struct_fields__:
            msgspec.structs.force_setattr(copy, name, fresh(getattr(value, name), pick))
        return copy
    if isinstance(value, list):
        return [fresh(v, pick) for v in value]
    if isinstance(value, dict):
        return {k: fresh(v, pick) for k, v in value.items()}
    if type(value) is str and value and pick():
        return value.swapcase().swapcase() if value.isascii() else "".join(reversed(value[::-1]))
    if type(value) is int and pick():
        return int(str(value))
    return value


def played(ruleset: str, seed: int, commands: int) -> tuple[list, list[LogEntry]]:
    """One random game's states, dealt and after each of its first `commands` commands, and
    its log."""
    rules, _, choose, config = RULESETS_PLAYED[ruleset]
    states, log = [rules.new_game(config(), seed)], []
    rng = random.Random(seed)
    while len(log) < commands and states[-1].phase != "over":
        seat, command = choose(states[-1], rng)
        state, events = rules.apply(states[-1], seat, command)
        states.append(state)
        log.append(LogEntry(state.version, seat, None, command, json.dumps(events), 0.0))
    return states, log


def views(rules, state) -> list[str]:
    return [json.dumps(rules.view_for(state, seat), sort_keys=True) for seat in [None, *state.seats]]


@pytest.mark.parametrize("ruleset, seed", [("awaymissions", 3), ("awaymissions", 8), ("renegades", 3),
                                           ("renegades", 11)])
def test_equal_states_give_the_same_bytes_and_views_whatever_their_values_are_made_of(ruleset, seed):
    rules, codec, _, _ = RULESETS_PLAYED[ruleset]
    checked = 0
    for state in played(ruleset, seed, 150)[0]:
        text, seen = codec.to_json(state), views(rules, state)
        for copy in (codec.clone(state), codec.from_json(text), fresh(state)):
            assert codec.to_json(copy) == text
            assert views(rules, copy) == seen
        checked += 1
    assert checked > 20


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), picks=st.lists(st.booleans(), min_size=1, max_size=64), ruleset=st.sampled_from(
    sorted(RULESETS_PLAYED)), steps=st.integers(0, 40))
def test_any_mix_of_new_and_shared_values_gives_the_same_bytes(seed, picks, ruleset, steps):
    rules, codec, _, _ = RULESETS_PLAYED[ruleset]
    state = played(ruleset, seed, steps)[0][-1]
    chosen = iter(picks * 1000)
    mixed = fresh(state, lambda: next(chosen))
    assert codec.to_json(mixed) == codec.to_json(state) == codec.to_json(codec.clone(mixed))
    assert views(rules, mixed) == views(rules, state)


def test_a_campaign_gives_the_same_bytes_and_views_whatever_its_values_are_made_of():
    state = campaign.new_campaign({"title": "ember", "players": [{"seat": "p1"}, {"seat": "p2"}], "missions": 3}, 5)
    state, _ = campaign.apply(state, "p1", "launch")
    for copy in (fresh(state), campaign.clone(fresh(state)), campaign.from_json(campaign.to_json(fresh(state)))):
        assert campaign.to_json(copy) == campaign.to_json(state)
        assert campaign.view_for(copy, "p1") == campaign.view_for(state, "p1")


@pytest.mark.parametrize("ruleset", sorted(RULESETS_PLAYED))
def test_a_game_stored_by_the_earlier_encoder_still_replays_and_verifies(ruleset):
    """The earlier encoder wrote msgspec's text of the live state as it was, so a value made
    anew (a game loaded from its JSON, a facing upper-cased from a command) was kept while
    the same value as the default object was left out; such text is the same state."""
    _, codec, _, config_of = RULESETS_PLAYED[ruleset]
    config, seed = config_of(), 4
    states, log = played(ruleset, seed, 2)  # early: fields at their defaults (the phase in orbit)
    final = states[-1]
    written_before = msgspec.json.encode(fresh(final)).decode()  # what the earlier to_json wrote
    assert written_before.encode() != codec.to_json(final)
    row = GameRow(id=1, ruleset=ruleset, guild_id=None, channel_id=None, thread_id=None, created_by=None,
                  status="active", version=final.version, config=json.dumps(config), seed=seed,
                  state=written_before, result=None, created_at=0.0, updated_at=0.0, turn_limit=None,
                  remind_after=None)
    assert replay.check(row, log).ok
    verdict = audit.verify(RULESETS[ruleset], config, seed, [(e.seq, e.seat, e.command, e.events) for e in log],
                           written_before)
    assert verdict.ok, verdict.problems
    tampered = written_before.replace(f'"version":{final.version}', f'"version":{final.version + 1}', 1)
    assert tampered != written_before
    assert not replay.check(dataclasses.replace(row, state=tampered), log).ok
