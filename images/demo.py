"""Example pictures: `python -m images.demo OUTDIR` writes a mid-game board, an attack with
re-rolls and a skill test, drawn from hand-built public views of the starter pack.

The sample views are also what the tests and the benchmark draw.
"""
from __future__ import annotations

import os
import sys

import msgspec

from engine.awaymissions.content import load_pack
from engine.awaymissions.layout import preset
from engine.awaymissions.state import Activation, Attack, Character, Decision, GameState, Player
from engine.dice import Dice
from images.board import render_board
from images.dice import render_dice
from images.status import render_status

PACK = "content/starter"


def _character(code: str, seat: str, space: str | None, **changes) -> Character:
    card = load_pack(PACK).characters[code]
    ratings = card.ratings.as_dict()
    character = Character(
        id=code, card=code, name=card.name, owner=seat, controller=seat, ratings=dict(ratings), pegs=dict(ratings),
        specializations=dict(card.specializations), keywords=list(card.keywords),
        attacks=[msgspec.convert(msgspec.to_builtins(a), Attack) for a in card.attacks],
        status="in_play" if space else "reserve", space=space)
    for name, value in changes.items():
        setattr(character, name, value)
    return character


def _lost(character: Character, **lost: int) -> Character:
    for rating, amount in lost.items():
        character.ratings[rating] -= amount
    return character


def midgame_state(layout: str = "standard") -> GameState:
    """Round 2 of a Starfleet-against-Borg game, with every kind of marker somewhere."""
    pack = load_pack(PACK)
    overlay = pack.affiliations["borg"].assimilation_overlay.ratings.as_dict()
    spots = {
        "standard": ["C1", "C1", "E6", "H4", "G7", "F5", "H9", "I5", "G3", "G3", "D5", "I8"],
        "borg-corridor": ["C1", "C1", "E6", "H4", "G7", "F5", "H9", "I5", "G3", "G3", "D5", "I8"],
        "cube": ["B1", "B1", "D6", "F4", "G7", "E5", "H8", "F2", "G3", "G3", "C5", "H6"],
    }[layout]
    fed = [
        _character("REYES", "p1", spots[0], activated=True),
        _character("SOLIS", "p1", spots[1], activated=True),
        _lost(_character("FERROW", "p1", spots[2]), attack=1),
        _character("OKAFOR", "p1", spots[3], cover=True, equipment=["fed-field-tricorder"],
                   traits=["fed-seasoned-veteran"]),
        _character("ADEYEMI", "p1", None, status="neutralized"),
    ]
    haruna = _character("HARUNA", "p1", spots[10], controller="p2", assimilated=True, stun=1,
                        ratings=dict(overlay), pegs=dict(overlay),
                        keywords=["Specialist", "Drone"])
    borg = [
        _character("NEXUS", "p2", spots[4], activated=True),
        _lost(_character("D4-12", "p2", spots[5], stun=1), defense=1),
        _character("E1-11", "p2", spots[6], stun=2),
        _character("A5-11", "p2", spots[7], activated=True, equipment=["borg-cortical-implant"]),
        _character("D7-12", "p2", spots[8]),
        _character("V6-11", "p2", spots[9]),
        _lost(_character("H8-11", "p2", spots[11]), move=1, attack=1),
        haruna,
    ]
    players = [
        Player(seat="p1", name="Ana", team="p1", affiliation="federation",
               scoring_area=["fed-restore-life-support"], bonus_points=1),
        Player(seat="p2", name="Ben", team="p2", affiliation="borg",
               scoring_area=["borg-take-engineering"]),
    ]
    return GameState(
        pack=PACK, seed=7, dice=Dice.seeded(7), players=players, layout=preset(pack, layout),
        characters={c.id: c for c in fed + borg}, phase="action", round=2,
        activation=Activation(player="p1", character="FERROW", actions_left=1),
        pending=[Decision(kind="action", player="p1")])


def midgame_view(layout: str = "standard") -> dict:
    """The public view of `midgame_state`, shaped like rules.view_for(state, None)."""
    view = msgspec.to_builtins(midgame_state(layout))
    del view["dice"]
    for player in view["players"]:
        for pile in ("hand", "support_deck", "mission_deck"):
            player[f"{pile}_count"] = len(player.pop(pile, []))
    return view


def move_events(layout: str = "standard") -> list[dict]:
    """Ferrow's last move (from the Science Lab into the corridor)."""
    path = {"cube": ["B8", "C8", "C7", "C6", "D6"]}.get(layout, ["C8", "C7", "C6", "D6", "E6"])
    return [{"type": "moved", "character": "FERROW", "path": path}]


def attack_events(layout: str = "standard") -> list[dict]:
    """Ferrow shoots D4-12; both sides re-roll one die; two hits plus 1 DAMAGE."""
    source, target = ("D6", "E5") if layout == "cube" else ("E6", "F5")
    return [
        {"type": "attack", "attacker": "FERROW", "target": "D4-12", "weapon": "Phaser rifle", "from": source,
         "to": target},
        {"type": "rolled", "kind": "attack", "actor": "FERROW", "target": "D4-12", "dice": [5, 2, 6, 4, 5],
         "opposing": [1, 5, 6]},
        {"type": "rerolled", "seat": "p2", "card": "borg-adaptive-shielding", "side": "target", "indices": [2],
         "before": [6, 5, 1], "after": [6, 5, 3]},
        {"type": "rerolled", "seat": "p1", "card": "fed-red-alert", "side": "actor", "indices": [4],
         "before": [6, 5, 5, 4, 2], "after": [6, 6, 5, 5, 4]},
        {"type": "resolved", "kind": "attack", "actor": "FERROW", "target": "D4-12", "dice": [6, 6, 5, 5, 4],
         "opposing": [6, 5, 3], "outcome": ["cancelled", "hit", "hit", "hit", "hit"], "successes": 4,
         "damage": 5, "stun": False},
        {"type": "damaged", "character": "D4-12", "reduced": {"defense": 2, "attack": 2, "move": 1}},
        {"type": "neutralized", "character": "D4-12"},
    ]


def skill_events() -> list[dict]:
    """Okafor reroutes power against A5-11's interference: an opposed skill test."""
    return [
        {"type": "rolled", "kind": "skill", "actor": "OKAFOR", "target": "A5-11", "dice": [4, 6, 2, 3, 5],
         "opposing": [3, 5, 2]},
        {"type": "resolved", "kind": "skill", "actor": "OKAFOR", "target": "A5-11", "dice": [6, 5, 4, 3, 2],
         "opposing": [5, 3, 2], "outcome": ["hit", "hit", "hit", "miss", "miss"], "successes": 3, "stun": False},
    ]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m images.demo OUTDIR", file=sys.stderr)
        return 2
    out = argv[0]
    os.makedirs(out, exist_ok=True)
    view = midgame_view()
    pictures = {
        "board-midgame.png": render_board(view, move_events()),
        "board-attack.png": render_board(view, attack_events()[:1]),
        "board-cube.png": render_board(midgame_view("cube"), move_events("cube")),
        "dice-attack-rerolls.png": render_dice(view, attack_events()),
        "dice-skill-test.png": render_dice(view, skill_events()),
        "status.png": render_status(view),
    }
    for name, data in pictures.items():
        with open(os.path.join(out, name), "wb") as handle:
            handle.write(data)
        print(f"{os.path.join(out, name)}  {len(data) // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
