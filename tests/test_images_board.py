"""Board snapshot: pixel probes on the decoded PNG at tokens, doors, markers and highlights."""
import copy
import io
import random

import msgspec
from PIL import Image

from engine.awaymissions import rules
from engine.awaymissions.autoplay import random_command
from engine.awaymissions.content import load_pack
from engine.awaymissions.layout import Geometry, LayoutSpec, Space, geometry
from images import board as B
from images.demo import attack_events, midgame_view, move_events
from images.style import ASSIMILATED, ATTACK_MARK, COVER, FLOOR, HAZARD, INK, MOVE_MARK, PAPER, STYLES, WHITE, blend
from tests.conftest import two_player_config

BLUE, ORANGE = STYLES[0][0], STYLES[1][0]


def decoded(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def close(pixel, colour, tolerance=18) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def frame_of(view):
    pack = load_pack(view["pack"])
    spec = msgspec.convert(view["layout"], LayoutSpec)
    return geometry(pack, spec), B.static_layer(pack, spec)[1]


def token_spot(view, cid):
    """(cx, cy, r) of a character's token, as the board places it."""
    geo, frame = frame_of(view)
    space = view["characters"][cid]["space"]
    here = sorted(c for c, ch in view["characters"].items() if ch["status"] == "in_play" and ch["space"] == space)
    return B._positions(frame, geo.spaces[space], len(here))[here.index(cid)]


def picture(view, events=()):
    return decoded(B.render_board(view, list(events)))


def test_tokens_are_drawn_in_their_side_colour_at_their_space():
    view = midgame_view()
    image = picture(view)
    for cid, colour in (("FERROW", BLUE), ("D4-12", ORANGE), ("H8-11", ORANGE), ("OKAFOR", BLUE)):
        cx, cy, r = token_spot(view, cid)
        assert close(image.getpixel((round(cx), round(cy + r * 0.58))), colour), cid


def test_two_characters_in_one_space_are_both_visible():
    view = midgame_view()
    image = picture(view)
    spots = [token_spot(view, cid) for cid in ("REYES", "SOLIS")]
    assert spots[0][:2] != spots[1][:2]
    washed = blend(BLUE, WHITE, 0.55)  # both have activated
    for cx, cy, r in spots:
        assert close(image.getpixel((round(cx), round(cy + r * 0.58))), washed)


def test_activated_token_is_washed_out_and_others_are_not():
    view = midgame_view()
    image = picture(view)
    nexus = token_spot(view, "NEXUS")
    drone = token_spot(view, "D7-12")
    assert close(image.getpixel((round(nexus[0]), round(nexus[1] + nexus[2] * 0.58))), blend(ORANGE, WHITE, 0.55))
    assert close(image.getpixel((round(drone[0]), round(drone[1] + drone[2] * 0.58))), ORANGE)


def test_markers_for_cover_stun_assimilated_and_incapacitated():
    view = midgame_view()
    image = picture(view)
    cx, cy, r = token_spot(view, "OKAFOR")  # take cover: shield top-left
    assert close(image.getpixel((round(cx - r * 0.85), round(cy - r * 0.85 - 2))), COVER)
    cx, cy, r = token_spot(view, "D4-12")  # stunned: star bottom-right, off its number
    badge = r * 0.42 * 1.15
    assert close(image.getpixel((round(cx + r * 0.85 - badge * 0.35), round(cy + r * 0.85 + badge * 0.2))), HAZARD)
    cx, cy, r = token_spot(view, "HARUNA")  # assimilated: cube bottom-left, inside a grid cell
    s = r * 0.42
    assert close(image.getpixel((round(cx - r * 0.85 - s * 0.66), round(cy + r * 0.85 - s * 0.66))), ASSIMILATED)
    cx, cy, r = token_spot(view, "E1-11")  # incapacitated: dashed ring around the token
    ring = [image.getpixel((round(cx + r + dx), round(cy + dy))) for dx in range(3, 8) for dy in range(1, 7)]
    assert any(close(p, INK, 30) for p in ring)


def door_pixels(image, frame, geo, a, b):
    (x0, y0), (x1, y1) = frame.edge(geo.spaces[a], geo.spaces[b])
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    along = frame.cell * 0.25
    if y0 == y1:
        box = (round(mx - along), round(my - 2), round(mx + along), round(my + 2))
    else:
        box = (round(mx - 2), round(my - along), round(mx + 2), round(my + along))
    return list(image.crop(box).get_flattened_data())


def test_door_is_closed_until_a_character_stands_beside_it():
    view = midgame_view()
    geo, frame = frame_of(view)
    image = picture(view)
    closed = door_pixels(image, frame, geo, "C4", "C5")  # nobody on either side
    assert sum(close(p, INK, 30) or close(p, HAZARD, 30) for p in closed) / len(closed) > 0.9
    assert sum(close(p, HAZARD, 30) for p in closed) > len(closed) // 4
    opened = door_pixels(image, frame, geo, "E5", "F5")  # D4-12 stands in F5
    assert sum(close(p, B.CORRIDOR_FLOOR, 12) for p in opened) / len(opened) > 0.6
    view["characters"]["D4-12"]["space"] = "G5"
    now = door_pixels(picture(view), frame, geo, "E5", "F5")
    assert sum(close(p, INK, 30) or close(p, HAZARD, 30) for p in now) / len(now) > 0.9


def test_walls_are_thick_and_open_edges_thin():
    view = midgame_view()
    geo, frame = frame_of(view)
    image = picture(view)

    def dark_run(a, b):
        (x0, y0), (x1, y1) = frame.edge(geo.spaces[a], geo.spaces[b])
        x, y = round((x0 + x1) / 2) + 3, round((y0 + y1) / 2)
        return sum(close(image.getpixel((x, y + d)), INK, 30) for d in range(-8, 9))

    assert geo.edges[("B2", "C2")] == "wall" and dark_run("B2", "C2") >= B.WALL - 1
    assert geo.edges[("B6", "B5")] == "open"
    (x0, y0), (x1, y1) = frame.edge(geo.spaces["B5"], geo.spaces["B6"])
    column = [image.getpixel((round((x0 + x1) / 2) + 11, round(y0) + d)) for d in range(-6, 7)]
    assert sum(not close(p, B.CORRIDOR_FLOOR, 12) for p in column) <= 3


def test_last_move_path_and_attack_line_are_highlighted():
    view = midgame_view()
    geo, frame = frame_of(view)
    moved = picture(view, move_events())
    a, b = frame.centre(geo.spaces["C7"].x, geo.spaces["C7"].y), frame.centre(geo.spaces["C6"].x, geo.spaces["C6"].y)
    quarter = (round(a[0] + (b[0] - a[0]) * 0.25), round(a[1] + (b[1] - a[1]) * 0.25))
    assert close(moved.getpixel(quarter), MOVE_MARK)
    assert not close(picture(view).getpixel(quarter), MOVE_MARK, 40)
    attacked = picture(view, attack_events()[:1])
    e6, f5 = geo.spaces["E6"], geo.spaces["F5"]
    (ax, ay), (bx, by) = frame.centre(e6.x, e6.y), frame.centre(f5.x, f5.y)
    on_line = (round(ax + (bx - ax) * 0.3), round(ay + (by - ay) * 0.3))
    assert close(attacked.getpixel(on_line), ATTACK_MARK)
    ring = [attacked.getpixel((round(bx + frame.cell * 0.47 + d), round(by))) for d in range(-3, 4)]
    assert any(close(p, ATTACK_MARK, 24) for p in ring)


def test_footer_names_round_phase_decision_score_and_last_action():
    view = midgame_view()
    labels = B.short_labels(view["characters"])
    first, second, third = B.footer_lines(view, move_events(), labels)
    assert first == "Round 2 of 3 · Action phase"
    assert second == "Waiting for Ana (action) · Ana activating FER, 1 action left"
    assert third == "Last: FER moved C8 > C7 > C6 > D6 > E6"
    pack = load_pack(view["pack"])
    assert B.score(view, pack, "p1") == pack.cards["fed-restore-life-support"].points + 1
    view["result"] = {"scores": {"p1": 4, "p2": 2}, "winner": "p1"}
    assert B.footer_lines(view, [], labels)[0].endswith("Game over: Ana wins")


LONG_NAMES = {"p1": "Commander Alexandra Whitfield-Montgomery", "p2": "Lieutenant Bartholomew Featherstonehaugh"}


def test_long_names_are_cut_to_fit_the_footer_and_never_run_off_the_picture():
    """Two long names: the scores are cut with an ellipsis, keep their points, and neither
    they nor the waiting line run off the picture's edges or over the round."""
    view = midgame_view()
    for p in view["players"]:
        p["name"] = LONG_NAMES[p["seat"]]
    image = picture(view, move_events())
    width, height = image.size
    footer = [(x, y) for y in range(height - B.FOOTER, height) for x in (*range(0, 20), *range(width - 20, width))]
    assert all(close(image.getpixel(at), PAPER, 4) for at in footer), "a footer text reaches the picture's edge"
    texts = B.score_texts(B.footer_entries(view, load_pack(view["pack"])), 500)
    assert [t[-2:] for t in texts] == [" 3", " 3"] and all("\u2026" in t for t in texts)
    assert sum(B.text_width(t, B.SCORE_SIZE) + 40 for t in texts) <= 500
    view["players"][0]["name"], view["players"][1]["name"] = "Ana", "Bo"
    assert B.score_texts(B.footer_entries(view, load_pack(view["pack"])), 500) == ["Ana 3", "Bo 3"]


def test_same_input_gives_same_bytes_and_static_layer_is_reused():
    view = midgame_view()
    first = B.render_board(view, move_events())
    pack = load_pack(view["pack"])
    spec = msgspec.convert(view["layout"], LayoutSpec)
    base = B.static_layer(pack, spec)[0]
    before = base.tobytes()
    assert B.render_board(copy.deepcopy(view), move_events()) == first
    assert B.static_layer(pack, spec)[0] is base and base.tobytes() == before


def test_doors_are_drawn_once_per_layout_and_doors():
    view = midgame_view()
    geo = frame_of(view)[0]
    B._DOORS.clear()
    first = B.render_board(view, move_events())
    assert B.render_board(copy.deepcopy(view), move_events()) == first
    assert len(B._DOORS) == 1  # the second snapshot started from the same doors
    a, b = next((a, b) for a, b in geo.doors if not any(
        ch["status"] == "in_play" and ch["space"] in (a, b) for ch in view["characters"].values()))
    stepped = copy.deepcopy(view)
    mover = next(c for c, ch in stepped["characters"].items() if ch["status"] == "in_play")
    stepped["characters"][mover]["space"] = a  # beside a closed door: it opens
    opened = B.render_board(stepped)
    assert len(B._DOORS) == 2 and opened != B.render_board(view)
    B._DOORS.clear()
    assert B.render_board(stepped) == opened  # the same as drawn with nothing kept


def test_cube_and_borg_corridor_layouts():
    cube = picture(midgame_view("cube"), move_events("cube"))
    corridor = picture(midgame_view("borg-corridor"))
    assert cube.width < corridor.width  # eight columns against ten
    view = midgame_view("cube")
    cx, cy, r = token_spot(view, "FERROW")
    assert close(cube.getpixel((round(cx), round(cy + r * 0.58))), BLUE)


def test_six_boards_fit_a_readable_picture():
    """A 3-above, corridor, 3-below area (12 x 10 spaces) keeps spaces large and every space inside."""
    pack = load_pack("content/starter")
    spaces, edges = {}, {}
    for x in range(12):
        for y in range(10):
            board = "corridor-federation" if y in (4, 5) else ("bridge", "engineering", "armory")[x // 4]
            sid = f"{'ABCDEFGHIJKL'[x]}{y + 1}"
            spaces[sid] = Space(sid, board, x, y, ("science",) if (x, y) == (0, 0) else ())
    for sid, s in spaces.items():
        for other in spaces.values():
            if abs(s.x - other.x) + abs(s.y - other.y) == 1:
                edges[(sid, other.id)] = "open" if spaces[sid].board == other.board else "door"
    image, frame = B._draw_static(pack, Geometry(spaces, edges, [], {}))
    assert frame.cell >= 56 and image.width <= 1000
    assert image.convert("RGB").getpixel((round(frame.centre(11, 9)[0]), round(frame.centre(11, 9)[1]))) == FLOOR


def test_a_board_not_laid_out_yet_still_renders():
    state = rules.new_game(two_player_config(), 3)
    image = picture(rules.view_for(state, None))
    assert image.width > 0 and image.height > B.FOOTER


def test_real_games_render_after_every_kind_of_event():
    """Pictures of random legal games from the rules engine, for each kind of layout."""
    kinds = set()
    for layout, cube, seed in ((None, False, 5), ("standard", False, 8), (None, True, 13)):
        state = rules.new_game(two_player_config(layout, cube), seed)
        rng = random.Random(seed)
        while state.phase != "over":
            seat, command = random_command(state, rng)
            state, events = rules.apply(state, seat, command)
            types = {e["type"] for e in events}
            if types & {"moved", "attack", "placed", "cover", "special", "board_placed"} - kinds or rng.random() < 0.1:
                decoded(B.render_board(rules.view_for(state, None), events))
            kinds |= types
        decoded(B.render_board(rules.view_for(state, None), events))
    assert {"moved", "rolled", "card_played"} <= kinds


def test_encoded_png_is_the_drawing():
    """The board is drawn in the fixed palette, so its PNG holds exactly what was drawn."""
    from images.style import encode
    for view, events in ((midgame_view(), move_events()), (midgame_view("cube"), attack_events("cube")[:1])):
        drawn = B.board_image(view, events)
        assert drawn.mode == "P"
        assert decoded(encode(drawn)).tobytes() == drawn.convert("RGB").tobytes()


def test_a_played_card_marks_its_target_space():
    view = midgame_view()
    geo, frame = frame_of(view)
    space = geo.spaces[view["characters"]["OKAFOR"]["space"]]
    left, top, right, bottom = frame.box(space.x, space.y)
    edge = [(round(x), round(top + 5)) for x in range(round(left + 6), round(right - 6))]
    plain = picture(view)
    marked = picture(view, [{"type": "card_played", "seat": "p1", "card": "fed-seasoned-veteran",
                             "name": "Seasoned Veteran", "kind": "event", "target": "OKAFOR"}])
    changed = sum(1 for p in edge if plain.getpixel(p) != marked.getpixel(p))
    assert changed > len(edge) // 4  # the dashed square runs along the top of the target's space


def test_the_board_key_changes_with_the_board_and_only_with_it():
    view = midgame_view()
    key = B.board_key(view)
    waiting = copy.deepcopy(view)  # another decision, version and activation: the same board
    waiting["version"] = view.get("version", 0) + 3
    waiting["pending"] = [{"kind": "interrupt", "player": "p2", "info": {"trigger": "moved"}}]
    waiting["activation"] = {"player": "p1", "character": "FERROW", "actions_left": 1}
    assert B.board_key(waiting) == key
    assert B.render_board(waiting, [], waiting=False) == B.render_board(view, [], waiting=False)
    moved = copy.deepcopy(view)
    other = next(s for s in (ch["space"] for ch in view["characters"].values()) if s != view["characters"]["FERROW"]["space"])
    moved["characters"]["FERROW"]["space"] = other
    hurt = copy.deepcopy(view)
    hurt["characters"]["FERROW"]["cover"] = not hurt["characters"]["FERROW"].get("cover")
    scored = copy.deepcopy(view)
    scored["players"][0]["bonus_points"] = scored["players"][0].get("bonus_points", 0) + 1
    assert len({key, B.board_key(moved), B.board_key(hurt), B.board_key(scored)}) == 4
