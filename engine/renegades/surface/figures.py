"""Non-player characters on the surface: villains, creatures and drones, and the NPC
Coalition landing party of the one-player or single-team game. They play themselves by
the rulebook's behaviour rules; every open choice is a ruling (N38-N44) or a seeded roll-off."""
from __future__ import annotations

from typing import Optional

from engine.renegades.contents.board import distance
from engine.renegades.contents.content import SQUADRONS
from engine.renegades.contents.game import Game
from engine.renegades.contents.ground import near
from engine.renegades.contents.state import CrewMember, Figure
from engine.renegades.crew import pieces
from engine.renegades.crew.pieces import Piece, is_giant
from engine.renegades.orbit import orbit
from engine.renegades.orbit.orbit import docked_long, roll_off
from engine.renegades.surface import boarding, crew_combat, home_run, landing, weather
from engine.renegades.surface.stocking import place

SPECIES_ORDER = {sq: i for i, sq in enumerate(SQUADRONS)}
RANK_ORDER = {"commander": 0, "creature": 1, "warrior": 2, "drone": 3}


# --- placing figures -----------------------------------------------------------------------------
def arrive(g: Game, villain: str, commander: Optional[str], most: int, not_at: Optional[str] = None,
           table: Optional[list[int]] = None) -> str:
    """An enemies card (N40): a commander comes whatever the roll (not if already on the
    board) with its escort; then one die for the figures: as many as the card's roll `table`
    gives for the face (N214), else the face, no more than `most`; less those of that kind
    already on the board, within the pool. A creature already hunting is joined by one more
    while the pool allows. All at a random surface location, another than `not_at` (a card's
    second species, N214); returns it."""
    s = g.state
    card = g.pack.villains[villain]
    present = sum(1 for f in s.figures.values() if f.code == villain)
    face = s.dice.roll(1)[0]
    if card.rank == "creature":
        count = 1 if present < card.pool else 0
    else:
        count = max(0, min(table[face - 1] if table else min(face, most), card.pool) - present)
    location = next((c for c in s.surface_deck if c != not_at), s.surface_deck[0])
    free = _arrival_squares(g, location, "giant" in card.keywords)
    placed = []
    if commander is not None and commander not in s.figures and free:
        placed.append(place(g, commander, free.pop(s.dice.below(len(free)))).id)
    for _ in range(min(count, len(free))):
        placed.append(place(g, villain, free.pop(s.dice.below(len(free)))).id)
    lead = s.figures.get(commander or "")
    if lead is not None and lead.id in placed:
        escort = next((s.figures[i] for i in placed if s.figures[i].code == g.pack.villains[lead.code].escort), None)
        if escort is not None:
            escort.escort_of = lead.id
    s.dice.shuffle(s.surface_deck)
    g.emit("enemies_arrive", villain=villain, die=face, already=present, location=location, figures=placed,
           cells=[s.figures[i].cell for i in placed])
    return location


def mate_may_join(g: Game, villain: str) -> bool:
    """Whether `villain` is a creature already hunting with room in its pool for a mate (N218)."""
    card = g.pack.villains[villain]
    present = sum(1 for f in g.state.figures.values() if f.code == villain)
    return card.rank == "creature" and 0 < present < card.pool


def _arrival_squares(g: Game, location: str, giant: bool) -> list[str]:
    """Free squares of the location's tile; a giant's under an open sky, the nearest to the
    tile when all of it is under a low ceiling (N108)."""
    s = g.state
    taken = {p.cell for p in pieces.standing(g)} | set(s.docks.values()) | set(s.containers) | set(s.fires) \
        | g.ground.blocking
    tile = g.ground.tile_cells(location)
    free = [c for c in tile if c not in taken and not (giant and c in g.ground.low)]
    if free or not giant:
        return free
    outside = [c for c in g.ground.cells if c not in taken and c not in g.ground.low]
    gap = {c: min(distance(c, t) for t in tile) for c in outside}
    return [c for c in outside if gap[c] == min(gap.values(), default=0)]


# --- targets -------------------------------------------------------------------------------------
def visible_crew(g: Game) -> list[CrewMember]:
    """Crew a figure can see and attack: conscious, on the surface, not hidden."""
    return sorted((c for c in g.state.crew.values() if c.cell is not None and not c.ko and not c.hidden),
                  key=lambda c: c.id)


def _most_hurt(g: Game, who: Piece, candidates: list) -> Optional[str]:
    ids = {c.id for c in candidates}
    hurt = {k: v for k, v in who.hurt_by.items() if k in ids}
    if not hurt:
        return None
    top = max(hurt.values())
    return roll_off(g, sorted(k for k, v in hurt.items() if v == top), figure=who.id)


def rivals(g: Game, f: Figure) -> list[Figure]:
    """The figures `f` fights besides the crew: creatures against villains (N162), on the
    board or on the same ship's card."""
    return sorted((o for o in g.state.figures.values() if pieces.opposed(f, o) and o.boarded == f.boarded),
                  key=lambda o: o.id)


def nearest(g: Game, f: Figure, candidates: list[Piece]) -> Optional[Piece]:
    """The nearest of `candidates` to `f`, crew before figures at the same distance, then a roll-off."""
    if not candidates:
        return None
    best = min((distance(c.cell, f.cell), isinstance(c, Figure)) for c in candidates)
    chosen = roll_off(g, [c.id for c in candidates if (distance(c.cell, f.cell), isinstance(c, Figure)) == best],
                      figure=f.id)
    return pieces.piece(g, chosen)


def choose_target(g: Game, f: Figure, among: Optional[list[CrewMember]] = None) -> Optional[Piece]:
    """N38, N39: commanders and creatures hunt the highest initiative (a creature first turns
    on whoever hurt it most this round); warriors and drones keep fighting the crewmember in
    base contact, turn on whoever hurt them most, else pair off: the crewmember fewest other
    warriors chose this round, not last round's target when another will do, the nearest,
    then a roll-off. `among`: the only candidates (a roused guard's intruders, N141).
    N162: whoever hurt it may be a rival figure; with no crewmember to hunt it hunts the
    nearest rival."""
    s = g.state
    crew = visible_crew(g) if among is None else among
    others = rivals(g, f) if among is None else []
    if is_giant(g, f):  # N108: it breaks off from crew under a low ceiling
        crew = [c for c in crew if c.cell not in g.ground.low]
        others = [o for o in others if o.cell not in g.ground.low]
    if not crew and not others:
        return None
    engaged = s.crew.get(f.engaged or "")
    if f.rank in ("warrior", "drone") and engaged in crew and near(engaged.cell, f.cell):
        return engaged
    pursued = s.crew.get(f.pursuing or "")
    if pursued in crew:  # N164: a roused guard follows its intruder wherever it flees
        return pursued
    hurt = _most_hurt(g, f, crew + others) if f.rank != "commander" else None
    if hurt is not None:
        return pieces.piece(g, hurt)
    if not crew:
        return nearest(g, f, others)
    if f.rank in ("commander", "creature"):
        top = max(c.initiative for c in crew)
        return s.crew[roll_off(g, [c.id for c in crew if c.initiative == top], figure=f.id)]
    load = {c.id: sum(1 for o in s.figures.values() if o is not f and o.rank in ("warrior", "drone")
                      and o.target == c.id) for c in crew}

    def rank(c: CrewMember):
        return (load[c.id], c.id == f.last_target and len(crew) > 1, distance(c.cell, f.cell))
    best = min(rank(c) for c in crew)
    return s.crew[roll_off(g, [c.id for c in crew if rank(c) == best], figure=f.id)]


# --- a figure's turn -----------------------------------------------------------------------------
def order(g: Game) -> list[str]:
    """N41: Syphon, Zurathi, Dregg, then other species by name; commanders, creatures,
    warriors, drones; then by id."""
    return [f.id for f in sorted(g.state.figures.values(), key=lambda f: (
        SPECIES_ORDER.get(f.species, len(SPECIES_ORDER)), f.species, RANK_ORDER[f.rank], f.id))]


def figures_turn(g: Game) -> None:
    for ident in order(g):
        figure = g.state.figures.get(ident)
        if figure is not None:
            act(g, figure)


def act(g: Game, f: Figure) -> None:
    """Scan the tile (villains and creatures), a guard waits until roused, an escort keeps
    beside its commander; otherwise close in on the target and attack (N42)."""
    g.emit("figure_turn", figure=f.id)
    if f.boarded:
        _fight_aboard(g, f)
        return
    if f.rank != "drone":
        landing.scan_room(g, f, f.search)
    tile = g.ground.tile_of(f.cell)
    intruders = None
    if f.guard:
        intruders = [c for c in visible_crew(g) if g.ground.tile_of(c.cell) == tile]
        if not intruders and not f.hurt_by:
            g.emit("figure_waits", figure=f.id, reason="on guard")
            return
        f.guard = False
        g.emit("roused", figure=f.id, by=[c.id for c in intruders] or sorted(f.hurt_by))
        intruders = intruders or None  # hurt by a rival (N162): it hunts as any figure
    lead = g.state.figures.get(f.escort_of or "")
    if lead is not None:
        if not near(f.cell, lead.cell):
            _approach(g, f, lead.cell, 1)
        _attack_nearest(g, f)
        return
    _lose_track(g, f)
    # a guard roused this turn goes for its intruders (N141), one roused earlier after the one it pursues (N164)
    dock = _lure(g, f) if intruders is None and f.pursuing is None else None
    if dock is not None:  # N113: a ship left docked draws every figure that is not fighting
        g.emit("figure_heads_for", figure=f.id, ship=dock[1], dock=dock[0])
        if distance(f.cell, dock[0]) > 1:
            _approach(g, f, dock[0], 1)
        if distance(f.cell, dock[0]) <= 1 and not is_giant(g, f):
            _board(g, f, dock)
        else:
            _attack_nearest(g, f)
        return
    target = choose_target(g, f, intruders)
    f.last_target, f.target = f.target, target.id if target else None
    if target is None:
        g.emit("figure_waits", figure=f.id, reason="nobody in sight")
        _attack_nearest(g, f)  # a giant may still shoot into a low-ceilinged tile
        return
    if intruders and isinstance(target, CrewMember):
        f.pursuing = target.id
    g.emit("figure_target", figure=f.id, target=target.id)
    if crew_combat.reach_of(g, f, target) is None:
        _approach(g, f, target.cell, f.range)
    if crew_combat.reach_of(g, f, target) is not None:
        crew_combat.strike(g, f, target)
        if isinstance(target, CrewMember) and near(f.cell, target.cell) and f.rank in ("warrior", "drone") \
                and not target.ko:
            f.engaged = target.id
    elif f.rank in ("commander", "creature"):
        _attack_nearest(g, f)


def _lose_track(g: Game, f: Figure) -> None:
    """A pursuing guard gives up once its intruder is down, aboard or hidden (N164)."""
    if f.pursuing is not None and g.state.crew[f.pursuing] not in visible_crew(g):
        g.emit("pursuit_ends", figure=f.id, crew=f.pursuing)
        f.pursuing = None


def _lure(g: Game, f: Figure) -> Optional[tuple[str, str]]:
    """(dock, ship) of the nearest hero ship docked on the surface for more than one round,
    for a figure neither in base contact with its opponent nor hurt this round (N113)."""
    s = g.state
    engaged = s.crew.get(f.engaged or "")
    if f.hurt_by or (engaged is not None and engaged.cell and not engaged.ko and near(engaged.cell, f.cell)):
        return None
    docked = [(cell, code) for code, cell in s.docks.items() if s.ships[code].kind == "ship"
              and docked_long(g, s.ships[code])]
    return min(docked, key=lambda d: (distance(f.cell, d[0]), d), default=None)


def _board(g: Game, f: Figure, dock: tuple[str, str]) -> None:
    """N163: a figure that reaches the dock of a ship left docked boards it (onto its card,
    at the dock) and fights there at once."""
    f.boarded, f.cell, f.engaged = dock[1], dock[0], None
    g.emit("figure_boards", figure=f.id, ship=dock[1])
    _fight_aboard(g, f)


def _fight_aboard(g: Game, f: Figure) -> None:
    """On a ship's card everyone is in base contact (N115): the figure attacks whoever hurt
    it most this round, else the crewmember of highest initiative there (a roll-off), else
    a rival figure there; with nobody to fight it holds the ship (it cannot rise, N163)."""
    ship = g.state.ships[f.boarded]
    crew = sorted((c for c in g.state.crew.values() if pieces.card_of(g, c) == ship.id), key=lambda c: c.id)
    others = rivals(g, f)
    target = pieces.piece(g, _most_hurt(g, f, crew + others) or "")
    if target is None and crew:
        top = max(c.initiative for c in crew)
        target = g.state.crew[roll_off(g, [c.id for c in crew if c.initiative == top], figure=f.id)]
    target = target or (others[0] if others else None)
    if target is None:
        g.emit("figure_waits", figure=f.id, reason=f"holding the {ship.name}")
        return
    crew_combat.strike(g, f, target)


def _attack_nearest(g: Game, f: Figure) -> None:
    """Attack the nearest visible crewmember or rival figure within reach (N162); a
    commander picks among the crew in its path as N213 says."""
    crew = [c for c in visible_crew(g) if crew_combat.reach_of(g, f, c) is not None]
    if f.rank == "commander":
        crew = _in_the_path(f, crew)
    chosen = nearest(g, f, crew + [o for o in rivals(g, f) if crew_combat.reach_of(g, f, o) is not None])
    if chosen is not None:
        if f.rank == "commander" and isinstance(chosen, CrewMember):
            f.struck = chosen.id
        crew_combat.strike(g, f, chosen)


def _in_the_path(f: Figure, crew: list[CrewMember]) -> list[CrewMember]:
    """N213: a commander attacking on its way does not strike its last victim in its path
    again while another crewmember is within reach (one of the other faction first); then
    it strikes whoever hurt it most this round."""
    last = next((c for c in crew if c.id == f.struck), None)
    if last is not None and len(crew) > 1:
        others = [c for c in crew if c is not last]
        crew = [c for c in others if c.faction != last.faction] or others
    top = max((f.hurt_by.get(c.id, 0) for c in crew), default=0)
    return [c for c in crew if f.hurt_by.get(c.id, 0) == top] if top else crew


def _approach(g: Game, f: Figure, goal: str, reach: int) -> None:
    """Move to the reachable square that can strike at `goal` (within `reach` and sight),
    else the nearest to it, then the cheapest, then first by name."""
    paths = g.ground.paths(f.cell, f.speed, frozenset(g.state.containers), landing.passable_for(g, f, False),
                           barred=g.ground.low if is_giant(g, f) else frozenset())
    taken = {p.cell for p in pieces.standing(g) if p is not f}
    options = [c for c in paths if c not in taken]

    def score(cell: str):
        gap = distance(cell, goal)
        in_reach = gap <= 1 or (gap <= reach and weather.sees(g, cell, goal, is_giant(g, f))
                                and crew_combat.clear_shot(g, f, cell, goal))
        return (not in_reach, gap, paths[cell][0], cell)
    best = min(options, key=score)
    if best == f.cell:
        return
    start, f.cell = f.cell, best
    g.emit("figure_moved", figure=f.id, path=[start] + paths[best][2])


# --- the NPC Coalition landing party -------------------------------------------------------------
LANDING = ("commander", "engineering", "comms")  # the NPC landing party: commander, engineer, medic


def npc_deploy(g: Game, ship) -> None:
    """N43: an NPC Coalition ship lands its commander, engineer and medic: those at their
    stations, then crew back aboard from an earlier landing (off station) whose card names
    one of those stations, then any other of them who can step out."""
    at_stations = [ship.stations[st] for st in LANDING if st in ship.stations]
    off = [c for c in pieces.aboard(g, ship.id)
           if c.station is None and not c.ko and not c.captive and c.room != "brig" and c.id not in at_stations]
    off.sort(key=lambda c: (min((LANDING.index(st) for st in c.stations if st in LANDING), default=len(LANDING)),
                            c.id))
    codes = at_stations + [c.id for c in off]
    landing.deploy(g, ship, codes[:pieces.PARTY - len(pieces.on_surface(g, ship.id))])


def npc_crew_turn(g: Game, ship_id: str) -> None:
    """The NPC ship's landing party (boarders included) and, while opponents fight on its
    card, its crew aboard, by initiative (N44, N190)."""
    ship = g.state.ships[ship_id]
    crew = pieces.party(g, ship_id)
    if orbit.boarded(g, ship):
        crew += [c for c in pieces.aboard(g, ship_id) if pieces.card_of(g, c) == ship_id]
    if crew:
        g.emit("npc_party", ship=ship_id)
    for member in sorted(crew, key=lambda c: (-c.initiative, c.id)):
        if not member.ko and (member.cell is not None or pieces.card_of(g, member)):
            _npc_crewmember(g, member)


def _npc_foes(g: Game, crew: CrewMember) -> list[CrewMember]:
    """The Renegades an NPC crewmember may pair off with (N44, N190): on its ship's card,
    those fighting there; on the surface, those in sight and those on the card of a
    Renegade ship it may board (docked for more than one round)."""
    s = g.state
    card = pieces.card_of(g, crew)
    cards = {card} if card else {x.id for x in boarding.targets(g, s.ships[crew.ship])}
    aboard = sorted((c for c in s.crew.values() if c.faction != crew.faction and pieces.card_of(g, c) in cards),
                    key=lambda c: c.id)
    return aboard if card else [c for c in visible_crew(g) if c.faction != crew.faction] + aboard


def _npc_target(g: Game, crew: CrewMember) -> Optional[Piece]:
    """N44: a figure that hurt it this round (fighting where it fights); else, during tier
    3's run, the visible opponent carrying the findings (N148); else pair off against the
    Renegade (N190: in sight, or aboard a ship it may board) with the initiative closest to
    its own that fewest NPC crew chose; a roll-off among equals."""
    s = g.state
    hurt = [f for f in s.figures.values() if f.id in crew.hurt_by and f.boarded == pieces.card_of(g, crew)]
    if hurt:
        return max(hurt, key=lambda f: (crew.hurt_by[f.id], f.id))
    foes = _npc_foes(g, crew)
    if not foes:
        return None
    holder = s.crew.get(s.objective.holder or "") if s.objective is not None and s.objective.run else None
    if holder in foes:
        return holder
    load = {c.id: sum(1 for o in s.crew.values() if o is not crew and o.assigned == c.id) for c in foes}

    def rank(c: CrewMember):
        return (load[c.id], abs(c.initiative - crew.initiative))
    best = min(rank(c) for c in foes)
    crew.assigned = roll_off(g, [c.id for c in foes if rank(c) == best], crew=crew.id)
    return s.crew[crew.assigned]


def _npc_crewmember(g: Game, crew: CrewMember) -> None:
    """Scan the room, then two actions: on a ship's card fight there (N190); carry the
    parameter home (in tier 3's run across its own home surface, to the base), else fight
    the target (close to base contact, or board the ship where it fights, then attack), else
    go for the parameter (aboard a Renegade ship too)."""
    s = g.state
    g.emit("npc_crew_turn", crew=crew.id)
    if crew.cell is not None and crew.rounds.get("scan") != s.round:
        crew.rounds["scan"] = s.round
        landing.scan_room(g, crew, crew.skills["search"])
    target = _npc_target(g, crew)
    if target is not None:
        g.emit("npc_crew_target", crew=crew.id, target=target.id)
    actions = pieces.ACTIONS
    while actions > 0 and not crew.ko and s.phase != "over" and (crew.cell is not None or pieces.card_of(g, crew)):
        actions -= 1
        if crew.cell is None:
            if not _npc_aboard(g, crew, target):
                return
            continue
        obj = s.objective
        if obj is not None and obj.holder == crew.id and obj.run == crew.faction:
            spot = home_run.delivery_square(g, crew)  # N146: the findings go to the employer's base
            if spot is None or not _step_towards(g, crew, spot):
                return
            continue
        if obj is not None and obj.holder == crew.id:
            ship = pieces.docked_ship(g, crew)
            if ship is not None and distance(crew.cell, s.docks[ship.id]) <= 1:
                landing.board(g, crew)
                return
            if ship is None or not _step_towards(g, crew, s.docks[ship.id]):
                return
            continue
        if isinstance(target, CrewMember) and pieces.card_of(g, target):
            if _npc_board(g, crew, pieces.card_of(g, target)):
                continue
            return
        if target is not None and target.cell is not None and not getattr(target, "ko", False):
            if not near(crew.cell, target.cell) and _step_towards(g, crew, target.cell):
                continue  # into base contact for melee first (N44)
            if crew_combat.attack_refusal(g, crew, target) is None:
                crew_combat.strike(g, crew, target)
                continue
            return
        if obj is not None and obj.ship in {x.id for x in boarding.targets(g, s.ships[crew.ship])}:
            if _npc_board(g, crew, obj.ship):  # N190: the parameter went aboard a Renegade ship left docked
                continue
            return
        if obj is None or obj.ship is not None or obj.holder is not None:
            return
        spot = next(iter(c for c, v in s.containers.items() if v == pieces.PARAMETER), None) or obj.cell
        if spot is None:
            return
        if near(crew.cell, spot):
            if spot in s.containers:
                landing.open_container(g, crew, "", spot)
            else:
                landing.take(g, crew)
            continue
        if not _sneak_towards(g, crew, spot):
            return


def _npc_aboard(g: Game, crew: CrewMember, target: Optional[Piece]) -> bool:
    """One action on a ship's card (N190): attack the target fighting there; a boarder with
    nobody left to fight holds the ship (N116). False when the turn is over."""
    if target is not None and pieces.card_of(g, target) == pieces.card_of(g, crew) \
            and crew_combat.attack_refusal(g, crew, target) is None:
        crew_combat.strike(g, crew, target)
        return True
    if crew.boarded:
        return boarding.hold(g, crew)
    return False


def _npc_board(g: Game, crew: CrewMember, ship: str) -> bool:
    """One action towards the card of the Renegade ship `ship` (N190): board it from beside
    its dock, else step towards the dock. False when it can do neither."""
    if boarding.board_refusal(g, crew, ship) is None:
        boarding.board(g, crew, ship)
        return True
    return _step_towards(g, crew, g.state.docks[ship])


def _step_towards(g: Game, crew: CrewMember, goal: str, cover: bool = False) -> bool:
    """Move to the reachable square nearest `goal` (then cheapest, then by name); with
    `cover`, to the nearest of those by a wall or in cover when one gets nearer (N31, N196).
    False when no square is nearer or the crewmember failed to elude (this round or now)."""
    if crew.rounds.get("pinned") == g.state.round:
        return False
    options = {c: v for c, v in landing.reach(g, crew).items() if distance(c, goal) < distance(crew.cell, goal)}
    covered = {c: v for c, v in options.items() if g.ground.by_wall(c) or c in g.state.containers}
    options = covered if cover and covered else options
    if not options:
        return False
    return landing.move(g, crew, min(options, key=lambda c: (distance(c, goal), options[c][0], c)))


def _watched(g: Game, crew: CrewMember, goal: str) -> bool:
    """Whether a figure or an opponent in sight stands in the crewmember's room or in the
    room its next move towards `goal` enters."""
    ahead = landing.reach(g, crew)
    nearest = min(ahead, key=lambda c: (distance(c, goal), ahead[c][0], c), default=crew.cell)
    rooms = {g.ground.tile_of(crew.cell), g.ground.tile_of(nearest)}
    return any(pieces.opposed(crew, p) and not getattr(p, "hidden", False) and g.ground.tile_of(p.cell) in rooms
               for p in pieces.standing(g))


def _sneak_towards(g: Game, crew: CrewMember, goal: str) -> bool:
    """N196: going for the mission parameter with a figure or an opponent in the room it is
    in or entering, an NPC crewmember takes its stealth test (once a round) and keeps to the
    walls and cover; otherwise it steps straight towards the parameter."""
    if not _watched(g, crew, goal):
        return _step_towards(g, crew, goal)
    if landing.hide_refusal(g, crew) is None:
        landing.hide(g, crew)
    return _step_towards(g, crew, goal, cover=True)
