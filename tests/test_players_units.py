"""The pure parts of issue 14 items 9 and 10: which games are rated and how, time zones,
quiet hours (past midnight, daylight saving time) and vacation shifts."""
from datetime import datetime, timedelta, timezone

import pytest

from engine.service import ratings
from engine.service.availability import BadTime, Quiet, clock, held_until, shift, zone
from engine.service.ratings import Player

ANN, BO = Player("p1", 1, "p1"), Player("p2", 2, "p2")


def utc(*args) -> float:
    return datetime(*args, tzinfo=timezone.utc).timestamp()


@pytest.mark.parametrize("status, guild, players, result, commands, rated, why", [
    ("over", 5, [ANN, BO], {"winner": "p1"}, 40, True, "played to the end"),
    ("over", 5, [ANN, BO], {"winner": "p2", "conceded": "p1"}, 3, True, "conceded"),
    ("over", 5, [ANN, BO], {"winner": None, "scores": {"p1": 2, "p2": 2}}, 90, True, "played to the end"),
    ("aborted", 5, [ANN, BO], None, 40, False, "not finished by play or concession"),
    ("over", None, [ANN, BO], {"winner": "p1"}, 40, False, "not played in a server"),
    ("over", 5, [ANN, Player("p2", 1, "p2")], {"winner": "p1"}, 40, False, "fewer than two different people (the computer is not rated)"),
    ("over", 5, [ANN, Player("p2", 2, "p1")], {"winner": "p1"}, 40, False, "fewer than two different people (the computer is not rated)"),
    ("over", 5, [ANN, Player("p2", 0, "p2")], {"winner": "p1"}, 40, False, "a seat was not held by a person"),
    ("over", 5, [ANN, BO], {"winner": "p2", "conceded": "p1"}, 0, False, "conceded before any move"),
])
def test_which_games_are_rated(status, guild, players, result, commands, rated, why):
    assert ratings.ruling(status, guild, players, result, commands) == (rated, why)


def test_a_win_moves_both_ratings_and_a_draw_ranks_both_first():
    after = ratings.rate([ANN, BO], {"winner": "p1"}, {})
    assert after[1][0] > ratings.START[0] > after[2][0]
    assert after[1][1] < ratings.START[1]
    assert ratings.ranks([ANN, BO], {"winner": None}) == {"p1": 1, "p2": 1}
    level = ratings.rate([ANN, BO], {"winner": None}, {})
    assert level[1][0] == pytest.approx(level[2][0])
    # a strong player beating a weak one gains less than the other way round
    strong, weak = (35.0, 4.0), (15.0, 4.0)
    expected = ratings.rate([ANN, BO], {"winner": "p1"}, {1: strong, 2: weak})[1][0] - strong[0]
    upset = ratings.rate([ANN, BO], {"winner": "p2"}, {1: strong, 2: weak})[2][0] - weak[0]
    assert 0 < expected < upset


def test_teams_and_free_for_all_are_ranked_by_result():
    four = [Player("p1", 1, "a"), Player("p2", 2, "b"), Player("p3", 3, "a"), Player("p4", 4, "b")]
    assert ratings.ranks(four, {"winner": ["p1", "p3"]}) == {"a": 1, "b": 2}
    after = ratings.rate(four, {"winner": ["p1", "p3"]}, {})
    assert after[1] == after[3] and after[2] == after[4] and after[1][0] > after[2][0]
    table = [Player(f"p{n}", n, f"p{n}") for n in (1, 2, 3)]
    result = {"winner": "p2", "scores": {"p1": 3, "p2": 9, "p3": 5}}
    assert ratings.ranks(table, result) == {"p2": 1, "p3": 2, "p1": 3}


@pytest.mark.parametrize("text, offset", [
    ("+02:00", 2 * 60), ("UTC-5", -5 * 60), ("-3:30", -(3 * 60 + 30)), ("GMT+0530", 5 * 60 + 30),
    ("+14", 14 * 60), ("UTC", 0),
])
def test_utc_offsets(text, offset):
    assert zone(text).utcoffset(None) == timedelta(minutes=offset)


@pytest.mark.parametrize("text", ["Mars/Olympus", "+15", "+02:75", "../etc/passwd", "", "Europe/Berlin; rm"])
def test_bad_zones_are_refused_with_what_to_give(text):
    with pytest.raises(BadTime, match="UTC offset"):
        zone(text)


@pytest.mark.parametrize("text, minutes", [("22:00", 1320), ("7", 420), ("07:30", 450), ("0:05", 5)])
def test_times_of_day(text, minutes):
    assert clock(text) == minutes


@pytest.mark.parametrize("text", ["24:00", "7:60", "seven", "22.00"])
def test_bad_times_of_day(text):
    with pytest.raises(BadTime):
        clock(text)


def test_quiet_hours_past_midnight_in_an_offset_zone():
    quiet = Quiet.parse("22:00", "07:00", "+02:00")
    assert quiet.until(utc(2026, 11, 24, 19, 59)) is None  # 21:59 local
    assert quiet.until(utc(2026, 11, 24, 20, 0)) == utc(2026, 11, 25, 5, 0)  # 22:00 local: until 07:00
    assert quiet.until(utc(2026, 11, 25, 1, 0)) == utc(2026, 11, 25, 5, 0)  # 03:00 local
    assert quiet.until(utc(2026, 11, 25, 5, 0)) is None  # 07:00 local: over


def test_quiet_hours_within_a_day_follow_daylight_saving_time():
    quiet = Quiet.parse("13:00", "14:30", "Europe/Berlin")
    assert quiet.until(utc(2026, 1, 15, 12, 10)) == utc(2026, 1, 15, 13, 30)  # CET, UTC+1
    assert quiet.until(utc(2026, 7, 15, 11, 10)) == utc(2026, 7, 15, 12, 30)  # CEST, UTC+2
    assert quiet.until(utc(2026, 7, 15, 12, 40)) is None
    with pytest.raises(BadTime, match="different start and end"):
        Quiet.parse("7:00", "07:00", "UTC")


def test_a_vacation_moves_a_deadline_by_the_part_after_the_wait_began():
    assert shift(100.0, 1000.0, [(200.0, 500.0)]) == 300.0  # waiting before the vacation: all of it
    assert shift(300.0, 1000.0, [(200.0, 500.0)]) == 200.0  # a decision during the vacation: the rest
    assert shift(600.0, 1000.0, [(200.0, 500.0)]) == 0.0  # after it: nothing
    assert shift(100.0, 1000.0, [(400.0, 450.0), (200.0, 300.0)]) == 150.0  # two vacations add up
    assert shift(100.0, 150.0, [(200.0, 500.0)]) == 0.0  # starts after the deadline: answer first
    assert shift(100.0, 250.0, [(200.0, 300.0), (320.0, 400.0)]) == 180.0  # the first moves it past the second


def test_pings_wait_for_the_later_of_quiet_hours_and_vacation():
    quiet = Quiet.parse("22:00", "07:00", "UTC")
    night, noon = utc(2026, 11, 24, 23, 0), utc(2026, 11, 24, 12, 0)
    assert held_until(noon, quiet, None) is None
    assert held_until(night, quiet, None) == utc(2026, 11, 25, 7, 0)
    assert held_until(night, quiet, utc(2026, 11, 26)) == utc(2026, 11, 26)
    assert held_until(noon, None, noon + 60) == noon + 60
    assert held_until(noon, None, noon - 60) is None


def test_the_computer_is_not_rated_and_a_person_who_left_comes_last():
    from types import SimpleNamespace as Seat
    from engine.service.seating import COMPUTER_USER_BASE
    config = {"players": [{"seat": "p1"}, {"seat": "p2"}, {"seat": "p3"}, {"seat": "p4"}]}
    seats = [Seat(seat="p1", user_id=1, left_by=None), Seat(seat="p2", user_id=COMPUTER_USER_BASE + 2, left_by=None),
             Seat(seat="p3", user_id=COMPUTER_USER_BASE + 3, left_by=3), Seat(seat="p4", user_id=4, left_by=None)]
    players = ratings.players_of(config, seats)
    assert players == [Player("p1", 1, "p1"), Player("p3", 3, "left:p3", left=True), Player("p4", 4, "p4")]
    # the seat the leaver handed over won: the people who stayed keep their order, the leaver is last
    assert ratings.ranks(players, {"winner": "p3", "scores": {"p1": 2, "p4": 5}}) == {"p4": 2, "p1": 3, "left:p3": 4}
    # the computer won: nobody rated ranks first, but the places keep their order
    assert ratings.ranks(players, {"winner": "p2", "scores": {"p1": 7, "p4": 5}}) == {"p1": 2, "p4": 3, "left:p3": 4}
    # a draw among those who stayed; the leaver still last
    assert ratings.ranks(players, {"winner": None}) == {"p1": 1, "p4": 1, "left:p3": 2}
    alone = ratings.players_of(config, seats[:2])
    assert ratings.ruling("over", 5, alone, {"winner": "p1"}, 40) == (
        False, "fewer than two different people (the computer is not rated)")
