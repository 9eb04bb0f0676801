"""Grenades (N192, N193): a crewmember throws one at a square within its range, half that
when the square lies on another level than the thrower, lobbed over the ledges that stop
shots between levels; the blast attacks everyone on that square and around it, and the
grenade is spent."""
from __future__ import annotations

from typing import Optional

from engine.errors import RuleError
from engine.renegades.contents.board import distance
from engine.renegades.contents.game import Game
from engine.renegades.contents.state import CrewMember
from engine.renegades.crew.crew_abilities import count_attack, may_attack_again
from engine.renegades.crew.pieces import opposed, standing, weapons
from engine.renegades.surface import crew_combat, weather
from engine.renegades.surface.special_actions import rallied_last


def grenade_of(g: Game, crew: CrewMember):
    """The first grenade the crewmember carries, or None."""
    return next(iter(weapons(g, crew, "thrown")), None)


def reach(g: Game, crew: CrewMember, grenade, cell: str) -> int:
    """How far the grenade flies to `cell`: its range, halved (rounded down, at least one)
    when the square and the thrower stand on different levels (N193)."""
    level = g.ground.level
    if level.get(crew.cell, 0) == level.get(cell, 0):
        return grenade.range
    return max(1, grenade.range // 2)


def refusal(g: Game, crew: CrewMember, cell: str) -> Optional[str]:
    """Why the crewmember cannot throw a grenade at `cell` now, or None."""
    grenade = grenade_of(g, crew)
    if grenade is None:
        return f"{crew.name} carries no grenade."
    if not may_attack_again(g, crew):
        return f"{crew.name} has already attacked this round (a throw is its attack)."
    if rallied_last(g, crew):
        return f"{crew.name}'s last action came from a rally and cannot be a throw."
    if not g.ground.is_cell(cell) or cell in g.ground.blocking:
        return f"'{cell}' is no open square of the surface to throw at."
    gap, most = distance(crew.cell, cell), reach(g, crew, grenade, cell)
    if not 1 <= gap <= most:
        levels = " (half its range: another level)" if most != grenade.range else ""
        return f"{cell} is out of reach: a {grenade.name} flies 1 to {most} squares{levels}."
    if not weather.sees(g, crew.cell, cell, lobbed=True):
        return f"{crew.name} has no clear line to {cell}: walls and doorways stop a throw."
    return None


def throw(g: Game, crew: CrewMember, cell: str) -> None:
    """The throw (an action and the crewmember's attack of the round): one attack of the
    grenade's dice on every crewmember and figure within its blast, friend or foe, each
    defending on its own, hurt by the thrower (N192)."""
    problem = refusal(g, crew, cell)
    if problem:
        raise RuleError(problem)
    grenade = grenade_of(g, crew)
    crew.gear.remove(grenade.code)
    count_attack(g, crew)
    crew.hidden = False
    victims = sorted((p for p in standing(g) if distance(p.cell, cell) <= grenade.blast), key=lambda p: p.id)
    g.emit("grenade", crew=crew.id, grenade=grenade.code, cell=cell, reach=reach(g, crew, grenade, cell),
           victims=[p.id for p in victims])
    for victim in victims:
        crew_combat.hazard(g, victim, grenade.attack, "blast_attack", by=crew.id)


def legal(g: Game, crew: CrewMember) -> list[str]:
    """Throws at the squares of opponents in sight (any open square in reach is legal too)."""
    if grenade_of(g, crew) is None:
        return []
    cells = sorted({p.cell for p in standing(g) if opposed(crew, p) and not getattr(p, "hidden", False)})
    return [f"throw {crew.id} {cell}" for cell in cells if refusal(g, crew, cell) is None]
