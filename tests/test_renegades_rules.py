"""Renegades: set-up refusals, the pack's validation, views, and play through the service."""
import json
import random
import shutil

import pytest

from engine.errors import PackError, RuleError
from engine.renegades import rules
from engine.renegades.contents import content
from engine.renegades.contents.state import from_json, to_json
from engine.service import GameService
from engine.service.replay import rebuild
from engine.service.rulesets import RULESETS


def test_the_starter_pack_loads():
    pack = content.load_pack("content/renegades")
    assert {s.faction for s in pack.ships.values()} == {"renegade", "coalition"}
    assert sum(s.faction == "renegade" for s in pack.ships.values()) >= 2
    assert sum(c.faction == "coalition" for c in pack.crew.values()) == 10


@pytest.mark.parametrize("file, old, new, problem", [
    ("ships.yaml", "range: 6, shields: 10", "range: 0, shields: 10", "ships[0].range"),
    ("ships.yaml", "abilities: *abilities, back: *back}", "abilities: *abilities}",
     "ships.MAGPIE: the card needs a back side"),
    ("ships.yaml", "effect: evasive, name: Limp Aside", "effect: command, name: Limp Aside",
     "ships.KESTREL: the back has 'command' twice"),
    ("ships.yaml", "name: Keep Them Steady, test: 6", "name: Keep Them Steady, test: 7", "test"),
    ("boards.yaml", "blocking: [D3,", "blocking: [Z3,", "Z3 is off the 15x15 board"),
    ("crew.yaml", "stations: [weapons], initiative: 5", "stations: [comms], initiative: 5", "a bonus at weapons"),
    ("cards.yaml", "campaigns: [ember], reward", "campaigns: [embers], reward", "unknown campaign title 'embers'"),
    ("campaign.yaml", "target: ship, stat: range", "target: ship, skill: tech", "a ship upgrade names a stat"),
    ("campaign.yaml", "recruit: 100", "recruit: -5", "shore_leave.recruit"),
    ("campaign.yaml", "kind: alliance", "kind: truce", "campaigns[0].ending.kind"),
    ("crew.yaml", "abilities: [field-dressing]", "abilities: [first-aid]", "no crew ability 'first-aid'"),
    ("crew.yaml", "effect: mend, test: {skill: medical},", "effect: mend,", "a mend ability has a test"),
    ("crew.yaml", "weapon: arc-blade, dice: 2", "weapon: arc-sword, dice: 2", "no weapon 'arc-sword'"),
    ("boards.yaml", "steps: [J2, H12]", "steps: [J2, H11]", "steps at H11, which is neither elevated nor sunken"),
])
def test_a_bad_pack_is_refused_saying_where(tmp_path, file, old, new, problem):
    folder = tmp_path / "bad"
    shutil.copytree("content/renegades", folder)
    changed = folder / file
    assert old in changed.read_text()
    changed.write_text(changed.read_text().replace(old, new, 1))
    with pytest.raises(PackError) as refused:
        content.load_pack(str(folder))
    assert any(problem in p for p in refused.value.problems), refused.value.problems


@pytest.mark.parametrize("config, reason", [
    ({"players": []}, "one to four players"),
    ({"mode": "solo", "players": [{"seat": "p1"}]}, "Mode is one of"),
    ({"mode": "coop", "players": [{"seat": "p1", "faction": "coalition"}]}, "every player flies a Renegade ship"),
    ({"players": [{"seat": "p1"}, {"seat": "p2", "faction": "renegade"}]}, "needs a player on each side"),
    ({"players": [{"seat": "p1", "ship": "WARDEN"}, {"seat": "p2"}]}, "not a renegade ship"),
    ({"players": [{"seat": "p1", "ship_upgrades": ["marksman-drills"]}, {"seat": "p2"}]}, "Unknown ship upgrades"),
    ({"players": [{"seat": "p1", "upgrades": {"VESK": ["nope"]}}, {"seat": "p2"}]}, "Unknown crew upgrades"),
    ({"players": [{"seat": "p1", "crew": ["VESK", "KAIRO", "RHEE", "MOTT", "GRUND"]}, {"seat": "p2"}]},
     "one for each station"),
    ({"players": [{"seat": "p1", "crew": ["HALVERN", "TALLO", "RHEE", "MOTT", "GRUND"]}, {"seat": "p2"}]},
     "not renegade crew"),
    ({"world_cards": 3, "players": [{"seat": "p1"}, {"seat": "p2"}]}, "world cards"),
    ({"tier": 4, "players": [{"seat": "p1"}, {"seat": "p2"}]}, "tier"),
    ({"players": [{"seat": f"p{i}"} for i in range(1, 7)]}, "one to four players"),
])
def test_set_up_refusals(config, reason):
    with pytest.raises(RuleError, match=reason):
        rules.new_game(config, 1)


def test_set_up_crews_every_station_and_deals():
    state = rules.new_game({"mode": "coop", "players": [{"seat": "p1"}, {"seat": "p2"}]}, 5)
    heroes = [s for s in state.ships.values() if s.kind == "ship"]
    assert len(heroes) == 4 and sum(s.seat is None for s in heroes) == 2  # as many NPC Coalition ships
    for ship in heroes:
        assert set(ship.stations) == set(content.STATIONS)
    assert [len(p.tactical) for p in state.players] == [2, 2]
    assert len(state.world_deck) == 6 and state.mission in content.load_pack(state.pack).missions


def test_views_hide_the_world_deck_dice_and_seed():
    state = rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}]}, 3)
    for seat in (None, "p1", "p2"):
        view = rules.view_for(state, seat)
        assert "world_deck" not in view and "dice" not in view and "seed" not in view
        assert view["world_deck_count"] == 6


def test_views_keep_their_keys_and_add_the_surface():
    """Pictures are drawn from the view: the orbital keys stay, the surface comes under new
    keys, and shut containers show as squares without their contents."""
    state = rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}], "mission": "the-reactor-core"}, 3)
    view = rules.view_for(state, None)
    for key in ("ships", "crew", "players", "order", "pending", "mission",
                "world_deck_count", "location_deck_count", "salvage"):
        assert key in view, key
    surface = view["surface"]
    assert (surface["board"], surface["width"], surface["height"]) == ("veyra-outpost", 12, 12)
    assert surface["docks"] == ["A1", "L1", "A12", "L12"] and len(surface["tiles"]) == 9
    assert surface["containers"] == sorted(state.containers) and surface["scanned"] == {}
    assert surface["objective"]["kind"] == "container" and view["figures"]["SYPHON-W1"]["cell"] == "G7"
    assert "containers" not in view and "peeks" not in view and "surface_deck" not in view
    for item in state.containers.values():
        assert f'"{item}"' not in json.dumps(view)


def test_refused_commands_leave_the_state_untouched():
    state = rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}]}, 3)
    before = to_json(state)
    for seat, command in [("p1", "move KESTREL E9"), ("p2", "pass"), ("p1", "attack KESTREL WARDEN"),
                          ("p1", "move KESTREL\nE1"), ("p1", "descend KESTREL"), ("p3", "pass")]:
        with pytest.raises(RuleError):
            rules.apply(state, seat, command)
    assert to_json(state) == before
    assert from_json(before) == state


def test_canonical_text():
    assert rules.canonical("Move  kestrel ne2 e") == "move KESTREL NE2 E"
    assert rules.canonical("descend kestrel VEYRA") == "descend KESTREL veyra"
    with pytest.raises(RuleError, match="Usage"):
        rules.canonical("attack KESTREL")


async def test_a_renegades_game_through_the_service_is_stored_and_replays(tmp_path):
    service = await GameService.open(str(tmp_path / "games.db"))
    try:
        game = await service.create(creator=1, channel_id=5, seed=11, ruleset="renegades")
        await service.join(game.id, 1, "Ann")
        await service.join(game.id, 2, "Bo", faction="coalition")
        update = await service.start(game.id, 1)
        rng = random.Random(11)
        log = []
        for _ in range(30):
            if update.status != "active":
                break
            seat = update.awaited[0].seat
            user = {"p1": 1, "p2": 2}[seat]
            version, commands = await service.legal_commands(game.id, user)
            command = rng.choice(commands)
            update = await service.submit(game.id, user, command, version)
            log.append((seat, command))
        view = await service.view(game.id, None)
        assert "world_deck" not in view
        config, _ = await service.seat_options(game.id, 1)
        state = rebuild(RULESETS["renegades"], config, 11, log)
        assert rules.view_for(state, None) == view
    finally:
        await service.close()


def test_the_scenario_runner_takes_the_ruleset_key():
    from engine.scenario import run
    assert run({"ruleset": "renegades", "expect": {"order": ["KESTREL", "WARDEN"]}}) == []
    wrong = run({"ruleset": "renegades", "expect": {"ships": {"KESTREL": {"cell": "C3"}}}})
    assert wrong == ["final: ships.KESTREL.cell: 'B7', expected 'C3'"]
    unknown = run({"ruleset": "chess"})
    assert len(unknown) == 1 and "unknown ruleset 'chess'" in unknown[0]


def _outpost():
    from engine.renegades.contents.ground import ground_of
    return ground_of(content.load_pack("content/renegades").path, "veyra-outpost")


def test_a_giants_path_goes_around_a_low_ceilinged_tile():
    ground = _outpost()
    walk = ground.paths("D6", 9, frozenset(), lambda cell: 0)
    around = ground.paths("D6", 9, frozenset(), lambda cell: 0, barred=ground.low)
    assert set(walk["I6"][2]) & ground.low  # through the doorways E6 and H6
    assert "I6" not in around or not set(around["I6"][2]) & ground.low
    assert not set(around) & ground.low


def test_a_giant_arriving_on_a_low_ceilinged_tile_lands_beside_it():
    from engine.renegades.contents.board import distance
    from engine.renegades.contents.game import Game
    from engine.renegades.surface import figures
    state = rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}]}, seed=3)
    state.surface_deck = ["c", "n"]
    state.figures = {}
    g = Game(state)
    figures.arrive(g, "STALKER", None, 1)
    placed = [f for f in state.figures.values() if f.code == "STALKER"]
    assert placed and all(f.cell not in g.ground.low for f in placed)
    assert all(min(distance(f.cell, c) for c in g.ground.tile_cells("c")) == 1 for f in placed)
