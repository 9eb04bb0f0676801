"""The crew draft at set-up (N219, N220): players who share a faction take turns choosing
their crewmembers, one at a time, in the order of a die roll; in the single-team game the
players also choose the crews of the NPC Coalition ships. Every pick must leave each ship
of the draft able to man its five stations from the crew still free."""
from __future__ import annotations

import itertools
from typing import Iterator

from engine.errors import RuleError
from engine.renegades.contents.content import FACTIONS, STATIONS, Pack
from engine.renegades.contents.state import Decision, Draft, GameState

CREW = 5  # crewmembers a ship flies with at set-up


def begin(state: GameState, pack: Pack, pickers: dict[str, str], config: dict) -> None:
    """Open the draft of the ships in `pickers` (ship -> the seat choosing its crew): per
    faction, each picker rolls a die (ties roll again), the highest picks first, then they
    alternate; Renegades first. The rest of the set-up (`config`) waits for the last pick."""
    order: list[str] = []
    rolls: dict[str, list[int]] = {}
    for faction in FACTIONS:
        ships = [ship for ship in pickers if pack.ships[ship].faction == faction]
        ranked = _roll_off(state, ships, rolls)
        order += [ranked[i % len(ranked)] for i in range(CREW * len(ranked))]
    state.draft = Draft(crews={ship: [] for ship in pickers}, pickers=dict(pickers), order=order, rolls=rolls,
                        config=config)
    state.phase = "draft"
    _ask(state)


def _roll_off(state: GameState, ships: list[str], rolls: dict[str, list[int]]) -> list[str]:
    """The ships by their pickers' dice, highest first; those tied roll again among themselves."""
    if len(ships) < 2:
        return ships
    faces = dict(zip(ships, state.dice.roll(len(ships))))
    for ship, face in faces.items():
        rolls.setdefault(ship, []).append(face)
    ranked: list[str] = []
    for face in sorted(set(faces.values()), reverse=True):
        ranked += _roll_off(state, [s for s in ships if faces[s] == face], rolls)
    return ranked


def _ask(state: GameState) -> None:
    draft = state.draft
    ship = draft.order[draft.made]
    state.pending.append(Decision("draft", draft.pickers[ship], {"ship": ship, "pick": len(draft.crews[ship]) + 1}))


def choices(state: GameState, pack: Pack) -> list[str]:
    """The crewmembers the ship now choosing may take: free crew of its faction after whose
    pick every ship of the faction's draft can still man its stations."""
    draft = state.draft
    ship = draft.order[draft.made]
    faction = pack.ships[ship].faction
    crews = {s: c for s, c in draft.crews.items() if pack.ships[s].faction == faction}
    pool = _pool(state, pack, faction)
    return [code for code in pool
            if feasible(pack, {**crews, ship: crews[ship] + [code]}, [c for c in pool if c != code])]


def pick(state: GameState, pack: Pack, seat: str, code: str) -> bool:
    """The awaited seat's pick for its ship; True when it was the draft's last. RuleError
    (nothing changed) for a crewmember not free or one that would leave a ship unable to
    man its stations."""
    draft = state.draft
    ship = draft.order[draft.made]
    legal = choices(state, pack)
    if code not in legal:
        raise RuleError(f"The {pack.ships[ship].name} cannot take '{code}' now; free crew who leave every ship of "
                        f"the draft its five stations: {', '.join(legal)}.")
    draft.crews[ship].append(code)
    draft.made += 1
    if draft.made < len(draft.order):
        _ask(state)
        return False
    return True


def _pool(state: GameState, pack: Pack, faction: str) -> list[str]:
    taken = set(state.crew) | {c for crew in state.draft.crews.values() for c in crew}
    return [code for code, card in pack.crew.items() if card.faction == faction and code not in taken]


def feasible(pack: Pack, crews: dict[str, list[str]], pool: list[str]) -> bool:
    """Whether every ship can be completed to five crew manning the five stations, each
    crewmember drafted already at a station of its own, the rest from `pool`."""
    if any(len(crew) > CREW for crew in crews.values()):
        return False
    for placed in itertools.product(*(list(_placings(pack, crew)) for crew in crews.values())):
        open_slots = [station for stations in placed for station in STATIONS if station not in stations]
        if _matched(pack, open_slots, pool) == len(open_slots):
            return True
    return False


def _placings(pack: Pack, crew: list[str], used: frozenset = frozenset()) -> Iterator[frozenset]:
    """Each way of giving the crewmembers distinct stations of their own: the stations taken."""
    if not crew:
        yield used
        return
    for station in pack.crew[crew[0]].stations:
        if station not in used:
            yield from _placings(pack, crew[1:], used | {station})


def _matched(pack: Pack, slots: list[str], pool: list[str]) -> int:
    """The most station slots filled by distinct crewmembers of `pool` whose card names the station."""
    holder: dict[str, int] = {}

    def place(slot: int, seen: set) -> bool:
        for code in pool:
            if slots[slot] in pack.crew[code].stations and code not in seen:
                seen.add(code)
                if code not in holder or place(holder[code], seen):
                    holder[code] = slot
                    return True
        return False
    return sum(1 for slot in range(len(slots)) if place(slot, set()))
