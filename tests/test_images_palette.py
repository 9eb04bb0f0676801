"""Drawing straight into the fixed palette gives the picture that drawing in RGB and then
quantizing gave: solid colours, anti-aliased text over one colour or several, and stamped
tokens pasted from the cache."""
from PIL import ImageDraw

from images import style
from images.style import FLOOR, INK, MOVE_MARK, PAPER, STYLES, WHITE, canvas, pen, text, to_palette
from images.tokens import draw_token

RED, BLUE = STYLES[1][0], STYLES[0][0]


def both(size, ground, paint):
    """The same drawing on an RGB picture then quantized, and straight on a palette picture."""
    rgb = canvas(size, ground).convert("RGB")
    paint(ImageDraw.Draw(rgb))
    direct = canvas(size, ground)
    paint(pen(direct))
    return to_palette(rgb).tobytes(), direct.tobytes()


def test_solid_shapes_land_on_the_entry_quantizing_gives():
    def paint(draw):
        draw.rectangle((4, 4, 40, 30), fill=RED, outline=INK, width=3)
        draw.ellipse((50, 8, 90, 40), fill=(120, 130, 140))  # not a palette colour: its nearest entry
        draw.line([(0, 45), (99, 45)], fill=MOVE_MARK, width=4)
        draw.polygon([(60, 2), (75, 20), (52.5, 28.3)], fill=BLUE, outline=INK, width=3)  # outlined on a patch
        draw.polygon([(92, -5), (110, 20), (85, 30)], fill=RED, outline=WHITE, width=2)  # past the border
    rgb, direct = both((100, 50), PAPER, paint)
    assert direct == rgb


def test_text_over_one_colour_is_anti_aliased_as_before():
    rgb, direct = both((220, 40), PAPER, lambda draw: text(draw, (6, 8), "Waiting for Ann", 20, INK))
    assert direct == rgb
    assert len(set(direct)) > 3  # the edge steps survive, not only ink and paper


def test_text_across_several_colours_is_blended_patch_by_patch():
    def paint(draw):
        draw.rectangle((0, 0, 60, 40), fill=FLOOR)
        draw.rectangle((60, 0, 120, 40), fill=BLUE)
        text(draw, (10, 8), "CORRIDOR", 22, WHITE)
        text(draw, (100, 30), "edge", 18, INK)  # runs past the picture's border
    rgb, direct = both((120, 40), PAPER, paint)
    assert direct == rgb


def test_a_stamped_token_matches_one_painted_in_place_and_is_drawn_once():
    style._STAMPS.clear()
    style._PLACED.clear()
    character = {"activated": True, "cover": True, "stun": 2, "assimilated": True}
    for centre in ((145.5, 150.25), (170.0, 160.5)):
        rgb, direct = both((240, 220), FLOOR, lambda draw: draw_token(draw, *centre, 22.68, (RED, "square"),
                                                                      "REY", character))
        assert direct == rgb
    assert len(style._STAMPS) == 2  # one per sub-pixel offset (and parity)
    picture = canvas((240, 220), FLOOR)
    draw_token(pen(picture), 145.5, 150.25, 22.68, (RED, "square"), "REY", character)
    assert len(style._STAMPS) == 2  # reused, not drawn again


def test_a_picture_does_not_depend_on_what_was_cached_before():
    from images import render_board, render_dice
    from images.demo import attack_events, midgame_view, move_events
    from images import board
    warm = render_board(midgame_view(), move_events()), render_dice(midgame_view(), attack_events())
    style._STAMPS.clear()
    style._PLACED.clear()
    style._text_patch.cache_clear()
    board._DOORS.clear()
    assert (render_board(midgame_view(), move_events()), render_dice(midgame_view(), attack_events())) == warm


def test_stamps_keep_every_pixel_wherever_they_land():
    """A diamond's slanted edges pass through pixel corners, where a rounding error of one
    binary digit moves a pixel: a stamp is drawn where floating point rounds as in place."""
    from images.style import draw_shape, stamp

    def diamonds(draw):
        for x, y in ((104, 74), (148, 250), (192, 426), (500.5, 602), (620, 140.25), (30, 660)):
            stamp(draw, ("diamond",), x, y, 24, lambda d, cx, cy: draw_shape(d, "diamond", cx, cy, 19.6, INK, WHITE))
    rgb, direct = both((700, 700), FLOOR, diamonds)
    assert direct == rgb


def test_marks_stamped_on_tokens_match_marks_drawn_in_place():
    """The reticle is stamped over whatever lies under it (tokens, a line): only the pixels
    it paints are pasted, through a one-bit mask, and they are the ones drawing it gives."""
    from images import marks

    def paint(draw):
        draw_token(draw, 150.5, 140.0, 22.68, (RED, "square"), "REY", {"stun": 1})
        draw.line([(40, 60), (260, 210)], fill=MOVE_MARK, width=7)
        marks.reticle(draw, (150.5, 140.0), 84)
        marks.reticle(draw, (96.0, 201.5), 64)
    rgb, direct = both((300, 280), FLOOR, paint)
    assert direct == rgb
    assert any(key[0] == "reticle" for key, *_ in style._PLACED)


def test_text_in_a_clear_part_is_pasted_as_if_the_ground_were_looked_at():
    """A text the caller places in a part it knows holds one colour (`clear`) is pasted
    without looking; the pixels are the ones looking gives."""
    def paint(clear):
        def draw_it(draw):
            draw.rectangle((0, 0, 220, 30), fill=INK)
            text(draw, (6, 4), "Bo attacks Cy", 18, WHITE, clear=((0, 0, 220, 30), INK) if clear else None)
            text(draw, (6, 40), "Waiting for Ann", 20, INK, clear=((0, 30, 220, 80), PAPER) if clear else None)
            text(draw, (170, 4), "Cy 3", 18, WHITE, clear=((0, 0, 180, 30), INK) if clear else None)  # partly out: looked at
        return draw_it
    assert both((220, 80), PAPER, paint(True)) == both((220, 80), PAPER, paint(False))


def test_boards_and_dice_boards_claim_only_clear_parts(monkeypatch):
    """Every text the board's footer and the dice board paste unlooked (`clear`) lies where
    nothing was drawn yet: the pictures of whole games, and of long and tall names (cut to
    fit beside the scores), are the ones looking at the ground everywhere gives."""
    import random

    from engine.awaymissions import rules
    from engine.awaymissions.autoplay import random_command
    from images import board, dice
    from images.demo import attack_events, midgame_view, skill_events
    from tests.conftest import two_player_config

    def pictures(view, events):
        drawn = [board.board_image(view, events).tobytes()]
        rolled = dice.dice_image(view, events)
        return drawn + ([rolled.tobytes()] if rolled is not None else [])

    cases = []
    for name in ("Annabelle Featherstonehaugh-Cholmondeley of the USS Excelsior", "Z\u0337\u0322\u031ba\u0334l"):
        view = midgame_view()
        view["players"][0]["name"] = name
        over = dict(view, result={"winner": view["players"][0]["seat"]})  # the footer's first line says who won
        cases += [(view, attack_events()), (view, skill_events()), (over, attack_events())]
    for seed in (1, 2):
        state, rng = rules.new_game(two_player_config(), seed), random.Random(seed)
        while state.phase != "over":
            seat, command = random_command(state, rng)
            state, events = rules.apply(state, seat, command)
            if any(e["type"] in ("rolled", "moved", "attack") for e in events):
                cases.append((rules.view_for(state, None), events))
    answers = []
    within = style._within
    monkeypatch.setattr(style, "_within", lambda box, outer: answers.append(within(box, outer)) or answers[-1])
    unlooked = [pictures(view, events) for view, events in cases]
    assert len(cases) > 40 and answers.count(True) > 5 * len(cases)
    monkeypatch.setattr(style, "_within", lambda box, outer: False)
    assert [pictures(view, events) for view, events in cases] == unlooked
