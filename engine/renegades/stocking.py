"""Stocking a surface board: its containers filled from the shuffled search items (hidden)
and its guards posted, at set-up for the mission planet and when tier 3's run opens a home
surface (N147)."""
from __future__ import annotations

from typing import Optional

from engine.renegades import figures
from engine.renegades.orbit import Game
from engine.renegades.pieces import PARAMETER


def stock(g: Game, guards: list, parameter: Optional[str] = None) -> None:
    """Fill the containers of the surface in play from the search item deck shuffled afresh,
    less the cards a crewmember carries (the one on `parameter` holds the mission parameter;
    when the cards run out the last squares get no container), and post `guards`."""
    s = g.state
    carried = {code for crew in s.crew.values() for code in crew.gear}
    items = [code for code in g.pack.search_items if code not in carried]
    s.dice.shuffle(items)
    for cell in g.ground.spec.containers:
        if cell == parameter:
            s.containers[cell] = PARAMETER
        elif items:
            s.containers[cell] = items.pop(0)
    for guard in guards:
        figures.place(g, guard.villain, guard.cell, guard=True)
