"""Board picture fingerprints (images.pictures.keys): along random Renegades games, two
pictures with the same fingerprint are the same picture byte for byte, so a table that
leaves one out because its fingerprint did not change shows exactly what it would draw."""
import random
from collections import Counter

from engine.renegades import rules
from engine.renegades.autoplay import random_command
from images import pictures

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
