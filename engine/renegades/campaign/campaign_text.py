"""Campaign events and the campaign roster in words, for the campaign thread, the private
shore leave panel and the log."""
from __future__ import annotations

from typing import Any

from engine.renegades.contents.content import Pack

Namer = dict[str, str]


def names_of(pack: Pack, view: dict[str, Any]) -> Namer:
    """What people call the codes of a campaign: crew, gear, upgrades, missions, seats, titles."""
    names: Namer = {code: c.name for code, c in pack.crew.items()}
    for section in (pack.gear, pack.upgrades, pack.missions, pack.campaigns, pack.ships):
        names.update({code: entry.name for code, entry in section.items()})
    names.update({c["seat"]: c["name"] for c in view["captains"]})
    return names


def _n(names: Namer, code: Any) -> str:
    return names.get(code, str(code)) if code is not None else "nobody"


def _list(names: Namer, codes: list) -> str:
    return ", ".join(_n(names, c) for c in codes) or "nobody"


def _recorded(e: dict, n: Namer) -> str:
    won = f", won by the {e['winner']}s" if e.get("winner") else ""
    paid = "; ".join(f"{_n(n, seat)} +{amount} digits" for seat, amount in e["digits"].items())
    return f"Mission {e['number']} ({_n(n, e['mission'])}) ends {e['outcome']}{won}." + (f" {paid}." if paid else "")


def _shore(e: dict, n: Namer) -> str:
    healed = f" {_list(n, e['healed'])} patched up." if e["healed"] else ""
    repaired = f" {e['repaired']} damage repaired." if e["repaired"] else ""
    return f"{_n(n, e['seat'])} lands for shore leave.{healed}{repaired}"


def _turned(e: dict, n: Namer) -> str:
    verdict = "is turned and joins the crew" if e["turned"] else "holds out"
    return (f"{_n(n, e['leader'])} works on {_n(n, e['crew'])} ({e['ours']} against {e['theirs']}): "
            f"{_n(n, e['crew'])} {verdict}.")


def _ending(e: dict, n: Namer) -> str:
    who = _n(n, e["victor"]) + ("s" if e["victor"] in ("renegade", "coalition") else "") if e["victor"] else \
        "nobody outright (" + _list(n, e["seats"]) + " share the honours)"
    return f"The campaign ends with {e['ending']} ({e['kind']}). It goes to {who}."


_LINES = {
    "mission_launched": lambda e, n: f"Mission {e['number']} of {e['of']}: {_n(n, e['mission'])}.",
    "mission_deck_reshuffled": lambda e, n: f"The campaign's {e['count']} missions are shuffled again.",
    "mission_recorded": _recorded,
    "mission_failed": lambda e, n: f"{_n(n, e['seat'])} pays {e['paid']} digits for the failed mission.",
    "shore_leave": _shore,
    "crew_lost": lambda e, n: f"{_n(n, e['crew'])} was taken by the Coalition and is lost to {_n(n, e['seat'])}.",
    "prisoner_taken": lambda e, n: f"{_n(n, e['crew'])} is locked in {_n(n, e['seat'])}'s brig.",
    "armory_changed": lambda e, n: f"{_n(n, e['seat'])}'s armory after the mission: found "
                                   f"{_list(n, e['found']).replace('nobody', 'nothing')}, lost "
                                   f"{_list(n, e['lost']).replace('nobody', 'nothing')}.",
    "crew_turned": lambda e, n: f"{_n(n, e['crew'])}, turned in the brig, now serves {_n(n, e['seat'])}.",
    "bought": lambda e, n: f"You buy {_n(n, e['gear'])} for {e['cost']} digits.",
    "sold": lambda e, n: f"You sell {_n(n, e['gear'])} for {e['price']} digits.",
    "recharged": lambda e, n: f"You recharge {_n(n, e['gear'])}: {e['tokens']} energy token(s) for {e['cost']} digits.",
    "energy_spent": lambda e, n: "Energy left on your gear after the mission: " + ", ".join(
        f"{_n(n, code)} {'/'.join(map(str, tokens))}" for code, tokens in sorted(e["tokens"].items())) + ".",
    "upgraded": lambda e, n: f"{_n(n, e['upgrade'])} for {_n(n, e['crew']) if e['crew'] else 'the ship'} "
                             f"({e['cost']} digits, {e['xp']} XP).",
    "recruited": lambda e, n: f"{_n(n, e['crew'])} signs on for {e['cost']} digits.",
    "turn_attempt": _turned,
    "ransomed": lambda e, n: f"{_n(n, e['seat'])} ransoms {_n(n, e['crew'])} for {e['price']} digits.",
    "crew_chosen": lambda e, n: f"Flying next: {_list(n, e['crew'])}.",
    "shore_leave_done": lambda e, n: f"{_n(n, e['seat'])} is back aboard.",
    "shore_leave_over": lambda e, n: f"Shore leave is over; mission {e['next']} awaits.",
    "campaign_abandoned": lambda e, n: f"{_n(n, e['seat'])} abandons the campaign after {e['after']} missions.",
    "epic_ending": _ending,
}


def line(event: dict, names: Namer) -> str:
    """One event in words."""
    return _LINES[event["type"]](event, names)


def roster_lines(view: dict[str, Any], pack: Pack, names: Namer) -> list[str]:
    """The campaign at a glance: each player's ship, crew (XP, injuries, upgrades), brig,
    armory and digits. `view` is a `campaign.view_for` view."""
    title = pack.campaigns[view["title"]]
    phase = {"briefing": "next mission to launch", "mission": "a mission under way", "shore_leave": "shore leave",
             "over": "over", "abandoned": "abandoned"}[view.get("phase", "briefing")]
    lines = [f"{title.name}: mission {len(view.get('played', []))} of {view['planned']} played ({phase})."]
    for cap in view["captains"]:
        upgrades = f", fitted with {_list(names, cap['ship_upgrades'])}" if cap.get("ship_upgrades") else ""
        damage = f", {cap['ship_damage']} damage" if cap.get("ship_damage") else ""
        lines.append(f"{cap['name']} ({cap['faction']}): the {_n(names, cap['ship'])}{upgrades}{damage}; "
                     f"{cap.get('digits', 0)} digits, {cap.get('won', 0)} missions won.")
        for code, hand in cap.get("crew", {}).items():
            marks = [f"{hand.get('xp', 0)} XP"]
            if hand.get("ko"):
                marks.append("unconscious")
            elif hand.get("wounds"):
                marks.append(f"{hand['wounds']} wounds")
            if hand.get("upgrades"):
                marks.append(_list(names, hand["upgrades"]))
            if hand.get("turned_from"):
                marks.append(f"turned from the {hand['turned_from']}s")
            flying = "*" if code in cap.get("flying", []) else " "
            lines.append(f"  {flying} {hand['name']}: {', '.join(marks)}")
        if cap.get("gear_offer") or cap.get("upgrade_offer"):
            lines.append(f"  on offer: {_list(names, cap.get('gear_offer', []) + cap.get('upgrade_offer', []))}")
        if cap.get("brig"):
            lines.append(f"  brig: {_list(names, list(cap['brig']))}")
        lines.append(f"  armory: {_list(names, cap.get('armory', []))}")
    return lines
