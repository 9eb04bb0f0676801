"""The numbers of a finished Renegades mission, counted from its public events (ruling
N252).

    tally(final_view, events, names)   # engine.story.Tally

Digits, by faction: the mission's reward, the loot its crew carried off (counted at the
end), and the rest of what it earned on the way (knock-outs, defeated figures, bounties).
Damage: the wounds of crew attacks and hazards (blasts, traps) and the damage of ship
attacks. Luck: each attack's red dice as thrown, whose hits (a face of HIT_ON or more)
are set against the exact expectation, one half a die; NPC attacks count for "NPCs".
"""
from __future__ import annotations

from fractions import Fraction
from typing import Iterable, Optional

from engine.renegades import rules
from engine.story import Tally

HIT_ON = 4  # a red attack die hits on this face or more (surface/crew_combat.py, orbit/orbit.py)
FACES = 6
NPC = "npc"
HAZARDS = ("blast_attack", "trap_attack")  # wounds with a `target`, made by a `by` if anyone


def scene(state) -> Optional[tuple[str, str]]:
    """The recap frame a state belongs to (ruling N251): the orbit board of the round while
    ships take their turns, the surface of each landing party's activation; None between."""
    round_number, activation = rules.stage(state)
    if activation is None:
        return None
    return ("orbit", f"round {round_number}") if state.phase == "orbital" else ("surface", activation)


def hit_chance() -> Fraction:
    """The exact chance that one red die hits."""
    return Fraction(FACES - HIT_ON + 1, FACES)


def tally(view: dict, events: Iterable[dict], names: dict[str, str]) -> Tally:
    """The summary's numbers of a finished game from its final public view and its events;
    `names`: seat -> the player's name."""
    result = view.get("result") or {}
    factions: dict[str, list[str]] = {}
    for player in view["players"]:
        factions.setdefault(player["faction"], []).append(names.get(player["seat"], player["seat"]))
    reward, digits = result.get("reward") or {}, result.get("digits") or view.get("digits") or {}  # conceded: so far
    for faction in list(reward) + list(digits):
        factions.setdefault(faction, [])
    found = Tally({f: f.capitalize() + (f" ({', '.join(who)})" if who else "") for f, who in factions.items()},
                  points={f: [] for f in factions}, unit="digits",
                  totals={f: reward.get(f, 0) + digits.get(f, 0) for f in factions},
                  missions={f: int(result.get("outcome") == "won" and result.get("winner") == f) for f in factions})
    pieces = {**view.get("ships", {}), **view.get("crew", {})}
    found.pieces = {code: piece.get("name", code) for code, piece in pieces.items()}
    side = {code: piece.get("faction") or NPC for code, piece in pieces.items()}
    loot = {f: 0 for f in factions}
    for event in events:
        kind = event["type"]
        if kind == "crew_attack":
            found.hurt(event["attacker"], event["target"], event["wounds"])
            _luck(found, side.get(event["attacker"], NPC), event["dice"])
        elif kind == "ship_attack":
            found.hurt(event["ship"], event["target"], event["damage"])
            _luck(found, side.get(event["ship"], NPC), event["dice"])
        elif kind in HAZARDS:
            found.hurt(event.get("by"), event["target"], event["wounds"])
        elif kind == "event_damage":
            found.hurt(None, event["ship"], event["amount"])
        elif kind == "loot_counted" and side.get(event["crew"]) in loot:
            loot[side[event["crew"]]] += event["digits"]
    for faction in factions:
        found.points[faction] = [(how, amount) for how, amount in (
            ("mission reward", reward.get(faction, 0)), ("loot carried off", loot[faction]),
            ("knock-outs, figures and bounties", digits.get(faction, 0) - loot[faction])) if amount]
    for rolled in found.rolls:  # an NPC faction (the co-op Coalition) and NPC figures roll too
        found.sides.setdefault(rolled, "NPCs" if rolled == NPC else rolled.capitalize())
    return found


def _luck(found: Tally, side: str, dice: list[int]) -> None:
    found.rolled(side, sum(face >= HIT_ON for face in dice), len(dice) * hit_chance())
