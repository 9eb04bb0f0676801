"""The surface phase's order of play: landing parties by their summed initiative (N29),
NPC Coalition crew, then the figures; and the commands a landing party may send."""
from __future__ import annotations

import itertools

from engine.renegades.contents.board import distance
from engine.renegades.contents.game import Game
from engine.renegades.contents.ground import near
from engine.renegades.contents.state import Decision, Turn
from engine.renegades.crew import hands, pieces
from engine.renegades.orbit import orbit
from engine.renegades.surface import (boarding, crew_combat, dropped, figures, fire, gear_actions, grenades,
                                      landing, leaping, special_actions)


def begin(g: Game) -> None:
    """N29: landing parties act by the sum of their initiatives, Renegades first on equal
    sums, then seat order; NPC Coalition parties after the players, then the figures."""
    s = g.state
    seat_index = {seat: i for i, seat in enumerate(s.seats)}
    parties = [ship for ship in s.ships.values() if ship.kind == "ship" and (
        pieces.party(g, ship.id) or ship.id in s.docks)]  # an NPC ship docked: its crew aboard fight boarders (N190)
    parties.sort(key=lambda x: (x.seat is None, -pieces.party_initiative(g, x.id), orbit.FACTION_RANK[x.faction],
                                seat_index.get(x.seat, 0), x.id))
    s.phase, s.order, s.turn, s.current = "surface", [x.id for x in parties], 0, None
    g.emit("surface_phase", order=[{"ship": x.id, "initiative": pieces.party_initiative(g, x.id)}
                                   for x in parties])


def advance(g: Game) -> None:
    """One step of the surface phase: ask the acting party, or start the next one, or let
    the NPCs act and move on to the world event phase."""
    s = g.state
    if s.current is not None:
        ship = s.ships[s.current.ship]
        if any(s.current.crew.values()) or can_ascend(g, ship):
            s.pending.append(Decision("party", ship.seat, {"ship": ship.id, "crew": dict(s.current.crew)}))
        else:
            g.emit("party_done", ship=ship.id)
            s.current, s.turn = None, s.turn + 1
    elif s.turn < len(s.order):
        ship = s.ships[s.order[s.turn]]
        if ship.seat is None:
            figures.npc_crew_turn(g, ship.id)
            s.turn += 1
            return
        crew = [c.id for c in pieces.party(g, ship.id)]
        if ship.id in s.docks:
            crew += [c.id for c in pieces.aboard(g, ship.id) if not c.ko and not c.captive and c.room != "brig"]
        s.current = Turn(ship=ship.id, crew={c: pieces.ACTIONS for c in sorted(crew)})
        g.emit("party_turn", ship=ship.id, seat=ship.seat, initiative=pieces.party_initiative(g, ship.id))
    else:
        if s.figures:
            g.emit("figures_phase", figures=figures.order(g))
            figures.figures_turn(g)
        s.phase = "world"


def can_ascend(g: Game, ship) -> bool:
    """A ship docked on the surface since an earlier round may rise (free on the surface)
    when no boarder holds it and a square beside the planet is free (N22)."""
    return (ship.id in g.state.docks and ship.docked_round < g.state.round and not orbit.boarded(g, ship)
            and orbit.rising_square(g, ship) is not None)


def legal_deploy(g: Game, ship) -> list[str]:
    """Every deployment of up to three crew aboard the ship that touched down."""
    crew = [c.id for c in pieces.aboard(g, ship.id) if not c.ko and not c.captive and c.room != "brig"]
    room = pieces.PARTY - len(pieces.on_surface(g, ship.id))
    options = ["pass"]
    for size in range(1, min(room, len(crew)) + 1):
        options += [f"deploy {ship.id} {' '.join(chosen)}" for chosen in itertools.combinations(crew, size)]
    return options


def legal(g: Game, ship) -> list[str]:
    """Every command of the acting landing party of `ship`: actions first, then ascending
    and `pass`, then the free actions (so "the first legal command" always moves the game on)."""
    s = g.state
    options, free = [], []
    targets = sorted(pieces.standing(g), key=lambda p: p.id)
    enemy_ships = boarding.targets(g, ship)
    for code, left in sorted(s.current.crew.items()):
        crew = s.crew[code]
        if crew.ko or crew.ship != ship.id:
            continue
        if crew.cell is None:
            options += boarding.legal(g, crew, left)
            if crew.boarded:
                continue
            if left and ship.id in s.docks and len(pieces.on_surface(g, ship.id)) < pieces.PARTY \
                    and not crew.captive and crew.room != "brig":
                options.append(f"disembark {code}")
            continue
        if landing.hide_refusal(g, crew) is None:
            free.append(f"hide {code}")
        if crew.rounds.get("scan") != s.round:
            free.append(f"scan {code}")
            free += [f"scan {code} {c}" for c in sorted(s.containers) if near(c, crew.cell)]
        free += _free(g, crew) + hands.options(g, crew)
        picks, drops = dropped.legal(g, crew)
        free += drops
        if not left:
            continue
        options += special_actions.legal(g, crew) + gear_actions.legal(g, crew) + picks + fire.legal(g, crew)
        if crew.rounds.get("pinned") != s.round:
            options += [f"move {code} {c}" for c in sorted(landing.reach(g, crew))]
            options += [f"leap {code} {c}" for c in leaping.open_leaps(g, crew)]
        if not special_actions.rallied_last(g, crew):
            options += [f"attack {code} {t.id}" for t in targets if crew_combat.attack_refusal(g, crew, t) is None]
            options += grenades.legal(g, crew)
        options += [f"open {code} {c}" for c in sorted(s.containers) if near(c, crew.cell)]
        if not crew.carrying:
            options += [f"carry {code} {o.id}" for o in sorted(s.crew.values(), key=lambda o: o.id)
                        if o.ko and o.cell and not o.carried_by and near(o.cell, crew.cell)]
        if _can_take(g, crew):
            options.append(f"take {code}")
        if landing.board_refusal(g, crew) is None:
            options.append(f"board {code}")
        options += [f"board {code} {x.id}" for x in enemy_ships
                    if boarding.board_refusal(g, crew, x.id) is None]
    if can_ascend(g, ship):
        options.append(f"ascend {ship.id}")
    return options + ["pass"] + free


def _free(g: Game, crew) -> list[str]:
    """Gifts to friendly crew beside it, and the surface tactical card if it is the commander."""
    s = g.state
    options = []
    friends = [o for o in sorted(s.crew.values(), key=lambda o: o.id) if o.cell and not o.ko
               and o.faction == crew.faction and distance(o.cell, crew.cell) == 1]
    for other in friends:
        options += [f"give {crew.id} {other.id} {item}" for item in sorted(set(crew.gear))
                    if pieces.can_carry(g, other, item)]
    seat = s.ships[crew.ship].seat
    card = landing.surface_card(g, seat) if seat else None
    if card and "commander" in crew.stations and crew.rounds.get("tactic") != s.round:
        options += [f"tactic {crew.id} {o.id}" for o in [crew] + friends
                    if card.effect != "aim" or distance(o.cell, crew.cell) <= 1]
        if card.effect != "aim":
            options += [f"tactic {crew.id} {o.id}" for o in sorted(s.crew.values(), key=lambda o: o.id)
                        if o.cell and not o.ko and o.faction == crew.faction and o is not crew
                        and distance(o.cell, crew.cell) > 1]
    return options


def _can_take(g: Game, crew) -> bool:
    obj = g.state.objective
    if obj is None or obj.ship or (obj.sealed and obj.kind == "container"):
        return False
    holder = g.state.crew.get(obj.holder or "")
    if holder is not None:
        return obj.kind == "courier" and holder.faction != crew.faction and near(holder.cell, crew.cell)
    return obj.cell is not None and near(obj.cell, crew.cell)
