"""Dice arithmetic shared by attacks and skill tests: pairing high to low, cancelling, hits."""
from __future__ import annotations

from typing import Optional

MAX_DICE = 6
FACES = 6  # the dice are six-sided
HITS_ON = 4  # an uncontested die (and a die of an unopposed skill test) hits on this face or more


def dice_count(*parts: int) -> int:
    """Dice for a roll: the parts added up, never fewer than 0 nor more than 6."""
    return max(0, min(MAX_DICE, sum(parts)))


def compare(active: list[int], opposing: list[int]) -> list[str]:
    """Outcome of each active die, both lists lined up high to low.

    A paired active die is cancelled when the opposing die equals or beats it and
    otherwise hits; an uncontested active die hits on 4+ and misses on 1-3. Surplus
    opposing dice are ignored.
    """
    active = sorted(active, reverse=True)
    opposing = sorted(opposing, reverse=True)
    outcome = []
    for i, face in enumerate(active):
        if i < len(opposing):
            outcome.append("cancelled" if opposing[i] >= face else "hit")
        else:
            outcome.append("hit" if face >= HITS_ON else "miss")
    return outcome


def unopposed(dice: list[int]) -> list[str]:
    """Outcome of each die of an unopposed skill test: 4+ succeeds."""
    return ["hit" if face >= HITS_ON else "miss" for face in sorted(dice, reverse=True)]


def attack_damage(hits: int, bonus: int) -> int:
    """Damage of an attack whose dice got `hits` hits: one for each hit, plus `bonus` (the
    attack's DAMAGE and any extra from cards) when at least one die got through; never below 0."""
    return max(0, hits + bonus) if hits else 0


def enough_successes(successes: int, needed: int) -> bool:
    """Whether a skill test with this many successes is passed."""
    return successes >= needed


def damage_room(ratings: dict[str, int]) -> int:
    """Pegs that can be removed before a rating at its lowest would have to drop.

    No rating may go below 1 unless it is already 0.
    """
    return sum(value - 1 for value in ratings.values() if value >= 1)


def neutralizes(ratings: dict[str, int], damage: int) -> bool:
    """Whether this much damage neutralizes a character with these ratings."""
    return damage > damage_room(ratings)


def damage_spreads(ratings: dict[str, int], damage: int) -> list[dict[str, int]]:
    """Every way to spread `damage` over the ratings without taking any below 1."""
    names = [name for name, value in ratings.items() if value > 1]
    spreads: list[dict[str, int]] = []
    _spread(names, ratings, 0, damage, {}, spreads)
    return spreads


def only_spread(ratings: dict[str, int], damage: int) -> Optional[dict[str, int]]:
    """The spread when `damage` can be spread over the ratings in exactly one way (as
    `damage_spreads` would list it), else None. There is one way when nothing is taken,
    when everything down to 1 is taken, or when only one rating is above 1; any other
    spread can move a peg between two ratings, so there are several (or none)."""
    room = {name: value - 1 for name, value in ratings.items() if value > 1}
    total = sum(room.values())
    if damage == 0:
        return {}
    if damage == total:
        return room
    if len(room) == 1 and damage < total:
        return {name: damage for name in room}
    return None


def _spread(names: list[str], ratings: dict[str, int], index: int, left: int, chosen: dict[str, int],
            spreads: list[dict[str, int]]) -> None:
    """Add to `spreads` every way to take `left` from the ratings of names[index:], with
    `chosen` taken before. (A function of its own, not a closure: a nested function that
    calls itself is a reference cycle, left for the garbage collector after every attack.)"""
    if index == len(names):
        if left == 0:
            spreads.append(dict(chosen))
        return
    name = names[index]
    for take in range(min(left, ratings[name] - 1), -1, -1):
        if take:
            chosen[name] = take
        _spread(names, ratings, index + 1, left - take, chosen, spreads)
        chosen.pop(name, None)
