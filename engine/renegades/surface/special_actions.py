"""The special abilities that are actions of a crewmember on the surface (N52, N100-N102):
rally, mend (a tested ability) and charge (a move and an attack as one action)."""
from __future__ import annotations

from typing import Optional

from engine.errors import RuleError
from engine.renegades.contents.board import distance
from engine.renegades.contents.content import CrewAbility
from engine.renegades.contents.game import Game
from engine.renegades.contents.ground import near
from engine.renegades.contents.state import CrewMember
from engine.renegades.crew.crew_abilities import ability
from engine.renegades.crew.pieces import Piece, piece, skill_test, standing
from engine.renegades.surface import crew_combat, landing


def _ready(g: Game, crew: CrewMember, effect: str) -> CrewAbility:
    """The crewmember's ability with `effect`, if it may use it now."""
    card = ability(g, crew, effect)
    if card is None:
        raise RuleError(f"{crew.name} has no {effect} ability.")
    if crew.rounds.get(card.code) == g.state.round:
        raise RuleError(f"{crew.name} has used {card.name} this round.")
    return card


def rallied_last(g: Game, crew: CrewMember) -> bool:
    """Whether the crewmember is down to the action a rally gave it, which cannot attack (N52)."""
    return crew.rounds.get("rallied") == g.state.round and g.state.current.crew[crew.id] <= 1


def rally(g: Game, crew: CrewMember, other_code: str) -> None:
    """A crewmember of the party beside it gets one more action this turn, not for an attack (N52)."""
    s = g.state
    card = _ready(g, crew, "rally")
    other = s.crew.get(other_code)
    if other is None or other is crew or other.id not in s.current.crew or other.cell is None or other.ko \
            or distance(other.cell, crew.cell) != 1:
        raise RuleError(f"{other_code} is not conscious crew of this landing party beside {crew.name}.")
    if card.once:
        crew.rounds[card.code] = s.round
    s.current.crew[other.id] += 1
    other.rounds["rallied"] = s.round
    g.emit("rallied", crew=crew.id, other=other.id)


def patient(g: Game, crew: CrewMember, code: str) -> Optional[CrewMember]:
    """The crewmember `code` if the crewmember may tend it: itself or a conscious friend on or
    beside it, with wounds."""
    other = g.state.crew.get(code)
    if other is None or other.cell is None or other.ko or other.faction != crew.faction \
            or not near(other.cell, crew.cell) or not other.wounds:
        return None
    return other


def mend(g: Game, crew: CrewMember, other_code: str) -> bool:
    """A tested ability (N100, N102): the crewmember's test; passed, it or a conscious
    crewmember of its side beside it loses wounds. A failed test keeps the action (False)."""
    s = g.state
    card = _ready(g, crew, "mend")
    other = patient(g, crew, other_code)
    if other is None:
        raise RuleError(f"{other_code} is not a wounded, conscious crewmember of {crew.name}'s side on or beside it.")
    crew.rounds[card.code] = s.round
    faces, passed = skill_test(g, crew.skills[card.test.skill])
    g.emit("crew_ability", crew=crew.id, ability=card.code, target=other.id, dice=faces, passed=bool(passed))
    if not passed:
        return False
    healed = min(card.add, other.wounds)
    other.wounds -= healed
    g.emit("healed", crew=other.id, amount=healed)
    return True


def _refusal_from(g: Game, crew: CrewMember, cell: str, target: Piece) -> Optional[str]:
    """Why the crewmember could not attack `target` if it stood on `cell`."""
    here = crew.cell
    crew.cell = cell
    try:
        return crew_combat.attack_refusal(g, crew, target)
    finally:
        crew.cell = here


def charge(g: Game, crew: CrewMember, to: str, target_code: str) -> bool:
    """A move and an attack as one action (N102): the attack must be possible from `to`.
    Stopped before it moved (a failed elude), the action is kept (False); stopped on the
    way, it attacks if it can from where it stands."""
    card = _ready(g, crew, "charge")
    target = piece(g, target_code)
    if target is None:
        raise RuleError(f"No crewmember or figure '{target_code}' on the surface.")
    if rallied_last(g, crew):
        raise RuleError(f"{crew.name}'s last action came from a rally and cannot be an attack.")
    landing.check_move(g, crew, to)
    refusal = _refusal_from(g, crew, to, target)
    if refusal:
        raise RuleError(f"From {to}: {refusal}")
    if card.once:
        crew.rounds[card.code] = g.state.round
    g.emit("charge", crew=crew.id, to=to, target=target.id)
    if not landing.move(g, crew, to):
        return False
    if crew_combat.attack_refusal(g, crew, target) is None:
        crew_combat.strike(g, crew, target)
    else:
        g.emit("charge_stopped", crew=crew.id, cell=crew.cell, target=target.id)
    return True


def legal(g: Game, crew: CrewMember) -> list[str]:
    """The special ability actions the crewmember may take now (it has an action left)."""
    s = g.state
    options = []
    party = [s.crew[o] for o in sorted(s.current.crew) if o != crew.id]
    for code in crew.abilities:
        card = g.pack.crew_abilities[code]
        if crew.rounds.get(code) == s.round:
            continue
        if card.effect == "rally":
            options += [f"rally {crew.id} {o.id}" for o in party
                        if o.cell and not o.ko and distance(o.cell, crew.cell) == 1]
        elif card.effect == "mend":
            options += [f"mend {crew.id} {o.id}" for o in sorted(s.crew.values(), key=lambda o: o.id)
                        if patient(g, crew, o.id)]
        elif card.effect == "charge" and crew.rounds.get("pinned") != s.round and not rallied_last(g, crew):
            targets = sorted((t for t in standing(g) if crew_combat.target_refusal(g, crew, t) is None),
                             key=lambda p: p.id)
            options += [f"charge {crew.id} {cell} {t.id}" for cell in (sorted(landing.reach(g, crew)) if targets else ())
                        for t in targets if _refusal_from(g, crew, cell, t) is None]
    return options
