"""Boarding an opposing ship docked on the surface and the battle on its card (N114-N116).

A crewmember beside the dock of an opposing ship docked for more than one round may board
it (an action). On the ship's card everyone is in base contact: its crew aboard and the
boarders fight there with melee or ranged weapons. A boarder knocked out there is the
ship's captive; once nobody of the ship's crew aboard is conscious, the boarders hold it,
and if no other ship of its faction is in play they may fly it off, which ends the game.
"""
from __future__ import annotations

from engine.errors import RuleError
from engine.renegades import missions
from engine.renegades.board import distance
from engine.renegades.crew_combat import attack_refusal
from engine.renegades.orbit import Game, docked_long
from engine.renegades.landing import beside_dock
from engine.renegades.pieces import card_of
from engine.renegades.special_actions import rallied_last
from engine.renegades.state import CrewMember, Figure, Ship


def defenders(g: Game, ship: Ship) -> list[CrewMember]:
    """The ship's own conscious crew aboard."""
    return [c for c in g.state.crew.values() if card_of(g, c) == ship.id and not c.boarded]


def boarders(g: Game, ship: Ship) -> list[CrewMember]:
    """The opponents fighting on the ship's card, conscious."""
    return sorted((c for c in g.state.crew.values() if c.boarded == ship.id and not c.ko), key=lambda c: c.id)


def figures_aboard(g: Game, ship: Ship) -> list[Figure]:
    """The villains and creatures fighting on the ship's card (N163)."""
    return sorted((f for f in g.state.figures.values() if f.boarded == ship.id), key=lambda f: f.id)


def targets(g: Game, ship: Ship) -> list[Ship]:
    """The opposing ships `ship`'s crew may board: docked on the surface for more than one round."""
    s = g.state
    return [s.ships[code] for code in sorted(s.docks) if s.ships[code].faction != ship.faction
            and docked_long(g, s.ships[code])]


def board(g: Game, crew: CrewMember, code: str) -> None:
    """Board the opposing ship `code` from its dock or a square beside it (N114)."""
    s = g.state
    ship = s.ships.get(code)
    if ship is None or ship.faction == crew.faction or ship.id not in s.docks:
        raise RuleError(f"No opposing ship '{code}' is docked on the surface.")
    if not docked_long(g, ship):
        raise RuleError(f"The {ship.name} has not been docked for more than one round; it cannot be boarded yet.")
    if distance(crew.cell, s.docks[ship.id]) > 1:
        raise RuleError(f"{crew.name} must stand beside the dock at {s.docks[ship.id]} to board.")
    if crew.carrying:
        raise RuleError(f"{crew.name} cannot board an opposing ship while carrying somebody.")
    crew.cell, crew.hidden, crew.boarded = None, False, ship.id
    g.emit("boarded_enemy", crew=crew.id, ship=ship.id)


def leave(g: Game, crew: CrewMember) -> None:
    """A boarder steps off the opposing ship beside its dock."""
    cell = beside_dock(g, g.state.ships[crew.boarded])
    if cell is None:
        raise RuleError("No free square beside the dock.")
    ship, crew.boarded, crew.cell = crew.boarded, None, cell
    g.emit("left_ship", crew=crew.id, ship=ship, cell=cell)


def seized(g: Game, ship: Ship) -> bool:
    """Held by boarders: some aboard, none of its own crew conscious there, no figure fighting there."""
    return bool(boarders(g, ship)) and not defenders(g, ship) and not figures_aboard(g, ship)


def legal(g: Game, crew: CrewMember, left: int) -> list[str]:
    """A crewmember's commands on a ship's card: attacks (with an action left), a boarder's
    stepping off and flying a seized ship off."""
    card = card_of(g, crew)
    if card is None:
        return []
    options = []
    if left and not rallied_last(g, crew):
        others = [*sorted(g.state.crew.values(), key=lambda c: c.id), *figures_aboard(g, g.state.ships[card])]
        options += [f"attack {crew.id} {other.id}" for other in others
                    if card_of(g, other) == card and attack_refusal(g, crew, other) is None]
    if crew.boarded and left:
        options.append(f"disembark {crew.id}")
    ship = g.state.ships[card]
    if crew.boarded and seized(g, ship) and not _others(g, ship):
        options.append(f"ascend {ship.id}")
    return options


def _others(g: Game, ship: Ship) -> list[Ship]:
    """The other ships of the ship's faction in play."""
    return [x for x in g.state.ships.values() if x.kind == "ship" and x.faction == ship.faction and x is not ship]


def fly_off(g: Game, crew: CrewMember, ship: Ship) -> None:
    """The boarders fly the seized ship off (N116): only when no other ship of its faction
    is in play, and then the game ends, won by the boarders' side."""
    if crew.boarded != ship.id or not seized(g, ship):
        raise RuleError(f"The {ship.name} is not held by {crew.name}'s boarding party.")
    if _others(g, ship):
        raise RuleError(f"The {ship.name} can be flown off only when no other {ship.faction} ship is in play.")
    g.emit("ship_seized", ship=ship.id, by=crew.faction)
    missions.finish(g, "won", crew.faction, {}, f"the {ship.name} was seized and flown off")
