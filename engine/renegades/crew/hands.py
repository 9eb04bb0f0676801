"""Weapons in hand (N221): a crewmember has two hands; a rifle takes both, a pistol or a
melee weapon one. It attacks only with what it holds, takes a new weapon in hand when a
hand is free, and swaps (`wield`) once, as a free action before its first action of the turn."""
from __future__ import annotations

import itertools
from collections import Counter

from engine.errors import RuleError
from engine.renegades.contents.game import Game
from engine.renegades.contents.state import CrewMember

HANDS = 2
HELD = ("ranged", "melee")  # weapon types held in hand (grenades are thrown from the belt)


def hands_for(g: Game, code: str) -> int:
    return 2 if g.pack.weapons[code].kind == "rifle" else 1


def _holdable(g: Game, crew: CrewMember) -> list[str]:
    return [w for w in crew.gear if w in g.pack.weapons and g.pack.weapons[w].type in HELD]


def held(g: Game, crew: CrewMember) -> list[str]:
    """The weapons in the crewmember's hands; one whose hands were never set (a scenario's,
    or a game stored before N221) holds whatever suits each attack: everything it carries."""
    if crew.wielding is None:
        return _holdable(g, crew)
    return list((Counter(crew.wielding) & Counter(crew.gear)).elements())


def in_hand(g: Game, crew: CrewMember, kind: str) -> list:
    """The crewmember's weapons of `kind` (ranged or melee) in hand."""
    return [g.pack.weapons[w] for w in held(g, crew) if g.pack.weapons[w].type == kind]


def ready(g: Game, crew: CrewMember) -> None:
    """Set the crewmember's hands the first time it arms at the hatch: what it carries,
    ranged weapons first, while hands are free."""
    if crew.wielding is None:
        crew.wielding = []
        for code in sorted(_holdable(g, crew), key=lambda w: g.pack.weapons[w].type != "ranged"):
            grip(g, crew, code)


def grip(g: Game, crew: CrewMember, code: str) -> None:
    """A weapon just taken goes into a free hand, if the crewmember has hands enough free."""
    if crew.wielding is None or code not in g.pack.weapons or g.pack.weapons[code].type not in HELD:
        return
    crew.wielding = held(g, crew)
    used = sum(hands_for(g, w) for w in crew.wielding)
    if used + hands_for(g, code) <= HANDS and Counter(crew.wielding)[code] < Counter(crew.gear)[code]:
        crew.wielding.append(code)


def refusal(g: Game, crew: CrewMember, codes: list[str]) -> str:
    """Why the crewmember cannot take exactly `codes` in hand now ('' when it can)."""
    if crew.rounds.get("acted") == g.state.round:
        return f"{crew.name} has acted this turn; weapons are swapped before its first action."
    if crew.rounds.get("wield") == g.state.round:
        return f"{crew.name} has swapped weapons this turn already."
    if Counter(codes) - Counter(_holdable(g, crew)):
        return f"{crew.name} does not carry {', '.join(sorted(set(codes)))} to hold (grenades stay on the belt)."
    if sum(hands_for(g, w) for w in codes) > HANDS:
        return "Two hands: a rifle alone, or two of pistols and a melee weapon."
    return ""


def wield(g: Game, crew: CrewMember, codes: list[str]) -> None:
    """The free swap: the crewmember holds exactly `codes` (nothing: bare hands)."""
    why = refusal(g, crew, codes)
    if why:
        raise RuleError(why)
    crew.wielding = list(codes)
    crew.rounds["wield"] = g.state.round
    g.emit("wielded", crew=crew.id, weapons=list(codes))


def options(g: Game, crew: CrewMember) -> list[str]:
    """The swaps open to the crewmember: each set of weapons that fills its hands as far
    as what it carries allows, other than what it holds."""
    carried = sorted(_holdable(g, crew))
    if crew.wielding is None or g.state.round in (crew.rounds.get("acted"), crew.rounds.get("wield")) or not carried:
        return []
    sets = {combo for n in (1, 2) for combo in itertools.combinations(carried, n)
            if sum(hands_for(g, w) for w in combo) <= HANDS}
    full = {combo for combo in sets if not any(Counter(combo) < Counter(other) for other in sets)}
    now = tuple(sorted(held(g, crew)))
    return [" ".join(("wield", crew.id) + combo) for combo in sorted(full) if combo != now]
