"""Example Renegades surface pictures: `python -m images.demo_surface OUTDIR` writes the
planet surface with a move and an attack and the crew-combat and test dice, drawn from a
public view of a quicker game of the starter pack with the pieces placed by hand.

The sample view and events are also what the tests and the benchmark draw.
"""
from __future__ import annotations

import os
import sys

from engine.renegades import rules
from engine.renegades.contents.game import Game
from engine.renegades.contents.state import Turn
from engine.renegades.surface import stocking
from images.crew_dice import render_crew_dice
from images.surface import render_surface

PLAYERS = [{"seat": "p1", "name": "Ann"}, {"seat": "p2", "name": "Bo"}]


def midgame_view() -> dict:
    """Round 2 of a versus quicker game: Vesk (acting) stands in the pump house's west
    doorway at E6 after moving from B3 (from there it sees in, N161),
    Tallo hides by the rocks at C7, Rhee lies unconscious at E9; Halvern and Pell hold the
    pump house's east doorway, the Dregg trooper guards it and a drone hunts at J10; the courier
    waits at G5 and the Kestrel and Warden sit at their docks."""
    state = rules.new_game({"players": PLAYERS, "quick": True, "world_cards": 6, "mission": "the-courier"}, seed=7)
    crew = state.crew
    for code, cell in (("VESK", "E6"), ("TALLO", "C7"), ("RHEE", "E9"), ("HALVERN", "H6"), ("PELL", "I7")):
        crew[code].cell, crew[code].station = cell, None
    crew["VESK"].wounds, crew["VESK"].gear = 2, ["arc-pistol"]
    crew["TALLO"].hidden = True
    crew["RHEE"].ko, crew["RHEE"].wounds = True, crew["RHEE"].health
    crew["HALVERN"].wounds, crew["HALVERN"].gear = 3, ["arc-pistol"]
    stocking.place(Game(state), "DRONE", "J10")
    state.phase, state.round, state.order = "surface", 2, ["KESTREL", "WARDEN"]
    state.current = Turn(ship="KESTREL", crew={"VESK": 1, "TALLO": 2})
    return rules.view_for(state, None)


def move_events() -> list[dict]:
    """Vesk's move from B3 into the doorway at E6."""
    return [{"type": "crew_moved", "crew": "VESK", "path": ["B3", "C4", "C5", "D6", "E6"], "cost": 4}]


def attack_events() -> list[dict]:
    """Vesk fires on Halvern with an aimed pistol shot; Halvern blocks one hit."""
    return [{"type": "crew_attack", "attacker": "VESK", "target": "HALVERN", "ranged": True, "dice": [6, 4, 2, 1],
             "attack": [7, 4, 2, 1], "hits": 2, "defense": [5, 2], "rerolled": [], "blocked": 1, "wounds": 1}]


def skill_events() -> list[dict]:
    """Tallo hides (a stealth test) and Pell talks with the courier (a leadership test)."""
    return [{"type": "stealth", "crew": "TALLO", "dice": [5, 3, 1], "passed": True, "moving": False},
            {"type": "persuade", "crew": "PELL", "against": None, "dice": [4, 2], "won": False}]


def main(folder: str) -> None:
    os.makedirs(folder, exist_ok=True)
    view = midgame_view()
    pictures = {"renegades-surface.png": render_surface(view, move_events() + attack_events()),
                "renegades-crew-dice.png": render_crew_dice(view, attack_events() + skill_events())}
    for name, data in pictures.items():
        with open(os.path.join(folder, name), "wb") as out:
            out.write(data)
        print(os.path.join(folder, name))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "pictures")
