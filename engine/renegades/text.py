"""Readable lines about Renegades events for the table, the log and local play.

A player's action is a line of its own. Everything the game plays by itself is
gathered: the NPC ships' turns of an orbital phase become one line ("NPC ships: ..."),
each NPC a clause of what it did, and the world event phase is one line as well, so
a thread gets one summary per phase rather than a message per NPC step. Events this
module does not know are put in words by the generic `line` given.
"""
from __future__ import annotations

from typing import Callable, Optional

Namer = dict[str, str]
Fallback = Callable[[dict, Namer], str]

_SILENT = {"turn_over", "npc_turn", "npc_target", "roll_off"}  # folded into other lines, or bookkeeping
_WORLD = {"world_event", "event_damage", "repaired", "fighters_arrive", "last_world_card"}
_OPENERS = {"ship_turn", "round", "game_over"}  # these end an NPC or world phase line


def _name(code: Optional[str], names: Namer) -> str:
    return names.get(code, code) if code else "?"


def clause(event: dict, names: Namer) -> str:
    """What one event says, without a subject where the subject is clear from the line."""
    kind = event["type"]
    ship = _name(event.get("ship"), names)
    if kind == "ship_moved":
        return f"{ship} moves {' > '.join(event['path'])}, facing {event['facing']}" if len(event["path"]) > 1 \
            else f"{ship} turns to face {event['facing']}"
    if kind == "ship_attack":
        hits = event.get("hits", 0)
        return (f"{ship} fires on {_name(event['target'], names)}: {hits} hit{'s' if hits != 1 else ''}, "
                f"{event.get('blocked', 0)} blocked, {event.get('damage', 0)} damage")
    if kind == "shields_down":
        return f"{ship}'s shields are down"
    if kind == "critical":
        return f"{ship} is critically damaged"
    if kind == "fighter_destroyed":
        return f"{ship} is destroyed at {event.get('cell')} (salvage left there)"
    if kind == "descended":
        return f"{ship} descends to {_name(event['planet'], names)}"
    if kind == "ascended":
        return f"{ship} returns to orbit at {event['cell']}"
    if kind == "npc_waits":
        return f"{ship} holds its position"
    if kind == "passed":
        return f"{ship} ends its turn"
    if kind == "station":
        moved = f"{_name(event['crew'], names)} takes {event['station']}"
        return moved + (f", {_name(event['swapped'], names)} takes {event['to']}" if event.get("swapped") else "")
    if kind == "ship_turn":
        return f"{ship}'s turn ({_name(event.get('seat'), names)})"
    if kind == "round":
        return f"Round {event['round']} begins"
    if kind == "world_event":
        return f"{_name(event['card'], names)} is drawn"
    if kind == "event_damage":
        return f"{ship} takes {event['amount']} damage"
    if kind == "repaired":
        return f"{ship} repairs {event['amount']} damage"
    if kind == "fighters_arrive":
        placed = event.get("fighters", [])
        where = f" at {', '.join(event.get('cells', []))}" if placed else ""
        return (f"{len(placed)} {event['squadron'].title()} fighter{'s' if len(placed) != 1 else ''} arrive{where} "
                f"(die {event['die']}, {event['already']} already out)")
    if kind == "last_world_card":
        return f"that was the last world card: round {event['final_round']} is the last"
    if kind == "game_over":
        return f"The game is over: {event.get('outcome', 'ended')} ({event.get('reason', '')})"
    return ""


def public_lines(events: list[dict], names: Namer, fallback: Fallback) -> list[str]:
    """The events as lines anyone may read: players' actions one by one, each NPC phase
    and each world event phase as one line."""
    lines: list[str] = []
    npc: dict[str, list[str]] = {}  # NPC ship -> what it did this phase, in order
    world: list[str] = []

    def close_npc() -> None:
        if npc:
            lines.append("NPC ships: " + "; ".join(_npc_clause(code, said, names) for code, said in npc.items()))
            npc.clear()

    def close_world() -> None:
        if world:
            lines.append("World event phase: " + "; ".join(world))
            world.clear()

    acting: Optional[str] = None  # the NPC whose turn it is
    for event in events:
        kind = event["type"]
        if kind == "npc_turn":
            acting = event["ship"]
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
