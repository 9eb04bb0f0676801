"""Choosing away teams: specialist swaps and alternative commanders, refused with reasons."""
import pytest

from engine.awaymissions import rules
from engine.awaymissions.content import load_pack
from engine.awaymissions.setup import away_team
from engine.errors import RuleError
from tests.conftest import two_player_config

PACK = load_pack("content/starter")


def seat(**extra):
    return {"affiliation": "federation", "team": "federation-away-team", **extra}


def test_a_specialist_may_be_swapped_for_another_specialist():
    roster = away_team(PACK, seat(swaps={"HARUNA": "QUILL"}))
    assert "QUILL" in roster and "HARUNA" not in roster and roster[0] == "REYES"


def test_the_alternative_commander_replaces_the_commander():
    roster = away_team(PACK, seat(commander="LINDQ"))
    assert roster[0] == "LINDQ" and "REYES" not in roster


def test_bad_choices_are_all_refused_at_once():
    with pytest.raises(RuleError) as caught:
        away_team(PACK, seat(commander="OKAFOR", swaps={"ADEYEMI": "QUILL", "HARUNA": "D4-12"}))
    message = str(caught.value)
    assert "not an alternative commander" in message
    assert "Only mission specialists may be swapped (ADEYEMI for QUILL)" in message
    assert "D4-12 is not of the same affiliation" in message or "Only mission specialists" in message


def test_the_game_uses_the_chosen_roster():
    config = two_player_config()
    config["players"][0]["swaps"] = {"HARUNA": "QUILL"}
    state = rules.new_game(config, 1)
    assert "QUILL" in state.characters and "HARUNA" not in state.characters
