"""Scenario positions and expectations for Renegades (`ruleset: renegades`; docs/renegades.md)."""
from __future__ import annotations

import json
from typing import Any

import msgspec

from engine.renegades import rules
from engine.renegades.contents.content import load_pack
from engine.renegades.contents.game import Game
from engine.renegades.contents.state import GameState, Objective, Ship
from engine.renegades.surface import gear, home_run, stocking
from engine.scenario_checks import SHARED, check_shared as _check_shared, full as _full, match as _match


def build(spec: dict[str, Any]) -> GameState:
    """The starting position a Renegades scenario describes."""
    players = spec.get("players") or {"p1": {}, "p2": {}}
    config = {"pack": spec.get("pack", "content/renegades"), "mode": spec.get("mode", "versus"),
              "players": [{"seat": seat, **(fields or {})} for seat, fields in players.items()],
              "world_cards": spec.get("world_cards", 6), "tier": spec.get("tier", 1)}
    if spec.get("mission"):
        config["mission"] = spec["mission"]
    if spec.get("quick"):
        config["quick"] = True
    if spec.get("boards"):
        config["boards"] = spec["boards"]
    state = rules.new_game(config, spec.get("seed", 1))
    start = spec.get("start")
    if start is None:
        state.dice.scripted = list(spec.get("dice", []))
        return state
    pack = load_pack(state.pack)
    for code, fields in (spec.get("fighters") or {}).items():
        fighter = next(f for f in pack.fighters.values() if f.squadron == fields["squadron"])
        state.ships[code] = Ship(id=code, name=fighter.name, faction=fighter.squadron, kind="fighter",
                                 range=fighter.range, shields=fighter.health, hull=0, attack=fighter.attack,
                                 speed=fighter.speed, cell=fields.get("cell"), facing=fields.get("facing", "S"))
    for code, fields in (spec.get("ships") or {}).items():
        ship = state.ships[code]
        for name, value in fields.items():
            if name == "stations":
                ship.stations = {k: v for k, v in value.items() if v}
                for crew in state.crew.values():
                    if crew.ship == code:
                        crew.station = next((k for k, v in ship.stations.items() if v == crew.id), None)
            elif name != "squadron":
                setattr(ship, name, value)
    _surface(state, spec)
    if "world_deck" in spec:
        state.world_deck = list(spec["world_deck"])
    if "location_deck" in spec:
        state.location_deck = list(spec["location_deck"])
    if "salvage" in spec:  # square -> what its token holds
        state.salvage_items = dict(spec["salvage"] or {})
        state.salvage = list(state.salvage_items)
    if "salvage_deck" in spec:
        state.salvage_deck = list(spec["salvage_deck"])
    state.pending, state.current = [], None
    state.round = start.get("round", 1)
    state.last_round = start.get("last_round")
    state.world_clock = start.get("world_clock", state.world_clock)
    state.weather = start.get("weather")
    state.dice.scripted = list(spec.get("dice", []))
    if start.get("phase") == "surface":
        rules.begin_surface(state)
    else:
        rules.begin_round(state)
    rules.run(state)
    state.version = 0
    return state


def _surface(state: GameState, spec: dict[str, Any]) -> None:
    """The surface keys: docks, crew (any CrewMember field; a square takes it off its
    station), figures (replacing the mission's guards), tactical (seat -> its cards),
    bounties (seat -> the crewmember it hunts),
    energy (crewmember -> item -> the tokens on each copy it carries, N181),
    surface_deck, containers, fires, objective; run (a faction: tier 3's run on its home
    surface under way, N170, its containers and guards stocked, N147, before the other keys).
    A ship given a dock is docked on the surface's planet; the round it docked is its ships
    entry's `docked_round`, else 0 (before the first round)."""
    if spec.get("run"):
        home_run.switch(Game(state), spec["run"])
    for code, cell in (spec.get("docks") or {}).items():
        ship = state.ships[code]
        state.docks[code] = cell
        if ship.docked is None:
            ship.left_from, ship.cell = ship.cell, None
            board = Game(state).board
            planet = board.home_of(spec["run"]) if spec.get("run") else board.mission_planet
            ship.docked = planet.code
            ship.docked_round = ((spec.get("ships") or {}).get(code) or {}).get("docked_round", 0)
    for code, fields in (spec.get("crew") or {}).items():
        crew = state.crew[code]
        for name, value in fields.items():
            setattr(crew, name, value)
        if crew.cell is not None or crew.room or crew.captive:
            crew.station = None
        for ship in state.ships.values():
            for station, holder in list(ship.stations.items()):
                if holder == code and (ship.id != crew.ship or station != crew.station):
                    del ship.stations[station]
        if crew.station and state.ships[crew.ship].stations.get(crew.station) != code:
            crew.station = None
    pack = load_pack(state.pack)
    for crew in state.crew.values():  # gear items set on crew get tokens, `energy` says how many (N181)
        gear.track(state, pack, crew.id, crew.gear, (spec.get("energy") or {}).get(crew.id))
    if "figures" in spec:
        state.figures = {}
        g = Game(state)
        for ident, fields in (spec.get("figures") or {}).items():
            fields = dict(fields)
            figure = stocking.place(g, fields.pop("villain"), fields.pop("cell"))
            del state.figures[figure.id]
            figure.id = ident
            for name, value in fields.items():
                setattr(figure, name, value)
            state.figures[ident] = figure
    if "bounties" in spec:
        state.bounties = dict(spec["bounties"] or {})
    for seat, cards in (spec.get("tactical") or {}).items():
        state.player(seat).tactical = list(cards)
    if "surface_deck" in spec:
        state.surface_deck = list(spec["surface_deck"])
    if "containers" in spec:
        state.containers = dict(spec["containers"] or {})
    if "fires" in spec:
        state.fires = list(spec["fires"] or [])
    if "objective" in spec:
        state.objective = msgspec.convert(spec["objective"], Objective) if spec["objective"] else None


def check(state: GameState, events: list[dict], expect: dict[str, Any]) -> list[str]:
    """Compare the state (and the last command's events) with expectations."""
    failures = []
    view = _full(state)
    for code, ship in state.ships.items():
        view["ships"][code].update(shields_up=ship.shields_up, critical=ship.critical, hull_damage=ship.hull_damage)
    for key, wanted in expect.items():
        if key == "views":
            for seat, fields in wanted.items():
                failures += _match(f"view of {seat}", rules.view_for(state, None if seat == "public" else seat), fields)
        elif key == "hidden_from":
            for seat, words in wanted.items():
                seen = json.dumps(rules.view_for(state, None if seat == "public" else seat))
                failures += [f"the view of {seat} shows {w!r}" for w in words if f'"{w}"' in seen]
        elif key in ("ships", "crew", "figures"):
            for code, fields in wanted.items():
                if fields is None:
                    if code in view[key]:
                        failures.append(f"{key}.{code} is still there, expected gone")
                elif code not in view[key]:
                    failures.append(f"{key}.{code}: missing")
                else:
                    failures += _match(f"{key}.{code}", view[key][code], fields)
        elif key in SHARED:
            failures += _check_shared(key, wanted, events, rules.awaited(state), state.pending,
                                      lambda seat: rules.legal_commands(state, seat))
        elif key in view:
            failures += _match(key, view[key], wanted)
        else:
            failures.append(f"unknown expectation '{key}'")
    return failures
