"""Every scenario file under scenarios/ passes."""
import glob

import pytest

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
