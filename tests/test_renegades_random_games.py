"""Renegades random legal play: complete games (solo, two co-operating players, Coalition
against Renegades, four players; tiers 1-3; one in ten the quicker game, one in five on a
surface board built from location cards) keep the invariants (energy tokens counted on every
copy of gear used by command too), hide the world deck, the shut containers, the salvage
tokens and the other side's bounties, and replay exactly. The tests play the first GAMES of
the 200 seeds (every table at every tier twice, the quicker game and the built boards among
them); benchmarks/random_games_bench.py plays all 200 with the same checks."""
import json
import random
from collections import Counter

import pytest

from engine.errors import RuleError
from engine.renegades import rules, scenario
from engine.renegades.autoplay import random_command
from engine.renegades.contents.state import from_json, to_json
from engine.renegades.crew import hands, pieces
from engine.renegades.play import parties, rounds
from engine.renegades.surface import gear, home_run

ALL_GAMES = 200
GAMES = 24
SEEDS = random.Random(20261124).sample(range(10**9), ALL_GAMES)
CONFIGS = [
    {"mode": "coop", "players": [{"seat": "p1"}]},  # solo against NPC Coalition ships
    {"players": [{"seat": "p1"}, {"seat": "p2"}]},  # Coalition against Renegades
    {"mode": "coop", "players": [{"seat": "p1"}, {"seat": "p2"}], "world_cards": 8},
    {"players": [{"seat": f"p{i}"} for i in range(1, 5)], "world_cards": 10},
]


def check_invariants(state):
    g = rules.Game(state)
    board = g.board  # the pack's orbital board, or the one built from location cards (N124)
    cells = [s.cell for s in state.ships.values() if s.cell is not None]
    assert len(cells) == len(set(cells)), "two ships share a square"
    for ship in state.ships.values():
        assert (ship.cell is None) == (ship.docked is not None), ship
        if ship.cell is not None:
            assert ship.cell not in board.blocking
        assert 0 <= ship.damage <= ship.shields + ship.hull
        for station, code in ship.stations.items():
            assert state.crew[code].ship == ship.id and state.crew[code].station == station
    assert len(state.pending) <= 1
    assert (state.strike is not None) == any(d.kind == "bonus" for d in state.pending), "an attack waits unasked"
    if state.strike is not None:  # N122: asked only with a real choice, of the attacker's player
        assert len(rules.legal_commands(state, state.strike.seat)) > 1 and state.pending[0].player == state.strike.seat
    if state.world_clock is None:  # N20, N120: no world card before the first landing party
        assert not state.world_discard and state.round <= rounds.CLOCK_LATEST
    check_surface(state, g)
    check_gear(state, g)
    check_npc_hands(state, g)


def check_npc_hands(state, g):
    """N221: NPC crew never swap weapons, and need not: whatever an NPC crewmember carries to
    hold (a pistol from the hatch, the commander's arc blade too) is in its hands."""
    for crew in state.crew.values():
        if state.ships[crew.ship].seat is None and crew.wielding is not None:
            holdable = Counter(w for w in crew.gear if w in g.pack.weapons and g.pack.weapons[w].type in hands.HELD)
            assert not holdable - Counter(hands.held(g, crew)), (crew.id, crew.gear, crew.wielding)


def check_gear(state, g):
    """N181: every copy of gear used by command, in an armory, carried or lying on the
    ground, has its tokens counted (fullest first, within its card's), and nothing else has."""
    places = {gear.armory_key(ship): codes for ship, codes in state.armory.items()}
    places.update({crew.id: crew.gear for crew in state.crew.values()})
    places.update({gear.square_key(cell): codes for cell, codes in state.dropped.items()})
    assert set(state.energy) <= set(places), state.energy
    for holder, codes in places.items():
        held = state.energy.get(holder, {})
        for code in set(codes) | set(held):
            card = gear.item(g.pack, code)
            if card is None or not card.used:
                assert code not in held, (holder, code)
                continue
            tokens = held.get(code, [])
            assert len(tokens) == codes.count(code) and tokens == sorted(tokens, reverse=True), (holder, code)
            assert all(0 <= t <= card.energy for t in tokens), (holder, code)


def check_surface(state, g):
    """One standing piece a square, off the walls and docks; crew in one place each; at most
    three of a ship's crew on the surface; the carried with their carriers."""
    ground = g.ground
    standing = [c.cell for c in state.crew.values() if c.cell and not c.ko] + [
        f.cell for f in state.figures.values() if not f.boarded]
    assert len(standing) == len(set(standing)), "two figures share a square"
    assert not set(standing) & (ground.blocking | set(state.docks.values()) | set(state.fires))
    assert len(state.fires) <= 4 and not set(state.dropped) & (ground.blocking | set(state.containers))
    assert set(state.containers) <= set(ground.spec.containers), "a container off the board's container squares"
    for crew in state.crew.values():
        places = [crew.cell is not None, crew.station is not None, crew.room is not None]
        assert sum(places) <= 1, crew
        assert crew.hidden is False or (crew.cell and not crew.ko)
        assert 0 <= crew.wounds <= crew.health and crew.ko == (crew.wounds >= crew.health) or crew.ko
        if crew.carried_by:
            assert state.crew[crew.carried_by].carrying == crew.id and crew.cell == state.crew[crew.carried_by].cell
        if crew.captive:
            assert crew.faction != state.ships[crew.ship].faction and crew.room in ("medbay", "brig")
        if crew.boarded:  # N114: fighting on the card of an opposing ship docked on the surface
            assert crew.cell is None and crew.station is None and crew.room is None and not crew.ko
            assert crew.boarded in state.docks and state.ships[crew.boarded].faction != crew.faction
            assert state.ships[crew.ship].faction == crew.faction and not crew.captive  # freed ones too (N191)
        grenades = [w for w in crew.gear if w in g.pack.weapons and g.pack.weapons[w].type == "thrown"]
        assert len(grenades) <= pieces.CARRY["grenade"], crew  # N192
    for ship in state.ships.values():
        if ship.kind == "ship":
            assert len([c for c in state.crew.values() if c.ship == ship.id and c.cell and not c.captive]) <= 3
            assert (ship.id in state.docks) == (ship.docked == board_planet(g))
    for figure in state.figures.values():
        assert 0 <= figure.damage < figure.health
        if figure.boarded:  # N163: on the card of a ship docked on the surface, drawn at its dock
            assert state.docks.get(figure.boarded) == figure.cell and "giant" not in g.pack.villains[figure.code].keywords
            assert not parties.can_ascend(g, state.ships[figure.boarded])
    obj = state.objective
    if obj is not None and obj.run:  # N170: tier 3's run crosses the carrier's home surface
        assert state.tier == 3 and state.surface == home_run.home_surface(g, obj.run)


def board_planet(g):
    """The planet whose surface is in play: the mission planet, or tier 3's run home (N170)."""
    return g.surface_planet


def check_secrets(state, events):
    """No world card still in the deck and no shut container's contents show in a public
    view or event (a seat sees only what its own scans found); no dice state or seed."""
    public = json.dumps(rules.view_for(state, None)) + json.dumps(events)
    for code in state.world_deck:
        assert f'"{code}"' not in public, code
    for cell, item in state.containers.items():
        assert f'"{item}"' not in public, item
        for seat in state.seats:
            seen = json.dumps(rules.view_for(state, seat))
            assert (f'"{item}"' in seen) == (cell in state.peeks.get(seat, [])), (seat, item)
    view = rules.view_for(state, "p1")
    assert "dice" not in view and "seed" not in view and "world_deck" not in view
    public_view = json.dumps(rules.view_for(state, None))
    for item in set(state.salvage_items.values()) | set(state.salvage_deck):  # salvage in orbit (N61)
        assert f'"{item}"' not in public_view, item
    for seat in state.seats:
        scanned = rules.view_for(state, seat)["salvage_scanned"]
        assert scanned == {c: state.salvage_items[c] for c in state.salvage_peeks.get(seat, [])
                           if c in state.salvage_items}, seat
    assert all(b["paid"] for b in rules.view_for(state, None)["bounties"].values())
    for seat in state.seats:
        faction = state.player(seat).faction
        for other, bounty in rules.view_for(state, seat)["bounties"].items():
            assert bounty["paid"] or state.player(other).faction == faction, (seat, other)


def play_checked(seed, config, state=None):
    """Random legal commands to the end from the new game (or `state`), checked at each step."""
    state = state or rules.new_game(config, seed)
    rng = random.Random(seed)
    log = []
    while state.phase != "over":
        seat, command = random_command(state, rng)
        before = to_json(state)
        if rng.random() < 0.03:
            with pytest.raises(RuleError):
                rules.apply(state, seat, "attack NOBODY NOWHERE")
            assert to_json(state) == before
        if rng.random() < 0.02:  # every listed command is really legal
            for other in rules.legal_commands(state, seat):
                rules.apply(state, seat, other)
            assert to_json(state) == before
        state, events = rules.apply(state, seat, command)
        check_invariants(state)
        check_secrets(state, events)
        log.append((seat, command))
        assert len(log) < 2000
    return state, log


CHUNKS = 8


def game_config(index: int) -> dict:
    """The config of the game of this index among the seeds: its table, tier and options."""
    config = {**CONFIGS[index % len(CONFIGS)], "tier": 1 + index // len(CONFIGS) % 3}
    if index % 10 == 9:  # the quicker game: every ship starts docked on the mission planet
        config.update(quick=True, world_cards=6)
    if index % 5 == 2:  # the surface board built from location cards (N124)
        config.update(boards="built")
    return config


def play_games(indices) -> Counter:
    """Plays the games of these indices among the seeds, checking each; the verbs played."""
    verbs = Counter()
    for index in indices:
        seed, config = SEEDS[index], game_config(index)
        final, log = play_checked(seed, config)
        assert final.result is not None and final.result["outcome"] in ("unfinished", "won", "lost", "tied")
        assert from_json(to_json(final)) == final
        replayed = rules.new_game(config, seed)
        for seat, command in log:
            replayed, _ = rules.apply(replayed, seat, command)
        assert to_json(replayed) == to_json(final), f"seed {seed} did not replay"
        verbs.update(command.split()[0] for _, command in log)
    return verbs


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_renegades_games_keep_invariants_and_replay(chunk):
    verbs = play_games(range(chunk * GAMES // CHUNKS, (chunk + 1) * GAMES // CHUNKS))
    for verb in ("move", "attack", "pass", "station", "deploy"):
        assert verbs[verb] > 0, verb


LEFT_DOCKED = {  # the single-team game with the Renegade ship left docked, a Coalition prisoner in its brig
    "mode": "coop", "players": {"p1": {}}, "mission": "the-reactor-core", "tier": 2,
    "start": {"round": 2, "phase": "surface"}, "figures": {}, "docks": {"KESTREL": "A1", "WARDEN": "L12"},
    "ships": {"KESTREL": {"stations": {"commander": "VESK", "navigation": "TALLO", "weapons": "RHEE"}},
              "WARDEN": {"stations": {"weapons": "ORSO"}}},
    "crew": {"VESK": {"gear": ["arc-pistol", "flash-grenade"], "wounds": 7}, "TALLO": {"wounds": 5},
             "RHEE": {"wounds": 6}, "MOTT": {"room": "medbay", "ko": True, "wounds": 6},
             "GRUND": {"room": "medbay", "ko": True, "wounds": 9},
             "PELL": {"ship": "KESTREL", "captive": True, "room": "brig"},
             "HALVERN": {"station": None, "boarded": "KESTREL", "gear": ["arc-blade"]},
             "BRECK": {"cell": "C2", "gear": ["flash-grenade"]}, "ANSEL": {"cell": "F2"}}}


def test_npc_crew_board_free_and_fight_aboard_in_random_play():  # N190, N191, N192
    events = Counter()
    for seed in SEEDS[:8]:
        state = scenario.build({**LEFT_DOCKED, "seed": seed})
        start = to_json(state)
        final, log = play_checked(seed, {}, state)
        replayed = from_json(start)
        for seat, command in log:
            replayed, happened = rules.apply(replayed, seat, command)
            events.update(e["type"] for e in happened)
        assert to_json(replayed) == to_json(final), f"seed {seed} did not replay"
    assert events["boarded_enemy"] and events["prisoners_freed"] and events["grenade"], events
