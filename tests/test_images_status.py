"""Away-team status: peg rows filled and empty, markers in words, neutralized and assimilated."""
import io

from PIL import Image

from images import status as S
from images.demo import midgame_view
from images.style import INK, PAPER, blend


def decoded(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def close(pixel, colour, tolerance=18) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def holes(view, cid, seat=None):
    _, _, rows, holes_max = S.panel_layout(view, seat)
    x, y = rows[cid]
    line = y + S.PEG_LINE
    return {name: [(px, line, filled) for px, filled in spots]
            for name, _, spots in S.peg_rows(x + 8, line, view["characters"][cid], holes_max)}


def test_pegs_left_are_dots_and_lost_pegs_are_rings():
    view = midgame_view()
    image = decoded(S.render_status(view))
    ferrow = holes(view, "FERROW")
    assert [f for _, _, f in ferrow["attack"]] == [True, True, True, False]  # lost 1 ATTACK of 4
    for px, py, filled in ferrow["attack"] + ferrow["move"]:
        assert close(image.getpixel((round(px), round(py))), INK if filled else PAPER, 20), (px, filled)
    px, py, _ = ferrow["attack"][3]
    assert close(image.getpixel((round(px + S.PEG - 1), round(py))), INK, 40)  # the empty hole's ring


def test_neutralized_character_is_washed_out_and_assimilated_changes_sides():
    view = midgame_view()
    image = decoded(S.render_status(view))
    _, heads, rows, _ = S.panel_layout(view)
    adeyemi = holes(view, "ADEYEMI")["defense"][0]
    assert close(image.getpixel((round(adeyemi[0]), round(adeyemi[1]))), blend(INK, PAPER, 0.6), 20)
    borg_column = next(x for player, x, _ in heads if player["seat"] == "p2")
    assert rows["HARUNA"][0] == borg_column  # assimilated: listed with the Borg who control her
    assert S._state_words(view["characters"]["HARUNA"], {"p1": "Ana"}).startswith("in D5 · ASSIMILATED (was Ana's)")
    assert S._state_words(view["characters"]["ADEYEMI"], {}) == "NEUTRALIZED"
    assert S._state_words(view["characters"]["E1-11"], {}) == "in H9 · INCAPACITATED (2 stun)"
    assert S._state_words(view["characters"]["OKAFOR"], {}) == "in H4 · taking cover"


def test_in_play_characters_come_first_and_one_team_can_be_drawn_alone():
    view = midgame_view()
    _, _, rows, _ = S.panel_layout(view)
    fed = sorted((y, cid) for cid, (x, y) in rows.items() if view["characters"][cid]["controller"] == "p1")
    assert fed[-1][1] == "ADEYEMI"
    alone = decoded(S.render_status(view, "p1"))
    assert alone.width == S.COLUMN + 2 * S.GAP
    assert S.render_status(view) == S.render_status(view)
