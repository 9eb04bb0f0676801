"""Stocking a surface board: figures placed on it, its containers filled from the shuffled
search items (hidden) and its guards posted, at set-up for the mission planet and when tier 3's run opens a home
surface (N147)."""
from __future__ import annotations

from typing import Optional

from engine.renegades.contents.game import Game
from engine.renegades.contents.state import Figure
from engine.renegades.crew.pieces import PARAMETER


def place(g: Game, code: str, cell: str, guard: bool = False, escort_of: Optional[str] = None) -> Figure:
    """Stand a figure of the villain card `code` on `cell` (numbered when the card's pool holds
    more than one): a guard, another figure's escort, or one arriving with an enemies card."""
    s = g.state
    card = g.pack.villains[code]
    s.figures_made += 1
    ident = code if card.pool == 1 else f"{code}{s.figures_made}"
    figure = Figure(id=ident, code=code, name=card.name, species=card.species, rank=card.rank, cell=cell,
                    health=card.health, speed=card.speed, attack=card.attack, range=card.range,
                    search=card.search, defense=[card.defense.add, card.defense.dice] if card.defense else [],
                    guard=guard, escort_of=escort_of)
    s.figures[ident] = figure
    return figure


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
        place(g, guard.villain, guard.cell, guard=True)
