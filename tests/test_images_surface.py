"""The Renegades surface pictures: pixel probes of the surface board (crew tokens by side,
figures, shut containers, the last move and attack) and of the crew dice board, and every
position of random quicker games drawn. Their golden images are in tests/test_images_golden.py.
"""
import copy
import io
import random

import pytest
from PIL import Image

from engine.renegades import rules
from engine.renegades.autoplay import random_command
from engine.renegades.contents.game import Game
from images import crew_dice, pictures, surface
from images.grid import GridFrame
from images.demo_surface import attack_events, midgame_view, move_events, skill_events
from images.style import (ATTACK_MARK, CORRIDOR_FLOOR, FLOOR, HAZARD, INK, MOVE_MARK, MUTED, PAPER, STYLES,
                          VOID, WHITE, dimmed, fit_size, text_width, washed)
from images.tokens import short_labels

RENEGADE, COALITION = STYLES[1][0], STYLES[0][0]


def pixels(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.fixture(scope="module")
def view():
    return midgame_view()


def at(image, frame, square, dx=0, dy=0):
    """The pixel `dx`, `dy` pixels from a square's centre."""
    cx, cy = frame.centre(square)
    return image.getpixel((round(cx + dx), round(cy + dy)))


def frame_of(view):
    return GridFrame(view["surface"]["width"], view["surface"]["height"], surface.CELL, surface.MARGIN, surface.FOOTER)


def test_board_is_legible_width_and_same_bytes_for_same_input(view):
    data = surface.render_surface(view, move_events())
    assert 520 <= pixels(data).width <= 600
    assert surface.render_surface(copy.deepcopy(view), move_events()) == data


def test_crew_tokens_sit_on_their_squares_by_shape_and_colour(view):
    image = pixels(surface.render_surface(view))
    frame = frame_of(view)
    assert view["surface"]["crew"]["VESK"]["cell"] == "E6" and view["surface"]["crew"]["HALVERN"]["cell"] == "H6"
    # a Renegade is a vermilion square: filled into its corner; a Coalition circle is not
    assert at(image, frame, "E6", 10, 10) == RENEGADE
    assert at(image, frame, "H6", 7, 7) == COALITION
    assert at(image, frame, "H6", 10, 10) != COALITION
    # Tallo hides: washed out, in a dashed ring
    assert at(image, frame, "C7", 10, 10) == washed(RENEGADE)
    assert INK in [at(image, frame, "C7", k, 0) for k in range(17, 23)]
    # an empty square shows the ground
    assert at(image, frame, "B8") in (FLOOR, CORRIDOR_FLOOR)


def test_a_crewmember_moved_is_drawn_on_its_new_square(view):
    moved = copy.deepcopy(view)
    moved["surface"]["crew"]["VESK"]["cell"] = "B8"
    image = pixels(surface.render_surface(moved))
    frame = frame_of(moved)
    assert at(image, frame, "B8", 10, 10) == RENEGADE
    assert at(image, frame, "D6", 10, 10) != RENEGADE


def test_figures_are_dark_with_their_rank_shape(view):
    image = pixels(surface.render_surface(view))
    frame = frame_of(view)
    trooper = next(f for f in view["surface"]["figures"].values() if f["rank"] == "warrior")
    drone = next(f for f in view["surface"]["figures"].values() if f["rank"] == "drone")
    assert at(image, frame, trooper["cell"], 0, 10) == INK
    # the drone is a diamond: dark on its axis, not in the corner
    assert at(image, frame, drone["cell"], 0, 11) == INK
    assert at(image, frame, drone["cell"], 10, 10) != INK
    # the trooper guards its tile: a yellow rim, which the drone has not
    assert trooper.get("guard") and at(image, frame, trooper["cell"], 16, 0) == HAZARD
    assert not drone.get("guard")
    assert HAZARD not in [at(image, frame, drone["cell"], k, 0) for k in range(12, 21)]


def test_shut_containers_are_boxes_without_contents(view):
    image = pixels(surface.render_surface(view))
    frame = frame_of(view)
    box = view["surface"]["containers"][0]
    _, top, right, _ = frame.box(box)
    s = frame.cell * 0.15
    assert image.getpixel((round(right - s - 4 - s * 0.5), round(top + s + 4 + s * 0.1))) == WHITE
    # what a seat's scan found is never drawn: the picture does not change with it
    scanned = copy.deepcopy(view)
    scanned["surface"]["scanned"] = {box: "rigged-crate"}
    assert surface.render_surface(scanned) == surface.render_surface(view)
    opened = copy.deepcopy(view)
    opened["surface"]["containers"].remove(box)
    assert pixels(surface.render_surface(opened)).getpixel(
        (round(right - s - 4 - s * 0.5), round(top + s + 4 + s * 0.1))) != WHITE


def test_the_mission_parameter_is_a_star_where_it_lies_or_on_its_holder(view):
    frame = frame_of(view)
    assert at(pixels(surface.render_surface(view)), frame, "G5", 0, -2) == HAZARD
    held = copy.deepcopy(view)
    held["surface"]["objective"].update(cell=None, holder="VESK")
    image = pixels(surface.render_surface(held))
    assert at(image, frame, "G5", 0, -2) != HAZARD
    assert at(image, frame, "E6", 13, -13) == HAZARD


def test_last_move_and_attack_are_highlighted(view):
    frame = frame_of(view)
    plain = pixels(surface.render_surface(view))
    image = pixels(surface.render_surface(view, move_events() + attack_events()))
    # the middle of the step C4 -> C5 and of the shot E6 -> H6
    assert at(plain, frame, "C4", 0, 21) != MOVE_MARK
    assert at(image, frame, "C4", 0, 21) == MOVE_MARK
    assert at(plain, frame, "F6", 8, 0) != ATTACK_MARK
    assert at(image, frame, "F6", 8, 0) == ATTACK_MARK


def test_an_unconscious_crewmember_is_crossed_out(view):
    image = pixels(surface.render_surface(view))
    frame = frame_of(view)
    assert view["surface"]["crew"]["RHEE"]["ko"]
    assert at(image, frame, "E9", 0, -8) == washed(RENEGADE)
    assert at(image, frame, "E9", -9, -9) == INK  # the cross; standing, the token's corner is filled
    standing = copy.deepcopy(view)
    standing["surface"]["crew"]["RHEE"]["ko"] = False
    assert at(pixels(surface.render_surface(standing)), frame, "E9", -9, -9) == RENEGADE


def test_footer_says_who_acts_and_where_the_parameter_is(view):
    labels = {"VESK": "VES", "TALLO": "TAL"}
    lines = surface.footer_lines(view, move_events() + attack_events(), labels, {})
    assert lines[1] == "Ann: the Kestrel party acts · actions left: TAL 2, VES 1"
    assert lines[2] == "Mission: the courier, at G5 (star)."
    assert lines[3].startswith("Last: VES moved B3 > C4 > C5 > D6 > E6; VES attacked HALVERN: 1 wound(s)")


def test_a_parameter_still_sealed_in_its_container_is_said_to_be_so():
    """The view keeps `sealed` (its default, which the state's JSON leaves out) for the picture."""
    state = rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}], "mission": "the-reactor-core"}, 1)
    view = rules.view_for(state, None)
    assert view["objective"]["sealed"] is True and view["surface"]["objective"]["sealed"] is True
    assert surface.objective_line(view, {}) == "Mission: the reactor core, sealed in its container, still shut."


def test_every_piece_on_the_board_has_its_own_label_that_fits_its_token():
    """Drones, warriors, a commander and a creature beside the whole crew of both factions:
    every label differs, fits its token, and keeps the number commands name the figure by."""
    crew = {code: {} for code in Game(rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}]}, 1)).pack.crew}
    figures = {code: {} for code in ("DRONE3", "DRONE5", "DRONE12", "SYPHON-W1", "SYPHON-W14", "DREGG-T7", "VHORR",
                                     "STALKER9")}
    labels = short_labels(crew)
    flabels = surface.figure_labels(figures, labels.values())
    assert [flabels[d] for d in ("DRONE3", "DRONE5", "DRONE12", "SYPHON-W14")] == ["D3", "D5", "D12", "SW14"]
    every = list(labels.values()) + list(flabels.values())
    assert len(set(every)) == len(every)
    r = surface.CELL * surface.TOKEN
    for label, crewmember in [(x, True) for x in labels.values()] + [(x, False) for x in flabels.values()]:
        width, largest = surface.label_room(r, crewmember)
        assert text_width(label, fit_size(label, width, largest)) <= width, label


def test_dice_board_shows_the_attack_and_test_dice(view):
    events = attack_events() + skill_events()
    image = pixels(crew_dice.render_crew_dice(view, events))
    red_row = crew_dice.TITLE + crew_dice.ROW / 2 - 6
    black_row = red_row + crew_dice.ROW
    def die(i, y):
        """A pixel inside the i-th die of a row, clear of its pips."""
        return image.getpixel((round(crew_dice.FIRST_X + i * crew_dice.STEP - 0.42 * crew_dice.DIE),
                               round(y - 0.15 * crew_dice.DIE)))

    # red: 7 (a bonus past six) and 4 hit, 2 and 1 are dimmed misses; nothing after the fourth
    assert [die(i, red_row) for i in range(4)] == [RENEGADE, RENEGADE, dimmed(RENEGADE), dimmed(RENEGADE)]
    assert die(4, red_row) == PAPER
    assert [die(i, black_row) for i in range(3)] == [INK, INK, PAPER]
    # the stealth test: one success of three white dice (outlined in ink, the failures in grey)
    test_row = crew_dice._height(events[0]) + crew_dice.TITLE + crew_dice.ROW / 2 - 6
    assert die(0, test_row) == WHITE
    edges = [image.getpixel((round(crew_dice.FIRST_X + i * crew_dice.STEP - crew_dice.DIE / 2 + 1), round(test_row)))
             for i in range(4)]
    assert edges == [INK, MUTED, MUTED, PAPER]
    assert crew_dice.test_lines(events[1], {})[0] == "1 success (5 or more): passed."
    assert crew_dice.attack_lines(events[0], {"HALVERN": "Halvern"}) == [
        "2 hits, 1 blocked: 1 wound to Halvern.", "Ranged attack."]
    assert crew_dice.render_crew_dice(view, move_events()) is None


def names_drawn(view, events):
    """The Renegades pictures of an update that wants the board and the dice."""
    return [name for name, _ in pictures.draw("renegades", view, events, ["board", "dice"])]


def test_renegades_pictures_add_the_surface_and_its_dice_when_rolled(view):
    assert names_drawn(view, attack_events()) == ["board.png", "surface.png", "crew-dice.png"]
    assert names_drawn(view, move_events()) == ["board.png", "surface.png"]
    orbital = rules.view_for(rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}]}, 3), None)
    assert names_drawn(orbital, []) == ["board.png"]


@pytest.mark.parametrize("seed, config", [(101, {"players": [{"seat": "p1"}, {"seat": "p2"}]}),
                                          (202, {"mode": "coop", "players": [{"seat": "p1"}]}),
                                          (303, {"players": [{"seat": "p1"}, {"seat": "p2"}]})])
def test_every_position_of_random_quicker_games_draws(seed, config):
    """The quicker game (every ship docked on the mission planet from the start), versus
    and solo against NPC Coalition crew."""
    state = rules.new_game({**config, "quick": True, "world_cards": 5}, seed)
    rng = random.Random(seed)
    drawn = rolled = 0
    while state.phase != "over":
        seat, command = random_command(state, rng)
        state, events = rules.apply(state, seat, command)
        view = rules.view_for(state, None)
        assert pixels(surface.render_surface(view, events)).size == (556, 738)  # every position, on the surface or not
        for name, data in pictures.draw("renegades", view, events, ["board", "dice"]):
            if name not in ("surface.png", "crew-dice.png"):
                continue
            assert pixels(data).width > 500
            drawn += name == "surface.png"
            rolled += name == "crew-dice.png"
    assert drawn > 20 and rolled > 0


def test_an_unconscious_crewmember_under_another_shows_in_the_corner(view):
    frame = frame_of(view)
    shared = copy.deepcopy(view)
    shared["surface"]["crew"]["RHEE"]["cell"] = "E6"  # where Vesk stands (or carries it)
    image = pixels(surface.render_surface(shared))
    corner = {at(image, frame, "E6", dx, dy) for dx in range(-11, -5) for dy in range(4, 12)}
    assert washed(RENEGADE) in corner
    assert at(image, frame, "E6", 10, 10) == RENEGADE
    assert washed(RENEGADE) not in {at(pixels(surface.render_surface(view)), frame, "E6", dx, dy)
                                    for dx in range(-11, -5) for dy in range(4, 12)}


def test_the_last_actions_keep_the_latest_that_fit(view):
    events = [{"type": "crew_moved", "crew": "VESK", "path": ["B3", "C4", "C5", "D6"]}] * 9 + [
        {"type": "figure_defeated", "figure": "DREGG-T1", "cell": "F7"}]
    line = surface.footer_lines(view, events, {"VESK": "VES"}, {})[3]
    assert line.startswith("Last: (+") and line.endswith("VES moved B3 > C4 > C5 > D6; DREGG-T1 defeated")
    assert surface.text_width(line, surface.LAST_SIZE) <= surface._line_width(view["surface"])


def test_an_opposed_test_shows_both_sides_dice(view):
    event = {"type": "turn_attempt", "prisoner": "RHEE", "ship": "WARDEN", "leader": "HALVERN", "dice": [10, 5, 2],
             "prisoner_dice": [6, 1], "turned": True}
    image = pixels(crew_dice.render_crew_dice(view, [event]))
    assert image.height == crew_dice._height(event) + 8
    first = crew_dice.TITLE + crew_dice.ROW / 2 - 6

    def edge(i, y):
        """The left rim of the i-th die of a row: ink for a success, grey for a failure."""
        return image.getpixel((round(crew_dice.FIRST_X + i * crew_dice.STEP - crew_dice.DIE / 2 + 1), round(y)))
    assert [edge(i, first) for i in range(4)] == [INK, INK, MUTED, PAPER]  # 10 (+5 on one die) and 5 succeed
    assert [edge(i, first + crew_dice.ROW) for i in range(3)] == [INK, MUTED, PAPER]
    assert crew_dice.test_lines(event, {}) == ["2 against 1 successes: turned: the prisoner joins the captors.",
                                               "More successes than the prisoner turn it."]


def test_dropped_gear_is_a_numbered_tag_in_its_square_and_the_legend_says_so(view):
    frame = frame_of(view)
    _, _, right, bottom = frame.box("B5")
    s = frame.cell * 0.14
    corner = (round(right - 2 * s - 4), round(bottom - s - 10))  # inside the tag, left of its number
    bare = pixels(surface.render_surface(view))
    assert bare.getpixel(corner) != WHITE
    assert not any("gear dropped" in line for line in surface.footer_lines(view, [], {}, {}))
    dropped = copy.deepcopy(view)
    dropped["surface"]["dropped"] = {"B5": ["arc-blade", "arc-pistol"]}
    assert pixels(surface.render_surface(dropped)).getpixel(corner) == WHITE
    assert surface.footer_lines(dropped, [], {}, {})[-2].endswith("numbered tag: gear dropped there")


def test_raised_and_sunken_ground_have_their_rims_and_steps_their_bars(view):
    image = pixels(surface.render_surface(view))
    frame = frame_of(view)
    for square, rim in (("I1", HAZARD), ("I12", MOVE_MARK)):
        left, top, _, _ = frame.box(square)
        assert image.getpixel((round(left + 3), round(top + frame.cell / 2))) == rim
    assert at(image, frame, "J2") == INK  # the middle bar of the steps
    assert at(image, frame, "I1") != INK
    flat = copy.deepcopy(view)
    flat["surface"]["elevated"] = flat["surface"]["sunken"] = flat["surface"]["steps"] = []
    assert at(pixels(surface.render_surface(flat)), frame, "I1") == at(image, frame, "L2")


def test_a_hard_landing_is_on_the_dice_board(view):
    event = {"type": "leap_attack", "target": "VESK", "attack": [6, 5, 1], "defense": [1, 1], "wounds": 2}
    assert crew_dice.rolls([event]) == [event]
    assert crew_dice.attack_lines(event, {"VESK": "Vesk"})[1].startswith("A leap into sunken ground")
    assert crew_dice.render_crew_dice(view, [event]) is not None


def test_a_fire_is_flames_in_its_square_and_the_legend_says_so(view):
    frame = frame_of(view)
    _, _, _, bottom = frame.box("B11")
    heart = (round(frame.centre("B11")[0]), round(bottom - frame.cell * 0.2))
    assert pixels(surface.render_surface(view)).getpixel(heart) != HAZARD
    burning = copy.deepcopy(view)
    burning["surface"]["fires"] = ["B11"]
    assert pixels(surface.render_surface(burning)).getpixel(heart) == HAZARD
    assert surface.footer_lines(burning, [], {}, {})[-1].endswith("flames: fire, impassable")


def test_a_boarded_ship_has_a_purple_frame_on_its_dock(view):
    frame = frame_of(view)
    dock = view["surface"]["docked"]["WARDEN"]
    left, top, _, bottom = frame.box(dock)
    edge = (round(left + 7), round((top + bottom) / 2))
    assert pixels(surface.render_surface(view)).getpixel(edge) != ATTACK_MARK
    boarded = copy.deepcopy(view)
    boarded["surface"]["boarded"] = {"WARDEN": ["VESK"]}
    assert pixels(surface.render_surface(boarded)).getpixel(edge) == ATTACK_MARK
    assert "purple dock: boarded" in surface.footer_lines(boarded, [], {}, {})[-3]


def test_the_employers_base_is_a_white_double_frame_and_the_legend_says_so(view):
    frame = frame_of(view)
    left, top, _, bottom = frame.box("B4")
    edge = (round(left + 4), round((top + bottom) / 2))
    assert pixels(surface.render_surface(view)).getpixel(edge) != WHITE
    run = copy.deepcopy(view)
    run["surface"]["base"] = ["B4"]
    assert pixels(surface.render_surface(run)).getpixel(edge) == WHITE
    assert surface.footer_lines(run, [], {}, {})[-1].endswith("white double frame: the employer's base")


def test_during_the_home_run_the_footer_says_where_the_findings_are_and_where_they_go(view):
    run = copy.deepcopy(view)
    run["surface"]["objective"] = {"kind": "container", "name": "the reactor core", "cell": "K11", "home": True,
                                   "run": "renegade"}
    assert surface.objective_line(run, {}) == \
        "Mission: the reactor core, at K11 (star), bound for the employer's base (white frames)."


def test_a_doorway_shows_its_wall_stubs_and_an_open_square_does_not(view):
    """N161: the pump house's doorway at H6 (walls north and south) is drawn with dark stubs."""
    assert view["surface"]["doorways"] == ["E6", "H6"]
    empty = copy.deepcopy(view)
    empty["surface"]["crew"]["HALVERN"]["cell"] = "I5"
    frame = frame_of(view)
    image = pixels(surface.render_surface(empty))
    assert at(image, frame, "H6", 0, -17) == VOID and at(image, frame, "H6", 0, 17) == VOID
    empty["surface"]["doorways"] = []
    assert at(pixels(surface.render_surface(empty)), frame, "H6", 0, -17) != VOID


def test_a_grenade_blast_is_on_the_dice_board_and_its_throw_on_the_board(view):  # N192
    event = {"type": "blast_attack", "target": "VESK", "attack": [6, 5, 1], "defense": [1, 1], "wounds": 2}
    assert crew_dice.rolls([event]) == [event]
    assert crew_dice.attack_lines(event, {"VESK": "Vesk"})[1].startswith("A grenade's blast")
    assert crew_dice.render_crew_dice(view, [event]) is not None
    thrower = next(code for code, c in view["surface"]["crew"].items() if c["cell"])
    throw = {"type": "grenade", "crew": thrower, "grenade": "flash-grenade", "cell": "F10", "reach": 4, "victims": []}
    assert surface.render_surface(view, [throw]) != surface.render_surface(view)
    assert any("threw a grenade at F10" in line for line in surface.footer_lines(view, [throw], {}, {}))


def test_a_built_boards_raised_and_sunken_ground_and_steps_are_drawn():
    """N128: the levels a built board's location cards bring show like the fixed board's."""
    state = rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}], "mission": "the-reactor-core",
                            "boards": "built"}, 65)  # seed 65 deals the Landing Apron and the Vent Fields
    view = rules.view_for(state, None)
    assert view["surface"]["elevated"] == ["A10", "A9", "B10", "B9"] and view["surface"]["sunken"] == ["C5", "C6", "C7"]
    image, frame = pixels(surface.render_surface(view)), frame_of(view)
    for square, rim in (("A9", HAZARD), ("C6", MOVE_MARK)):
        left, top, _, _ = frame.box(square)
        assert image.getpixel((round(left + 3), round(top + frame.cell / 2))) == rim
    assert at(image, frame, "B10") == INK and at(image, frame, "C5") == INK  # the steps' middle bar
