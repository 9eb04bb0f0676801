"""Example Renegades pictures: `python -m images.demo_renegades OUTDIR` writes an orbital
board with a move and an attack, its ship-combat dice and the crew and ship status, drawn
from a public view of a dealt game of the starter pack with the ships placed by hand.

The sample view and events are also what the tests and the benchmark draw.
"""
from __future__ import annotations

import os
import sys

from engine.renegades import rules
from engine.renegades.contents.state import Ship, Turn
from images.orbit import render_orbit
from images.ship_dice import render_ship_dice
from images.ship_status import render_ship_status

PLAYERS = [{"seat": "p1", "name": "Ann"}, {"seat": "p2", "name": "Bo"}]


def midgame_view() -> dict:
    """Round 2 of a co-operative game: the Kestrel (acting, one action left) faces east at
    F8 beside the nebula, the Magpie sits docked on Veyra, the NPC Warden and Beacon close
    in, the Warden with its shields down, and a Dregg fighter hunts in the north."""
    state = rules.new_game({"mode": "coop", "players": PLAYERS}, seed=11)
    ships = state.ships
    ships["KESTREL"].cell, ships["KESTREL"].facing, ships["KESTREL"].damage = "F8", "E", 3
    ships["MAGPIE"].cell, ships["MAGPIE"].docked, ships["MAGPIE"].docked_round = None, "veyra", 1
    ships["WARDEN"].cell, ships["WARDEN"].facing, ships["WARDEN"].damage = "K8", "W", 11
    ships["BEACON"].cell, ships["BEACON"].facing = "L11", "NW"
    ships["DREGG-1"] = Ship(id="DREGG-1", name="Dregg fighter", faction="dregg", kind="fighter", cell="E3",
                            facing="S", range=4, shields=4, hull=0, attack=4, speed=4, damage=1)
    state.round, state.current = 2, Turn(ship="KESTREL", actions_left=1, acted=True)
    return rules.view_for(state, None)


def move_events() -> list[dict]:
    """The Kestrel's move from C8 to F8, facing east."""
    return [{"type": "ship_moved", "ship": "KESTREL", "path": ["C8", "D8", "E8", "F8"], "facing": "E", "cost": 3,
             "points": 6}]


def attack_events() -> list[dict]:
    """The Kestrel fires on the Warden through the nebula; the Warden re-rolls one idle die."""
    return [{"type": "ship_attack", "ship": "KESTREL", "target": "WARDEN", "dice": [6, 5, 4, 2, 1],
             "attack": [7, 5, 4, 2, 1], "hits": 3, "penetrating": 1, "defense": [5, 3, 2], "rerolled": [2],
             "obstructed": True, "blocked": 1, "damage": 2},
            {"type": "ship_attack", "ship": "DREGG-1", "target": "KESTREL", "dice": [4, 3, 1, 1],
             "attack": [4, 3, 1, 1], "hits": 1, "penetrating": 0, "defense": [6], "rerolled": [],
             "obstructed": False, "blocked": 1, "damage": 0}]


def main(folder: str) -> None:
    os.makedirs(folder, exist_ok=True)
    view = midgame_view()
    pictures = {"renegades-orbit.png": render_orbit(view, move_events() + attack_events()[:1]),
                "renegades-dice.png": render_ship_dice(view, attack_events()),
                "renegades-status.png": render_ship_status(view)}
    for name, data in pictures.items():
        with open(os.path.join(folder, name), "wb") as out:
            out.write(data)
        print(os.path.join(folder, name))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "pictures")
