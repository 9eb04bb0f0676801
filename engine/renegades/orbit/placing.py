"""Placing attack bonuses (N122): where the +1s of an attack go, and whether the attacker
has a real choice to make.

A bonus (add, dice) raises `dice` different red dice by `add` each; several bonuses may
raise the same die. A placement is written as the dice it raises, `FROM>TO` per die, its
face as rolled and as raised (`6>7 3>4`). Two placements are the same choice when they
leave the same effective dice: a miss (below 4) is a miss, a 7 or more is penetrating,
whatever its face. A placement is worth offering when no other one is at least as good
die for die; when only one such choice exists it is made for the attacker.
"""
from __future__ import annotations

import itertools
import re
from typing import Optional

from engine.errors import RuleError
from engine.renegades.contents.state import Decision, Strike

Profile = tuple[tuple[int, int], ...]  # (face as rolled, raised by) per raised die, highest first
_TOKEN = re.compile(r"^([1-6])>([0-9]{1,2})$")


def _effective(faces: list[int]) -> tuple[int, ...]:
    """The dice as the defender meets them, highest first: misses 0, penetrating 7."""
    return tuple(sorted((0 if f < 4 else min(f, 7) for f in faces), reverse=True))


def _dominates(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return a != b and all(x >= y for x, y in zip(a, b))


def _placements(rolled: list[int], bonuses: list[tuple[int, int]]) -> dict[Profile, list[int]]:
    """Every distinct placement of the bonuses: its profile -> the faces it leaves."""
    found: dict[Profile, list[int]] = {}
    spots = range(len(rolled))
    for picks in itertools.product(*(itertools.combinations(spots, min(n, len(rolled))) for _, n in bonuses)):
        raised = [0] * len(rolled)
        for (add, _), chosen in zip(bonuses, picks):
            for i in chosen:
                raised[i] += add
        profile = tuple(sorted(((rolled[i], r) for i, r in enumerate(raised) if r), reverse=True))
        found.setdefault(profile, [f + r for f, r in zip(rolled, raised)])
    return found


def highest_first(rolled: list[int], bonuses: list[tuple[int, int]]) -> list[int]:
    """The written rule for NPCs (N10): each bonus on the highest dice."""
    faces = list(rolled)
    for add, count in bonuses:
        order = sorted(range(len(faces)), key=lambda i: (-faces[i], i))[:count]
        faces = [f + add if i in order else f for i, f in enumerate(faces)]
    return faces


def choices(rolled: list[int], bonuses: list[tuple[int, int]]) -> dict[Profile, list[int]]:
    """The placements worth offering, one per different outcome that no other beats die for
    die (the highest-first placement stands for its outcome when it is one of them)."""
    if not bonuses or not rolled:
        return {(): list(rolled)}
    every = _placements(rolled, bonuses)
    kept: dict[tuple[int, ...], Profile] = {}
    for profile, faces in every.items():
        kept.setdefault(_effective(faces), profile)
    default = _profile(rolled, highest_first(rolled, bonuses))
    kept[_effective(every[default])] = default
    best = [e for e in kept if not any(_dominates(other, e) for other in kept)]
    return {kept[e]: every[kept[e]] for e in sorted(best, reverse=True)}


def automatic(rolled: list[int], bonuses: list[tuple[int, int]]) -> Optional[list[int]]:
    """The faces when there is no real choice (one best outcome), else None."""
    offered = choices(rolled, bonuses)
    return next(iter(offered.values())) if len(offered) == 1 else None


def _profile(rolled: list[int], faces: list[int]) -> Profile:
    return tuple(sorted(((r, f - r) for r, f in zip(rolled, faces) if f != r), reverse=True))


def words(profile: Profile) -> list[str]:
    """A placement as command words: `6>7 3>4`."""
    return [f"{face}>{face + by}" for face, by in profile]


def chosen(rolled: list[int], bonuses: list[tuple[int, int]], tokens: list[str]) -> list[int]:
    """The faces after the placement `tokens` names; RuleError when the bonuses cannot make it."""
    wanted = []
    for token in tokens:
        found = _TOKEN.match(token)
        if found is None:
            raise RuleError(f"Name each raised die as FROM>TO, its face as rolled and as raised (like 3>4), "
                            f"not '{token}'.")
        wanted.append((int(found.group(1)), int(found.group(2)) - int(found.group(1))))
    profile = tuple(sorted(wanted, reverse=True))
    faces = _placements(rolled, bonuses).get(profile)
    if faces is None:
        options = "; ".join(" ".join(words(p)) for p in choices(rolled, bonuses))
        raise RuleError(f"The bonuses ({_said(bonuses)}) on the dice {' '.join(map(str, rolled))} cannot do that. "
                        f"For example: {options}.")
    return faces


def _said(bonuses: list[tuple[int, int]]) -> str:
    return ", ".join(f"+{add} to {n} {'die' if n == 1 else 'dice'}" for add, n in bonuses)


def place(g, strike: Strike) -> Optional[list[int]]:
    """The red dice after the bonuses, or None when the attacker's player is asked: the
    attack waits in `state.strike` with a `bonus` decision. NPCs go highest first."""
    bonuses = [(add, n) for add, n in strike.bonuses]
    if strike.seat is None:
        return highest_first(strike.red, bonuses)
    faces = automatic(strike.red, bonuses)
    if faces is not None:
        return faces
    g.state.strike = strike
    g.emit("bonus_choice", attacker=strike.attacker, target=strike.target, dice=list(strike.red),
           bonuses=[list(b) for b in bonuses])
    g.state.pending.append(Decision("bonus", strike.seat, {"attacker": strike.attacker, "target": strike.target,
                                                           "dice": list(strike.red)}))
    return None


def legal(strike: Strike) -> list[str]:
    """The placements worth offering, as `raise` commands."""
    bonuses = [(add, n) for add, n in strike.bonuses]
    return [" ".join(["raise", strike.attacker, *words(p)]) for p in choices(strike.red, bonuses)]
