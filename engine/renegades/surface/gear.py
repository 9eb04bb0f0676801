"""Gear items on the surface (N180-N185): what the pack's `gear` items do in a game, and
the energy tokens of those used by command (N181).

An item is a personal item (three to a crewmember, N28's carry limit). The blink beacon and
the field med kit are used by command (`use CREW ITEM [OTHER]`, an action) and spend a
token of the copy used; the sensor spoofer and the grav boots work while carried. The
tokens of each copy used by command are public, in the state's `energy`: where copies lie
(a crewmember's id, `armory:SHIP` or `square:CELL`) -> item code -> the tokens on each
copy there, fullest first. Copies pass on with their tokens: taking from an armory or the
ground and handing over pass the fullest copy, dropping lays down the emptiest, and a use
spends a token of the emptiest copy that has one.
"""
from __future__ import annotations

from typing import Optional

from engine.renegades.contents.content import Gear, GearEffect, Pack
from engine.renegades.contents.game import Game
from engine.renegades.contents.state import CrewMember, GameState


def item(pack: Pack, code: str) -> Optional[Gear]:
    """The gear card of an item with an effect in the game, or None (weapons, search items)."""
    card = pack.gear.get(code)
    return card if card is not None and card.effect is not None else None


def passive(g: Game, crew: CrewMember, kind: str) -> Optional[GearEffect]:
    """The effect of `kind` of an item the crewmember carries that works by itself, or None."""
    for code in crew.gear:
        card = item(g.pack, code)
        if card is not None and card.effect.kind == kind and not card.used:
            return card.effect
    return None


# --- energy tokens of the copies used by command ---------------------------------------------------
def armory_key(ship: str) -> str:
    """Where the copies in a ship's armory are counted in `energy`."""
    return f"armory:{ship}"


def square_key(cell: str) -> str:
    """Where the copies lying on a square are counted in `energy`."""
    return f"square:{cell}"


def tokens(state: GameState, holder: str, code: str) -> list[int]:
    """The tokens on each copy of `code` that `holder` has, fullest first ([] if untracked)."""
    return state.energy.get(holder, {}).get(code, [])


def track(state: GameState, pack: Pack, holder: str, codes: list[str], given: Optional[dict] = None) -> None:
    """Count the tokens of `holder`'s copies used by command: those `given` (code -> tokens
    of each copy) first, a fresh copy's for the rest; copies gone are forgotten."""
    counts = {code: codes.count(code) for code in set(codes) if (card := item(pack, code)) is not None and card.used}
    held = {}
    for code, count in sorted(counts.items()):
        known = sorted((given or {}).get(code, tokens(state, holder, code)), reverse=True)[:count]
        held[code] = known + [pack.gear[code].energy] * (count - len(known))
    if held:
        state.energy[holder] = held
    else:
        state.energy.pop(holder, None)


def move(state: GameState, code: str, source: str, dest: str, fullest: bool) -> None:
    """One copy of `code` passes from `source` to `dest` with its tokens: the fullest, or
    with `fullest` false the emptiest (a drop)."""
    held = state.energy.get(source, {}).get(code)
    if not held:
        return
    count = held.pop(0 if fullest else -1)
    _tidy(state, source, code)
    there = state.energy.setdefault(dest, {}).setdefault(code, [])
    there.append(count)
    there.sort(reverse=True)


def _tidy(state: GameState, holder: str, code: str) -> None:
    if not state.energy[holder][code]:
        del state.energy[holder][code]
    if not state.energy[holder]:
        del state.energy[holder]


def charged(state: GameState, holder: str, code: str) -> bool:
    """Whether any copy of `code` that `holder` has still has a token."""
    return any(t > 0 for t in tokens(state, holder, code))


def spend(state: GameState, holder: str, code: str) -> int:
    """A token off the emptiest copy that has one; the tokens that copy has left."""
    held = state.energy[holder][code]
    i = max(i for i, t in enumerate(held) if t > 0)
    held[i] -= 1
    left = held[i]
    held.sort(reverse=True)
    return left
