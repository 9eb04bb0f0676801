"""Every scenario file under scenarios/ passes."""
import glob

import pytest

from engine.awaymissions.scenario import build
from engine.scenario import run_file

FILES = sorted(glob.glob("scenarios/*.yaml"))


def test_there_are_scenarios():
    assert len(FILES) >= 1


@pytest.mark.parametrize("path", FILES)
def test_scenario(path):
    assert run_file(path) == []


def test_a_wrong_expectation_is_reported(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "name: wrong damage\nlayout: standard\nstart: {round: 1, phase: action, turn: p1}\n"
        "characters:\n  REYES: {space: C5}\n  D4-12: {space: E5}\n"
        "steps:\n  - p1: activate REYES\n  - p1: move REYES C6\n    expect:\n"
        "      characters: {REYES: {space: C4}}\n")
    failures = run_file(str(bad))
    assert len(failures) == 1 and "REYES.space: 'C6', expected 'C4'" in failures[0]


def test_a_refused_game_is_reported_not_raised(tmp_path):
    bad = tmp_path / "refused.yaml"
    bad.write_text(
        "- name: refused but not expected\n  players:\n"
        "    p1: {affiliation: federation, team: federation-away-team, deck: borg-starter}\n"
        "    p2: {affiliation: borg, team: borg-away-team}\n"
        "- name: refused for another reason than expected\n  players:\n"
        "    p1: {affiliation: federation, team: federation-away-team, deck: borg-starter}\n"
        "    p2: {affiliation: borg, team: borg-away-team}\n  refused: supply\n"
        "- name: expected refused but made\n  layout: standard\n  refused: anything\n"
        "- name: a character the pack does not have\n  layout: standard\n"
        "  start: {round: 1, phase: action, turn: p1}\n  characters: {NOBODY: {space: C5}}\n")
    failures = run_file(str(bad))
    assert len(failures) == 4
    assert "the game was refused: Unknown federation deck" in failures[0]
    assert "expected 'supply'" in failures[1]
    assert "expected it refused" in failures[2]
    assert "cannot be built: KeyError" in failures[3]


def test_an_away_missions_position_in_a_phase_it_does_not_have_is_refused():
    """A Renegades start (a surface phase) given to the Away Missions builder is refused at once
    instead of never settling."""
    with pytest.raises(ValueError, match="unknown Away Missions phase 'surface'"):
        build({"ruleset": "renegades", "start": {"round": 1, "phase": "surface"}})
