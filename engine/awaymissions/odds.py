"""Exact odds of an attack or a skill test, shown before the player commits to it.

    preview(state, "p1", "attack FERROW D4-12 phaser-rifle").damage  # {0: Fraction(...), 2: ..., ...}

The chances are counted, not simulated. `hit_ways` counts, for any number of active dice
against any number of opposing dice, how many of the equally likely rolls give each
number of hits when the dice are lined up as `combat.compare` lines them up: a dynamic
programme over the faces from 6 down to 1 that places the dice showing each face at
their ranks in the two lines, so a table costs some thousands of steps instead of the
6**12 rolls of six dice against six. The 49 tables (0-6 dice against 0-6) are made
once, when the module is loaded.

`preview` takes the dice counts and modifiers from the engine's own functions
(`actions.dice_for_attack`, `effects.skill_dice`, `actions.attack_result`), so the odds
follow every rule the engine applies when the dice are actually rolled. It shows the
roll as first thrown: re-rolls, interrupts and damage prevention are later decisions of
the players and are left out (ruling R40).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Optional, Union

from engine.awaymissions import actions, cards, combat, effects, rules
from engine.awaymissions.context import Table
from engine.awaymissions.state import Character, GameState
from engine.awaymissions.vocabulary import SkillTest

Chances = dict[int, Fraction]


# --- the dice alone -------------------------------------------------------------------------
def hit_ways(dice: int, opposing: int = 0) -> tuple[int, ...]:
    """How many of the FACES ** (dice + opposing) equally likely rolls give 0, 1, ... `dice`
    hits when `dice` active dice meet `opposing` dice (an attack against its defense, a
    tester against a challenger). With no opposing dice every die hits on HITS_ON or
    more, which is also an unopposed skill test."""
    for count in (dice, opposing):
        if not 0 <= count <= combat.MAX_DICE:
            raise ValueError(f"a roll has 0 to {combat.MAX_DICE} dice, not {count}")
    return _HIT_WAYS[dice, opposing]


def _count_hits(dice: int, opposing: int) -> tuple[int, ...]:
    """The dynamic programme behind hit_ways."""
    # (active dice placed, opposing dice placed, hits among the placed) -> ways; the dice
    # placed so far are the highest of each line, showing faces above the current one.
    # Each face places its opposing dice first, then its active dice.
    ways = {(0, 0, 0): 1}
    for face in range(combat.FACES, 0, -1):
        last = face == 1  # every die not placed yet shows a 1
        opposed_too: dict[tuple[int, int, int], int] = {}
        for (placed, opposed, hits), count in ways.items():
            for against in ([opposing - opposed] if last else range(opposing - opposed + 1)):
                key = (placed, opposed + against, hits)
                opposed_too[key] = opposed_too.get(key, 0) + count * comb(opposing - opposed, against)
        ways = {}
        for (placed, at_least, hits), count in opposed_too.items():  # at_least: opposing dice showing `face` or more
            for shown in ([dice - placed] if last else range(dice - placed + 1)):
                end = placed + shown  # the active dice showing `face` have ranks placed .. end - 1
                # a paired die hits when the opposing die of its rank is lower than `face`,
                # a die beyond the opposing line when `face` is HITS_ON or more
                paired = max(0, min(end, opposing) - max(placed, at_least))
                unpaired = max(0, end - max(placed, opposing)) if face >= combat.HITS_ON else 0
                key = (end, at_least, hits + paired + unpaired)
                ways[key] = ways.get(key, 0) + count * comb(dice - placed, shown)
    counted = [0] * (dice + 1)
    for (_, _, hits), count in ways.items():
        counted[hits] += count
    return tuple(counted)


# every table, made when the module is loaded (some tens of milliseconds) so that no
# preview waits for one
_HIT_WAYS = {(dice, opposing): _count_hits(dice, opposing)
             for dice in range(combat.MAX_DICE + 1) for opposing in range(combat.MAX_DICE + 1)}


def hit_chances(dice: int, opposing: Optional[int] = None) -> Chances:
    """Number of hits (successes) -> exact chance, for `dice` against `opposing` dice
    (None or 0: unopposed)."""
    opposing = opposing or 0
    total = combat.FACES ** (dice + opposing)
    return {hits: Fraction(ways, total) for hits, ways in enumerate(hit_ways(dice, opposing))}


def damage_chances(dice: int, defense: int, bonus: int = 0) -> Chances:
    """Damage -> exact chance of an attack rolling `dice` against `defense` dice, with
    `bonus` damage added when any die gets through (the attack's DAMAGE, extra from cards)."""
    return _merge((combat.attack_damage(hits, bonus), chance) for hits, chance in hit_chances(dice, defense).items())


def pass_chance(dice: int, opposing: Optional[int] = None, needed: int = 1) -> Fraction:
    """Exact chance that a skill test with `dice` against `opposing` (None: unopposed)
    scores at least `needed` successes."""
    return sum((chance for successes, chance in hit_chances(dice, opposing).items()
                if combat.enough_successes(successes, needed)), Fraction(0))


def _merge(pairs) -> Chances:
    merged: Chances = {}
    for value, chance in pairs:
        merged[value] = merged.get(value, Fraction(0)) + chance
    return dict(sorted(merged.items()))


# --- a command on the table -----------------------------------------------------------------
@dataclass(frozen=True)
class AttackOdds:
    """What an attack may do, as the dice would be rolled now."""

    attacker: str
    target: str
    attack: str  # the attack action's code
    dice: int  # attack dice
    defense: int  # defense dice
    hits: Chances  # attack dice getting through -> chance
    damage: Chances  # damage dealt -> chance (0 also when the hits become a stun token)
    stun: Fraction  # chance the hits are taken as a stun instead of damage (R19; no token past 2)
    neutralize: Fraction  # chance the damage is more than the target can lose (R23)


@dataclass(frozen=True)
class SkillOdds:
    """What a skill test may score, as the dice would be rolled now. A test that cannot
    be taken (no challenger in reach, an incapacitated tester) shows 0 dice: it fails."""

    tester: str
    challenger: Optional[str]
    specialization: Optional[str]
    dice: int  # the tester's dice
    opposing: Optional[int]  # the challenger's dice; None for an unopposed test
    needed: int  # successes needed to pass
    successes: Chances  # successes -> chance
    passed: Fraction  # chance of at least `needed` successes


Odds = Union[AttackOdds, SkillOdds]


def preview(state: GameState, seat: str, command: str) -> Optional[Odds]:
    """The exact odds of an attack or skill test that `seat` may choose now, or None for
    any other command (and for a test whose challenger the player is still to choose, or
    that follows other effects of its card, which could change it first).

    `command` is one of `rules.legal_commands(state, seat)`: `attack ...`, `special ...`
    or `play CARD [CHARACTER]`. A command that is not legal now is refused with RuleError,
    as `rules.apply` would refuse it. The state is not changed.
    """
    verb, args = rules.parse(command)
    if verb not in ("attack", "special", "play"):
        return None
    decision = rules.decision_for(state, seat, verb)
    if verb == "play" and decision.kind != "action":  # interrupts: not an attack or test of one's own
        return None
    t = Table(state)
    t.decision = decision
    extra = args[2] if len(args) > 2 else None
    if verb == "attack":
        return _attack_odds(t, *actions.check_attack(t, seat, args[0], args[1], extra))
    if verb == "special":
        character, _, action = actions.check_special(t, seat, args[0], args[1], extra)
        return _skill_odds(t, character, action, extra)
    card, subject = cards.check_play(t, seat, args[0], args[1] if len(args) > 1 else None)
    if card.manual or (card.kind == "mission" and card.play == "table") or subject is None:
        return None
    return _skill_odds(t, subject, card, None)


def _attack_odds(t: Table, character: Character, weapon, target: Character) -> AttackOdds:
    dice, defense, extra_damage = actions.dice_for_attack(t, character, target, weapon, {}, use=False)
    hits = hit_chances(dice, defense)
    results = {h: actions.attack_result(weapon, target, h, extra_damage) for h in hits}
    return AttackOdds(
        attacker=character.id, target=target.id, attack=weapon.code, dice=dice, defense=defense, hits=hits,
        damage=_merge((results[h][0], chance) for h, chance in hits.items()),
        stun=sum((chance for h, chance in hits.items() if results[h][1]), Fraction(0)),
        neutralize=sum((chance for h, chance in hits.items() if combat.neutralizes(target.ratings, results[h][0])),
                       Fraction(0)))


def _skill_odds(t: Table, subject: Character, source, named: Optional[str]) -> Optional[SkillOdds]:
    """The odds of the skill test that `source` (a special action or a card) starts with, if any."""
    effect_list = source.effects
    test = effect_list[0] if effect_list and isinstance(effect_list[0], SkillTest) else None
    if test is None:
        return None
    challenger: Optional[Character] = None
    possible = subject.in_play and not subject.incapacitated
    if test.opposed and possible:
        rivals = effects.challengers(t, subject, source.requires)
        if named is not None and named.upper() in rivals:
            rivals = [named.upper()]
        if len(rivals) > 1:
            return None  # the player chooses the challenger when the test is taken
        possible = bool(rivals)
        challenger = t.state.characters[rivals[0]] if rivals else None
    if possible:
        dice, opposing = effects.skill_dice(t, subject, test.specialization, challenger, use=False)
    else:
        dice, opposing = 0, 0
    successes = hit_chances(dice, opposing)
    return SkillOdds(
        tester=subject.id, challenger=challenger.id if challenger else None, specialization=test.specialization,
        dice=dice, opposing=opposing if challenger else None, needed=test.successes, successes=successes,
        passed=pass_chance(dice, opposing, test.successes))
