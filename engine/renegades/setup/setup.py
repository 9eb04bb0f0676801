"""Setting up a Renegades game: factions, ships, crews at their stations, decks, the mission."""
from __future__ import annotations

import itertools

from typing import Any, Optional

from engine.dice import Dice
from engine.errors import PackError, RuleError
from engine.renegades.contents.board import layout_key, orbit_of
from engine.packs import pack_ref
from engine.renegades.contents import locations
from engine.renegades.contents.content import FACTIONS, STATIONS, Pack, load_pack
from engine.renegades.contents.game import Game
from engine.renegades.contents.state import GameState, Player, Ship
from engine.renegades.crew import pieces
from engine.renegades.orbit import salvage
from engine.renegades.play import bounties, rounds
from engine.renegades.setup import draft
from engine.renegades.surface import figures, gear, landing, missions

MODES = ("versus", "coop")
TABLES = {"solo": ("coop", 1), "co-op": ("coop", 2), "versus": ("versus", 2)}  # a table -> (mode, seats)
BOARDS = ("fixed", "built")  # the pack's fixed surface board, or one built from location cards (N124)
DEFAULT_PACK = "content/renegades"


def new_game(config: dict[str, Any], seed: int) -> GameState:
    """A dealt game that stops at the first decision. RuleError when the config cannot be played.

    config: pack, mode (versus: Coalition against Renegades; coop: Renegade players
    against NPC Coalition ships), players [{seat, name, faction, ship, crew: [5 codes],
    npc_crew: [5 codes] (coop: the crew the player chooses for its NPC Coalition ship, N220)}],
    draft (true: crews not named are drafted, one pick at a time, N219),
    world_cards (6-10: the timed game; 5-6 in the quicker game), tier (1-3), mission (a card
    code), quick (the quicker game: ships start docked on the mission planet), boards (fixed,
    or built: the surface board built from location cards, N124). A campaign's
    mission (engine/renegades/campaign/campaign.py) adds `campaign` {title, mission, carried: seat ->
    {armory, energy}} and each player's `turned`, `upgrades` and `ship_upgrades`.
    """
    path = config.get("pack") or DEFAULT_PACK
    try:
        pack = load_pack(path)
    except PackError as error:
        raise RuleError(f"The content pack cannot be used: {error}") from error
    mode = config.get("mode", "versus")
    if mode not in MODES:
        raise RuleError(f"Mode is one of {', '.join(MODES)}, not '{mode}'.")
    seats = config.get("players") or []
    if not 1 <= len(seats) <= 4:
        raise RuleError("Renegades is for one to four players.")
    quick = bool(config.get("quick"))
    world_cards = int(config.get("world_cards", 6))
    check_world_cards(pack, quick, world_cards)
    tier = int(config.get("tier", 1))
    if tier not in (1, 2, 3):
        raise RuleError("The tier is 1, 2 or 3.")
    dice = Dice.seeded(seed)
    state = GameState(pack=pack_ref(pack.path), seed=seed, dice=dice, mode=mode, players=[], crew={}, ships={},
                      mission="", tier=tier)
    drafting = bool(config.get("draft"))
    if drafting and config.get("campaign") is not None:
        raise RuleError("A campaign's mission flies the crews the campaign chose; there is no draft.")
    check_boards(config.get("boards", "fixed"))
    taken_ships: set[str] = set()
    pickers: dict[str, str] = {}  # ship -> the seat drafting its crew (N219, N220)
    for index, spec in enumerate(seats):
        faction = spec.get("faction") or ("renegade" if mode == "coop" or index % 2 == 0 else "coalition")
        if faction not in FACTIONS:
            raise RuleError(f"A faction is renegade or coalition, not '{faction}'.")
        if mode == "coop" and faction != "renegade":
            raise RuleError("In the co-operative game every player flies a Renegade ship; the Coalition is played by the game.")
        seat = spec["seat"]
        ship = _ship_for(pack, faction, spec.get("ship"), taken_ships)
        state.players.append(Player(seat=seat, name=spec.get("name", seat), faction=faction, ships=[ship]))
        if drafting and not spec.get("crew"):
            pickers[ship] = seat
        else:
            _launch(state, pack, ship, seat, spec.get("crew"), spec)
    if mode == "versus" and len({p.faction for p in state.players}) < 2:
        raise RuleError("Coalition against Renegades needs a player on each side.")
    if mode == "versus" and any(spec.get("npc_crew") for spec in seats):
        raise RuleError("Only the single-team game has NPC Coalition ships whose crew a player chooses.")
    if mode == "coop":  # the single-team game: an NPC Coalition ship for each Renegade ship, crewed as its player chose
        for spec in seats:
            ship = _ship_for(pack, "coalition", None, taken_ships)
            if drafting and not spec.get("npc_crew"):
                pickers[ship] = spec["seat"]
            else:
                _launch(state, pack, ship, None, spec.get("npc_crew"))
    if pickers:
        draft.begin(state, pack, pickers, {k: v for k, v in config.items() if k != "players"})
        return state
    finish(state, pack, config)
    rounds.run(state)
    return state


def finish(state: GameState, pack: Pack, config: dict[str, Any]) -> None:
    """The set-up after the crews are chosen: the decks, armories, the mission, bounties,
    then the first round begins (or the quicker game's landing)."""
    _deal(state, pack, config.get("mission"), int(config.get("world_cards", 6)), config.get("boards") == "built")
    _stock_armories(state, pack, config.get("campaign"))
    missions.set_up(state, pack)
    bounties.deal(state)
    if config.get("quick"):
        _land_everyone(state)
    else:
        rounds.begin_round(state)


def launch_drafted(state: GameState, pack: Pack) -> None:
    """The drafted crews take their ships' stations, each ship on its launch square (N219)."""
    chosen = state.draft
    for ship, crew in chosen.crews.items():
        seat = chosen.pickers[ship] if pack.ships[ship].faction == state.player(chosen.pickers[ship]).faction else None
        _launch(state, pack, ship, seat, crew)
    state.draft = None


def check_world_cards(pack: Pack, quick: bool, count: int) -> None:
    """The timed game's world deck: 6 to 10 cards (no more than the pack has), or 5 or 6 in
    the quicker game (N57). RuleError otherwise."""
    fewest, most = (5, 6) if quick else (6, min(10, len(pack.world_events)))
    if not fewest <= count <= most:
        raise RuleError(f"Play with {fewest} to {most} world cards{' in the quicker game' if quick else ''} (N57).")


def check_boards(boards: str) -> None:
    """Fixed boards, or both built from location cards (N124). RuleError otherwise."""
    if boards not in BOARDS:
        raise RuleError(f"Boards are {' or '.join(BOARDS)}, not '{boards}'.")


def _stock_armories(state: GameState, pack: Pack, campaign: Any) -> None:
    """A campaign's mission: each player's ship carries the weapons and gear items of its
    campaign armory (`campaign.carried[seat].armory`), the items used by command with the
    tokens on each copy (`carried[seat].energy`, N181). Other ships get the standard armory
    when the mission is set up."""
    if campaign is None:
        return
    if not isinstance(campaign, dict):
        raise RuleError("`campaign` is set by a campaign's mission "
                        "(engine/renegades/campaign/campaign.py), not by hand.")
    carried = campaign.get("carried") or {}
    state.items_fly = True
    for player in state.players:
        if player.seat in carried:
            armory = carried[player.seat].get("armory") or []
            ship = player.ships[0]
            state.armory[ship] = [code for code in armory if code in pack.weapons or gear.item(pack, code)]
            gear.track(state, pack, gear.armory_key(ship), state.armory[ship], carried[player.seat].get("energy"))


def _land_everyone(state: GameState) -> None:
    """The quicker game (N57): every ship starts docked on the mission planet; NPC ships land
    their parties at once, players deploy theirs in seat order before round 1, which has no
    orbital phase."""
    g = Game(state)
    for ship in sorted(state.ships.values(), key=lambda x: (x.seat is None, x.id)):
        ship.cell, ship.docked, ship.docked_round = None, g.board.mission_planet.code, 0
        landing.dock(g, ship)
        if ship.seat is None:
            figures.npc_deploy(g, ship)
    seat_index = {seat: i for i, seat in enumerate(state.seats)}
    players = sorted((x for x in state.ships.values() if x.seat is not None), key=lambda x: seat_index[x.seat])
    state.phase, state.order, state.turn = "landing", [x.id for x in players], 0
    state.world_clock = 1  # the first world card ends round 1, landed or not


def _ship_for(pack: Pack, faction: str, wanted: Optional[str], taken: set[str]) -> str:
    free = [code for code, ship in pack.ships.items() if ship.faction == faction and code not in taken]
    if wanted is not None:
        wanted = wanted.upper()
        if wanted not in pack.ships or pack.ships[wanted].faction != faction:
            raise RuleError(f"'{wanted}' is not a {faction} ship of the pack.")
        if wanted in taken:
            raise RuleError(f"The {wanted} is already taken.")
        free = [wanted]
    if not free:
        raise RuleError(f"No {faction} ship is left for another player.")
    taken.add(free[0])
    return free[0]


def stations_for(pack: Pack, codes: list[str]) -> Optional[dict[str, str]]:
    """Station -> crewmember so that each of the five stations holds one crewmember whose
    specialty it is (the first such assignment in pack order), or None."""
    for order in itertools.permutations(codes):
        if all(station in pack.crew[code].stations for station, code in zip(STATIONS, order)):
            return dict(zip(STATIONS, order))
    return None


def _launch(state: GameState, pack: Pack, code: str, seat: Optional[str], crew: Optional[list[str]],
            carried: Optional[dict] = None) -> None:
    """Crew the ship and put it on a launch square of its faction's home (N6). A campaign's
    mission `carried` over: `turned` (crew of the other faction who serve this ship now),
    `upgrades` (crewmember -> upgrade codes) and `ship_upgrades`, applied to skills and stats."""
    carried = carried or {}
    turned = carried.get("turned") or ()
    spec = pack.ships[code]
    used = set(state.crew)
    if crew is None:
        crew = default_crew(pack, spec.faction, used)
        if crew is None:
            raise RuleError(f"Not enough {spec.faction} crew left to man every station of the {code}.")
    crew = [c.upper() for c in crew]
    for c in crew:
        if c not in pack.crew or pack.crew[c].faction != spec.faction and c not in turned:
            raise RuleError(f"'{c}' is not {spec.faction} crew of the pack.")
        if c in used:
            raise RuleError(f"{c} already serves on another ship.")
    stations = stations_for(pack, crew) if len(crew) == 5 and len(set(crew)) == 5 else None
    if stations is None:
        raise RuleError("Choose five crew, one for each station: commander, navigation, weapons, comms and engineering.")
    for station, c in stations.items():
        crew_member = pieces.crewmember(pack.crew[c], code, station)
        crew_member.faction = spec.faction  # a turned crewmember serves the ship's faction
        if pack.crew[c].faction != spec.faction:
            crew_member.turned_from = pack.crew[c].faction
        for upgrade in _upgrades(pack, (carried.get("upgrades") or {}).get(c, []), "crew"):
            crew_member.skills[upgrade.skill] += upgrade.add
            crew_member.upgrades.append(upgrade.code)
        state.crew[c] = crew_member
    home = orbit_of(pack.path).home_of(spec.faction)
    occupied = {s.cell for s in state.ships.values()}
    cell = next((c for c in home.launch if c not in occupied), None)
    if cell is None:
        raise RuleError(f"No launch square is free at {home.name}.")
    stats = {"range": spec.range, "shields": spec.shields, "hull": spec.hull}
    fitted = _upgrades(pack, carried.get("ship_upgrades") or [], "ship")
    for upgrade in fitted:
        stats[upgrade.stat] += upgrade.add
    state.ships[code] = Ship(id=code, name=spec.name, faction=spec.faction, kind="ship", seat=seat, cell=cell,
                             facing=home.facing, stations=stations, upgrades=[u.code for u in fitted], **stats)


def _upgrades(pack: Pack, codes: list[str], target: str) -> list:
    """The pack's upgrade cards `codes`, each for `target` (crew or ship), or RuleError."""
    found = [pack.upgrades.get(code) for code in codes]
    if any(u is None or u.target != target for u in found):
        raise RuleError(f"Unknown {target} upgrades among {', '.join(codes)}.")
    return found


def default_crew(pack: Pack, faction: str, used: set[str]) -> Optional[list[str]]:
    """The first five unused crew of the faction, in pack order, that man every station."""
    free = [code for code, c in pack.crew.items() if c.faction == faction and code not in used]
    for chosen in itertools.combinations(free, 5):
        if stations_for(pack, list(chosen)) is not None:
            return list(chosen)
    return None


def _deal(state: GameState, pack: Pack, mission: Optional[str], world_cards: int, built: bool) -> None:
    """Shuffle the decks: tactical cards to player commanders (N7), the mission, the timed
    world deck; with `built` boards the location cards of both boards (N124); the location
    deck; salvage on the orbital board."""
    dice = state.dice
    for kind in ("orbital", "surface"):
        deck = [code for code, card in pack.tactical.items() if card.type == kind]
        dice.shuffle(deck)
        for player in state.players:
            if deck:
                player.tactical.append(deck.pop(0))
    missions = list(pack.missions)
    dice.shuffle(missions)
    if mission is not None:
        if mission not in pack.missions:
            raise RuleError(f"'{mission}' is not a mission of the pack.")
        missions = [mission]
    state.mission = missions[0]
    world = list(pack.world_events)
    dice.shuffle(world)
    state.world_deck = world[:world_cards]
    if built:
        chosen = pack.missions[state.mission]
        state.surface_layout = locations.deal_layout(pack, chosen.surface, chosen.center, dice)
        state.orbit_layout = locations.deal_orbit(pack, dice)
    board = orbit_of(pack.path, layout_key(state.orbit_layout))
    state.location_deck = list(board.locations)
    dice.shuffle(state.location_deck)
    state.salvage = list(board.spec.salvage)
    salvage.deal(state, pack)
