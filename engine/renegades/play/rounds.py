"""The order of play: a round's orbital phase (ships by initiative, NPCs last), its surface
phase (engine/renegades/play/parties.py) and its world event phase, run forward until somebody
has a decision to make; the world deck, its events and the final round (N17, N18, N20)."""
from __future__ import annotations

import msgspec

from engine.renegades.contents.game import Game
from engine.renegades.contents.state import Decision, GameState, Ship, Turn
from engine.renegades.orbit import abilities, medbay, orbit
from engine.renegades.play import bounties, parties
from engine.renegades.surface import figures, fire, home_run, landing, missions


def begin_round(state: GameState) -> None:
    """Start the orbital phase: player ships by initiative, then the NPCs."""
    g = Game(state)
    for ship in state.ships.values():
        ship.hurt_by = {}
        ship.assigned = None
        if ship.boosts:  # abilities and tactics of past rounds are gone
            ship.boosts = {k: v for k, v in ship.boosts.items() if v[0] >= state.round}
    for crew in state.crew.values():
        crew.hurt_by, crew.assigned = {}, None
    for figure in state.figures.values():
        figure.hurt_by = {}
    seat_index = {seat: i for i, seat in enumerate(state.seats)}
    players = [s for s in state.ships.values() if s.seat is not None]
    players.sort(key=lambda s: (-orbit.initiative(g, s), orbit.FACTION_RANK[s.faction], seat_index[s.seat], s.id))
    state.order = [s.id for s in players] + orbit.npc_order(g)
    state.turn, state.current, state.phase = 0, None, "orbital"


def advance(g: Game) -> None:
    """Run the game forward until somebody has to decide something (or it is over)."""
    s = g.state
    bounties.settle(g)
    missions.check(g)
    while not s.pending and s.phase != "over":
        if s.phase == "landing":
            _advance_landing(g)
        elif s.phase == "orbital":
            _advance_orbit(g)
        elif s.phase == "surface":
            parties.advance(g)
        elif s.phase in ("world", "event"):
            _end_round(g)
        bounties.settle(g)
        missions.check(g)


def _advance_landing(g: Game) -> None:
    """The quicker game's start (N57): each player in turn deploys a landing party from its
    ship docked on the mission planet, then round 1 begins with the surface phase."""
    s = g.state
    if s.turn < len(s.order):
        ship = s.ships[s.order[s.turn]]
        s.turn += 1
        s.pending.append(Decision("deploy", ship.seat, {"ship": ship.id}))
    else:
        parties.begin(g)


def _advance_orbit(g: Game) -> None:
    s = g.state
    if s.current is not None:
        ship = s.ships.get(s.current.ship)
        if ship is not None and not s.current.done and (s.current.actions_left > 0 or abilities.follow_ups(g, ship)):
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
            if ship.id in s.ships:
                _after_npc_ship(g, ship)
            s.turn += 1
        else:
            s.current = Turn(ship=ship.id)
            g.emit("ship_turn", ship=ship.id, seat=ship.seat, initiative=orbit.initiative(g, ship))
    else:
        medbay.turn_prisoners(g)
        parties.begin(g)


def _after_npc_ship(g: Game, ship) -> None:
    """An NPC ship home with the parameter says so; one that touched down on the planet
    whose surface is in play takes a dock and lands its party (N43, N146, N148); one that
    rose frees its dock, and rising with the findings in tier 3 starts its run (N145)."""
    s = g.state
    if ship.docked is not None and ship.docked != g.board.mission_planet.code:
        missions.arrived_home(g, ship)
    if ship.docked == g.surface_planet and ship.id not in s.docks:
        if g.free_docks():
            landing.dock(g, ship)
            figures.npc_deploy(g, ship)
    elif ship.cell is not None:
        s.docks.pop(ship.id, None)
        home_run.begin(g, ship)


def begin_surface(state: GameState) -> None:
    """Start the surface phase (scenarios start there)."""
    parties.begin(Game(state))


def _end_round(g: Game) -> None:
    """Home repairs, then the world event phase; the round after the last card is the final
    one. Phase `event`: the reader's choice about a world card was answered (N218)."""
    s = g.state
    if s.phase == "world":
        medbay.heal_round(g)
        for ship in s.ships.values():
            home = g.board.home_of(ship.faction) if ship.kind == "ship" else None
            if home and ship.docked == home.code and ship.damage > ship.shields:
                repaired = min(2, ship.damage - ship.shields)
                ship.damage -= repaired
                g.emit("repaired", ship=ship.id, amount=repaired, at=home.code)
        s.weather = None  # a surface condition lasts one round (N160)
        _start_world_clock(g)
        if s.world_clock is not None and s.world_deck:
            draw_world_card(g)
        if s.pending:
            return
    s.phase = "world"
    missions.check(g)  # a world card may have crippled the ship carrying the parameter (N46)
    if s.phase != "world":  # the mission ended
        return
    if s.last_round is not None and s.round >= s.last_round:
        missions.game_over(g, {
            "outcome": "unfinished", "winner": None, "reason": "the world deck ran out before the mission was completed",
            "damage": {ship.id: ship.damage for ship in s.ships.values() if ship.kind == "ship"}})
        return
    s.round += 1
    g.emit("round", round=s.round)
    begin_round(s)


CLOCK_LATEST = 5  # the round whose end draws the first world card even with nobody landed (N20)


def _start_world_clock(g: Game) -> None:
    """N20: the world deck starts at the end of the first round that ends with a landing
    party on the surface, or at the end of round CLOCK_LATEST with none."""
    s = g.state
    if s.world_clock is not None:
        return
    landed = any(c.cell is not None and not c.captive for c in s.crew.values())
    if landed or s.round >= CLOCK_LATEST:
        s.world_clock = s.round
        g.emit("world_clock", round=s.round, landed=landed)


def draw_world_card(g: Game) -> None:
    """The top world card, resolved at once unless its reader has a choice to make (N218);
    the last one drawn fixes the final round (N20)."""
    s = g.state
    _world_event(g, s.world_deck.pop(0))
    if not s.world_deck and not s.pending:
        last_card(g)


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
    if effect.kind == "enemies" and s.world_deck and figures.mate_may_join(g, effect.villain):
        s.phase = "event"  # N218: a mate joins the creature already hunting, or another card is drawn
        s.pending.append(Decision("creature", reader, {"card": code, "creature": effect.villain}))
        return
    if effect.kind == "enemies":
        location = figures.arrive(g, effect.villain, effect.commander, effect.most, table=effect.table)
        if effect.also is not None:  # N214: the second species rolled for on its own, at another location
            figures.arrive(g, effect.also, None, effect.also_most, not_at=location, table=effect.also_table)
        return
    if effect.kind == "fire":
        fire.ignite(g)
        return
    if effect.kind == "weather":
        s.weather = code
        g.emit("weather", card=code, round=s.round + 1)
        return
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
    return Ship(id="", name=spec.name, faction=spec.squadron, kind="fighter", facing="S", range=spec.range,
                shields=spec.health, hull=0, attack=spec.attack, speed=spec.speed)


def run(state: GameState) -> list[dict]:
    """Advance a freshly changed state to its next decision; the events on the way."""
    g = Game(state)
    advance(g)
    return g.events


def last_card(g: Game) -> None:
    g.state.last_round = g.state.round + 1
    g.emit("last_world_card", final_round=g.state.last_round)
