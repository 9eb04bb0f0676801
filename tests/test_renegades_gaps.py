"""The rules gaps of issue 12 (N160-N169) that a scenario cannot state: what a figure
defeated by another figure earns, and which pieces oppose which."""
from __future__ import annotations

import yaml

from engine.renegades import rules
from engine.renegades.crew.pieces import opposed
from engine.renegades.orbit.orbit import roll_off
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


def test_a_roll_off_among_more_than_six_reads_two_dice_as_one_number():  # N53
    state = rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}]}, 3)
    g = rules.Game(state)
    tied = [f"C{n}" for n in range(8)]
    state.dice.scripted = [6, 6, 1, 3, 4, 2]  # 35 is past the 32 usable numbers: rolled again; then 2, then 19
    assert roll_off(g, tied, figure="X") == "C0"
    assert g.events[-1] == {"type": "roll_off", "figure": "X", "among": tied, "die": [1, 3], "rolled": [6, 6, 1, 3],
                            "chosen": "C0"}
    assert roll_off(g, tied, figure="X") == "C4"  # 19 * 8 // 32
    chosen = set()
    for seed in range(200):  # each of the eight can win, and it always ends
        g = rules.Game(rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}]}, seed))
        chosen.add(roll_off(g, tied + ["C8", "C9", "C10", "C11", "C12"]))
    assert chosen == set(tied) | {"C8", "C9", "C10", "C11", "C12"}


def test_a_roll_off_among_up_to_six_is_one_die():
    state = rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}]}, 3)
    g = rules.Game(state)
    state.dice.scripted = [5, 2]  # four candidates: faces 1-4 count, 5 and 6 are rolled again
    assert roll_off(g, ["A", "B", "C", "D"]) == "B"
    assert g.events[-1]["rolled"] == [5, 2] and g.events[-1]["die"] == 2
