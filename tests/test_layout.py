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
