"""Golden pictures: each renderer's demo output stays close to the approved PNG in tests/golden/.

After an intended change, look at the new pictures, then rewrite the goldens with
UPDATE_GOLDEN=1 python -m pytest tests/test_images_golden.py
"""
import io
import os

import pytest
from PIL import Image, ImageChops

from images import render_board, render_dice, render_status
from images import demo_renegades as renegades
from images import demo_surface
from images.crew_dice import render_crew_dice
from images.demo import attack_events, midgame_view, move_events, skill_events
from images.orbit import render_orbit
from images.ship_dice import render_ship_dice
from images.ship_status import render_ship_status
from images.surface import render_surface

GOLDEN = os.path.join(os.path.dirname(__file__), "golden")
CASES = {
    "board_midgame": lambda: render_board(midgame_view(), move_events()),
    "board_attack": lambda: render_board(midgame_view(), attack_events()[:1]),
    "board_cube": lambda: render_board(midgame_view("cube"), move_events("cube")),
    "dice_attack_rerolls": lambda: render_dice(midgame_view(), attack_events()),
    "dice_skill": lambda: render_dice(midgame_view(), skill_events()),
    "status": lambda: render_status(midgame_view()),
    "renegades_orbit": lambda: render_orbit(renegades.midgame_view(),
                                            renegades.move_events() + renegades.attack_events()[:1]),
    "renegades_dice": lambda: render_ship_dice(renegades.midgame_view(), renegades.attack_events()),
    "renegades_status": lambda: render_ship_status(renegades.midgame_view()),
    "surface_midgame": lambda: render_surface(demo_surface.midgame_view(),
                                              demo_surface.move_events() + demo_surface.attack_events()),
    "crew_dice": lambda: render_crew_dice(demo_surface.midgame_view(),
                                          demo_surface.attack_events() + demo_surface.skill_events()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_picture_matches_golden(name):
    data = CASES[name]()
    path = os.path.join(GOLDEN, f"{name}.png")
    if os.environ.get("UPDATE_GOLDEN"):
        with open(path, "wb") as handle:
            handle.write(data)
    new = Image.open(io.BytesIO(data)).convert("RGB")
    old = Image.open(path).convert("RGB")
    assert new.size == old.size
    diff = ImageChops.difference(new, old).convert("L")
    changed = sum(diff.point(lambda v: 255 if v > 40 else 0).histogram()[255:])
    assert changed / (new.width * new.height) < 0.002, f"{changed} pixels differ from {path}"
    mean = sum(i * n for i, n in enumerate(diff.histogram())) / (new.width * new.height)
    assert mean < 1.0
