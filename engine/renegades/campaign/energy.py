"""Energy tokens on a campaign's gear (N174-N176, N181): gear that runs down (a `gear` card
with `energy`) holds tokens, one copy at a time, fullest first, in `Captain.energy`. Every
mission a copy flies on costs it a token, except gear used by command, which spends its
tokens in the game and comes home with what is left; a spent copy (no token left) stays in
port, cannot be sold and flies again only once recharged at shore leave."""
from __future__ import annotations

from collections import Counter
from typing import Optional

from engine.errors import RuleError
from engine.renegades.campaign.campaign_state import Captain
from engine.renegades.contents.content import Pack


def capacity(pack: Pack, code: str) -> Optional[int]:
    """The tokens a fresh copy holds; None for gear that never runs down."""
    gear = pack.gear.get(code)
    return gear.energy if gear is not None else None


def add(cap: Captain, pack: Pack, code: str) -> None:
    """A fresh copy joins the armory (bought, found or in the starting armory)."""
    cap.armory.append(code)
    full = capacity(pack, code)
    if full is not None:
        cap.energy[code] = sorted([*cap.energy.get(code, []), full], reverse=True)


def remove(cap: Captain, pack: Pack, code: str, spent: bool = False) -> None:
    """One copy leaves the armory: the one with the fewest tokens, at least one unless
    `spent` allows an empty one."""
    cap.armory.remove(code)
    tokens = cap.energy.get(code)
    if tokens is None:
        return
    usable = [i for i, t in enumerate(tokens) if spent or t > 0]
    del tokens[usable[-1]]
    if not tokens:
        del cap.energy[code]


def usable(cap: Captain, code: str) -> int:
    """How many copies of `code` in the armory may fly: all of gear that never runs down,
    else those with a token left."""
    if code not in cap.energy:
        return cap.armory.count(code)
    return sum(1 for t in cap.energy[code] if t > 0)


def flying(cap: Captain) -> list[str]:
    """The armory as it goes on a mission: spent copies stay in port (N175)."""
    left = {code: usable(cap, code) for code in set(cap.armory)}
    carried = []
    for code in cap.armory:
        if left[code]:
            left[code] -= 1
            carried.append(code)
    return carried


def in_flight(cap: Captain, pack: Pack) -> dict[str, list[int]]:
    """The tokens on each flying copy of the gear used by command (N181): the game spends them."""
    return {code: [t for t in tokens if t] for code, tokens in sorted(cap.energy.items())
            if pack.used_by_command(code) and any(tokens)}


def settle(cap: Captain, code: str, tokens: list[int]) -> list[int]:
    """N181: the copies of gear used by command now hold `tokens` (those that stayed in port
    and those the game brought home); the tokens, fullest first."""
    if tokens:
        cap.energy[code] = sorted(tokens, reverse=True)
    else:
        cap.energy.pop(code, None)
    return list(cap.energy.get(code, []))


def spend(cap: Captain, flew: Counter) -> dict[str, list[int]]:
    """N174: each copy that flew and came home loses a token (the fullest `flew[code]`
    copies with tokens left); the tokens now on the gear that ran down."""
    changed = {}
    for code, count in flew.items():
        tokens = cap.energy.get(code)
        if not tokens or not count:
            continue
        for i in range(len(tokens)):
            if count and tokens[i] > 0:
                tokens[i] -= 1
                count -= 1
        tokens.sort(reverse=True)
        changed[code] = list(tokens)
    return changed


def recharge(cap: Captain, pack: Pack, code: str, price: int) -> tuple[int, int]:
    """N176: the emptiest copy of `code` filled to full at `price` a token; (tokens, cost)."""
    full = capacity(pack, code)
    if code not in cap.armory:
        raise RuleError(f"There is no '{code}' in your armory.")
    if full is None:
        raise RuleError(f"{pack.gear[code].name if code in pack.gear else code} never runs down.")
    tokens = cap.energy.get(code) or [full]  # a campaign stored before tokens were counted: full
    missing = full - tokens[-1]
    if missing == 0:
        raise RuleError(f"Every {pack.gear[code].name} in your armory is fully charged.")
    cost = missing * price
    if cap.digits < cost:
        raise RuleError(f"{missing} energy token(s) for the {pack.gear[code].name} cost {cost} digits; "
                        f"you have {cap.digits}.")
    cap.digits -= cost
    tokens[-1] = full
    tokens.sort(reverse=True)
    return missing, cost
