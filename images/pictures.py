"""Which renderer draws which picture, per ruleset: one place for every front end.

    pictures.draw("renegades", view, events, ["board", "dice"])  ->  [("board.png", b"..."), ...]

`board` highlights what the events describe, `dice` shows the last roll among `roll`
(the events by default; left out when nothing was rolled), `status` is every side's
crew or away team. A Renegades board adds the planet surface ("surface.png") while
anyone is on it, and its dice ("crew-dice.png") beside the ship dice. All are drawn
from a public view only. `keys` fingerprints the board pictures, so a table can leave
`unchanged` the ones it already shows: neither drawn nor uploaded again.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Collection, Optional

from PIL import Image

from images.board import board_image, board_key
from images.crew_dice import crew_dice_image, crew_dice_key
from images.dice import dice_image, dice_key
from images.orbit import orbit_image, orbit_key
from images.ship_dice import ship_dice_image, ship_dice_key
from images.ship_status import ship_status_image
from images.status import status_image
from images.style import encode
from images.surface import surface_image_in_play, surface_key

KINDS = ("board", "dice", "status")
BOARD_FILES = ("board.png", "surface.png")  # the pictures "board" asks for, fingerprinted by `keys`
DICE_FILES = ("dice.png", "crew-dice.png")  # the pictures "dice" asks for, fingerprinted by `dice_keys`


@dataclass(frozen=True)
class Renderers:
    """The pictures of one ruleset, drawn as Pillow images (`draw` encodes them)."""

    board: Callable[[dict, list[dict], bool], Image.Image]  # view, events, whether to say whose move it is
    dice: Callable[[dict, list[dict], bool], Optional[Image.Image]]  # likewise
    status: Callable[[dict, Optional[str]], Image.Image]
    board_key: Callable[[dict, list[dict]], str]  # what the board draws without the waiting line
    dice_key: Callable[[dict, list[dict]], Optional[str]]  # what the dice board draws without it; None: not drawn
    planet: Callable[[dict, list[dict]], Optional[Image.Image]] = lambda view, events: None  # a second board in play
    planet_dice: Callable[[dict, list[dict]], Optional[Image.Image]] = lambda view, events: None  # its dice, if rolled
    planet_key: Callable[[dict, list[dict]], Optional[str]] = lambda view, events: None  # None: not drawn
    planet_dice_key: Callable[[dict, list[dict]], Optional[str]] = lambda view, events: None


RENDERERS: dict[str, Renderers] = {
    "awaymissions": Renderers(board_image, dice_image, status_image, lambda view, events: board_key(view), dice_key),
    "renegades": Renderers(lambda view, events, waiting: orbit_image(view, list(events)),  # say no waiting line
                           lambda view, events, waiting: ship_dice_image(view, events), ship_status_image,
                           orbit_key, ship_dice_key, surface_image_in_play, crew_dice_image, surface_key,
                           crew_dice_key),
}


def keys(ruleset: str, view: dict, events: list[dict]) -> dict[str, str]:
    """File name -> fingerprint of each board picture `draw` would make now (with `waiting`
    False): equal fingerprints, the same picture (the Away Missions board's leaves out the
    marks of the last action, ruling P7)."""
    renderers = RENDERERS[ruleset]
    found = {"board.png": renderers.board_key(view, events)}
    planet = renderers.planet_key(view, events)
    if planet is not None:
        found["surface.png"] = planet
    return found


def dice_keys(ruleset: str, view: dict, roll: list[dict]) -> dict[str, str]:
    """File name -> fingerprint of each dice board `draw` would make now from the events
    `roll` (with `waiting` False): equal fingerprints, the same picture."""
    renderers = RENDERERS[ruleset]
    found = {"dice.png": renderers.dice_key(view, roll), "crew-dice.png": renderers.planet_dice_key(view, roll)}
    return {name: key for name, key in found.items() if key is not None}


def draw(ruleset: str, view: dict, events: list[dict], wanted: list[str],
         roll: Optional[list[dict]] = None, waiting: bool = True,
         unchanged: Collection[str] = ()) -> list[tuple[str, bytes]]:
    """(file name, PNG) of each wanted picture, in the order board, dice, status, but for
    the files `unchanged` (already shown); with `waiting` False the board and the dice
    board leave out whose move it is (the table message says it)."""
    renderers = RENDERERS[ruleset]
    drawn = []
    if "board" in wanted:
        if "board.png" not in unchanged:
            drawn.append(("board.png", renderers.board(view, events, waiting)))
        planet = renderers.planet(view, events) if "surface.png" not in unchanged else None
        if planet is not None:
            drawn.append(("surface.png", planet))
    if "dice" in wanted:
        rolled = events if roll is None else roll
        made = {"dice.png": lambda: renderers.dice(view, rolled, waiting),
                "crew-dice.png": lambda: renderers.planet_dice(view, rolled)}
        for name, make in made.items():
            dice = None if name in unchanged else make()
            if dice is not None:
                drawn.append((name, dice))
    if "status" in wanted:
        drawn.append(("status.png", renderers.status(view, None)))
    # every picture drawn before any is encoded: the encoder's buffers would push the
    # drawing's code and stamps out of the processor's caches in between (docs/performance.md)
    return [(name, encode(image)) for name, image in drawn]
