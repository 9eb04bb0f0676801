"""Renegades events in words: one line per player action, one per NPC phase, one per world phase."""
import random

from engine.renegades import rules
from engine.renegades.contents.state import Ship
from engine.service.rulesets import RENEGADES
from engine.service.text import public_line, question

NAMES = {"p1": "Ann", "KESTREL": "Kestrel", "WARDEN": "Warden", "ion-squall": "Ion Squall"}


def test_each_npc_phase_is_one_line_naming_each_npc_once():
    events = [
        {"type": "ship_moved", "ship": "KESTREL", "path": ["B7", "C7"], "facing": "E", "cost": 1, "points": 6},
        {"type": "turn_over", "ship": "KESTREL"},
        {"type": "npc_turn", "ship": "WARDEN"},
        {"type": "npc_target", "ship": "WARDEN", "target": "KESTREL"},
        {"type": "ship_moved", "ship": "WARDEN", "path": ["N7", "M7"], "facing": "W", "cost": 1, "points": 6},
        {"type": "ship_attack", "ship": "WARDEN", "target": "KESTREL", "hits": 2, "blocked": 1, "damage": 1},
        {"type": "npc_turn", "ship": "DREGG-1"},
        {"type": "npc_waits", "ship": "DREGG-1"},
        {"type": "world_event", "card": "ion-squall", "reader": "p1"},
        {"type": "event_damage", "ship": "KESTREL", "amount": 1},
        {"type": "round", "round": 2},
        {"type": "ship_turn", "ship": "KESTREL", "seat": "p1", "initiative": 8},
    ]
    assert RENEGADES.public_lines(events, NAMES) == [
        "Kestrel moves B7 > C7, facing E",
        "NPC ships: Warden moves N7 > M7, facing W, then fires on Kestrel: 2 hits, 1 blocked, 1 damage; "
        "DREGG-1 holds its position",
        "World event phase: Ion Squall is drawn; Kestrel takes 1 damage",
        "Round 2 begins",
        "Kestrel's turn (Ann)",
    ]


def test_an_unknown_event_is_still_said_in_words():
    generic = public_line({"type": "stood_still", "crew": "VESK"}, NAMES)
    assert RENEGADES.public_lines([{"type": "stood_still", "crew": "VESK"}], NAMES) == [generic[0].upper() + generic[1:]]


def test_a_whole_coop_game_gives_at_most_one_npc_line_per_action():
    state = rules.new_game({"mode": "coop", "players": [{"seat": "p1"}]}, seed=5)
    rng = random.Random(2)
    while state.phase != "over":
        state, events = rules.apply(state, "p1", rng.choice(rules.legal_commands(state, "p1")))
        lines = RENEGADES.public_lines(events, rules.display_names(state))
        assert sum(line.startswith("NPC ships:") for line in lines) <= 1
        assert sum(line.startswith("World event phase:") for line in lines) <= 1
        if any(e["type"] == "npc_turn" for e in events):
            assert any(line.startswith("NPC ships:") for line in lines)


def test_fighters_of_one_squadron_are_told_apart_by_number():
    state = rules.new_game({"mode": "coop", "players": [{"seat": "p1"}]}, seed=5)
    state.ships["DREGG-2"] = Ship(id="DREGG-2", name="Dregg fighter", faction="dregg", kind="fighter")
    names = rules.display_names(state)
    assert names["DREGG-2"] == "Dregg fighter 2" and names["WARDEN"] == "Warden"


def test_crew_are_called_by_name_when_they_change_stations():
    state = rules.new_game({"mode": "coop", "players": [{"seat": "p1"}]}, seed=5)
    state, events = rules.apply(state, "p1", "station KESTREL MOTT navigation")
    assert RENEGADES.public_lines(events, rules.display_names(state)) == \
        ["Dr. Iva Mott takes navigation, Tallo Brisk takes comms"]


def test_special_abilities_are_said_by_their_names():
    state = rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}]}, seed=5)
    names = rules.display_names(state)
    events = [{"type": "crew_ability", "crew": "MOTT", "ability": "field-dressing", "target": "TALLO",
               "dice": [5, 1], "passed": True},
              {"type": "healed", "crew": "TALLO", "amount": 2},
              {"type": "rallied", "crew": "VESK", "other": "TALLO"},
              {"type": "charge", "crew": "RHEE", "to": "A7", "target": "ORSO"},
              {"type": "charge_stopped", "crew": "RHEE", "cell": "A5", "target": "ORSO"}]
    assert RENEGADES.public_lines(events, names) == [
        "Dr. Iva Mott tries Field Dressing (5 1): passes",
        "Tallo Brisk loses 2 wounds",
        "Captain Orla Vesk rallies Tallo Brisk: one more action, not for an attack",
        "Sable Rhee charges to A7 to attack Ensign Teo Orso",
        "Sable Rhee is stopped at A5, out of reach of Ensign Teo Orso",
    ]


def test_dropped_and_picked_up_gear_is_said_by_its_name():
    state = rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}]}, seed=5)
    names = rules.display_names(state)
    events = [{"type": "dropped", "crew": "TALLO", "item": "scatter-rifle", "cell": "B6", "reason": "no room to carry it"},
              {"type": "dropped", "crew": "VESK", "item": "arc-blade", "cell": "C3", "reason": "dropped"},
              {"type": "picked_up", "crew": "RHEE", "item": "arc-blade", "cell": "C3"}]
    assert RENEGADES.public_lines(events, names) == [
        "Tallo Brisk drops Scatter rifle on B6 (no room to carry it)",
        "Captain Orla Vesk drops Arc blade on C3",
        "Sable Rhee picks up Arc blade at C3",
    ]


def test_a_leap_is_said_with_its_hard_landing():
    state = rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}]}, seed=5)
    events = [{"type": "leapt", "crew": "VESK", "cell": "I12"},
              {"type": "leap_attack", "target": "VESK", "attack": [6, 5, 1], "defense": [1, 1], "wounds": 2}]
    assert RENEGADES.public_lines(events, rules.display_names(state)) == [
        "Captain Orla Vesk leaps down into the sunken ground at I12", "Captain Orla Vesk lands hard: 2 wound(s)"]


def test_boarding_and_fire_are_said_in_words():
    state = rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}]}, seed=5)
    names = rules.display_names(state)
    events = [{"type": "boarded_enemy", "crew": "VESK", "ship": "WARDEN"},
              {"type": "left_ship", "crew": "VESK", "ship": "WARDEN", "cell": "K11"},
              {"type": "douse", "crew": "GRUND", "cell": "B4", "dice": [5], "passed": True},
              {"type": "parameter_test", "crew": "GRUND", "skill": "tech", "dice": [4], "passed": False,
               "name": "the ledger"}]
    assert RENEGADES.public_lines(events, names) == [
        "Captain Orla Vesk boards the Warden", "Captain Orla Vesk steps off the Warden at K11",
        "Grund Ashkel fights the fire at B4: puts it out", "Grund Ashkel makes a tech test to take the ledger: fails"]


def test_the_world_clock_starting_is_part_of_the_world_event_line():
    events = [{"type": "world_clock", "round": 2, "landed": True},
              {"type": "world_event", "card": "ion-squall", "reader": "p1"},
              {"type": "round", "round": 3}]
    assert RENEGADES.public_lines(events, NAMES)[0] == \
        "World event phase: the world deck starts (a landing party is on the surface); Ion Squall is drawn"
    late = [{"type": "world_clock", "round": 5, "landed": False}]
    assert RENEGADES.public_lines(late, NAMES) == ["World event phase: the world deck starts (nobody has landed by round 5)"]


def test_the_card_turning_and_a_back_side_test_are_said():
    events = [{"type": "shields_down", "ship": "WARDEN"},
              {"type": "ship_ability", "ship": "WARDEN", "ability": "command", "crew": "WARDEN", "dice": [5, 1],
               "passed": False, "test": 6}]
    assert RENEGADES.public_lines(events, NAMES) == [
        "Warden's shields are down: its card turns to the back (harder ship abilities)",
        "Warden tries command (5 1, 6+): fails"]


def test_an_attack_waiting_for_its_bonuses_says_the_dice():
    events = [{"type": "bonus_choice", "attacker": "KESTREL", "target": "WARDEN", "dice": [6, 3, 2], "bonuses": [[1, 1]]}]
    assert RENEGADES.public_lines(events, NAMES) == ["Kestrel rolls 6 3 2 at Warden and places its bonuses (+1 to 1 die)"]


def test_the_bonus_decision_is_asked_with_the_dice():
    decision = {"kind": "bonus", "info": {"attacker": "KESTREL", "target": "WARDEN", "dice": [6, 3, 2]}}
    assert question(decision, NAMES) == "Which dice do Kestrel's attack bonuses raise? (rolled against Warden: 6, 3, 2)"


def test_every_event_of_random_games_reads_as_words_not_fields():
    """No public line falls back to 'Event kind (field=value, ...)': each event the engine
    emits in play (orbit, surface, NPCs, world events) has its own readable line."""
    import random
    for seed in range(12):
        config = {"mode": "versus" if seed % 2 else "coop", "quick": seed % 3 != 1,
                  "players": [{"seat": "p1"}, {"seat": "p2"}] if seed % 2 else [{"seat": "p1"}]}
        state, rng = rules.new_game(config, seed), random.Random(seed)
        names = rules.display_names(state)
        for _ in range(400):
            if state.phase == "over":
                break
            seat = rules.awaited(state)[0]
            state, events = rules.apply(state, seat, rng.choice(rules.legal_commands(state, seat)))
            public = [{k: v for k, v in e.items() if k != "private"} for e in events]
            for line in RENEGADES.public_lines(public, names):
                assert "=" not in line, (line, [e["type"] for e in public])


def test_tier_three_run_is_told_in_words():
    events = [
        {"type": "home_run", "ship": "KESTREL", "faction": "renegade", "board": "saven-free-docks",
         "name": "Port Saven free docks", "recovered": ["VESK"]},
        {"type": "findings_out", "crew": "VESK", "ship": "KESTREL", "name": "the reactor core"},
        {"type": "parameter_delivered", "crew": "VESK", "name": "the reactor core"},
    ]
    names = {**NAMES, "VESK": "Orla Vesk"}
    assert RENEGADES.public_lines(events, names) == [
        "Kestrel leaves the mission planet with the findings: the run goes on across Port Saven free docks, "
        "and everyone left on the mission planet goes back aboard",
        "Orla Vesk carries the reactor core out of the Kestrel, bound for the employer's base",
        "Orla Vesk delivers the reactor core to the employer",
    ]


def test_the_home_surfaces_own_containers_and_guards_are_told_when_the_run_starts():
    """N147: the home run's line says what waits on the home surface."""
    event = {"type": "home_run", "ship": "WARDEN", "faction": "coalition", "board": "earth-spaceport",
             "name": "Earth orbital spaceport", "recovered": [], "containers": 4, "guards": ["DRONE2"]}
    assert RENEGADES.public_lines([event], {**NAMES, "DRONE2": "Sentry drone"}) == [
        "Warden leaves the mission planet with the findings: the run goes on across Earth orbital spaceport, "
        "and everyone left on the mission planet goes back aboard; 4 shut containers and Sentry drone on guard "
        "wait there"]


def test_weather_boarding_figures_and_lost_pursuits_are_said_in_words():
    names = {**NAMES, "long-shadows": "Long Shadows", "SYPHON-W1": "Syphon warrior", "VESK": "Vesk"}
    events = [
        {"type": "figures_phase", "figures": ["SYPHON-W1"]},
        {"type": "figure_turn", "figure": "SYPHON-W1"},
        {"type": "pursuit_ends", "figure": "SYPHON-W1", "crew": "VESK"},
        {"type": "figure_boards", "figure": "SYPHON-W1", "ship": "KESTREL"},
        {"type": "world_event", "card": "long-shadows", "reader": "p1"},
        {"type": "weather", "card": "long-shadows", "round": 3},
        {"type": "round", "round": 3},
    ]
    lines = RENEGADES.public_lines(events, names)
    assert lines[1] == "On the surface: Syphon warrior loses track of Vesk, then boards the Kestrel"
    assert lines[2] == "World event phase: Long Shadows is drawn; it holds on the surface all through round 3"


def test_a_grenade_and_freed_prisoners_are_said_in_words():  # N191, N192
    state = rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}]}, seed=5)
    events = [{"type": "grenade", "crew": "VESK", "grenade": "flash-grenade", "cell": "E9", "reach": 4,
               "victims": ["ORSO", "TALLO"]},
              {"type": "blast_attack", "target": "ORSO", "attack": [6, 5, 1], "defense": [1, 1], "wounds": 2},
              {"type": "prisoners_freed", "crew": "VESK", "ship": "WARDEN", "freed": ["TALLO"]}]
    assert RENEGADES.public_lines(events, rules.display_names(state)) == [
        "Captain Orla Vesk throws a Flash grenade at E9, catching Ensign Teo Orso, Tallo Brisk",
        "The blast hits Ensign Teo Orso: 2 wounds",
        "Captain Orla Vesk frees Tallo Brisk from the Warden's brig"]
