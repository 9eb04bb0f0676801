"""Surface conditions from world cards (N160): a card such as *Long Shadows* or *Dust
Storm*, drawn in the world event phase, holds for the whole of the next round, when the
landing parties act again: stealth tests succeed on a lower face, or nobody sees further
than a few squares (shots, figures taking aim and room scans)."""
from __future__ import annotations

from typing import Optional

from engine.renegades.contents.board import distance
from engine.renegades.contents.content import WorldEffect
from engine.renegades.contents.game import Game

STEALTH_TARGET = 5  # a stealth test passes with a 5 or better on one die


def in_force(g: Game) -> Optional[WorldEffect]:
    """The surface condition of this round, or None."""
    code = g.state.weather
    return g.pack.world_events[code].effect if code else None


def stealth_target(g: Game) -> int:
    """The face a stealth or elude test needs this round."""
    effect = in_force(g)
    return effect.stealth if effect and effect.stealth else STEALTH_TARGET


def sees(g: Game, a: str, b: str, through_doorways: bool = False, lobbed: bool = False) -> bool:
    """A line of sight from square `a` to `b`: clear of walls, doorways (unless a giant
    shoots in through them, N161) and higher ground (unless a grenade is lobbed, N193), and
    no longer than the condition's sight limit."""
    effect = in_force(g)
    if effect and effect.sight and distance(a, b) > effect.sight:
        return False
    return g.ground.line_of_sight(a, b, through_doorways, lobbed)
