"""Campaigns: missions strung together with shore leave between them (N53-N56).

When a mission of a campaign ends, its result is kept, its rewards go to the faction's
purse, and every player takes shore leave: the crews are healed and gathered aboard,
the ships repaired and sent home, then each player in seat order may sell, buy from
the cards turned up at the shipyards, recruit and redraw tactical cards before `done`.
After the last mission the campaign ends with one of three conclusions.
"""
from __future__ import annotations

from typing import Any, Optional

from engine.errors import RuleError
from engine.renegades import pieces
from engine.renegades.board import orbit_of
from engine.renegades.content import STATIONS
from engine.renegades.orbit import Game
from engine.renegades.state import Campaign, CrewMember, Decision, GameState

MARKET = 4  # cards turned up for each player at the shipyards
RECRUIT = 100  # digits to recruit a crewmember (N55)
LENGTHS = (3, 4, 5)


def start(state: GameState, missions_count: int, world_cards: int) -> None:
    """Make the game the first mission of a campaign of `missions_count` missions."""
    if missions_count not in LENGTHS:
        raise RuleError("A campaign is three, four or five missions.")
    g = Game(state)
    deck = [code for code in g.pack.missions if code != state.mission]
    state.dice.shuffle(deck)
    weapons = [code for code, w in g.pack.weapons.items() if w.cost for _ in range(2)]
    state.dice.shuffle(weapons)
    state.campaign = Campaign(missions=missions_count, world_cards=world_cards, mission_deck=deck,
                              weapons_deck=weapons)


def mission_over(g: Game, result: dict[str, Any]) -> None:
    """A mission ended: the game is over, or (in a campaign with missions left) shore leave."""
    s = g.state
    s.pending, s.current = [], None
    camp = s.campaign
    for faction, amount in (result.get("reward") or {}).items():
        s.digits[faction] = s.digits.get(faction, 0) + amount
    if camp is None:
        s.phase, s.result = "over", result
        g.emit("game_over", **result)
        return
    camp.results.append(result)
    g.emit("mission_over", number=len(camp.results), **result)
    if len(camp.results) >= camp.missions:
        _conclude(g)
        return
    _shore_leave(g)


def _conclude(g: Game) -> None:
    """N56: the faction that won more missions has its ending; equal wins, the alliance ending."""
    s = g.state
    wins = {f: sum(1 for r in s.campaign.results if r.get("winner") == f) for f in ("renegade", "coalition")}
    ending = "alliance" if wins["renegade"] == wins["coalition"] else max(wins, key=wins.get)
    s.phase = "over"
    s.result = {"outcome": "campaign over", "conclusion": ending, "wins": wins,
                "missions": [r.get("outcome") for r in s.campaign.results], "digits": dict(s.digits)}
    g.emit("game_over", **s.result)


# --- shore leave ---------------------------------------------------------------------------------
def _shore_leave(g: Game) -> None:
    """The automatic steps (N54): wounds and the unconscious healed, crew left on the planet
    brought aboard and back to empty stations, captives kept in the brig, ships repaired
    and home, fighters, figures and the mission's surface gone; then each player in turn
    decides."""
    s = g.state
    board = orbit_of(g.pack.path)
    for crew in s.crew.values():
        crew.wounds, crew.ko, crew.hidden, crew.cell = 0, False, False, None
        crew.carrying = crew.carried_by = None
        crew.rounds, crew.hurt_by, crew.assigned = {}, {}, None
        crew.room = "brig" if crew.captive else None
    for code in [code for code, ship in s.ships.items() if ship.kind != "ship"]:
        del s.ships[code]
    taken: set[str] = set()
    for ship in sorted(s.ships.values(), key=lambda x: x.id):
        home = board.home_of(ship.faction)
        ship.cell = next(c for c in home.launch + _around(board, home) if c not in taken)
        taken.add(ship.cell)
        ship.facing, ship.damage, ship.docked, ship.left_from = home.facing, 0, None, None
        ship.attacked_round, ship.hurt_by, ship.assigned = 0, {}, None
        _man_stations(s, ship)
    s.docks, s.figures, s.salvage = {}, {}, list(g.pack.orbit.salvage)
    s.containers, s.peeks, s.objective, s.rounds_home = {}, {}, None, 0  # the planet is left behind
    s.phase = "shore"
    camp = s.campaign
    camp.shore, camp.redrawn = list(s.seats), []
    g.emit("shore_leave", digits=dict(s.digits))
    ask(s)


def _around(board, planet) -> list[str]:
    return sorted({c for cell in planet.cells for c in (board.step(cell, d) for d in ("N", "NE", "E", "SE", "S",
                   "SW", "W", "NW")) if c and c not in board.blocking}, key=lambda c: (c[0], int(c[1:])))


def _man_stations(s: GameState, ship) -> None:
    """Crew aboard without a station take the empty stations of their specialty."""
    for crew in sorted(s.crew.values(), key=lambda c: (-c.initiative, c.id)):
        if crew.ship != ship.id or crew.station or crew.captive:
            continue
        free = next((st for st in STATIONS if st in crew.stations and st not in ship.stations), None)
        if free is not None:
            ship.stations[free], crew.station = crew.id, free


def _turn_up(s: GameState) -> list[str]:
    """N55: the top cards of the shipyards' deck; when it runs out, the cards turned up and
    not bought are shuffled into a new deck."""
    camp = s.campaign
    cards = []
    for _ in range(MARKET):
        if not camp.weapons_deck and camp.discard:
            camp.weapons_deck, camp.discard = camp.discard, []
            s.dice.shuffle(camp.weapons_deck)
        if not camp.weapons_deck:
            break
        cards.append(camp.weapons_deck.pop(0))
    return cards


def ask(s: GameState) -> None:
    """The next seat on shore leave turns up its cards at the shipyards and decides."""
    camp = s.campaign
    seat = camp.shore[0]
    if seat not in camp.market:
        camp.market[seat] = _turn_up(s)
    s.pending = [Decision("shore", seat, {"market": list(camp.market[seat])})]


def _ship_of(s: GameState, seat: str):
    return s.ships[s.player(seat).ships[0]]


def legal(g: Game, seat: str) -> list[str]:
    """Every shore leave command of the seat."""
    s = g.state
    ship = _ship_of(s, seat)
    purse = s.digits.get(s.player(seat).faction, 0)
    options = [f"buy {c}" for c in sorted(set(s.campaign.market.get(seat, []))) if g.pack.weapons[c].cost <= purse]
    goods = {c for crew in s.crew.values() if crew.ship == ship.id and not crew.captive for c in crew.gear}
    options += [f"sell {c}" for c in sorted(goods | set(s.armory.get(ship.id, [])))]
    aboard = sum(1 for c in s.crew.values() if c.ship == ship.id and not c.captive)
    if purse >= RECRUIT and aboard < g.pack.ships[ship.id].capacity:
        options += [f"recruit {code}" for code, card in g.pack.crew.items()
                    if card.faction == ship.faction and code not in s.crew]
    if seat not in s.campaign.redrawn:
        options.append("redraw")
    return options + ["done"]


def buy(g: Game, seat: str, code: str) -> None:
    s = g.state
    offer = s.campaign.market.get(seat, [])
    if code not in offer:
        raise RuleError(f"'{code}' is not among the cards turned up for you: {', '.join(offer) or 'none'}.")
    faction = s.player(seat).faction
    cost = g.pack.weapons[code].cost
    if s.digits.get(faction, 0) < cost:
        raise RuleError(f"The {code} costs {cost} digits; your side has {s.digits.get(faction, 0)}.")
    offer.remove(code)
    s.digits[faction] -= cost
    ship = _ship_of(s, seat)
    s.armory.setdefault(ship.id, []).append(code)
    g.emit("bought", seat=seat, item=code, cost=cost, ship=ship.id)


def sale_value(g: Game, code: str) -> int:
    """Half the card's value, to the nearest 25 digits (N55)."""
    value = g.pack.weapons[code].cost if code in g.pack.weapons else g.pack.search_items[code].value
    return int(value / 2 / 25 + 0.5) * 25


def sell(g: Game, seat: str, code: str) -> None:
    """Sell a weapon from the ship's armory, or an item or weapon a crewmember carries."""
    s = g.state
    ship = _ship_of(s, seat)
    holder: Optional[CrewMember] = next((c for c in sorted(s.crew.values(), key=lambda c: c.id)
                                         if c.ship == ship.id and not c.captive and code in c.gear), None)
    if holder is None and code not in s.armory.get(ship.id, []):
        raise RuleError(f"Nobody aboard the {ship.name} carries '{code}', nor does its armory hold one.")
    (holder.gear if holder else s.armory[ship.id]).remove(code)
    value = sale_value(g, code)
    faction = s.player(seat).faction
    s.digits[faction] = s.digits.get(faction, 0) + value
    g.emit("sold", seat=seat, item=code, digits=value)


def recruit(g: Game, seat: str, code: str) -> None:
    """N55: a crewmember of the ship's faction serving nowhere joins for 100 digits, while the
    ship's capacity allows."""
    s = g.state
    ship = _ship_of(s, seat)
    card = g.pack.crew.get(code)
    if card is None or card.faction != ship.faction or code in s.crew:
        raise RuleError(f"'{code}' is not {ship.faction} crew free to recruit.")
    aboard = sum(1 for c in s.crew.values() if c.ship == ship.id and not c.captive)
    if aboard >= g.pack.ships[ship.id].capacity:
        raise RuleError(f"The {ship.name} holds {aboard}, its capacity.")
    faction = ship.faction
    if s.digits.get(faction, 0) < RECRUIT:
        raise RuleError(f"Recruiting costs {RECRUIT} digits; your side has {s.digits.get(faction, 0)}.")
    s.digits[faction] -= RECRUIT
    s.crew[code] = pieces.crewmember(card, ship.id)
    _man_stations(s, ship)
    g.emit("recruited", seat=seat, crew=code, ship=ship.id)


def redraw(g: Game, seat: str) -> None:
    """Discard the commander's tactical cards and draw one of each kind again, once a shore leave."""
    s = g.state
    if seat in s.campaign.redrawn:
        raise RuleError("You have redrawn your tactical cards this shore leave.")
    s.campaign.redrawn.append(seat)
    player = s.player(seat)
    held = {c for p in s.players for c in p.tactical}
    drawn = []
    for kind in ("orbital", "surface"):
        deck = [c for c, card in g.pack.tactical.items() if card.type == kind and c not in held]
        s.dice.shuffle(deck)
        if deck:
            drawn.append(deck[0])
        else:
            drawn += [c for c in player.tactical if g.pack.tactical[c].type == kind]
    player.tactical = drawn
    g.emit("redrawn", seat=seat, tactical=drawn)


def done(g: Game, seat: str) -> bool:
    """The seat ends its shore leave (the cards it did not buy are discarded); True when it
    was the last, and the next mission is to begin."""
    s = g.state
    camp = s.campaign
    camp.shore.remove(seat)
    camp.discard += camp.market.pop(seat, [])
    g.emit("shore_done", seat=seat)
    if camp.shore:
        ask(s)
        return False
    return True


def next_mission(g: Game) -> None:
    """N53: the next mission card (the deck reshuffled when it runs out), a fresh world deck
    of the campaign's size; the caller sets the surface up anew (the armories stay)."""
    s = g.state
    camp = s.campaign
    if not camp.mission_deck:
        camp.mission_deck = list(g.pack.missions)
        s.dice.shuffle(camp.mission_deck)
    s.mission = camp.mission_deck.pop(0)
    world = list(g.pack.world_events)
    s.dice.shuffle(world)
    s.world_deck, s.world_discard, s.last_round = world[:camp.world_cards], [], None
    s.dice.shuffle(s.location_deck)
    s.round += 1
    g.emit("mission_begins", mission=s.mission, number=len(camp.results) + 1, round=s.round)
