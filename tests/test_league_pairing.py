"""Pairing rules on hand-made standings: groups, floats, rematches, the bye, the explainer."""
from engine.league.pairing import Entrant, choose_bye, pair_first_round, pair_round, seeded_dice


def entrant(pid, bp=0, fp=0, byes=0, met=()):
    return Entrant(pid, pid.upper(), bp, fp, byes, frozenset(met))


def test_first_round_is_random_but_fixed_by_the_seed():
    players = [entrant(f"p{i}") for i in range(7)]
    first = pair_first_round(players, seeded_dice(5, "round", 1))
    again = pair_first_round(list(reversed(players)), seeded_dice(5, "round", 1))
    other = pair_first_round(players, seeded_dice(6, "round", 1))
    assert first == again and first != other
    seen = [p for pair in first.pairs for p in pair] + [first.bye]
    assert sorted(seen) == [f"p{i}" for i in range(7)]


def test_a_group_pairs_first_with_second_third_with_fourth():
    players = [entrant(x, 4, fp) for x, fp in zip("abcd", (120, 110, 100, 90))]
    assert pair_round(players).pairs == [("a", "b"), ("c", "d")]


def test_rematch_is_avoided_inside_the_group():
    players = [entrant("a", 4, met="b"), entrant("b", 4, met="a"), entrant("c", 4), entrant("d", 4)]
    assert pair_round(players).pairs == [("a", "c"), ("b", "d")]


def test_odd_group_floats_its_lowest_to_the_top_of_the_next():
    players = [entrant("a", 4, 120), entrant("b", 4, 100), entrant("c", 4, 90), entrant("d", 2, 110), entrant("e", 2, 50), entrant("f", 2, 40)]
    pairing = pair_round(players)
    assert pairing.pairs == [("a", "b"), ("c", "d"), ("e", "f")]
    assert pairing.notes == [
        "4 BP group: 1 player(s) floated down, 1 because the group was left with an odd number of players.",
        "Float: C (4 BP, 90 FP) meets D (2 BP, 110 FP).",
    ]


def test_floats_to_avoid_a_rematch_are_explained():
    players = [entrant("a", 4, met="b"), entrant("b", 4, met="a"), entrant("c", 3), entrant("d", 3)]
    pairing = pair_round(players)
    assert pairing.pairs == [("a", "c"), ("b", "d")]
    assert pairing.notes[0] == "4 BP group: 2 player(s) floated down, 2 to avoid a rematch."


def test_forced_rematch_still_pairs_everyone_and_says_so():
    players = [entrant("a", 2, met="b"), entrant("b", 2, met="a")]
    pairing = pair_round(players)
    assert pairing.pairs == [("a", "b")]
    assert pairing.notes == ["Rematch: A and B meet again; no pairing without one exists."]


def test_pairing_within_groups_comes_before_squared_differences():
    # Our ruling (L6): the two 5 BP players meet each other, so only one game crosses
    # groups (6 against 4), although squared differences alone would prefer 6-5 and 5-4.
    players = [entrant("x", 6), entrant("y1", 5, 100), entrant("y2", 5, 90), entrant("z", 4)]
    assert pair_round(players).pairs == [("x", "z"), ("y1", "y2")]


def test_bye_goes_to_lowest_battle_points_without_a_bye():
    players = [entrant("a", 4, 200), entrant("b", 3, 150), entrant("c", 2, 100, byes=1), entrant("d", 2, 90)]
    bye, reason = choose_bye(players, last_bye="c")
    assert bye == "d"
    assert reason == "Bye: D (2 BP, 90 FP). Eligible (fewest byes so far: 0): A, B, D. C had the bye last round."


def test_bye_tie_on_points_goes_to_the_lowest_fleet_points_then_the_lowest_place():
    players = [entrant("a", 4, 100), entrant("b", 2, 90), entrant("c", 2, 80), entrant("d", 2, 80)]
    bye, reason = choose_bye(players, last_bye=None)
    assert bye == "d"
    assert reason.endswith("Tied with C; placed lowest after the roll-off.")


def test_when_everyone_has_had_a_bye_fewest_byes_and_never_twice_running():
    players = [entrant("a", 6, byes=1), entrant("b", 5, byes=1), entrant("c", 4, byes=1)]
    assert choose_bye(players, last_bye="c")[0] == "b"
    players = [entrant("a", 6, byes=2), entrant("b", 5, byes=1), entrant("c", 4, byes=1)]
    assert choose_bye(players, last_bye="c")[0] == "b"
    assert choose_bye(players, last_bye="b")[0] == "c"


def test_pair_round_takes_the_bye_out_before_pairing():
    players = [entrant("a", 4), entrant("b", 4), entrant("c", 2)]
    pairing = pair_round(players, last_bye=None)
    assert pairing.bye == "c" and pairing.pairs == [("a", "b")]
