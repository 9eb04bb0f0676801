"""Free actions of a ship's turn in orbit: one ship ability a round (N62, N63) and the
commander's orbital tactical card (N64)."""
from __future__ import annotations

from typing import Optional

from engine.errors import RuleError
from engine.renegades.contents.content import ABILITY_STATIONS, ShipAbility, Tactical
from engine.renegades.contents.game import Game
from engine.renegades.contents.state import CrewMember, Ship
from engine.renegades.crew.pieces import aboard, skill_test
from engine.renegades.orbit import orbit

MOVES = ("overclock",)  # abilities that end in a move: their legs follow the effect


def half(value: int) -> int:
    """Half a skill, rounded down, at least one (N62)."""
    return max(1, value // 2)


def card_side(g: Game, ship: Ship) -> dict[str, ShipAbility]:
    """Effect -> ability on the side of the ship card face up: the back while the shields
    are down (N121)."""
    spec = g.pack.ships[ship.id]
    side = spec.abilities if ship.shields_up or spec.back is None else spec.back.abilities
    return {a.effect: a for a in side}


def _refusal(g: Game, ship: Ship, effect: str) -> Optional[str]:
    """Why the ship cannot use `effect` now, or None."""
    if ship.cell is None:
        return f"The {ship.name} is docked; ship abilities are for a ship in orbit."
    if ship.critical:
        return f"The {ship.name} is critically damaged: its crew use no ship abilities (N140)."
    if ship.ability_round == g.state.round:
        return f"The {ship.name} has used a ship ability this round (one a round)."
    if effect not in card_side(g, ship):
        side = "" if ship.shields_up else " with its shields down (the back of its card)"
        return f"The {ship.name} has no '{effect}' ability{side}."
    station, _ = ABILITY_STATIONS[effect]
    if g.crew_at(ship, station) is None:
        return f"Nobody is at {station} on the {ship.name} to use it."
    if effect == "overclock" and not g.state.current.attacked:
        return "The drive is redlined after the ship attacked this turn."
    if effect in MOVES and g.crew_at(ship, "navigation") is None:
        return f"Nobody is at navigation on the {ship.name} to fly the move."
    return None


def _targets(g: Game, ship: Ship) -> list[Ship]:
    """Enemies in the ship's line of fire and range (whether or not it has attacked)."""
    if ship.cell is None:
        return []
    return [t for t in sorted(g.state.ships.values(), key=lambda x: x.id)
            if t.cell is not None and orbit.enemies(g, ship, t)
            and g.board.line_of_fire(ship.cell, ship.facing, t.cell, ship.range) is not None]


def use(g: Game, ship: Ship, effect: str, rest: list[str]) -> None:
    """Declare a ship ability: the crewmember at its station makes the test of the card's side
    face up (5+ on the front); passed, the effect."""
    if effect not in ABILITY_STATIONS:
        raise RuleError(f"A ship ability is one of {', '.join(ABILITY_STATIONS)}.")
    if ship.id not in g.pack.ships:
        raise RuleError(f"The {ship.name} has no ship abilities.")
    refusal = _refusal(g, ship, effect)
    if refusal:
        raise RuleError(refusal)
    station, skill = ABILITY_STATIONS[effect]
    officer = g.crew_at(ship, station)
    target, plan = None, None
    if effect == "weakness":
        target = g.state.ships.get(rest[0]) if len(rest) == 1 else None
        if target not in _targets(g, ship):
            raise RuleError(f"Name one enemy ship in the {ship.name}'s line of fire within range {ship.range}.")
    elif effect in MOVES:
        plan = orbit.parse_legs(rest) if rest else []
        if not plan:
            raise RuleError("Name the legs of the move (E2, NE1 ...).")
        orbit.plan_move(g, ship, plan, half(officer.skills["tech"]))
    elif rest:
        raise RuleError(f"The {effect} ability takes no more words.")
    s = g.state
    ship.ability_round = s.round
    ability = card_side(g, ship)[effect]
    faces, passed = skill_test(g, officer.skills[skill], target=ability.test)
    g.emit("ship_ability", ship=ship.id, ability=effect, crew=officer.id, dice=faces, passed=bool(passed),
           test=ability.test)
    if not passed:
        return
    if effect == "command":
        ship.boosts["command"] = [s.round + 1, 1]
    elif effect == "evasive":
        ship.boosts["evasive"] = [s.round, half(officer.skills["piloting"])]
    elif effect == "targeting":
        ship.boosts["targeting"] = [s.round, half(officer.skills["stealth"])]
    elif effect == "weakness":
        g.emit("penetrating_damage", ship=ship.id, target=target.id, amount=1)
        orbit.take_damage(g, target, 1, ship)
    else:
        orbit.move(g, ship, plan, half(officer.skills["tech"]))


# --- the orbital tactical card ---------------------------------------------------------------------
def orbital_card(g: Game, seat: str) -> Optional[Tactical]:
    """The seat's orbital tactical card, if it has one in play."""
    cards = [g.pack.tactical[c] for c in g.state.player(seat).tactical]
    return next((c for c in cards if c.type == "orbital" and c.effect), None)


def commander_aboard(g: Game, ship: Ship) -> Optional[CrewMember]:
    """The commander of the ship's crew, conscious and aboard (not with the landing party)."""
    return next((c for c in aboard(g, ship.id) if "commander" in c.stations and not c.ko and not c.captive
                 and c.room != "brig" and c.faction == ship.faction), None)


def _tactic_refusal(g: Game, ship: Ship, seat: str) -> Optional[str]:
    card = orbital_card(g, seat)
    if card is None:
        return "You hold no orbital tactical card."
    if ship.cell is None:
        return f"The {ship.name} is docked; the orbital card is played in orbit."
    if ship.critical:
        return f"The {ship.name} is critically damaged: no tactical card can be played (N140)."
    commander = commander_aboard(g, ship)
    if commander is None:
        return f"The commander is not aboard the {ship.name}; the orbital card goes with the commander."
    if commander.rounds.get("orbital-tactic") == g.state.round:
        return f"{card.name} has been played this round (once a round)."
    if card.test.station and g.crew_at(ship, card.test.station) is None:
        return f"{card.name} needs somebody at {card.test.station}."
    if card.effect == "burn" and not g.state.current.moved:
        return f"{card.name} follows a move of the ship this turn."
    if card.effect == "burn" and orbit.speed(g, ship) == 0:
        return f"The {ship.name} cannot move: nobody is at navigation."
    return None


def tactic(g: Game, ship: Ship, seat: str, rest: list[str]) -> None:
    """Play the orbital tactical card: the crewmember at its station (else the commander)
    makes its test; passed, the effect (N64)."""
    refusal = _tactic_refusal(g, ship, seat)
    if refusal:
        raise RuleError(refusal)
    card = orbital_card(g, seat)
    plan = orbit.parse_legs(rest) if rest else []
    if card.effect == "burn":
        if not plan:
            raise RuleError("Name the legs of the move (E2, NE1 ...).")
        orbit.plan_move(g, ship, plan, half(orbit.speed(g, ship)))
    elif plan:
        raise RuleError(f"{card.name} takes no legs.")
    commander = commander_aboard(g, ship)
    tester = g.crew_at(ship, card.test.station) if card.test.station else commander
    commander.rounds["orbital-tactic"] = g.state.round
    faces, passed = skill_test(g, tester.skills[card.test.skill])
    g.emit("tactic", crew=tester.id, card=card.code, ship=ship.id, dice=faces, passed=bool(passed))
    if not passed:
        return
    if card.effect == "burn":
        orbit.move(g, ship, plan, half(orbit.speed(g, ship)))
    else:
        ship.boosts[card.effect] = [g.state.round, 1]


def follow_ups(g: Game, ship: Ship) -> list[str]:
    """The moves that may follow the ship's last action: Redline the Drive after an attack,
    Hard Burn after a move (the turn stays open for them, N62, N64)."""
    return [c for c in legal(g, ship) if c.split()[0] == "tactic" and len(c.split()) > 2
            or c.split()[:3] == ["ability", ship.id, "overclock"]]


def legal(g: Game, ship: Ship) -> list[str]:
    """The ability and tactic commands open to the acting ship (moves listed as single legs)."""
    options = []
    if ship.id in g.pack.ships:
        for effect in card_side(g, ship):
            if _refusal(g, ship, effect):
                continue
            if effect == "weakness":
                options += [f"ability {ship.id} weakness {t.id}" for t in _targets(g, ship)]
            elif effect in MOVES:
                tech = g.crew_at(ship, "engineering").skills["tech"]
                options += [f"ability {ship.id} overclock {leg}" for leg in orbit.single_legs(g, ship, half(tech))]
            else:
                options.append(f"ability {ship.id} {effect}")
    if ship.seat is not None and not _tactic_refusal(g, ship, ship.seat):
        if orbital_card(g, ship.seat).effect == "burn":
            options += [f"tactic {ship.id} {leg}" for leg in orbit.single_legs(g, ship, half(orbit.speed(g, ship)))]
        else:
            options.append(f"tactic {ship.id}")
    return options
