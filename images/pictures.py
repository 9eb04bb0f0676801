"""Which renderer draws which picture, per ruleset: one place for every front end.

    pictures.draw("renegades", view, events, ["board", "dice"])  ->  [("board.png", b"..."), ...]

`board` highlights what the events describe, `dice` shows the last roll among `roll`
(the events by default; left out when nothing was rolled), `status` is every side's
crew or away team. All are drawn from a public view only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from images.board import render_board
from images.dice import render_dice
from images.orbit import render_orbit
from images.ship_dice import render_ship_dice
from images.ship_status import render_ship_status
from images.status import render_status

KINDS = ("board", "dice", "status")


@dataclass(frozen=True)
class Renderers:
    """The pictures of one ruleset."""

    board: Callable[[dict, list[dict], bool], bytes]  # view, events, whether to say whose move it is
    dice: Callable[[dict, list[dict]], Optional[bytes]]
    status: Callable[[dict, Optional[str]], bytes]


RENDERERS: dict[str, Renderers] = {
    "awaymissions": Renderers(render_board, render_dice, render_status),
    "renegades": Renderers(lambda view, events, waiting: render_orbit(view, events),  # says no waiting line
                           render_ship_dice, render_ship_status),
}


def draw(ruleset: str, view: dict, events: list[dict], wanted: list[str],
         roll: Optional[list[dict]] = None, waiting: bool = True) -> list[tuple[str, bytes]]:
    """(file name, PNG) of each wanted picture, in the order board, dice, status; with
    `waiting` False the board leaves out whose move it is (the table message says it)."""
    renderers = RENDERERS[ruleset]
    drawn = []
    if "board" in wanted:
        drawn.append(("board.png", renderers.board(view, events, waiting)))
    if "dice" in wanted:
        dice = renderers.dice(view, events if roll is None else roll)
        if dice is not None:
            drawn.append(("dice.png", dice))
    if "status" in wanted:
        drawn.append(("status.png", renderers.status(view, None)))
    return drawn
