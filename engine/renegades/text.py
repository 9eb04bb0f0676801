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
          "world_clock", "creature_choice"}
_OPENERS = {"ship_turn", "round", "game_over", "surface_phase", "party_turn", "figures_phase",
            "npc_party"}  # these end an NPC or world phase line
_ACTORS = {"npc_turn": ("ship", "NPC ships"), "figure_turn": ("figure", "On the surface"),
           "npc_crew_turn": ("crew", "On the surface")}  # an NPC's turn: who acts, the line it joins


def _name(code: Optional[str], names: Namer) -> str:
    return names.get(code, code) if code else "?"


_CLAUSES = {
    "drafted": "{crew} is drafted to {ship}",
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
    "disembarked": "{crew} steps off the {ship} at {cell}",
    "docked": "{ship} touches down at dock {dock}",
    "party_done": "{ship}'s landing party is done",
    "taken": "{crew} takes {item}",
    "given": "{crew} hands {item} to {to}",
    "carried": "{crew} carries {carries}",
    "noticed": "{crew} is noticed at {cell} ({reason})",
    "knocked_out": "{crew} is knocked out at {cell}",
    "figure_defeated": "{figure} is defeated at {cell}",
    "loot_counted": "{crew} brings home {item}: {digits} digits",
    "captured": "{crew} is held captive on the {ship}",
    "prisoner": "{crew} is a prisoner in the {ship}'s brig",
    "revived": "{crew} comes round in the {ship}'s med bay",
    "parameter_taken": "{crew} takes {name}",
    "parameter_dropped": "{name} falls to the ground at {cell}",
    "parameter_aboard": "{name} is aboard the {ship}",
    "parameter_home": "the {ship} brings {name} home",
    "trap_disarmed": "the trap at {cell} is disarmed",
    "bounty_claimed": "a bounty on {crew} is claimed: {value} digits",
    "findings_out": "{crew} carries {name} out of the {ship}, bound for the employer's base",
}

_ROOMS = {"nw": "north-west", "n": "north", "ne": "north-east", "w": "west", "c": "central", "e": "east",
          "sw": "south-west", "s": "south", "se": "south-east"}


def _names(codes, names: Namer) -> str:
    return ", ".join(_name(code, names) for code in codes) or "nobody"


def _outcome(event: dict, done: str = "passes", failed: str = "fails") -> str:
    return f"({' '.join(map(str, event.get('dice', [])))}): {done if event.get('passed') else failed}"


def _crew_moved(event: dict, names: Namer) -> str:
    return f"{_name(event['crew'], names)} moves {' > '.join(event['path'])}"


def _crew_attack(event: dict, names: Namer) -> str:
    how = "shoots at" if event.get("ranged") else "attacks"
    hits, wounds = event.get("hits", 0), event.get("wounds", 0)
    return (f"{_name(event['attacker'], names)} {how} {_name(event['target'], names)} "
            f"({' '.join(map(str, event.get('attack', [])))}): {hits} hit{'s' if hits != 1 else ''}, "
            f"{event.get('blocked', 0)} blocked, {wounds} wound{'s' if wounds != 1 else ''}")


def _stealth(event: dict, names: Namer) -> str:
    return f"{_name(event['crew'], names)} tries to stay unseen {_outcome(event, 'hidden', 'seen')}"


def _elude(event: dict, names: Namer) -> str:
    return (f"{_name(event['crew'], names)} tries to slip away from {_name(event['away_from'], names)} "
            f"{_outcome(event, 'gets away', 'is held')}")


def _scan_room(event: dict, names: Namer) -> str:
    room = _ROOMS.get(event["tile"], event["tile"])
    found = f": finds {_names(event['found'], names)}" if event.get("passed") and event.get("found") else ""
    return f"{_name(event['by'], names)} scans the {room} room {_outcome(event, 'nobody hidden there', 'fails')}" \
        if not found else f"{_name(event['by'], names)} scans the {room} room{found}"


def _scan_container(event: dict, names: Namer) -> str:
    return f"{_name(event['crew'], names)} scans the container at {event['cell']} {_outcome(event, 'sees inside', 'fails')}"


def _tactic(event: dict, names: Namer) -> str:
    aim = event.get("target") or event.get("ship")
    on = f" for {_name(aim, names)}" if aim and aim != event["crew"] else ""
    return f"{_name(event['crew'], names)} plays {_name(event['card'], names)}{on} {_outcome(event, 'it works', 'it fails')}"


def _armed(event: dict, names: Namer) -> str:
    took = [f"arms with {_names(event['weapons'], names)}"] if event.get("weapons") else []
    took += [f"takes {_names(event['items'], names)}"] if event.get("items") else []
    return f"{_name(event['crew'], names)} {' and '.join(took)} from the armory"


def _left(event: dict) -> str:
    """'(2 tokens left)', '(spent)': a gear copy's energy after a use."""
    left = event.get("left", 0)
    return f"({left} token{'s' if left != 1 else ''} left)" if left else "(spent)"


def _blinked(event: dict, names: Namer) -> str:
    carrying = f", carrying {_name(event['carried'], names)}" if event.get("carried") else ""
    where = "in orbit" if event.get("orbit") else "at its dock"
    return (f"{_name(event['crew'], names)} sets off {_name(event['item'], names)} at {event['cell']} and is back "
            f"aboard the {_name(event['ship'], names)} {where}{carrying} {_left(event)}")


def _gear_mend(event: dict, names: Namer) -> str:
    on = "" if event["target"] == event["crew"] else f" on {_name(event['target'], names)}"
    amount = event.get("amount", 0)
    return (f"{_name(event['crew'], names)} uses {_name(event['item'], names)}{on}: {amount} "
            f"wound{'s' if amount != 1 else ''} fewer {_left(event)}")


def _deployed(event: dict, names: Namer) -> str:
    return f"{_name(event['ship'], names)} sends down {_names(event.get('crew', []), names)}"


def _boarded(event: dict, names: Namer) -> str:
    carrying = f", carrying {_name(event['carried'], names)}" if event.get("carried") else ""
    return f"{_name(event['crew'], names)} goes aboard the {_name(event['ship'], names)}{carrying}"


def _opened(event: dict, names: Namer) -> str:
    return f"{_name(event['crew'], names)} opens the container at {event['cell']}: {event.get('name') or 'nothing'}"


def _arrive(what: str, placed: list, event: dict) -> str:
    """'2 Sentry drones arrive at H1, E3 (die 4, 1 already out)': fighters or enemies placed."""
    where = f" at {', '.join(event.get('cells', []))}" if placed else ""
    return (f"{len(placed)} {what}{'s' if len(placed) != 1 else ''} arrive{where} "
            f"(die {event['die']}, {event['already']} already out)")


def _enemies(event: dict, names: Namer) -> str:
    return _arrive(_name(event["villain"], names), event.get("figures", []), event)


def _home_run(event: dict, names: Namer) -> str:
    """Tier 3's run starts (N170, N171); the home surface's own containers and guards (N147)."""
    line = (f"{_name(event['ship'], names)} leaves the mission planet with the findings: the run goes on across "
            f"{event['name']}, and everyone left on the mission planet goes back aboard")
    stock = [f"{event['containers']} shut containers"] if event.get("containers") else []
    if event.get("guards"):
        stock.append(f"{_names(event['guards'], names)} on guard")
    return line + (f"; {' and '.join(stock)} wait there" if stock else "")


def _roused(event: dict, names: Namer) -> str:
    return f"{_name(event['figure'], names)} is roused by {_names(event.get('by', []), names)}"


def _trap(event: dict, names: Namer) -> str:
    return f"a trap goes off at {event['cell']}, catching {_names(event.get('victims', []), names)}"


def _trap_attack(event: dict, names: Namer, what: str = "the trap") -> str:
    wounds = event.get("wounds", 0)
    return f"{what} hits {_name(event['target'], names)}: {wounds} wound{'s' if wounds != 1 else ''}"


def _grenade(event: dict, names: Namer) -> str:
    return (f"{_name(event['crew'], names)} throws a {_name(event['grenade'], names)} at {event['cell']}, "
            f"catching {_names(event.get('victims', []), names)}")


def _freed(event: dict, names: Namer) -> str:
    return (f"{_name(event['crew'], names)} frees {_names(event.get('freed', []), names)} from the "
            f"{_name(event['ship'], names)}'s brig")


def _persuade(event: dict, names: Namer) -> str:
    against = f" against {_name(event['against'], names)}" if event.get("against") else ""
    return f"{_name(event['crew'], names)} tries to talk the courier round{against}: " \
        f"{'it works' if event.get('won') else 'it fails'}"


def _turn_attempt(event: dict, names: Namer) -> str:
    return (f"{_name(event['leader'], names)} tries to turn {_name(event['prisoner'], names)} in the "
            f"{_name(event['ship'], names)}'s brig: {'turned' if event.get('turned') else 'refuses'}")


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
    return _arrive(f"{event['squadron'].title()} fighter", event.get("fighters", []), event)


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


def _delivered(event: dict, names: Namer) -> str:
    """Tier 3: the findings reach the employer, carried to the base (N172, N146)."""
    return f"{_name(event['crew'], names)} delivers {event['name']} to the employer"


def _clock(event: dict, names: Namer) -> str:
    why = "a landing party is on the surface" if event.get("landed") else f"nobody has landed by round {event['round']}"
    return f"the world deck starts ({why})"


def _wielded(event: dict, names: Namer) -> str:
    """N221: the weapons a crewmember swapped into its hands."""
    held = " and ".join(_name(w, names) for w in event["weapons"]) or "nothing"
    return f"{_name(event['crew'], names)} takes {held} in hand"


def _creature_choice(event: dict, names: Namer) -> str:
    """N218: a mate joins the creature already hunting, or the reader draws another card."""
    creature = _name(event["creature"], names)
    return f"a second {creature} comes" if event["choice"] == "join" else f"no second {creature}: another card is drawn"


def _bonus_choice(event: dict, names: Namer) -> str:
    bonus = ", ".join(f"+{add} to {n} {'die' if n == 1 else 'dice'}" for add, n in event["bonuses"])
    return (f"{_name(event['attacker'], names)} rolls {' '.join(map(str, event['dice']))} at "
            f"{_name(event['target'], names)} and places its bonuses ({bonus})")


_TOLD = {"crew_moved": _crew_moved, "crew_attack": _crew_attack, "stealth": _stealth, "elude": _elude,
         "scan_room": _scan_room, "scan_container": _scan_container, "tactic": _tactic, "armed": _armed, "blinked": _blinked, "gear_mend": _gear_mend,
         "deployed": _deployed, "boarded": _boarded, "opened": _opened, "enemies_arrive": _enemies,
         "roused": _roused, "trap": _trap, "trap_attack": _trap_attack, "persuade": _persuade,
         "prisoners_freed": _freed, "grenade": _grenade,
         "blast_attack": lambda event, names: _trap_attack(event, names, "the blast"),
         "turn_attempt": _turn_attempt, "dropped": _dropped, "fire_starts": _fire, "douse": _douse, "parameter_test": _parameter_test,
         "world_clock": _clock, "bonus_choice": _bonus_choice, "creature_choice": _creature_choice, "wielded": _wielded,
         "ship_ability": _test, "crew_ability": _test,
         "scan_salvage": _scan, "parameter_delivered": _delivered, "home_run": _home_run,
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
