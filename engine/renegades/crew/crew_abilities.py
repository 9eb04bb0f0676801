"""What crewmembers' special abilities change on the surface (N100-N103): the bonuses
they add to attacks (strike), how many attacks a round they make (twin), and which of
them a crewmember has. The abilities that are commands (rally, mend, charge) are in
`special_actions.py`."""
from __future__ import annotations

from typing import Optional

from engine.renegades.contents.content import CrewAbility
from engine.renegades.contents.game import Game
from engine.renegades.contents.state import CrewMember
from engine.renegades.crew import hands


def ability(g: Game, piece, effect: str) -> Optional[CrewAbility]:
    """The crewmember's first special ability with `effect` (None for figures and crew without one)."""
    if not isinstance(piece, CrewMember):
        return None
    return next((g.pack.crew_abilities[code] for code in piece.abilities
                 if g.pack.crew_abilities[code].effect == effect), None)


def attack_bonuses(g: Game, attacker, ranged: bool) -> list[tuple[int, int]]:
    """(add, dice) of the attacker's strike abilities that apply to this attack: no action,
    every attack they fit (N101)."""
    if not isinstance(attacker, CrewMember):
        return []
    found = []
    for code in attacker.abilities:
        card = g.pack.crew_abilities[code]
        if card.effect != "strike" or card.attacks == ("melee" if ranged else "ranged"):
            continue
        if card.weapon is None or card.weapon in hands.held(g, attacker):  # in hand (N221)
            found.append((card.add, card.dice))
    return found


def may_attack_again(g: Game, crew: CrewMember) -> bool:
    """Whether the crewmember has an attack left this round: one, two with the twin ability (N103)."""
    round_ = g.state.round
    if crew.rounds.get("attack") != round_:
        return True
    return ability(g, crew, "twin") is not None and crew.rounds.get("second-attack") != round_


def count_attack(g: Game, crew: CrewMember) -> None:
    """Note an attack of the crewmember this round (the second one apart)."""
    if crew.rounds.get("attack") == g.state.round:
        crew.rounds["second-attack"] = g.state.round
    crew.rounds["attack"] = g.state.round
