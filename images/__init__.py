"""Pictures of the table: pure renderers from a public view and events to PNG bytes.

render_board(view, events)  the mission area, tokens and the last action highlighted
render_dice(view, events)   the dice board of the last roll in the events (or None)
render_status(view, seat)   every away team's ratings as peg rows, tokens and gear

Renegades: images.orbit.render_orbit, images.ship_dice.render_ship_dice and
images.ship_status.render_ship_status; images.pictures.draw picks a ruleset's renderers.
"""
from images.board import render_board
from images.dice import render_dice
from images.status import render_status

__all__ = ["render_board", "render_dice", "render_status"]
