"""The Renegades ruleset's public face: apply a command, list legal commands, views.

    state = new_game(config, seed)
    state, events = apply(state, "p1", "move KESTREL E3")
    legal_commands(state, "p2")

A round is the orbital phase (ships by initiative, NPCs last), the surface phase (not
built yet) and the world event phase. Every pause is a pending decision; an illegal
command raises RuleError and changes nothing.
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple, Optional

import msgspec

from engine import command_text
from engine.errors import RuleError
from engine.renegades import orbit
from engine.renegades.content import STATIONS
from engine.renegades.orbit import Game
from engine.renegades.setup import new_game  # noqa: F401  (part of the public face)
from engine.renegades.state import Decision, GameState, Turn, clone

__all__ = ["new_game", "apply", "canonical", "legal_commands", "awaited", "view_for", "turn_of",
           "display_names", "begin_round", "run"]

FACTION_RANK = {"renegade": 0, "coalition": 1}  # Renegades first on equal initiative


# --- the order of play ---------------------------------------------------------------------------
def begin_round(state: GameState) -> None:
    """Start the orbital phase: player ships by initiative, then the NPCs."""
    g = Game(state)
    for ship in state.ships.values():
        ship.hurt_by = {}
        ship.assigned = None
    seat_index = {seat: i for i, seat in enumerate(state.seats)}
    players = [s for s in state.ships.values() if s.seat is not None]
    players.sort(key=lambda s: (-orbit.initiative(g, s), FACTION_RANK[s.faction], seat_index[s.seat], s.id))
    state.order = [s.id for s in players] + orbit.npc_order(g)
    state.turn, state.current, state.phase = 0, None, "orbital"


def _advance(g: Game) -> None:
    """Run the game forward until somebody has to decide something (or it is over)."""
    s = g.state
    while not s.pending and s.phase != "over":
        if s.phase == "orbital":
            if s.current is not None:
                ship = s.ships.get(s.current.ship)
                if ship is not None and s.current.actions_left > 0:
                    s.pending.append(Decision("ship", ship.seat, {"ship": ship.id, "left": s.current.actions_left}))
                else:
                    g.emit("turn_over", ship=s.current.ship)
                    s.current, s.turn = None, s.turn + 1
            elif s.turn < len(s.order):
                ship = s.ships.get(s.order[s.turn])
                if ship is None:  # destroyed before its turn
                    s.turn += 1
                elif ship.seat is None:
                    g.emit("npc_turn", ship=ship.id)
                    orbit.npc_turn(g, ship)
                    s.turn += 1
                else:
                    s.current = Turn(ship=ship.id)
                    g.emit("ship_turn", ship=ship.id, seat=ship.seat, initiative=orbit.initiative(g, ship))
            else:
                s.phase = "surface"
        elif s.phase == "surface":
            s.phase = "world"  # N16: no landing parties yet, so the surface phase is empty
        elif s.phase == "world":
            _end_round(g)


def _end_round(g: Game) -> None:
    """Home repairs, then the world event phase; the round after the last card is the final one."""
    s = g.state
    for ship in s.ships.values():
        home = g.board.home_of(ship.faction) if ship.kind == "ship" else None
        if home and ship.docked == home.code and ship.damage > ship.shields:
            repaired = min(2, ship.damage - ship.shields)
            ship.damage -= repaired
            g.emit("repaired", ship=ship.id, amount=repaired, at=home.code)
    if s.world_deck:
        _world_event(g, s.world_deck.pop(0))
        if not s.world_deck:
            s.last_round = s.round + 1
            g.emit("last_world_card", final_round=s.last_round)
    if s.last_round is not None and s.round >= s.last_round:
        s.phase = "over"
        s.result = {"outcome": "unfinished", "reason": "the world deck ran out before the mission was completed",
                    "damage": {ship.id: ship.damage for ship in s.ships.values() if ship.kind == "ship"}}
        g.emit("game_over", **s.result)
        return
    s.round += 1
    g.emit("round", round=s.round)
    begin_round(s)


def _world_event(g: Game, code: str) -> None:
    s = g.state
    card = g.pack.world_events[code]
    s.world_discard.append(code)
    coalition = [p for p in s.players if p.faction == "coalition"]
    reader = max(coalition, key=lambda p: max(orbit.initiative(g, s.ships[x]) for x in p.ships)).seat \
        if coalition else s.seats[0]  # N17: with no Coalition player the first seat reads it
    g.emit("world_event", card=code, reader=reader)
    effect = card.effect
    in_orbit = [ship for ship in sorted(s.ships.values(), key=lambda x: x.id) if ship.cell is not None]
    if card.where == "surface" or effect.kind == "story":
        return
    if effect.kind == "damage":
        for ship in in_orbit:
            if effect.area == "all" or ship.cell in g.board.obstructed:
                g.emit("event_damage", ship=ship.id, amount=effect.amount)
                orbit.take_damage(g, ship, effect.amount, None)
    elif effect.kind == "repair":
        for ship in sorted(s.ships.values(), key=lambda x: x.id):
            if ship.seat is not None and ship.damage:
                amount = min(effect.amount, ship.damage)
                ship.damage -= amount
                g.emit("repaired", ship=ship.id, amount=amount, at="event")
    elif effect.kind == "fighters":
        _spawn_fighters(g, effect.squadron)


def _spawn_fighters(g: Game, squadron: str) -> None:
    """Roll a die for how many join, less those already on the board, up to the pool, at a
    random location (the top location card, then a random free square of that tile; N18)."""
    s = g.state
    spec = next(f for f in g.pack.fighters.values() if f.squadron == squadron)
    face = s.dice.roll(1)[0]
    present = sum(1 for x in s.ships.values() if x.faction == squadron)
    count = max(0, min(face, spec.pool) - present)
    location = s.location_deck[0]
    free = [c for c in g.board.location_cells(location) if c not in g.board.blocking and c not in g.occupied()]
    placed = []
    for _ in range(min(count, len(free))):
        cell = free.pop(s.dice.below(len(free)))
        s.fighters_made += 1
        code = f"{squadron.upper()}-{s.fighters_made}"
        s.ships[code] = msgspec.structs.replace(
            _fighter_template(spec), id=code, cell=cell)
        placed.append(code)
    s.dice.shuffle(s.location_deck)
    g.emit("fighters_arrive", squadron=squadron, die=face, already=present, location=location,
           fighters=placed, cells=[s.ships[c].cell for c in placed])


def _fighter_template(spec):
    from engine.renegades.state import Ship
    return Ship(id="", name=spec.name, faction=spec.squadron, kind="fighter", facing="S", range=spec.range,
                shields=spec.health, hull=0, attack=spec.attack, speed=spec.speed)


def run(state: GameState) -> list[dict]:
    """Advance a freshly changed state to its next decision; the events on the way."""
    g = Game(state)
    _advance(g)
    return g.events


# --- commands -------------------------------------------------------------------------------------
def _acting_ship(g: Game, name: str):
    s = g.state
    ship = s.ships.get(name)
    if ship is None or s.current is None or ship.id != s.current.ship:
        raise RuleError(f"It is the {s.current.ship}'s turn, not '{name}'s." if s.current else "No ship is acting.")
    return ship


def _spend(g: Game) -> None:
    g.state.current.actions_left -= 1
    g.state.current.acted = True


def _on_move(g, seat, args):
    ship = _acting_ship(g, args[0])
    orbit.move(g, ship, orbit.parse_legs(args[1:]))
    _spend(g)


def _on_attack(g, seat, args):
    ship = _acting_ship(g, args[0])
    target = g.state.ships.get(args[1])
    if target is None:
        raise RuleError(f"No ship '{args[1]}' on the board.")
    orbit.attack(g, ship, target)
    _spend(g)


def _on_descend(g, seat, args):
    ship = _acting_ship(g, args[0])
    orbit.descend(g, ship, args[1] if len(args) > 1 else None)
    g.state.current.actions_left = 0  # the turn ends on touchdown


def _on_ascend(g, seat, args):
    ship = _acting_ship(g, args[0])
    orbit.ascend(g, ship)
    _spend(g)


def _on_station(g, seat, args):
    """Free action at the start of the ship's turn: a crewmember takes another station; whoever
    held it takes the one left (N19)."""
    ship = _acting_ship(g, args[0])
    code, station = args[1], args[2]
    if g.state.current.acted:
        raise RuleError("Crew change stations only at the start of the ship's turn, before any action.")
    if station not in STATIONS:
        raise RuleError(f"A station is one of {', '.join(STATIONS)}.")
    crew = g.state.crew.get(code)
    if crew is None or crew.ship != ship.id or crew.station is None:
        raise RuleError(f"{code} is not at a station of the {ship.name}.")
    if crew.station == station:
        raise RuleError(f"{code} is already at {station}.")
    old = crew.station
    other = ship.stations.get(station)
    ship.stations[station] = code
    crew.station = station
    if other is not None:
        ship.stations[old] = other
        g.state.crew[other].station = old
    else:
        del ship.stations[old]
    g.emit("station", ship=ship.id, crew=code, station=station, swapped=other, to=old if other else None)


def _on_pass(g, seat, args):
    g.emit("passed", ship=g.state.current.ship, left=g.state.current.actions_left)
    g.state.current.actions_left = 0


class Verb(NamedTuple):
    handler: Callable
    usage: str
    least: int
    most: int
    cases: str  # per argument: U upper, L lower; the last letter repeats


COMMANDS: dict[str, Verb] = {
    "move": Verb(_on_move, "move SHIP LEG [LEG ...]  (a leg: N, NE3, ...)", 2, 5, "UU"),
    "attack": Verb(_on_attack, "attack SHIP TARGET", 2, 2, "UU"),
    "descend": Verb(_on_descend, "descend SHIP [PLANET]", 1, 2, "UL"),
    "ascend": Verb(_on_ascend, "ascend SHIP", 1, 1, "U"),
    "station": Verb(_on_station, "station SHIP CREW STATION", 3, 3, "UUL"),
    "pass": Verb(_on_pass, "pass", 0, 0, ""),
}


def parse(command: Any) -> tuple[str, list[str]]:
    found = command_text.words(command)
    verb, args = found[0].lower(), found[1:]
    grammar = COMMANDS.get(verb)
    if grammar is None:
        raise RuleError(f"Unknown command '{command_text.quote(found[0])}'. Commands: {', '.join(sorted(COMMANDS))}.")
    if not grammar.least <= len(args) <= grammar.most:
        raise RuleError(f"Usage: {grammar.usage}")
    cases = grammar.cases
    return verb, [a.upper() if cases[min(i, len(cases) - 1)] == "U" else a.lower() for i, a in enumerate(args)]


def canonical(command: Any) -> str:
    verb, args = parse(command)
    return " ".join([verb, *args])


def awaited(state: GameState) -> list[str]:
    return list(dict.fromkeys(d.player for d in state.pending))


def turn_of(state: GameState) -> Optional[str]:
    seats = awaited(state)
    return seats[0] if state.phase != "over" and len(seats) == 1 else None


def apply(state: GameState, seat: str, command: str) -> tuple[GameState, list[dict]]:
    """Apply one player's command; the new state and what happened. RuleError leaves `state` as it was."""
    verb, args = parse(command)
    if state.phase == "over":
        raise RuleError("The game is over.")
    if seat not in state.seats:
        raise RuleError("You are not seated in this game.")
    if not any(d.player == seat for d in state.pending):
        raise RuleError(f"It is not your decision (waiting for {', '.join(awaited(state)) or 'nobody'}).")
    new = clone(state)
    g = Game(new)
    new.pending = [d for d in new.pending if d.player != seat]
    COMMANDS[verb].handler(g, seat, args)
    _advance(g)
    new.version = state.version + 1
    return new, g.events


# --- legal commands --------------------------------------------------------------------------------
def legal_commands(state: GameState, seat: str) -> list[str]:
    """Every command `seat` may send now. Moves are listed as single legs; moves of several
    legs within the movement points are legal too."""
    if state.phase == "over" or not any(d.player == seat for d in state.pending):
        return []
    g = Game(state)
    ship = state.ships[state.current.ship]
    options = []
    if ship.cell is not None:
        points = orbit.speed(g, ship)
        occupied = g.occupied(ship)
        for direction in orbit.DIRECTIONS:
            for count in range(0, points + 1):
                try:
                    path, facing, cost = g.board.walk(ship.cell, ship.facing, [(direction, count)], occupied)
                except RuleError:
                    break
                if cost > points:
                    break
                if path or facing != ship.facing:
                    options.append(f"move {ship.id} {direction}{count if count else ''}")
        options += [f"attack {ship.id} {t.id}" for t in sorted(state.ships.values(), key=lambda x: x.id)
                    if orbit.can_fire(g, ship, t) is not None]
        for planet in g.board.planets.values():
            if g.board.beside_planet(ship.cell, planet.code) and (
                    planet.mission or (planet.home == ship.faction and ship.critical)):
                options.append(f"descend {ship.id} {planet.code}")
    elif ship.docked_round < state.round:
        options.append(f"ascend {ship.id}")
    if not state.current.acted:
        for station, code in ship.stations.items():
            options += [f"station {ship.id} {code} {other}" for other in STATIONS if other != station]
    options.append("pass")
    return options


# --- views -------------------------------------------------------------------------------------------
def display_names(state: GameState) -> dict[str, str]:
    g = Game(state)
    names = {code: card.name for code, card in g.pack.world_events.items()}
    names.update({code: crew.name for code, crew in state.crew.items()})
    names.update({code: ship.name if ship.kind == "ship" else f"{ship.name} {code.rsplit('-', 1)[-1]}"
                  for code, ship in state.ships.items()})  # fighters share a name: 'Dregg fighter 2'
    return names


def view_for(state: GameState, seat: Optional[str]) -> dict[str, Any]:
    """What `seat` may see (None: everyone): the world and location decks as counts only,
    never the dice generator or the seed."""
    view = msgspec.to_builtins(state)
    view.pop("dice", None)
    view.pop("seed", None)
    view["world_deck_count"] = len(view.pop("world_deck", []))
    view["location_deck_count"] = len(view.pop("location_deck", []))
    return view
