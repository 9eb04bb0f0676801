"""Surface boards built from location cards (N124): how the cards are dealt and turned,
and the pack's checks on them."""
import shutil

import pytest

from engine.dice import Dice
from engine.errors import PackError, RuleError
from engine.renegades import rules
from engine.renegades.contents import content
from engine.renegades.contents.content import turned
from engine.renegades.contents.game import Game
from engine.renegades.contents.ground import ground_of
from engine.renegades.contents.locations import POSITIONS, built_board, deal_layout

PACK = content.load_pack("content/renegades")


def _pack_with(tmp_path, old, new, file="cards.yaml"):
    """The pack with `old` replaced by `new` in `file`: its problems when loaded (none: [])."""
    folder = tmp_path / "pack"
    shutil.copytree("content/renegades", folder)
    path = folder / file
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new, 1))
    try:
        content.load_pack(str(folder))
    except PackError as refused:
        return refused.problems
    return []


@pytest.mark.parametrize("seed", range(40))
def test_a_dealt_layout_has_the_centre_card_and_one_card_of_each_tile_in_every_position(seed):
    layout = deal_layout(PACK, "veyra-outpost", "pump-house", Dice.seeded(seed))
    cards = {position: PACK.surface_locations[code] for position, code in layout.items()}
    assert layout["c"] == "pump-house"
    assert sorted(layout) == sorted(p for group in POSITIONS.values() for p in group)
    assert all(position in POSITIONS[card.type] for position, card in cards.items())
    assert len({card.tile for card in cards.values()}) == 9  # a flip side is never placed beside its tile


def test_without_a_centre_card_named_the_centre_is_dealt_too():
    layout = deal_layout(PACK, "veyra-outpost", None, Dice.seeded(3))
    assert PACK.surface_locations[layout["c"]].type == "center"
    assert len(set(layout.values())) == 9


def test_a_tile_turns_clockwise_a_quarter_at_a_time():
    assert turned("A1", 0, 4) == (0, 0)
    assert [turned("A1", k, 4) for k in (1, 2, 3)] == [(3, 0), (3, 3), (0, 3)]  # the dock follows the corner
    assert turned("C1", 1, 4) == (3, 2)  # a side's edge row becomes the east edge


def test_the_docks_of_a_built_board_stay_open_and_the_parameter_sits_in_its_container():
    for seed in range(20):
        state = rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}], "boards": "built"}, seed)
        ground = Game(state).ground
        assert not set(ground.docks) & (ground.blocking | ground.slow | set(state.containers))
        assert len(state.containers) == 9
        if state.objective.kind == "container":
            assert state.containers["F6"] == "mission-parameter"


def test_too_few_location_cards_cannot_build_a_board():
    with pytest.raises(RuleError, match="cannot build"):
        deal_layout(PACK, "no-such-board", None, Dice.seeded(1))


@pytest.mark.parametrize("old, new, problem", [
    ("blocking: [B3], obstructed: [D1], containers: [D4]", "blocking: [A1], obstructed: [D1], containers: [D4]",
     "A1 is the corner's dock"),
    ("water: [A4, B4], containers: [B2]", "water: [A4, B4], containers: [B2, C3]", "one container, not 2"),
    ("obstructed: [C1, C2], containers: [A3]", "obstructed: [C1, C2], containers: [E3]", "E3 is off its 4x4 tile"),
    ("type: side, tile: s4, board: veyra-outpost,\n     obstructed", "type: side, tile: s3, board: veyra-outpost,\n"
     "     obstructed", "tile veyra-outpost/s3 has 3 sides"),
    ("blocking: [A1, B1, C1, D1, A3, D3, A4, B4, C4, D4], doorways: [A2, D2], containers: [B2]",
     "blocking: [A1, B1, C1, D1, A3, D3, A4, B4, C4, D4], doorways: [A2, D2], containers: [C2]",
     "F6 is no container of 'pump-house'"),
    ("doorways: [A2, D2], containers: [B2]", "doorways: [A2, C2], containers: [B2]",
     "the doorway C2 is not set in a wall"),
    ("doorways: [E6, H6]", "doorways: [E6, F6]", "the doorway F6 must be an open square"),
    ("containers: [D4], elevated: [C1, D1, C2, D2], steps: [C2]", "containers: [D4], elevated: [C1, D1], steps: [C2]",
     "steps at C2, which is neither elevated nor sunken"),  # N128
    ("containers: [D4], elevated: [C1, D1, C2, D2]", "containers: [D4], elevated: [A1, C1, D1, C2, D2]",
     "A1 is the corner's dock and must stay open ground"),
    ("sunken: [B3, C3, D3]", "sunken: [B3, C3, E3]", "E3 is off its 4x4 tile"),
    ("blocking: [C3], containers: [D2]", "blocking: [C3], containers: [C2]",  # N195: the fuel depot, turned to ne
     "surface_locations.fuel-depot (ne): the container K3 is 2 squares from the dock L1"),
    ("containers: [D3, F2, I3, B6, F6, K8, D10, F11, I10]", "containers: [D3, F2, I3, B6, F6, K8, D10, F11, J10]",
     "surfaces.veyra-outpost: the container J10 is 2 squares from the dock L12"),
    ("containers: [E2, B8, K5, H11]", "containers: [C2, B8, K5, H11]",
     "surfaces.earth-spaceport: the container C2 is 2 squares from the dock A1"),
])
def test_bad_location_cards_are_refused_saying_where(tmp_path, old, new, problem):
    problems = _pack_with(tmp_path, old, new, "boards.yaml")
    assert any(problem in p for p in problems), problems


@pytest.mark.parametrize("board", ["veyra-outpost", "saven-free-docks", "earth-spaceport"])
def test_containers_lie_four_squares_from_every_dock_as_far_as_their_tile_allows(board):
    """N195, on the fixed board and with every location card of it in every position it can
    take: four squares at least, or three from the dock of its own corner tile (no square of
    a corner tile is further from its dock)."""
    spec = PACK.surfaces[board]
    placed = [(None, spec.containers)] + [
        ((position, code), built_board("content/renegades", board, ((position, code),)).containers)
        for code, card in PACK.surface_locations.items() if card.board == board for position in POSITIONS[card.type]]
    for card, containers in placed:
        for cell in containers:
            for dock in spec.docks:
                own_tile = next(loc for loc in spec.locations if _inside(dock, loc))
                assert _gap(cell, dock) >= (3 if _inside(cell, own_tile) else 4), (card, cell, dock)


def _inside(cell, loc):
    (x, y), (x0, y0), (x1, y1) = content.cell_xy(cell), content.cell_xy(loc.from_), content.cell_xy(loc.to)
    return x0 <= x <= x1 and y0 <= y <= y1


def _gap(a, b):
    (ax, ay), (bx, by) = content.cell_xy(a), content.cell_xy(b)
    return max(abs(ax - bx), abs(ay - by))


@pytest.mark.parametrize("layout", [(), (("c", "pump-house"),)])
def test_doorways_block_sight_except_for_giants_and_for_whoever_stands_in_one(layout):
    """N161 on the fixed board and on a board built with the pump house card."""
    ground = ground_of("content/renegades", "veyra-outpost", layout)
    assert {"E6", "H6"} <= ground.doorways
    assert not ground.line_of_sight("C6", "G6") and not ground.line_of_sight("J6", "F6")
    assert ground.line_of_sight("C6", "G6", through_doorways=True)
    assert ground.line_of_sight("E6", "G6") and ground.line_of_sight("E6", "B6")


@pytest.mark.parametrize("layout", [(), (("c", "pump-house"),)])
def test_the_pump_house_is_walled_all_round_but_its_doorways(layout):
    """Built from its card, the pump house is closed to the north as on the fixed board."""
    ground = ground_of("content/renegades", "veyra-outpost", layout)
    for outside, inside in (("F2", "F6"), ("G3", "G7"), ("F11", "G6")):
        _, _, path = ground.paths(outside, 30, frozenset(), lambda cell: 0)[inside]
        assert {"E6", "H6"} & set(path), path


@pytest.mark.parametrize("seed", range(20))
def test_a_built_orbital_board_keeps_its_planets_and_launch_squares_clear(seed):
    state = rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}], "boards": "built"}, seed)
    board = Game(state).board
    cards = {position: PACK.orbit_locations[code] for position, code in state.orbit_layout.items()}
    assert len({card.tile for card in cards.values()}) == 9
    assert all(position in POSITIONS[card.type] for position, card in cards.items())
    clear = {c for p in PACK.orbit.planets for c in p.cells + p.launch}
    assert not clear & (set(board.spec.blocking) | board.obstructed | set(state.salvage))
    assert len(state.salvage) == len(set(state.salvage)) <= 9  # none under a planet or a launch square
    assert [loc.name for loc in board.locations.values()] == [PACK.orbit_locations[state.orbit_layout[code]].name
                                                              for code in board.locations]


def test_a_mission_keeps_its_guards_and_parameter_on_its_centre_tile_on_a_built_board(tmp_path):
    """N127: a mission whose fixed squares lie off the centre needs its squares on a built board."""
    problems = _pack_with(tmp_path, "center: records-vault, built: {cell: G6, guards: [{villain: DRONE, cell: F7}]}",
                          "center: records-vault")
    assert any("K3, K2 off the centre tile E5-H8" in p and "`built`" in p for p in problems), problems


def test_the_built_squares_of_a_mission_are_open_on_its_centre_card(tmp_path):
    problems = _pack_with(tmp_path, "center: records-vault, built: {cell: G6,", "center: records-vault, built: {cell: F5,")
    assert any("F5 is not open on 'records-vault'" in p for p in problems), problems


def test_every_mission_names_its_centre_card(tmp_path):
    problems = _pack_with(tmp_path, "center: records-vault, built", "built")
    assert any("center" in p for p in problems), problems


@pytest.mark.parametrize("mission", sorted(PACK.missions))
@pytest.mark.parametrize("seed", range(5))
def test_every_mission_of_the_pack_is_played_on_built_boards(mission, seed):
    """N124, N127: the mission's centre card in the centre, its parameter and guards on it."""
    state = rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}], "mission": mission, "boards": "built"}, seed)
    spec, ground = PACK.missions[mission], Game(state).ground
    cell, guards = spec.placement(built=True)
    assert state.surface_layout["c"] == spec.center and ground.tile_of(cell) == "c"
    assert sorted(f.cell for f in state.figures.values()) == sorted(g.cell for g in guards)
    assert all(ground.tile_of(g.cell) == "c" for g in guards)
    if spec.parameter.kind == "container":
        assert state.containers[cell] == "mission-parameter"
    else:
        assert state.objective.cell == cell and cell not in ground.blocking


def test_a_built_board_has_the_levels_of_its_cards_turned_to_their_positions():
    """N128: Landing Apron's raised corner (A1 its dock) at the south-west, Vent Fields' pit
    turned to the west side; steps where the cards put them, ledges between the levels."""
    layout = (("c", "pump-house"), ("sw", "landing-apron"), ("w", "vent-fields"), ("nw", "slag-heaps"),
              ("n", "pylon-row"), ("ne", "broken-dome"), ("e", "assay-sheds"), ("s", "ore-conveyors"),
              ("se", "tailings-pond"))
    ground = ground_of("content/renegades", "veyra-outpost", layout)
    assert {c for c, level in ground.level.items() if level == 1} == {"A9", "B9", "A10", "B10"}
    assert {c for c, level in ground.level.items() if level == -1} == {"C5", "C6", "C7"}
    assert ground.steps == {"B10", "C5"}
    assert not ground.on_foot("C9", "B9") and ground.on_foot("C9", "B10") and ground.on_foot("D4", "C5")
    assert ground.at_edge("D6") and not ground.at_edge("A8")


@pytest.mark.parametrize("mission, low", [("the-reactor-core", True), ("the-ledger", True),
                                          ("the-spore-bloom", False)])
def test_a_built_tile_has_its_cards_ceiling(mission, low):
    """N128, N108: the Pump House and the Records Vault keep giants out, the Spore Hollow is open."""
    state = rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}], "mission": mission, "boards": "built"}, 2)
    ground = Game(state).ground
    assert ground.low == (frozenset(ground.tile_cells("c")) if low else frozenset())
    assert ground.tiles["c"].ceiling == ("low" if low else "open")

