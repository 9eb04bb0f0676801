"""Picture fingerprints (images.pictures.keys for the boards, dice_keys for the dice boards):
along random games two pictures with the same fingerprint are the same picture byte for
byte, so a table that leaves one out because its fingerprint did not change shows exactly
what it would draw; and whatever a dice board shows differently changes its fingerprint."""
import copy
import random
from collections import Counter

from engine.awaymissions import rules as away_rules
from engine.awaymissions.autoplay import random_command as away_command
from engine.renegades import rules
from engine.renegades.autoplay import random_command
from engine.service.rulesets import AWAY_MISSIONS, RENEGADES
from engine.service.text import public_events
from images import demo, demo_renegades, demo_surface, pictures
from images.dice import ROLL_GOES_ON
from tests.conftest import multi_config, two_player_config

GAMES = [(41, {"mode": "coop", "players": [{"seat": "p1"}, {"seat": "p2"}], "quick": True, "world_cards": 6}),
         (42, {"players": [{"seat": "p1"}, {"seat": "p2"}], "quick": True, "world_cards": 6})]
STEPS = 120  # actions per game checked (each draws the orbit, and the surface while in play)


def test_the_same_fingerprint_is_the_same_renegades_board_picture():
    seen: dict[tuple[str, str], bytes] = {}
    repeated = Counter()
    for seed, config in GAMES:
        state, rng = rules.new_game(config, seed), random.Random(seed)
        for _ in range(STEPS):
            if state.phase == "over":
                break
            state, events = rules.apply(state, *random_command(state, rng))
            public = [{k: v for k, v in e.items() if k != "private"} for e in events]
            view = rules.view_for(state, None)
            keys = pictures.keys("renegades", view, public)
            drawn = dict(pictures.draw("renegades", view, public, ["board"], waiting=False))
            assert set(keys) == set(drawn)
            for name, key in keys.items():
                repeated[name] += (name, key) in seen
                assert seen.setdefault((name, key), drawn[name]) == drawn[name], f"{name} differs under one key"
    assert repeated["board.png"] >= 10 and repeated["surface.png"] >= 3, repeated


def test_unchanged_pictures_are_left_out_and_the_rest_drawn():
    seed, config = GAMES[0]
    state, rng = rules.new_game(config, seed), random.Random(seed)
    while pictures.keys("renegades", rules.view_for(state, None), []).keys() != set(pictures.BOARD_FILES):
        state, _ = rules.apply(state, *random_command(state, rng))  # until the crew is on the surface
    view = rules.view_for(state, None)
    assert [n for n, _ in pictures.draw("renegades", view, [], ["board", "dice"], unchanged={"board.png"})] == \
        ["surface.png"]
    assert [n for n, _ in pictures.draw("renegades", view, [], ["board"], unchanged=pictures.BOARD_FILES)] == []


def dice_key(ruleset: str, view: dict, roll: list[dict], name: str = "dice.png"):
    return pictures.dice_keys(ruleset, view, roll).get(name)


def test_the_same_dice_fingerprint_is_the_same_dice_board():
    """Along random games of both rulesets (an Away Missions team game, where a teammate's pass
    is named on the board), each action that rolls or goes on with a roll: the dice boards a
    table would draw from the roll's events so far; one fingerprint is one picture."""
    seen: dict[tuple[str, str], bytes] = {}
    repeated, different = Counter(), Counter()
    games = [("awaymissions", away_rules, away_command, config, seed, AWAY_MISSIONS.dice_events | set(ROLL_GOES_ON))
             for seed, config in ((5, two_player_config()), (6, multi_config(4, teams=True)))]
    ship_combat = (51, {"mode": "coop", "players": [{"seat": "p1"}, {"seat": "p2"}]})  # 42 ship attacks in 160 steps
    games += [("renegades", rules, random_command, config, seed, RENEGADES.dice_events)
              for seed, config in [*GAMES, ship_combat]]
    for ruleset, engine, choose, config, seed, rolling in games:
        state, rng, roll = engine.new_game(config, seed), random.Random(seed), []
        for _ in range(600 if ruleset == "awaymissions" else 160):
            if state.phase == "over":
                break
            state, events = engine.apply(state, *choose(state, rng))
            public = public_events(events)
            if not any(e["type"] in rolling for e in public):
                continue
            goes_on = ruleset == "awaymissions" and not any(e["type"] == "rolled" for e in public)
            roll = roll + public if goes_on else public  # as engine.service.rolls.roll_events finds them in the log
            view = engine.view_for(state, None)
            keys = pictures.dice_keys(ruleset, view, roll)
            drawn = dict(pictures.draw(ruleset, view, public, ["dice"], roll=roll, waiting=False))
            assert set(keys) == set(drawn)
            for name, key in keys.items():
                repeated[ruleset, name] += (name, key) in seen
                different[ruleset, name] += (name, key) not in seen
                assert seen.setdefault((name, key), drawn[name]) == drawn[name], f"{name} differs under one key"
    assert repeated["awaymissions", "dice.png"] >= 3, repeated  # passes that leave the board as it was
    assert min(different[k] for k in [("awaymissions", "dice.png"), ("renegades", "dice.png"),
                                      ("renegades", "crew-dice.png")]) >= 5, different


def test_every_difference_a_dice_board_shows_changes_its_fingerprint():
    view, roll = demo.midgame_view(), demo.attack_events()
    key = dice_key("awaymissions", view, roll)
    assert key == dice_key("awaymissions", copy.deepcopy(view), copy.deepcopy(roll))  # same dice, same key
    open_window = roll[:3]  # the attack, its roll, one re-roll; the window still open
    waiting = {**view, "pending": [{"kind": "reroll", "player": "p1", "also": []}]}
    assert dice_key("awaymissions", view, open_window) == dice_key("awaymissions", waiting, open_window)
    assert dice_key("awaymissions", view, open_window) == \
        dice_key("awaymissions", view, open_window + [{"type": "reroll_passed", "seat": "p1"}])  # names nobody
    stunned = copy.deepcopy(view)
    stunned["characters"]["FERROW"]["stun"] = 1
    other_faces = copy.deepcopy(roll)
    other_faces[1]["opposing"] = [1, 5, 5]
    others = [open_window, roll[:-1], roll[:2] + roll[3:], other_faces,
              [{**roll[0], "weapon": "Phaser"}] + roll[1:]]
    keys = {key, dice_key("awaymissions", stunned, roll)} | {dice_key("awaymissions", view, r) for r in others}
    assert len(keys) == 2 + len(others) and None not in keys
    assert dice_key("awaymissions", view, roll[:1]) is None  # no roll among the events: no dice board

    ships, fired = demo_renegades.midgame_view(), demo_renegades.attack_events()
    renamed = copy.deepcopy(ships)
    renamed["ships"]["KESTREL"]["name"] = "Kite"
    blocked = copy.deepcopy(fired)
    blocked[1]["defense"] = [5]
    ship_keys = {dice_key("renegades", ships, fired), dice_key("renegades", ships, fired[:1]),
                 dice_key("renegades", ships, blocked), dice_key("renegades", renamed, fired)}
    assert len(ship_keys) == 4 and dice_key("renegades", ships, copy.deepcopy(fired)) in ship_keys

    ground, rolled = demo_surface.midgame_view(), demo_surface.attack_events() + demo_surface.skill_events()
    failed = copy.deepcopy(rolled)
    failed[1]["dice"] = [5, 3, 2]
    crew_keys = {dice_key("renegades", ground, r, "crew-dice.png") for r in (rolled, rolled[:1], failed)}
    assert len(crew_keys) == 3 and None not in crew_keys
    assert dice_key("renegades", ground, copy.deepcopy(rolled), "crew-dice.png") in crew_keys
