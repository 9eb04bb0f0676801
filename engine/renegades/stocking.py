"""Stocking a surface board: its containers filled from the shuffled search items (hidden)
and its guards posted, at set-up for the mission planet and when tier 3's run opens a home
surface (N147)."""
from __future__ import annotations

from typing import Optional

from engine.renegades import figures
from engine.renegades.orbit import Game
from engine.renegades.pieces import PARAMETER


def stock(g: Game, guards: list, parameter: Optional[str] = None) -> None:
    """Fill every container of the surface in play from the whole shuffled search item deck
    (the one on `parameter` holds the mission parameter) and post `guards` on their squares."""
    s = g.state
    items = list(g.pack.search_items)
    s.dice.shuffle(items)
    for cell in g.ground.spec.containers:
        s.containers[cell] = PARAMETER if cell == parameter else items.pop(0)
    for guard in guards:
        figures.place(g, guard.villain, guard.cell, guard=True)
