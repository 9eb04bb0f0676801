"""Rules issue 29 found missing (items 31, 32, 34) that a scenario cannot state directly."""
from __future__ import annotations

import random
import shutil

import pytest

from engine.errors import PackError, RuleError
from engine.renegades import rules
from engine.renegades.contents import content
from engine.renegades.scenario import build
from engine.renegades.surface import crew_combat


def _position(figures: dict, crew: dict) -> rules.Game:
    spec = {"ruleset": "renegades", "mission": "the-reactor-core", "start": {"round": 1, "phase": "surface"},
            "figures": figures, "crew": crew}
    return rules.Game(build(spec))


def test_a_villain_fires_through_a_villain_but_not_through_a_creature_or_crew():  # N36 amended
    g = _position({"SYPHON-W1": {"villain": "SYPHON-W", "cell": "A9"},
                   "DREGG-T1": {"villain": "DREGG-T", "cell": "B9"}}, {"ORSO": {"cell": "D9"}})
    shooter, target = g.state.figures["SYPHON-W1"], g.state.crew["ORSO"]
    assert crew_combat.reach_of(g, shooter, target) == (True, (0, 0))
    g.state.figures["DREGG-T1"].cell = "L12"
    g.state.crew["ANSEL"].cell = "B9"  # a crewmember, friend of nobody among the villains
    assert crew_combat.reach_of(g, shooter, target) is None
    g.state.crew["ANSEL"].cell = None
    g.state.figures["STALKER"] = g.state.figures.pop("DREGG-T1")
    g.state.figures["STALKER"].rank, g.state.figures["STALKER"].cell = "creature", "B9"
    assert crew_combat.reach_of(g, shooter, target) is None


def test_a_creature_does_not_fire_through_another_creature():
    g = _position({"A": {"villain": "STALKER", "cell": "A9"}, "B": {"villain": "STALKER", "cell": "B9"}},
                  {"ORSO": {"cell": "D9"}})
    shooter = g.state.figures["A"]
    shooter.range = 4
    assert crew_combat.reach_of(g, shooter, g.state.crew["ORSO"]) is None
    g.state.figures["B"].cell = "L12"
    assert crew_combat.reach_of(g, shooter, g.state.crew["ORSO"]) == (True, (0, 0))


def test_each_of_four_commanders_gets_an_orbital_and_a_surface_tactical_card():  # N215
    state = rules.new_game({"players": [{"seat": f"p{n}"} for n in range(1, 5)]}, 11)
    pack = content.load_pack("content/renegades")
    for player in state.players:
        assert sorted(pack.tactical[c].type for c in player.tactical) == ["orbital", "surface"], player.seat
    dealt = [c for p in state.players for c in p.tactical]
    assert len(set(dealt)) == 8


@pytest.mark.parametrize("kind, code", [("orbital", "press-the-attack"), ("surface", "take-cover")])
def test_a_pack_with_too_few_tactical_cards_for_four_commanders_is_refused(tmp_path, kind, code):
    folder = tmp_path / "short"
    shutil.copytree("content/renegades", folder)
    cards = folder / "cards.yaml"
    lines = cards.read_text().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if f"code: {code}," in line)
    cards.write_text("".join(lines[:start] + lines[start + 2:]))
    with pytest.raises(PackError) as refused:
        content.load_pack(str(folder))
    assert f"tactical: 3 {kind} cards; each of 4 commanders takes one (N215)" in refused.value.problems


@pytest.mark.parametrize("old, new", [
    ("blocking: [C3], obstructed: [B2, D2, B4, D4], salvage: [C2]}",
     "blocking: [C3], obstructed: [B2, D2, B4, D4], special: [C4], salvage: [C2]}"),
    ("  obstructed: [G7, H7, I7,", "  special: [A2]\n  obstructed: [G7, H7, I7,"),
])
def test_special_white_rimmed_terrain_has_no_rules_so_a_board_cannot_name_it(tmp_path, old, new):  # N217
    folder = tmp_path / "special"
    shutil.copytree("content/renegades", folder)
    boards = folder / "boards.yaml"
    assert old in boards.read_text()
    boards.write_text(boards.read_text().replace(old, new, 1))
    with pytest.raises(PackError) as refused:
        content.load_pack(str(folder))
    assert any("special" in problem for problem in refused.value.problems), refused.value.problems


FOUR = [{"seat": f"p{n}"} for n in range(1, 5)]


def _draft_to_the_end(state, rng):
    while state.phase == "draft":
        seat = rules.awaited(state)[0]
        state, events = rules.apply(state, seat, rng.choice(rules.legal_commands(state, seat)))
    return state, events


def test_players_sharing_a_faction_draft_their_crews_in_die_order_one_pick_each():  # N219
    state = rules.new_game({"players": FOUR, "draft": True}, 5)
    draft = state.draft
    assert state.phase == "draft" and not state.ships and not state.crew
    assert draft.rolls["MAGPIE"][-1] > draft.rolls["KESTREL"][-1]  # p3's die beat p1's: p3 picks first
    assert draft.order[:4] == ["MAGPIE", "KESTREL", "MAGPIE", "KESTREL"] and len(draft.order) == 20
    assert draft.order[10:12] == ["BEACON", "WARDEN"]  # the Renegades draft first, then the Coalition
    assert rules.awaited(state) == ["p3"] and rules.view_for(state, "p1")["draft"]["order"] == draft.order
    with pytest.raises(RuleError, match="answer `draft CREW`"):
        rules.apply(state, "p3", "pass")
    with pytest.raises(RuleError, match="cannot take 'HALVERN'"):
        rules.apply(state, "p3", "draft HALVERN")
    state, events = rules.apply(state, "p3", "draft VESK")
    assert events[0] == {"type": "drafted", "seat": "p3", "ship": "MAGPIE", "crew": "VESK"}
    assert rules.awaited(state) == ["p1"] and "draft VESK" not in rules.legal_commands(state, "p1")


def test_a_pick_that_would_leave_another_ship_without_a_commander_is_refused():  # N219
    state = rules.new_game({"players": FOUR, "draft": True}, 5)
    state, _ = rules.apply(state, "p3", "draft VESK")
    state, _ = rules.apply(state, "p1", "draft TALLO")
    assert "draft KAIRO" not in rules.legal_commands(state, "p3")  # the Kestrel's only commander left
    before = rules.view_for(state, None)
    with pytest.raises(RuleError, match="cannot take 'KAIRO'"):
        rules.apply(state, "p3", "draft KAIRO")
    assert rules.view_for(state, None) == before


@pytest.mark.parametrize("seed", range(12))
def test_every_draft_ends_with_each_ship_manning_its_five_stations(seed):  # N219
    rng = random.Random(seed)
    state, events = _draft_to_the_end(rules.new_game({"players": FOUR, "draft": True}, seed), rng)
    assert state.phase == "orbital" and state.draft is None
    assert all(sorted(ship.stations) == sorted(content.STATIONS) for ship in state.ships.values())
    assert all(len(p.tactical) == 2 for p in state.players) and state.mission
    assert any(e["type"] == "ship_turn" for e in events)  # the first round began with the last pick


def test_in_the_single_team_game_the_player_drafts_the_coalition_crew_too():  # N220
    state = rules.new_game({"mode": "coop", "players": [{"seat": "p1"}], "draft": True}, 3)
    assert state.draft.order == ["KESTREL"] * 5 + ["WARDEN"] * 5 and state.draft.pickers["WARDEN"] == "p1"
    for code in ("VESK", "TALLO", "RHEE", "MOTT", "GRUND", "SOLANE", "KOVIN", "ILDA", "NOOR", "FENWICK"):
        state, _ = rules.apply(state, "p1", f"draft {code}")
    warden = state.ships["WARDEN"]
    assert warden.seat is None and set(warden.stations.values()) == {"SOLANE", "KOVIN", "ILDA", "NOOR", "FENWICK"}


def test_the_player_names_the_coalition_crew_in_the_config():  # N220
    crew = ["SOLANE", "KOVIN", "ILDA", "NOOR", "FENWICK"]
    state = rules.new_game({"mode": "coop", "players": [{"seat": "p1", "npc_crew": crew}]}, 3)
    assert set(state.ships["WARDEN"].stations.values()) == set(crew) and state.ships["WARDEN"].seat is None
    with pytest.raises(RuleError, match="one for each station"):
        rules.new_game({"mode": "coop", "players": [{"seat": "p1", "npc_crew": crew[:4]}]}, 3)
    with pytest.raises(RuleError, match="Only the single-team game"):
        rules.new_game({"players": [{"seat": "p1", "npc_crew": crew}, {"seat": "p2"}]}, 3)
