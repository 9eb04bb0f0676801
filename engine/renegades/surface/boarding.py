"""Boarding an opposing ship docked on the surface and the battle on its card (N114-N116).

A crewmember beside the dock of an opposing ship docked for more than one round may board
it (an action). On the ship's card everyone is in base contact: its crew aboard and the
boarders fight there with melee or ranged weapons. A boarder knocked out there is the
ship's captive; once nobody of the ship's crew aboard is conscious, the boarders hold it:
they free the prisoners of their side in its brig (N191), and if no other ship of its
faction is in play they may fly it off, which ends the game.
"""
from __future__ import annotations

from typing import Optional

from engine.errors import RuleError
from engine.renegades.contents.game import Game
from engine.renegades.contents.state import CrewMember, Figure, Ship
from engine.renegades.crew.pieces import PARTY, card_of, too_far_to_board
from engine.renegades.orbit.orbit import docked_long
from engine.renegades.surface import missions
from engine.renegades.surface.crew_combat import attack_refusal
from engine.renegades.surface.landing import beside_dock
from engine.renegades.surface.special_actions import rallied_last


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


def board_refusal(g: Game, crew: CrewMember, code: str) -> Optional[str]:
    """Why the crewmember cannot board the opposing ship `code` now (N114), or None."""
    s = g.state
    ship = s.ships.get(code)
    if ship is None or ship.faction == crew.faction or ship.id not in s.docks:
        return f"No opposing ship '{code}' is docked on the surface."
    if not docked_long(g, ship):
        return f"The {ship.name} has not been docked for more than one round; it cannot be boarded yet."
    far = too_far_to_board(g, crew, ship)
    if far:
        return far
    if crew.carrying:
        return f"{crew.name} cannot board an opposing ship while carrying somebody."
    return None


def board(g: Game, crew: CrewMember, code: str) -> None:
    """Board the opposing ship `code` from its dock or a square beside it (N114)."""
    refusal = board_refusal(g, crew, code)
    if refusal:
        raise RuleError(refusal)
    ship = g.state.ships[code]
    crew.cell, crew.hidden, crew.boarded = None, False, ship.id
    g.emit("boarded_enemy", crew=crew.id, ship=ship.id)


def leave_refusal(g: Game, crew: CrewMember) -> Optional[str]:
    """Why a boarder cannot step off now: three of its ship's crew already stand on the
    surface (freed prisoners wait on the card, N191)."""
    if len([c for c in g.state.crew.values() if c.ship == crew.ship and c.cell and not c.captive]) >= PARTY:
        return f"Three of the {crew.ship}'s crew already stand on the surface; {crew.name} stays on the card."
    return None


def leave(g: Game, crew: CrewMember) -> None:
    """A boarder steps off the opposing ship beside its dock."""
    refusal = leave_refusal(g, crew)
    if refusal:
        raise RuleError(refusal)
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
    if crew.boarded and left and leave_refusal(g, crew) is None:
        options.append(f"disembark {crew.id}")
    if crew.boarded and left and free_refusal(g, crew) is None:
        options.append(f"free {crew.id}")
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


def prisoners(g: Game, crew: CrewMember) -> list[CrewMember]:
    """The prisoners of the boarder's side in the brig of the ship it boarded (N191)."""
    return sorted((c for c in g.state.crew.values() if c.captive and c.room == "brig" and c.ship == crew.boarded
                   and c.faction == crew.faction), key=lambda c: c.id)


def free_refusal(g: Game, crew: CrewMember) -> Optional[str]:
    """Why the crewmember cannot free prisoners now, or None (N191)."""
    ship = g.state.ships.get(crew.boarded or "")
    if ship is None:
        return f"{crew.name} frees prisoners only from an opposing ship it has boarded."
    if not seized(g, ship):
        return f"The {ship.name}'s crew or figures still fight aboard; its brig is not {crew.name}'s to open yet."
    if not prisoners(g, crew):
        return (f"No {crew.faction} prisoner is in the {ship.name}'s brig "
                "(captives still unconscious in its med bay go to the brig once they wake).")
    return None


def free(g: Game, crew: CrewMember) -> None:
    """N191: a boarder of a held ship opens its brig: the prisoners of its side join its
    ship's crew, fighting on the card beside it, and act from their party's next turn."""
    refusal = free_refusal(g, crew)
    if refusal:
        raise RuleError(refusal)
    freed = prisoners(g, crew)
    for prisoner in freed:
        prisoner.captive, prisoner.room, prisoner.ship, prisoner.boarded = False, None, crew.ship, crew.boarded
    g.emit("prisoners_freed", crew=crew.id, ship=crew.boarded, freed=[c.id for c in freed])


def hold(g: Game, crew: CrewMember) -> bool:
    """An NPC boarder with nobody left to fight on the card holds the ship (N190): it frees
    the prisoners of its side (an action, N191), and flies a seized ship off when it may
    (N116). False: its turn is over."""
    ship = g.state.ships[crew.boarded]
    if free_refusal(g, crew) is None:
        free(g, crew)
        return True
    if seized(g, ship) and not _others(g, ship):
        fly_off(g, crew, ship)
    return False
