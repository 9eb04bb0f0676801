"""Readable lines about Renegades events for the table, the log and local play.

A player's action is a line of its own. Everything the game plays by itself is
gathered: the NPC ships' turns of an orbital phase become one line ("NPC ships: ..."),
each NPC a clause of what it did, the surface figures' and NPC crews' turns one line
("On the surface: ..."), and the world event phase is one line as well, so a thread gets
one summary per phase rather than a message per NPC step. Events this module does not
know are put in words by the generic `line` given.
"""
from __future__ import annotations

from typing import Callable, Optional

Namer = dict[str, str]
Fallback = Callable[[dict, Namer], str]

_SILENT = {"turn_over", "npc_target", "roll_off", "figure_target", "npc_crew_target"}  # folded, or bookkeeping
_WORLD = {"world_event", "weather", "event_damage", "repaired", "fighters_arrive", "last_world_card", "fire_starts",
          "world_clock"}
_OPENERS = {"ship_turn", "round", "game_over", "surface_phase", "party_turn", "figures_phase",
            "npc_party"}  # these end an NPC or world phase line
_ACTORS = {"npc_turn": ("ship", "NPC ships"), "figure_turn": ("figure", "On the surface"),
           "npc_crew_turn": ("crew", "On the surface")}  # an NPC's turn: who acts, the line it joins


def _name(code: Optional[str], names: Namer) -> str:
    return names.get(code, code) if code else "?"


_CLAUSES = {
    "shields_down": "{ship}'s shields are down: its card turns to the back (harder ship abilities)",
    "critical": "{ship} is critically damaged",
    "fighter_destroyed": "{ship} is destroyed at {cell} (salvage left there)",
    "descended": "{ship} descends to {planet}",
    "ascended": "{ship} returns to orbit at {cell}",
    "npc_waits": "{ship} holds its position",
    "passed": "{ship} ends its turn",
    "ship_turn": "{ship}'s turn ({seat})",
    "round": "Round {round} begins",
    "world_event": "{card} is drawn",
    "figure_boards": "{figure} boards the {ship}",
    "pursuit_ends": "{figure} loses track of {crew}",
    "weather": "it holds on the surface all through round {round}",
    "event_damage": "{ship} takes {amount} damage",
    "repaired": "{ship} repairs {amount} damage",
    "last_world_card": "that was the last world card: round {final_round} is the last",
    "game_over": "The game is over: {outcome} ({reason})",
    "surface_phase": "The surface phase begins",
    "party_turn": "{ship}'s landing party acts ({seat})",
    "npc_party": "{ship}'s landing party acts",
    "figures_phase": "The surface figures act",
    "figure_waits": "{figure} waits ({reason})",
    "salvaged": "{ship} collects the salvage at {cell}: {name}",
    "salvage_sold": "{ship} sells it for {digits} digits",
    "salvage_repair": "{ship} patches {amount} damage with it",
    "salvage_disarmed": "{ship} makes the scanned explosive safe",
    "salvage_explodes": "the salvage explodes on {ship}: {damage} damage",
    "penetrating_damage": "{ship} finds a seam in {target}'s armour: {amount} damage",
    "rallied": "{crew} rallies {other}: one more action, not for an attack",
    "healed": "{crew} loses {amount} wounds",
    "charge": "{crew} charges to {to} to attack {target}",
    "charge_stopped": "{crew} is stopped at {cell}, out of reach of {target}",
    "picked_up": "{crew} picks up {item} at {cell}",
    "figure_heads_for": "{figure} heads for the {ship} docked at {dock}",
    "boarded_enemy": "{crew} boards the {ship}",
    "left_ship": "{crew} steps off the {ship} at {cell}",
    "ship_seized": "the {ship} is seized and flown off",
    "leapt": "{crew} leaps down into the sunken ground at {cell}",
    "leap_attack": "{target} lands hard: {wounds} wound(s)",
}


def _moved(event: dict, names: Namer) -> str:
    ship = _name(event["ship"], names)
    if len(event["path"]) > 1:
        return f"{ship} moves {' > '.join(event['path'])}, facing {event['facing']}"
    return f"{ship} turns to face {event['facing']}"


def _attack(event: dict, names: Namer) -> str:
    hits = event.get("hits", 0)
    return (f"{_name(event['ship'], names)} fires on {_name(event['target'], names)}: {hits} "
            f"hit{'s' if hits != 1 else ''}, {event.get('blocked', 0)} blocked, {event.get('damage', 0)} damage")


def _station(event: dict, names: Namer) -> str:
    moved = f"{_name(event['crew'], names)} takes {event['station']}"
    return moved + (f", {_name(event['swapped'], names)} takes {event['to']}" if event.get("swapped") else "")


def _fighters(event: dict, names: Namer) -> str:
    placed = event.get("fighters", [])
    where = f" at {', '.join(event.get('cells', []))}" if placed else ""
    return (f"{len(placed)} {event['squadron'].title()} fighter{'s' if len(placed) != 1 else ''} arrive{where} "
            f"(die {event['die']}, {event['already']} already out)")


def _walked(event: dict, names: Namer) -> str:
    return f"{_name(event['figure'], names)} moves {' > '.join(event['path'])}"


def _test(event: dict, names: Namer) -> str:
    """A ship ability or orbital tactic: who tested, and whether it worked."""
    what = _name(event.get("ability") or event.get("card"), names)
    outcome = "passes" if event.get("passed") else "fails"
    needs = f", {event['test']}+" if event.get("test", 5) != 5 else ""
    return f"{_name(event['crew'], names)} tries {what} ({' '.join(map(str, event['dice']))}{needs}): {outcome}"


def _scan(event: dict, names: Namer) -> str:
    found = "sees what it holds" if event.get("passed") else "learns nothing"
    return f"{_name(event['ship'], names)} scans the salvage at {event['cell']} and {found}"


def _dropped(event: dict, names: Namer) -> str:
    why = " (no room to carry it)" if event.get("reason") != "dropped" else ""
    return f"{_name(event['crew'], names)} drops {_name(event['item'], names)} on {event['cell']}{why}"


def _fire(event: dict, names: Namer) -> str:
    if event.get("cell") is None:
        return f"no square of {event['location']} can burn"
    return f"fire breaks out at {event['cell']}"


def _douse(event: dict, names: Namer) -> str:
    outcome = "puts it out" if event.get("passed") else "fails"
    return f"{_name(event['crew'], names)} fights the fire at {event['cell']}: {outcome}"


def _parameter_test(event: dict, names: Namer) -> str:
    outcome = "takes it" if event.get("passed") else "fails"
    return f"{_name(event['crew'], names)} makes a {event['skill']} test to take {event['name']}: {outcome}"


def _clock(event: dict, names: Namer) -> str:
    why = "a landing party is on the surface" if event.get("landed") else f"nobody has landed by round {event['round']}"
    return f"the world deck starts ({why})"


def _bonus_choice(event: dict, names: Namer) -> str:
    bonus = ", ".join(f"+{add} to {n} {'die' if n == 1 else 'dice'}" for add, n in event["bonuses"])
    return (f"{_name(event['attacker'], names)} rolls {' '.join(map(str, event['dice']))} at "
            f"{_name(event['target'], names)} and places its bonuses ({bonus})")


_TOLD = {"dropped": _dropped, "fire_starts": _fire, "douse": _douse, "parameter_test": _parameter_test,
         "world_clock": _clock, "bonus_choice": _bonus_choice, "ship_ability": _test, "crew_ability": _test,
         "scan_salvage": _scan,
         "figure_moved": _walked, "ship_moved": _moved, "ship_attack": _attack, "station": _station, "fighters_arrive": _fighters}


def clause(event: dict, names: Namer) -> str:
    """What one event says ("" for an event this module does not know)."""
    told = _TOLD.get(event["type"])
    if told is not None:
        return told(event, names)
    template = _CLAUSES.get(event["type"])
    if template is None:
        return ""
    fields = {k: _name(v, names) if isinstance(v, str) else v for k, v in event.items()}
    try:
        return template.format(**fields)
    except KeyError:
        return ""


def public_lines(events: list[dict], names: Namer, fallback: Fallback) -> list[str]:
    """The events as lines anyone may read: players' actions one by one, each NPC phase
    and each world event phase as one line."""
    lines: list[str] = []
    npc: dict[str, list[str]] = {}  # NPC -> what it did this phase, in order
    label = "NPC ships"  # the line the NPCs in `npc` make
    world: list[str] = []

    def close_npc() -> None:
        if npc:
            lines.append(f"{label}: " + "; ".join(_npc_clause(code, said, names) for code, said in npc.items()))
            npc.clear()

    def close_world() -> None:
        if world:
            lines.append("World event phase: " + "; ".join(world))
            world.clear()

    acting: Optional[str] = None  # the NPC whose turn it is
    for event in events:
        kind = event["type"]
        if kind in _ACTORS:
            field, joins = _ACTORS[kind]
            if joins != label:
                close_npc()
                label = joins
            acting = event[field]
            npc.setdefault(acting, [])
            continue
        if kind in _SILENT:
            continue
        said = clause(event, names) or fallback(event, names)
        if not said:
            continue
        if kind in _WORLD or (world and kind not in _OPENERS):
            close_npc()
            acting = None
            world.append(said)
        elif acting is not None and kind not in _OPENERS:
            npc[acting].append(said)
        else:
            acting = None
            close_npc()
            close_world()
            lines.append(said[0].upper() + said[1:])
    close_npc()
    close_world()
    return lines


def _npc_clause(code: str, said: list[str], names: Namer) -> str:
    """'Warden moves K7 > K9, facing S, then fires on Kestrel: ...' (its name said once)."""
    name = _name(code, names)
    parts = [c.removeprefix(name + " ") for c in said if c != f"{name} holds its position"] or ["holds its position"]
    return f"{name} " + ", then ".join(parts)
