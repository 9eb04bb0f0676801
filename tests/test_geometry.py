"""Distance, doors, movement and line of sight on the preset layouts (see docs/layouts.md)."""
import pytest

from engine.awaymissions.content import load_pack
from engine.awaymissions.geometry import distance, line_of_sight, reachable
from engine.awaymissions.layout import geometry, preset


@pytest.fixture(scope="module")
def standard():
    pack = load_pack("content/starter")
    return geometry(pack, preset(pack, "standard"))


def test_distance_counts_spaces_and_never_crosses_walls(standard):
    assert distance(standard, "B5", "D5", set()) == 2
    # C6 and C7 are separated by the science lab's door, D6-D7 by a wall: the way round is via the door
    assert distance(standard, "D6", "D7", {"C6"}) == 3
    assert distance(standard, "D6", "D7", set()) is None  # the door is closed: nothing measures through it


def test_a_door_is_closed_until_someone_stands_beside_it(standard):
    # E5:F5 is the corridor's inner door
    assert distance(standard, "B5", "I5", {"B5"}) is None
    assert distance(standard, "B5", "I5", {"B5", "F5"}) == 7
    assert not line_of_sight(standard, "B5", "I5", {"B5", "I5"}, [])
    assert line_of_sight(standard, "B5", "I5", {"B5", "I5", "E5"}, [])


def test_line_of_sight_is_screened_by_friendly_spaces_only_when_passed_through(standard):
    occupied = {"B6", "I6", "E6"}
    assert line_of_sight(standard, "B6", "E6", occupied, [])
    assert not line_of_sight(standard, "B6", "H5", occupied | {"H5", "E5"}, ["C5", "C6"])
    # the end spaces themselves never screen
    assert line_of_sight(standard, "B6", "D6", occupied, ["B6", "D6"])


def test_walls_block_sight_between_boards(standard):
    assert not line_of_sight(standard, "E2", "F2", {"E2", "F2"}, [])  # blocked door between bridge and engineering


def test_movement_uses_turbolifts_to_other_boards_only(standard):
    everywhere = reachable(standard, "A5", 1, lambda s: True, lambda s: True)
    assert {"B5", "E1", "F1"} <= set(everywhere)
    assert "J6" not in everywhere  # the other corridor turbolift is on the same board
    assert everywhere["E1"] == ["A5", "E1"]


def test_movement_respects_entry_and_stop_rules(standard):
    blocked = reachable(standard, "B5", 3, lambda s: s != "C5", lambda s: s != "D5")
    assert "C5" not in blocked and "D5" not in blocked
    assert "E5" not in blocked  # only reachable through C5 (or via lifts, which are longer)
    assert reachable(standard, "B5", 0, lambda s: True, lambda s: True) == {}
