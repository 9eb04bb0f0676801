"""The rules gaps of issue 12 (N160-N169) that a scenario cannot state: what a figure
defeated by another figure earns, and which pieces oppose which."""
from __future__ import annotations

import yaml

from engine.renegades import rules
from engine.renegades.pieces import opposed
from engine.renegades.scenario import build


def _scenario(name: str, path: str = "scenarios/renegades-gaps-rivals.yaml") -> dict:
    with open(path) as handle:
        return next(spec for spec in yaml.safe_load(handle) if spec["name"].startswith(name))


def test_a_figure_defeated_by_a_rival_earns_nobody_digits():
    spec = _scenario("with no crewmember in sight")
    state = build(spec)
    state.dice.scripted = list(spec["steps"][0]["dice"])
    state, events = rules.apply(state, "p1", "pass")
    assert any(e["type"] == "figure_defeated" and e["by"] == "STALKER" for e in events)
    assert state.digits == {}


def test_villains_stand_together_and_creatures_against_them():
    spec = _scenario("villains of different species")
    spec["figures"]["STALKER"] = {"villain": "STALKER", "cell": "L12"}
    figures = build(spec).figures
    assert not opposed(figures["SYPHON-W1"], figures["DREGG-T1"])
    assert not opposed(figures["SYPHON-W1"], figures["DRONE1"])
    assert opposed(figures["STALKER"], figures["DRONE1"]) and opposed(figures["DREGG-T1"], figures["STALKER"])
