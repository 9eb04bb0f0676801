"""The campaign roster picture: a card per player, a solid dot for crew who fly next and a
ring for the reserve, unconscious crew underlined, the same bytes for the same campaign."""
from PIL import Image
import io

from engine.renegades.campaign import campaign as cp
from engine.renegades.campaign.campaign_text import names_of
from engine.renegades.contents.content import load_pack
from images.roster import GAP, LINE, dot_centre, render_roster, roster_image
from images.style import HAZARD, INK, PAPER

PACK = load_pack("content/renegades")


def campaign_view():
    c = cp.new_campaign({"title": "ember", "players": [{"seat": "p1", "name": "Ann", "faction": "renegade"},
                                                        {"seat": "p2", "name": "Bo", "faction": "coalition"}]}, 3)
    ann = c.captain("p1")
    ann.digits = 400
    ann.crew["LINNET"] = cp.Hand(code="LINNET", name="Linnet Shay", faction="renegade")  # in reserve
    ann.crew["VESK"].ko = True
    view = cp.view_for(c, None)
    return view, names_of(PACK, view)


def test_flying_crew_have_a_dot_and_the_reserve_a_ring():
    view, names = campaign_view()
    image = roster_image(view, names)
    top = GAP + LINE  # the first card, under the title line
    vesk = dot_centre(top, 0)
    linnet = dot_centre(top, 5)
    assert image.getpixel(vesk) == INK  # flies next: solid
    assert image.getpixel(linnet) == PAPER  # reserve: a ring, hollow in the middle
    assert image.getpixel((linnet[0] + 5, linnet[1])) != PAPER  # ... with its rim drawn
    assert image.getpixel((vesk[0] + 40, vesk[1] + 10)) == HAZARD  # unconscious: underlined


def test_the_same_campaign_draws_the_same_bytes_at_a_legible_width():
    view, names = campaign_view()
    first = render_roster(view, names)
    assert first == render_roster(view, names)
    assert Image.open(io.BytesIO(first)).size[0] == 560
