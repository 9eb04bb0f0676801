"""What a Renegades player is told besides the event lines: the mission they fly (at the
start, and whenever asked) and what their seat holds (ships, crew at stations, tactical
cards), in words, from the seat's view.
"""
from __future__ import annotations

from typing import Any

from engine.renegades.contents.card_facts import STATIONS, placement
from engine.renegades.contents.content import Pack

OBJECTIVES = {"container": "sealed in a container: open it and carry it off",
              "courier": "a person waiting to be escorted: take them along",
              "data": "taken with a tech test", "sample": "taken with a medical test"}
GOALS = {1: "a crewmember carrying it boards your side's docked ship",
         2: "your ship carries it home and docks there (crippled on the way: a tie)",
         3: "your ship carries it home and your crew take the findings across your home surface to the "
            "employer's base"}


def mission_briefing(pack: Pack, view: dict[str, Any], tier: int = 1, built: bool = False) -> str:
    """The mission: its name, story and reward, the objective and where it is (on a board
    `built` from location cards, or the fixed one), how it is won and the world cards that
    time the game."""
    mission = pack.missions[view["mission"]]
    together = " The Renegade ships play together against the NPC Coalition." if view.get("mode") == "coop" else ""
    return "\n".join([
        f"Mission: {mission.name} (reward {mission.reward} digits). {mission.story}{together}",
        f"Objective: {mission.parameter.name} ({OBJECTIVES[mission.parameter.kind]}), "
        f"{placement(pack, mission, built)}.",
        f"To win (tier {tier}): {GOALS[tier]}. The game ends anyway when the {view['world_deck_count']} "
        "world cards run out."])


def holdings(pack: Pack, view: dict[str, Any], seat: str) -> str:
    """The seat's ships with the crew at each station (codes as commands take them) and its
    tactical cards with their tests and what they do."""
    crew = view.get("crew", {})
    lines = []
    for ship in view.get("ships", {}).values():
        if ship.get("seat") != seat or ship.get("kind") != "ship":
            continue
        posts = ", ".join(f"{STATIONS[station]} {crew[code]['name'] if code in crew else code} ({code})"
                          for station, code in ship.get("stations", {}).items() if code)
        lines.append(f"{ship['name']} ({ship['id']}) at {ship.get('cell') or 'its dock'}: {posts or 'no crew'}.")
    player = next((p for p in view.get("players", []) if p.get("seat") == seat), {})
    for code in player.get("tactical", []):
        card = pack.tactical[code]
        officer = f" by the {STATIONS[card.test.station]} officer" if card.test.station else ""
        test = f"{card.test.skill} test{officer}"
        lines.append(f"Tactical card {card.name} ({card.type}; {test}): {card.text}")
    if "tactical" in player and not player["tactical"]:
        lines.append("No tactical cards left.")
    return "\n".join(lines)
