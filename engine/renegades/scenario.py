"""Scenario positions and expectations for Renegades (`ruleset: renegades`; docs/renegades.md)."""
from __future__ import annotations

from typing import Any

from engine.renegades import rules
from engine.renegades.content import load_pack
from engine.renegades.state import GameState, Ship


def build(spec: dict[str, Any]) -> GameState:
    """The starting position a Renegades scenario describes."""
    players = spec.get("players") or {"p1": {}, "p2": {}}
    config = {"pack": spec.get("pack", "content/renegades"), "mode": spec.get("mode", "versus"),
              "players": [{"seat": seat, **(fields or {})} for seat, fields in players.items()],
              "world_cards": spec.get("world_cards", 6), "tier": spec.get("tier", 1)}
    if spec.get("mission"):
        config["mission"] = spec["mission"]
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
    if "world_deck" in spec:
        state.world_deck = list(spec["world_deck"])
    if "location_deck" in spec:
        state.location_deck = list(spec["location_deck"])
    state.pending, state.current = [], None
    state.round = start.get("round", 1)
    state.last_round = start.get("last_round")
    state.dice.scripted = list(spec.get("dice", []))
    rules.begin_round(state)
    rules.run(state)
    state.version = 0
    return state


def check(state: GameState, events: list[dict], expect: dict[str, Any]) -> list[str]:
    """Compare the state (and the last command's events) with expectations."""
    from engine.scenario import SHARED, _check_shared, _full, _match

    failures = []
    view = _full(state)
    for code, ship in state.ships.items():
        view["ships"][code].update(shields_up=ship.shields_up, critical=ship.critical, hull_damage=ship.hull_damage)
    for key, wanted in expect.items():
        if key in ("ships", "crew"):
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
