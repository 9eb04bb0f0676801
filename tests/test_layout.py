"""Board placement: flat slots, a door to the corridor, as many matched doors as possible."""
from engine.awaymissions.content import load_pack
from engine.awaymissions.layout import LayoutSpec, Placement, geometry, placement_problem, preset

PACK = load_pack("content/starter")


def corridor():
    return LayoutSpec(mode="corridor", corridor="corridor-federation")


def test_orientation_must_match_the_most_doors():
    # the medical lab's corridor door lines up in se only when mirrored
    assert "Main Corridor" in placement_problem(PACK, corridor(), Placement("medical-lab", "se", False))
    assert placement_problem(PACK, corridor(), Placement("medical-lab", "se", True)) is None
    # beside the bridge, the armory must be mirrored so its side door meets the bridge's
    spec = corridor()
    spec.placements.append(Placement("bridge", "nw"))
    assert "mirrored" in placement_problem(PACK, spec, Placement("armory", "ne", False))
    assert placement_problem(PACK, spec, Placement("armory", "ne", True)) is None
    # the armory has two corridor doors: either way round one matches
    assert placement_problem(PACK, corridor(), Placement("armory", "nw", False)) is None
    assert placement_problem(PACK, corridor(), Placement("armory", "nw", True)) is None


def test_taken_slots_and_used_boards_are_refused():
    spec = corridor()
    spec.placements.append(Placement("bridge", "nw"))
    assert "taken" in placement_problem(PACK, spec, Placement("armory", "nw"))
    assert "already placed" in placement_problem(PACK, spec, Placement("bridge", "ne", True))
    assert "not a mission board" in placement_problem(PACK, spec, Placement("corridor-borg", "ne"))


def test_the_cube_uses_its_four_boards():
    cube = LayoutSpec(mode="cube")
    assert "Borg cube" in placement_problem(PACK, cube, Placement("bridge", "nw"))
    geo = geometry(PACK, preset(PACK, "cube"))
    assert len(geo.spaces) == 64 and geo.lifts == {}


def test_unmatched_doors_are_blocked_and_corridor_ends_get_turbolifts():
    geo = geometry(PACK, preset(PACK, "standard"))
    assert ("E2", "F2") in geo.blocked_doors  # the bridge's east door meets engineering's wall
    assert geo.edges[("E2", "F2")] == "wall"
    assert set(geo.with_feature("turbolift")) == {"A5", "J6", "E1", "F1"}
    assert geo.edges[("A5", "B5")] == "door"
    assert all(geo.spaces[s].board == "corridor-federation" for s in ("A5", "J6"))


def test_the_six_board_layout_puts_a_board_at_each_end_of_the_corridor_and_adds_no_turbolifts():
    from engine.awaymissions.layout import SIX_SLOTS

    for name in ("six", "borg-six"):
        spec = preset(PACK, name)
        assert [p.slot for p in spec.placements] == list(SIX_SLOTS)
        geo = geometry(PACK, spec)
        assert len(geo.spaces) == 8 * 2 + 6 * 16
        corridor = spec.corridor
        assert not [s for s in geo.with_feature("turbolift") if geo.spaces[s].board == corridor]
        # every mission board meets the corridor by at least one door
        for placement in spec.placements:
            doors = [(a, b) for a, b in geo.doors
                     if {geo.spaces[a].board, geo.spaces[b].board} == {placement.board, corridor}]
            assert doors, (name, placement.board)
    geo = geometry(PACK, preset(PACK, "six"))
    assert geo.edges[("D5", "E5")] == "door" and geo.edges[("L6", "M6")] == "door"
    assert geo.spaces["A4"].board == "armory" and geo.spaces["P7"].board == "transporter-room"


def test_a_quarter_turn_four_times_is_no_turn_and_two_are_the_half_turn():
    from engine.awaymissions.layout import _transform

    board = PACK.boards["bridge"]
    for flip in (False, True):
        cell4, direction4 = _transform(board, 4, flip)
        cell0, direction0 = _transform(board, 0, flip)
        assert all(cell4(x, y) == cell0(x, y) for x in range(4) for y in range(4))
        cell2, direction2 = _transform(board, 2, flip)
        assert all(cell2(x, y) == tuple(3 - v for v in cell0(x, y)) for x in range(4) for y in range(4))
    # one quarter turn takes the board's south side to the west (slot e faces the corridor westwards)
    assert _transform(board, 1, False)[1](0, 1) == (-1, 0)
    assert _transform(board, 3, False)[1](0, 1) == (1, 0)


def test_the_docs_maps_are_the_generated_ones():
    from engine.awaymissions.layout import PRESETS, ascii_map

    docs = open("docs/layouts.md", encoding="utf-8").read()
    for name in PRESETS:
        drawn = ascii_map(PACK, geometry(PACK, preset(PACK, name)))
        block = docs.split(f"### {name}\n", 1)[1].split("```\n", 1)[1].split("\n```", 1)[0]
        assert "\n".join(line.rstrip() for line in block.splitlines()).strip("\n") == drawn.strip("\n"), name


def test_slots_w_and_e_exist_only_in_the_six_board_layout():
    four = corridor()
    assert "not a slot" in placement_problem(PACK, four, Placement("armory", "w"))
    six = LayoutSpec(mode="corridor", corridor="corridor-federation", six=True)
    assert placement_problem(PACK, six, Placement("armory", "w")) is None
    assert six.size == 6 and four.size == 4
