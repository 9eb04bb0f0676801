"""The Renegades ruleset's public face: apply a command, list legal commands, views.

    state = new_game(config, seed)
    state, events = apply(state, "p1", "move KESTREL E3")
    legal_commands(state, "p2")

A round is the orbital phase (ships by initiative, NPCs last), the surface phase (landing
parties by the sum of their initiatives, NPC crew and figures last) and the world event
phase, run in play/rounds.py. Every pause is a pending decision; an illegal command raises RuleError and changes
nothing.
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple, Optional

import msgspec

from engine import command_text
from engine.errors import RuleError
from engine.renegades.contents.content import STATIONS
from engine.renegades.contents.game import Game
from engine.renegades.contents.state import Decision, GameState, clone, to_builtins
from engine.renegades.crew import hands, pieces
from engine.renegades.orbit import abilities, orbit, placing, salvage
from engine.renegades.play import bounties, parties, rounds
from engine.renegades.play.rounds import begin_round, begin_surface, run  # noqa: F401  (part of the public face)
from engine.renegades.setup import draft, setup
from engine.renegades.setup.setup import new_game  # noqa: F401  (part of the public face)
from engine.renegades.surface import (boarding, crew_combat, dropped, figures, fire, gear_actions, grenades,
                                      home_run, landing, leaping, missions, special_actions, weather)

__all__ = ["new_game", "apply", "canonical", "legal_commands", "awaited", "view_for", "turn_of", "stage",
           "display_names", "begin_round", "begin_surface", "run"]

# --- commands -------------------------------------------------------------------------------------
def _acting_ship(g: Game, name: str):
    s = g.state
    ship = s.ships.get(name)
    if ship is None or s.current is None or ship.id != s.current.ship:
        if s.current is None:
            raise RuleError("No ship is acting.")
        raise RuleError(f"It is the {s.ships[s.current.ship].name}'s turn, not '{command_text.quote(name)}'s.")
    return ship


def _spend(g: Game) -> None:
    if g.state.current.actions_left <= 0:  # the turn is open only for a free move after the last action
        raise RuleError("The ship has used both its actions; only a free move or `pass` is left.")
    g.state.current.actions_left -= 1
    g.state.current.acted = True


def _orbital(g: Game, verb: str) -> None:
    if g.state.phase != "orbital" or any(d.kind != "ship" for d in g.answering):
        raise RuleError(f"'{verb}' with a ship is for the ship's turn in the orbital phase.")


def _crewmember(g: Game, code: str, action: bool = True, aboard: Optional[bool] = False):
    """The crewmember of the acting landing party named `code`, on the surface (or with
    `aboard` aboard; None: either); with `action`, one that has an action left (spent by
    the caller)."""
    s = g.state
    if s.phase != "surface" or s.current is None:
        raise RuleError("Crewmembers act in the surface phase, on their landing party's turn.")
    crew = s.crew.get(code)
    if crew is None or code not in s.current.crew:
        raise RuleError(f"{command_text.quote(code)} is not in the {s.ships[s.current.ship].name}'s landing party "
                        "this turn.")
    if crew.ko:
        raise RuleError(f"{crew.name} is unconscious.")
    if aboard is not None and (crew.cell is None) != aboard:
        raise RuleError(f"{crew.name} is aboard the ship; disembark first." if crew.cell is None
                        else f"{crew.name} is already on the surface.")
    if action and s.current.crew[code] <= 0:
        raise RuleError(f"{crew.name} has used both actions this turn.")
    return crew


def _use(g: Game, crew) -> None:
    g.state.current.crew[crew.id] -= 1
    crew.rounds["acted"] = g.state.round  # no more weapon swaps this turn (N221)


def _on_move(g, seat, args):
    if g.state.phase == "surface":
        crew = _crewmember(g, args[0])
        if len(args) != 2:
            raise RuleError("Usage: move CREW SQUARE (on the surface)")
        if landing.move(g, crew, args[1]):
            _use(g, crew)
        return
    _orbital(g, "move")
    ship = _acting_ship(g, args[0])
    orbit.move(g, ship, orbit.parse_legs(args[1:]))
    _spend(g)
    g.state.current.moved = True


def _on_attack(g, seat, args):
    if g.state.phase == "surface":
        crew = _crewmember(g, args[0], aboard=None)
        target = pieces.piece(g, args[1])
        if target is None:
            raise RuleError(f"No crewmember or figure '{args[1]}' on the surface.")
        refusal = crew_combat.attack_refusal(g, crew, target)
        if refusal:
            raise RuleError(refusal)
        if special_actions.rallied_last(g, crew):
            raise RuleError(f"{crew.name}'s last action came from a rally and cannot be an attack.")
        crew_combat.strike(g, crew, target)
        _use(g, crew)
        return
    _orbital(g, "attack")
    ship = _acting_ship(g, args[0])
    target = g.state.ships.get(args[1])
    if target is None:
        raise RuleError(f"No ship '{args[1]}' on the board.")
    orbit.attack(g, ship, target)
    _spend(g)
    g.state.current.attacked = True


def _on_descend(g, seat, args):
    _orbital(g, "descend")
    ship = _acting_ship(g, args[0])
    if g.state.current.actions_left <= 0:
        raise RuleError("The ship has used both its actions; only a free move or `pass` is left.")
    orbit.descend(g, ship, args[1] if len(args) > 1 else None)
    g.state.current.actions_left = 0  # the turn ends on touchdown
    if ship.docked != g.board.mission_planet.code:
        missions.arrived_home(g, ship)
    if ship.docked == g.surface_planet:  # the mission planet, or tier 3's home run (N170)
        cell = landing.dock(g, ship)
        g.emit("docked", ship=ship.id, dock=cell)
        g.state.pending.append(Decision("deploy", seat, {"ship": ship.id}))


def _touched_down(g: Game) -> Optional[str]:
    """The ship whose landing party is to deploy, if that is the decision answered."""
    return next((d.info["ship"] for d in g.answering if d.kind == "deploy"), None)


def _on_deploy(g, seat, args):
    s = g.state
    landed = _touched_down(g)
    if landed is None:
        raise RuleError("A landing party deploys when its ship touches down on the mission planet.")
    ship = s.ships.get(args[0])
    if ship is None or ship.id != landed:
        raise RuleError(f"The {landed} is the ship that touched down.")
    if len({a.partition("=")[0] for a in args[1:]}) != len(args) - 1:
        raise RuleError("Name each crewmember once.")
    landing.deploy(g, ship, list(args[1:]))


def _on_ascend(g, seat, args):
    s = g.state
    if s.phase == "surface":
        seized = s.ships.get(args[0])
        holder = next((c for c in boarding.boarders(g, seized) if c.id in s.current.crew), None) if seized else None
        if holder is not None:
            boarding.fly_off(g, holder, seized)
            return
        ship = _acting_ship(g, args[0])
        if ship.id not in s.docks:
            raise RuleError(f"The {ship.name} is not docked on the surface.")
        _rise(g, ship)
        return
    _orbital(g, "ascend")
    _rise(g, _acting_ship(g, args[0]))
    _spend(g)


def _rise(g: Game, ship) -> None:
    """The ship returns to orbit and frees its dock; rising with the findings in tier 3
    starts the run on its home surface (N170)."""
    orbit.ascend(g, ship)
    g.state.docks.pop(ship.id, None)
    home_run.begin(g, ship)


def _on_station(g, seat, args):
    """Free action at the start of the ship's turn: a crewmember aboard takes a station;
    whoever held it takes the one left, or goes off station (N19)."""
    _orbital(g, "station")
    ship = _acting_ship(g, args[0])
    code, station = args[1], args[2]
    if g.state.current.acted:
        raise RuleError("Crew change stations only at the start of the ship's turn, before any action.")
    if station not in STATIONS:
        raise RuleError(f"A station is one of {', '.join(STATIONS)}.")
    crew = g.state.crew.get(code)
    if crew is None or crew.ship != ship.id or crew.cell is not None or crew.ko or crew.captive \
            or crew.room == "brig":
        raise RuleError(f"{code} is not conscious crew aboard the {ship.name}.")
    if crew.station == station:
        raise RuleError(f"{code} is already at {station}.")
    old = crew.station
    other = ship.stations.get(station)
    ship.stations[station] = code
    crew.station, crew.room = station, None
    if other is not None:
        if old is not None:
            ship.stations[old] = other
        g.state.crew[other].station = old
    elif old is not None:
        del ship.stations[old]
    g.emit("station", ship=ship.id, crew=code, station=station, swapped=other, to=old if other else None)


def _on_salvage(g, seat, args):
    _orbital(g, "salvage")
    ship = _acting_ship(g, args[0])
    salvage.collect(g, ship, seat, args[1])
    _spend(g)


def _on_ability(g, seat, args):
    _orbital(g, "ability")
    abilities.use(g, _acting_ship(g, args[0]), args[1], args[2:])


def _either(verb, orbital, surface):
    """A verb of both phases: `orbital(g, seat, args)` on a ship's turn in orbit, else the surface one."""
    def handler(g, seat, args):
        if g.state.phase == "orbital":
            _orbital(g, verb)
            orbital(g, seat, args)
        else:
            surface(g, seat, args)
    return handler


def _orbital_scan(g, seat, args):
    if len(args) != 2:
        raise RuleError("Usage: scan SHIP SQUARE (salvage beside the ship, in orbit)")
    salvage.scan(g, _acting_ship(g, args[0]), seat, args[1])


def _orbital_tactic(g, seat, args):
    abilities.tactic(g, _acting_ship(g, args[0]), seat, args[1:])


def _surface_tactic(g, seat, args):
    if len(args) != 2:
        raise RuleError("Usage: tactic COMMANDER CREW (on the surface)")
    _surface_action(lambda g, c, seat, r: landing.tactic(g, c, seat, r[0]), False)(g, seat, args)


def _surface_action(act, action=True, aboard=False):
    """A surface command on one crewmember: `act(g, crew, seat, rest)`; spends an action
    when `action`, unless `act` returns False (a test failed before anything was done)."""
    def handler(g, seat, args):
        crew = _crewmember(g, args[0], action, aboard)
        if act(g, crew, seat, args[1:]) is not False and action:
            _use(g, crew)
    return handler


def _on_raise(g, seat, args):
    """The attacker's player places the bonuses of the attack waiting for them (N122)."""
    strike = g.state.strike
    if args[0] != strike.attacker:
        raise RuleError(f"The attack waiting for its bonuses is {strike.attacker}'s.")
    faces = placing.chosen(strike.red, [(add, n) for add, n in strike.bonuses], args[1:])
    g.state.strike = None
    if strike.kind == "ship":
        orbit.finish_attack(g, strike, faces)
    else:
        crew_combat.finish_strike(g, strike, faces)


def _disembark(g, crew, seat, rest):
    if crew.boarded:
        boarding.leave(g, crew)
    else:
        landing.step_out(g, crew, g.state.ships[crew.ship])


def _on_creature(g, seat, args):
    """The reader's answer to a creature card whose creature already hunts (N218): `join`,
    a mate comes; `draw`, the card is set aside and the next world card drawn instead."""
    asked = next(d for d in g.answering if d.kind == "creature")
    if args[0] not in ("join", "draw"):
        raise RuleError("Answer `creature join` (its mate joins the hunt) or `creature draw` (another world card).")
    g.emit("creature_choice", card=asked.info["card"], creature=asked.info["creature"], choice=args[0])
    if args[0] == "join":
        effect = g.pack.world_events[asked.info["card"]].effect
        figures.arrive(g, effect.villain, effect.commander, effect.most, table=effect.table)
        if not g.state.world_deck:
            rounds.last_card(g)
    else:
        rounds.draw_world_card(g)


def _on_draft(g, seat, args):
    """A pick of the crew draft (N219); the last one launches the drafted ships and the
    set-up goes on to the first round."""
    config = g.state.draft.config
    g.emit("drafted", seat=seat, ship=g.state.draft.order[g.state.draft.made], crew=args[0])
    if draft.pick(g.state, g.pack, seat, args[0]):
        setup.launch_drafted(g.state, g.pack)
        setup.finish(g.state, g.pack, config)


def _on_pass(g, seat, args):
    s = g.state
    if s.phase == "surface":
        g.emit("passed", ship=s.current.ship, crew=dict(s.current.crew))
        s.current.crew = {c: 0 for c in s.current.crew}
        s.turn, s.current = s.turn + 1, None
        return
    if _touched_down(g):
        landing.deploy(g, s.ships[_touched_down(g)], [])
        return
    g.emit("passed", ship=s.current.ship, left=max(0, s.current.actions_left))
    s.current.actions_left, s.current.done = 0, True


# Decisions only their own verb answers, and what a refusal of any other verb says.
ANSWERED_BY = {"creature": "A creature already hunts: answer `creature join` or `creature draw`.",
               "draft": "The crews are being drafted: answer `draft CREW`."}


class Verb(NamedTuple):
    handler: Callable
    usage: str
    least: int
    most: int
    cases: str  # per argument: U upper, L lower; the last letter repeats


COMMANDS: dict[str, Verb] = {
    "move": Verb(_on_move, "move SHIP LEG [LEG ...]  (a leg: N, NE3, ...) | move CREW SQUARE", 2, 5, "UU"),
    "attack": Verb(_on_attack, "attack SHIP TARGET | attack CREW TARGET", 2, 2, "UU"),
    "descend": Verb(_on_descend, "descend SHIP [PLANET]", 1, 2, "UL"),
    "ascend": Verb(_on_ascend, "ascend SHIP", 1, 1, "U"),
    "station": Verb(_on_station, "station SHIP CREW STATION", 3, 3, "UUL"),
    "deploy": Verb(_on_deploy, "deploy SHIP [CREW[=SQUARE] ...]  (up to three)", 1, 4, "U"),
    "disembark": Verb(_surface_action(_disembark, aboard=True), "disembark CREW", 1, 1, "U"),
    "open": Verb(_surface_action(lambda g, c, seat, r: landing.open_container(g, c, seat, r[0])),
                 "open CREW SQUARE", 2, 2, "U"),
    "scan": Verb(_either("scan", _orbital_scan,
                         _surface_action(lambda g, c, seat, r: landing.scan(g, c, seat, r[0] if r else None), False)),
                 "scan CREW [SQUARE] | scan SHIP SQUARE", 1, 2, "U"),
    "salvage": Verb(_on_salvage, "salvage SHIP SQUARE", 2, 2, "U"),
    "ability": Verb(_on_ability, "ability SHIP EFFECT [TARGET | LEG ...]  (command, evasive, weakness, "
                    "targeting, overclock)", 2, 6, "ULU"),
    "hide": Verb(_surface_action(lambda g, c, seat, r: landing.hide(g, c), False), "hide CREW", 1, 1, "U"),
    "carry": Verb(_surface_action(lambda g, c, seat, r: landing.carry(g, c, r[0])), "carry CREW OTHER", 2, 2, "U"),
    "take": Verb(_surface_action(lambda g, c, seat, r: landing.take(g, c)), "take CREW", 1, 1, "U"),
    "board": Verb(_surface_action(lambda g, c, seat, r: boarding.board(g, c, r[0]) if r else landing.board(g, c)),
                  "board CREW [SHIP]", 1, 2, "U"),
    "free": Verb(_surface_action(lambda g, c, seat, r: boarding.free(g, c), aboard=True), "free CREW", 1, 1, "U"),
    "throw": Verb(_surface_action(lambda g, c, seat, r: grenades.throw(g, c, r[0])), "throw CREW SQUARE", 2, 2, "U"),
    "wield": Verb(_surface_action(lambda g, c, seat, r: hands.wield(g, c, r), False),
                  "wield CREW [WEAPON ...]  (the weapons in hand, before its first action)", 1, 3, "UL"),
    "give": Verb(_surface_action(lambda g, c, seat, r: landing.give(g, c, r[0], r[1]), False),
                 "give CREW OTHER ITEM", 3, 3, "UUL"),
    "tactic": Verb(_either("tactic", _orbital_tactic, _surface_tactic),
                   "tactic COMMANDER CREW | tactic SHIP [LEG ...]", 1, 5, "U"),
    "rally": Verb(_surface_action(lambda g, c, seat, r: special_actions.rally(g, c, r[0])), "rally CREW OTHER",
                  2, 2, "U"),
    "mend": Verb(_surface_action(lambda g, c, seat, r: special_actions.mend(g, c, r[0])), "mend CREW OTHER",
                 2, 2, "U"),
    "charge": Verb(_surface_action(lambda g, c, seat, r: special_actions.charge(g, c, r[0], r[1])),
                   "charge CREW SQUARE TARGET", 3, 3, "U"),
    "drop": Verb(_surface_action(lambda g, c, seat, r: dropped.drop(g, c, r[0], r[1] if len(r) > 1 else c.cell),
                                 False), "drop CREW ITEM [SQUARE]", 2, 3, "ULU"),
    "pickup": Verb(_surface_action(lambda g, c, seat, r: dropped.pick_up(g, c, r[0], r[1])),
                   "pickup CREW SQUARE ITEM", 3, 3, "UUL"),
    "use": Verb(_surface_action(lambda g, c, seat, r: gear_actions.use(g, c, r[0], r[1:])),
                "use CREW ITEM [OTHER]  (a blink beacon or a field med kit)", 2, 3, "ULU"),
    "douse": Verb(_surface_action(lambda g, c, seat, r: fire.douse(g, c, r[0])), "douse CREW SQUARE", 2, 2, "U"),
    "leap": Verb(_surface_action(lambda g, c, seat, r: leaping.leap(g, c, r[0])), "leap CREW SQUARE", 2, 2, "U"),
    "raise": Verb(_on_raise, "raise ATTACKER FROM>TO [FROM>TO ...]  (the attack bonuses: 3>4 raises a 3 to 4)",
                  2, 9, "U"),
    "creature": Verb(_on_creature, "creature join | creature draw", 1, 1, "L"),
    "draft": Verb(_on_draft, "draft CREW", 1, 1, "U"),
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


def stage(state: GameState) -> tuple[int, Optional[str]]:
    """The round under way and the activation under way (a ship's orbital turn, or its
    away party's surface activation), as a key that differs from one to the next (None
    between them and in the draft)."""
    turn = state.current
    return state.round, None if turn is None or state.phase == "draft" else f"{state.phase}:{state.turn}:{turn.ship}"


def apply(state: GameState, seat: str, command: str) -> tuple[GameState, list[dict]]:
    """Apply one player's command; the new state and what happened. RuleError leaves `state` as it was."""
    verb, args = parse(command)
    if state.phase == "over":
        raise RuleError("The game is over.")
    if seat not in state.seats:
        raise RuleError("You are not seated in this game.")
    if not any(d.player == seat for d in state.pending):
        raise RuleError(f"It is not your decision (waiting for {', '.join(awaited(state)) or 'nobody'}).")
    if (verb == "raise") != (state.strike is not None):
        raise RuleError(f"{state.strike.attacker}'s attack waits for its bonuses: raise {state.strike.attacker} "
                        "FROM>TO ..." if state.strike else "No attack is waiting for its bonuses.")
    asked = {d.kind for d in state.pending if d.player == seat} & set(ANSWERED_BY)
    if asked and verb not in asked or not asked and verb in ANSWERED_BY:
        raise RuleError(ANSWERED_BY[next(iter(asked))] if asked else f"Nothing asks for `{verb}` now.")
    new = clone(state)
    g = Game(new)
    g.answering = [d for d in new.pending if d.player == seat]
    new.pending = [d for d in new.pending if d.player != seat]
    try:
        COMMANDS[verb].handler(g, seat, args)
    except RuleError as refused:  # the refusal cites the rule of the command it refused
        refused.term = refused.term or cited(verb, state.phase)
        raise
    rounds.advance(g)
    new.version = state.version + 1
    return new, g.events


# The glossary entry (content/glossary/renegades.yaml) a refused command cites, by verb;
# a pair where the phase decides: (in orbit, elsewhere).
RULE_OF: dict[str, str | tuple[str, str]] = {
    "move": ("ship-movement", "crew-movement"), "attack": ("ship-combat", "crew-combat"),
    "raise": ("ship-combat", "crew-combat"), "pass": ("orbital-phase", "surface-phase"),
    "scan": ("salvage", "searching"), "open": "searching", "salvage": "salvage", "descend": "descend",
    "ascend": "descend", "station": "station", "deploy": "landing-party", "disembark": "landing-party",
    "ability": "ship", "hide": "stealth", "carry": "unconscious", "take": "mission-parameter",
    "board": "boarding", "give": "gear", "drop": "gear", "pickup": "gear", "tactic": "tactical-card",
    "rally": "special-action", "mend": "special-action", "charge": "special-action",
    "douse": "world-event", "leap": "terrain", "free": "prisoner", "throw": "crew-combat",
    "use": "gear", "wield": "gear", "creature": "world-event", "draft": "crewmember",
}


def cited(verb: str, phase: str) -> str:
    """The glossary entry a refused `verb` cites in `phase` ('renegades/crew-combat')."""
    entry = RULE_OF[verb]
    if isinstance(entry, tuple):
        entry = entry[0] if phase == "orbital" else entry[1]
    return f"renegades/{entry}"


# --- legal commands --------------------------------------------------------------------------------
def legal_commands(state: GameState, seat: str) -> list[str]:
    """Every command `seat` may send now. Ship moves are listed as single legs; moves of
    several legs within the movement points are legal too."""
    decision = next((d for d in state.pending if d.player == seat), None)
    if state.phase == "over" or decision is None:
        return []
    g = Game(state)
    if decision.kind == "deploy":
        return parties.legal_deploy(g, state.ships[decision.info["ship"]])
    if decision.kind == "bonus":
        return placing.legal(state.strike)
    if decision.kind == "party":
        return parties.legal(g, state.ships[decision.info["ship"]])
    if decision.kind == "creature":
        return ["creature join", "creature draw"]
    if decision.kind == "draft":
        return [f"draft {code}" for code in draft.choices(state, g.pack)]
    return _legal_orbit(g, state.ships[state.current.ship])


def _legal_orbit(g: Game, ship) -> list[str]:
    state = g.state
    if state.current.actions_left <= 0:
        return abilities.follow_ups(g, ship) + ["pass"]
    options = []
    if ship.cell is not None:
        options += [f"move {ship.id} {leg}" for leg in orbit.single_legs(g, ship, orbit.speed(g, ship))]
        options += [f"attack {ship.id} {t.id}" for t in sorted(state.ships.values(), key=lambda x: x.id)
                    if orbit.can_fire(g, ship, t) is not None]
        obj = state.objective
        for planet in g.board.planets.values() if ship.risen_round != state.round else ():
            bringing = obj is not None and obj.ship == ship.id and state.tier >= 2
            if g.board.beside_planet(ship.cell, planet.code) and (
                    (planet.code == g.surface_planet and g.free_docks() and not orbit.grounded(g, ship, planet.code))
                    or (planet.home == ship.faction and (ship.critical or bringing))):
                options.append(f"descend {ship.id} {planet.code}")
        options += [f"salvage {ship.id} {c}" for c in salvage.reachable(g, ship)]
        if g.crew_at(ship, "comms") is not None and ship.scan_round != state.round:
            options += [f"scan {ship.id} {c}" for c in salvage.reachable(g, ship)]
        options += abilities.legal(g, ship)
    elif ship.docked_round < state.round and not orbit.boarded(g, ship) and orbit.rising_square(g, ship) is not None:
        options.append(f"ascend {ship.id}")
    if not state.current.acted:
        for crew in pieces.aboard(g, ship.id):
            if crew.ko or crew.captive or crew.room == "brig":
                continue
            options += [f"station {ship.id} {crew.id} {other}" for other in STATIONS if other != crew.station]
    options.append("pass")
    return options


# --- views -------------------------------------------------------------------------------------------
def display_names(state: GameState) -> dict[str, str]:
    g = Game(state)
    names = {code: card.name for code, card in g.pack.world_events.items()}
    names.update({code: crew.name for code, crew in state.crew.items()})
    names.update({code: ship.name if ship.kind == "ship" else f"{ship.name} {code.rsplit('-', 1)[-1]}"
                  for code, ship in state.ships.items()})  # fighters share a name: 'Dregg fighter 2'
    names.update({code: figure.name for code, figure in state.figures.items()})
    names.update({code: ability.name for code, ability in g.pack.crew_abilities.items()})
    names.update({code: item.name for code, item in [*g.pack.weapons.items(), *g.pack.search_items.items(),
                                                         *g.pack.gear.items()] if code not in names})
    names.update({code: card.name for code, card in g.pack.tactical.items()})
    names.update({code: villain.name for code, villain in g.pack.villains.items() if code not in names})
    names.update({code: card.name for code, card in [*g.pack.crew.items(), *g.pack.ships.items()]
                  if code not in names})  # crew and ships not yet in play (the draft, N219)
    return names


def view_for(state: GameState, seat: Optional[str]) -> dict[str, Any]:
    """What `seat` may see (None: everyone): the world, location and surface decks as
    counts only, shut containers without their contents (a seat sees what its own scans
    found), never the dice generator or the seed. The surface is under `surface`."""
    view = to_builtins(state)
    view.pop("dice", None)
    view.pop("seed", None)
    view["world_deck_count"] = len(view.pop("world_deck", []))
    view["location_deck_count"] = len(view.pop("location_deck", []))
    view.pop("containers", None)
    view.pop("peeks", None)
    view.pop("dropped", None)
    view.pop("fires", None)
    view.pop("salvage_items", None)
    view.pop("salvage_peeks", None)
    view["salvage_deck_count"] = len(view.pop("salvage_deck", []))
    view["salvage_scanned"] = {cell: state.salvage_items[cell] for cell in state.salvage_peeks.get(seat or "", [])
                               if cell in state.salvage_items}
    view.pop("surface_deck", None)
    view.pop("bounties", None)
    view["bounties"] = bounties.visible(state, seat)
    view["surface"] = _surface_view(state, seat) if state.surface else None  # none yet while crews are drafted
    view["objective"] = _objective_view(state)
    return view


def _objective_view(state: GameState) -> Optional[dict[str, Any]]:
    """The mission parameter with every field, `sealed` too (its default, left out of the JSON)."""
    return msgspec.structs.asdict(state.objective) if state.objective else None


def _weather_view(g: Game) -> Optional[dict[str, Any]]:
    """This round's surface condition (N160): the card's name, the stealth face, the sight limit."""
    effect = weather.in_force(g)
    if effect is None:
        return None
    return {"card": g.state.weather, "name": g.pack.world_events[g.state.weather].name,
            "stealth": effect.stealth, "sight": effect.sight}


def _surface_view(state: GameState, seat: Optional[str]) -> dict[str, Any]:
    g = Game(state)
    ground = g.ground
    spec = ground.spec
    crew = {c.id: {"cell": c.cell, "ship": c.ship, "faction": c.faction, "wounds": c.wounds, "health": c.health,
                   "ko": c.ko, "hidden": c.hidden, "carried_by": c.carried_by, "gear": list(c.gear)}
            for c in state.crew.values() if c.cell is not None}
    return {
        "board": ground.code, "name": ground.name, "width": ground.width, "height": ground.height,
        "docks": list(ground.docks), "blocking": list(spec.blocking), "obstructed": list(spec.obstructed),
        "water": list(spec.water), "elevated": list(spec.elevated), "sunken": list(spec.sunken),
        "steps": list(spec.steps), "base": list(spec.base), "home": spec.home, "doorways": list(spec.doorways),
        "tiles": [{"code": t.code, "name": t.name, "from": t.from_, "to": t.to, "ceiling": t.ceiling}
                  for t in spec.locations],
        "docked": dict(state.docks),
        "boarded": {ship: sorted([c.id for c in state.crew.values() if c.boarded == ship and not c.ko]
                                 + [f.id for f in state.figures.values() if f.boarded == ship])
                    for ship in sorted({p.boarded for p in [*state.crew.values(), *state.figures.values()]
                                        if p.boarded})},
        "containers": sorted(state.containers),
        "dropped": {cell: list(items) for cell, items in state.dropped.items()},
        "fires": list(state.fires),
        "weather": _weather_view(g),
        "scanned": {cell: state.containers[cell] for cell in state.peeks.get(seat or "", [])
                    if cell in state.containers},
        "crew": crew,
        "figures": {f.id: msgspec.to_builtins(f) for f in state.figures.values()},
        "objective": _objective_view(state),
        "order": list(state.order) if state.phase == "surface" else [],
        "location_deck_count": len(state.surface_deck),
    }
