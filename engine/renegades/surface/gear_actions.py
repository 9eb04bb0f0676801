"""Using gear on the surface (N182, N183): `use CREW ITEM [OTHER]`, an action that spends a
token of the copy used. The blink beacon brings its carrier, and whoever it carries, back
aboard its own ship wherever that ship is; the field med kit takes wounds off the carrier
or a conscious friend beside it."""
from __future__ import annotations

from typing import Optional

from engine.errors import RuleError
from engine.renegades.contents.content import Gear
from engine.renegades.contents.game import Game
from engine.renegades.contents.state import CrewMember
from engine.renegades.surface import gear, landing
from engine.renegades.surface.special_actions import patient


def use(g: Game, crew: CrewMember, code: str, rest: list[str]) -> None:
    """Use a gear item the crewmember carries (an action)."""
    if code not in crew.gear:
        raise RuleError(f"{crew.name} carries no '{code}'.")
    card = gear.item(g.pack, code)
    if card is None or not card.used:
        what = card.name if card else code
        raise RuleError(f"{what} is not used by command" + (": it works while carried." if card else "."))
    if not gear.charged(g.state, crew.id, code):
        raise RuleError(f"{crew.name}'s {card.name} is spent: no energy token left on it.")
    if card.effect.kind == "blink":
        if rest:
            raise RuleError(f"Usage: use CREW {code} (the beacon takes its carrier, nobody else).")
        blink(g, crew, card)
    else:
        mend(g, crew, card, rest[0] if rest else crew.id)


def blink_refusal(g: Game, crew: CrewMember) -> Optional[str]:
    """Why the crewmember may not blink home now (N182), or None."""
    obj = g.state.objective
    if obj is not None and obj.holder == crew.id:
        return f"A blink beacon will not lift {obj.name}: {crew.name} must carry it aboard on foot."
    return landing.crowded(g, crew, g.state.ships[crew.ship])


def blink(g: Game, crew: CrewMember, card: Gear) -> None:
    """N182: the carrier, with what and whom it carries, goes back aboard its own ship."""
    refusal = blink_refusal(g, crew)
    if refusal:
        raise RuleError(refusal)
    ship = g.state.ships[crew.ship]
    left = gear.spend(g.state, crew.id, card.code)
    landing.come_aboard(g, crew, ship, "blinked", cell=crew.cell, item=card.code, left=left,
                        orbit=ship.id not in g.state.docks)


def mend(g: Game, crew: CrewMember, card: Gear, target: str) -> None:
    """N183: the carrier or a conscious friend on or beside it loses the kit's wounds."""
    other = patient(g, crew, target)
    if other is None:
        raise RuleError(f"{target} is not a wounded, conscious crewmember of {crew.name}'s side on or beside it.")
    left = gear.spend(g.state, crew.id, card.code)
    healed = min(card.effect.heal, other.wounds)
    other.wounds -= healed
    g.emit("gear_mend", crew=crew.id, target=other.id, item=card.code, amount=healed, left=left)


def legal(g: Game, crew: CrewMember) -> list[str]:
    """The gear uses open to the crewmember now (it has an action left)."""
    options = []
    for code in sorted(set(crew.gear)):
        card = gear.item(g.pack, code)
        if card is None or not card.used or not gear.charged(g.state, crew.id, code):
            continue
        if card.effect.kind == "blink":
            options += [f"use {crew.id} {code}"] if blink_refusal(g, crew) is None else []
        else:
            options += [f"use {crew.id} {code} {o}" for o in sorted(g.state.crew) if patient(g, crew, o)]
    return options
