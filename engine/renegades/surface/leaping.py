"""Leaping down into sunken ground without its steps (N107): an action that moves the
crewmember one square down and costs it a hard landing, an attack of three dice."""
from __future__ import annotations

from engine.errors import RuleError
from engine.renegades.contents.game import Game
from engine.renegades.contents.state import CrewMember
from engine.renegades.crew.pieces import standing
from engine.renegades.surface import crew_combat, landing

LANDING_DICE = 3  # the attack a leap into sunken ground defends against


def open_leaps(g: Game, crew: CrewMember) -> list[str]:
    """Sunken squares beside the crewmember, lower than its own, that nobody stands on."""
    ground = g.ground
    here = ground.level.get(crew.cell, 0)
    taken = {p.cell for p in standing(g)}
    return [c for c in ground.around(crew.cell)
            if c in ground.sunken and ground.level[c] < here and c not in taken and c not in g.state.containers
            and c not in g.state.fires]


def leap(g: Game, crew: CrewMember, to: str) -> bool:
    """Leap into the sunken square `to` beside the crewmember. A failed elude before it keeps
    the action (False), as for a move."""
    if crew.rounds.get("pinned") == g.state.round:
        raise RuleError(f"{crew.name} failed to elude this round and may not move.")
    if to not in open_leaps(g, crew):
        raise RuleError(f"{crew.name} leaps only into a free square of sunken ground beside it, from higher ground.")
    if not landing.slip_away(g, crew):
        return False
    start = crew.cell
    landing.place(g, crew, to)
    crew.hidden = False
    g.emit("leapt", crew=crew.id, cell=to)
    g.emit("crew_moved", crew=crew.id, path=[start, to], cost=1)
    crew_combat.hazard(g, crew, LANDING_DICE, "leap_attack")
    return True
