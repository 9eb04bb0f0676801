"""Aboard ship: healing in the med bay, waking the unconscious, prisoners in the brig and
turning them (N35, N37)."""
from __future__ import annotations

from engine.renegades.contents.game import Game
from engine.renegades.contents.state import CrewMember, Ship
from engine.renegades.crew.pieces import aboard, skill_test
from engine.renegades.orbit.abilities import half


def medics_aboard(g: Game, ship: Ship) -> list[CrewMember]:
    """The conscious crew of the ship's own side whose station is comms and who have
    medical skill (N35); medics of NPC Coalition ships heal nobody."""
    if ship.seat is None:
        return []
    return [c for c in g.state.crew.values() if c.ship == ship.id and c.cell is None and not c.ko and not c.captive
            and "comms" in c.stations and c.skills["medical"] > 0]


def heal_round(g: Game) -> None:
    """End of the round: crew in a med bay with a medic aboard heal two wounds (not in the
    round they were brought in); the unconscious wake at fewer wounds than their health;
    a healed captive goes to the brig as a prisoner. Tier 3: no healing anywhere once the
    ship carrying the mission parameter has left the mission planet (N47)."""
    s = g.state
    if _in_pursuit(g):
        return
    for crew in sorted(s.crew.values(), key=lambda c: c.id):
        ship = s.ships.get(crew.ship or "")
        if crew.room != "medbay" or ship is None or crew.rounds.get("medbay") == s.round:
            continue
        medics = medics_aboard(g, ship)
        if not medics or not crew.wounds:
            continue
        alone = medics == [crew]  # a medic tends itself with half its medical skill (N142)
        amount = min(half(crew.skills["medical"]) if alone else 2, crew.wounds)
        crew.wounds -= amount
        g.emit("healed", crew=crew.id, amount=amount, at="medbay")
        if crew.ko and crew.wounds < crew.health:
            crew.ko = False
            g.emit("revived", crew=crew.id, ship=ship.id)
        if crew.captive and not crew.ko:
            crew.room = "brig"
            g.emit("prisoner", crew=crew.id, ship=ship.id)
        elif not crew.wounds:
            crew.room = None


def _in_pursuit(g: Game) -> bool:
    """Tier 3: the parameter is aboard a ship that has left the mission planet for home."""
    obj = g.state.objective
    if g.state.tier != 3 or obj is None or (obj.ship is None and not obj.run):
        return False
    if obj.run:
        return True
    return g.state.ships[obj.ship].docked != g.board.mission_planet.code


def turn_prisoners(g: Game) -> None:
    """End of the orbital phase: every prisoner in a brig is tested (N37): the captor's
    highest-initiative conscious crewmember aboard against the prisoner, leadership
    successes compared; more for the captor turns the prisoner (+5 on one die against a
    prisoner who once served the captor's side)."""
    s = g.state
    for prisoner in sorted(s.crew.values(), key=lambda c: c.id):
        if prisoner.room != "brig":
            continue
        ship = s.ships[prisoner.ship]
        crew = [c for c in aboard(g, ship.id) if not c.ko and not c.captive]
        if not crew:
            continue
        leader = max(crew, key=lambda c: (c.initiative, c.id))
        plus = 5 if prisoner.turned_from == ship.faction else 0
        ours_dice, ours = skill_test(g, leader.skills["leadership"], plus)
        theirs_dice, theirs = skill_test(g, prisoner.skills["leadership"])
        turned = ours > theirs
        g.emit("turn_attempt", prisoner=prisoner.id, ship=ship.id, leader=leader.id, dice=ours_dice,
               prisoner_dice=theirs_dice, turned=turned)
        if turned:
            prisoner.turned_from, prisoner.faction = prisoner.faction, ship.faction
            prisoner.captive, prisoner.room = False, None
