"""League defects found from outside (issue 10, items 14-18): stale previews, re-pairing and
swapped tables, the Captains' Battle bonus, lone reports at a deadline, the audit trail,
and the bounds of results, builds and late joins."""
import pytest

from engine.errors import RuleError
from engine.league.builds import Build, BuildEntry
from engine.league.event import Claim, join_late
from engine.league.results import apply_deadlines, report, resolve, verify_build
from engine.league.rounds import DAY, cancel_round, pair_next_round, publish_round, swap_players
from engine.league.standings import round_scores, standings
from tests.test_league_events import FLEET, published
from tests.test_league_events import running_event as running


def win(a, b, left=30, lost=0, **bonus):
    return Claim(winner=a, surviving={a: left, b: lost}, bonus=bonus)


def both_report(event, game, claim):
    for player in game.players:
        report(event, player, claim)


def actions(event):
    return [entry.action for entry in event.audit]


# ---- 14: previews, re-pairing, swapped tables ----------------------------------------------

def test_a_fixed_result_discards_the_waiting_preview_and_publish_refuses_it():
    event = running(["Ann", "Bob", "Cy", "Dee"])
    rnd = published(event)
    for game in rnd.games:
        both_report(event, game, win(*game.players))
    preview = pair_next_round(event, "org", 10)
    first = rnd.games[0]
    resolve(event, "org", 20, 1, first.table, win(first.players[1], first.players[0]), "wrong winner")
    assert event.rounds[-1].number == 1 and "preview discarded" in actions(event)
    with pytest.raises(RuleError, match="no previewed round"):
        publish_round(event, "org", 30)
    again = pair_next_round(event, "org", 40)
    assert again.number == 2 and again is not preview
    winners = {g.result.winner for g in rnd.games}
    # the new preview pairs by the fixed standings: round-1 winners meet each other
    assert any(set(g.players) == winners for g in again.games)


def test_a_published_round_without_reports_can_be_cancelled_and_paired_again():
    event = running(["Ann", "Bob", "Cy", "Dee"])
    rnd = published(event)
    cancel_round(event, "org", 5)
    assert event.rounds == [] and "cancel round" in actions(event)
    assert "T1" in event.audit[-1].detail
    again = published(event, 6)
    assert again.number == 1
    report(event, again.games[0].players[0], win(*again.games[0].players))
    with pytest.raises(RuleError, match="already have results"):
        cancel_round(event, "org", 7)
    assert event.rounds[-1] is again and rnd is not again


def test_an_organiser_swaps_two_players_between_tables():
    event = running(["Ann", "Bob", "Cy", "Dee", "Eve"])
    rnd = published(event)
    (a, b), (c, d) = (g.players for g in rnd.games)
    swap_players(event, "org", 9, b, c, "Bob and Cy are flatmates")
    assert [set(g.players) for g in rnd.games] == [{a, c}, {b, d}]
    assert event.audit[-1].action == "swap" and "flatmates" in event.audit[-1].detail
    bye = rnd.bye
    swap_players(event, "org", 10, bye, a)
    assert rnd.bye == a and {bye, c} in [set(g.players) for g in rnd.games]
    report(event, c, win(c, bye))
    with pytest.raises(RuleError, match="already has a report"):
        swap_players(event, "org", 11, c, d)
    with pytest.raises(RuleError, match="different tables"):
        swap_players(event, "org", 12, b, d)


# ---- 15: the Captains' Battle bonus ----------------------------------------------------------

def test_a_captains_battle_bonus_lets_the_player_with_fewer_surviving_points_win_at_time():
    event = running(["Ann", "Bob"], scenario="arena")  # the Arena played at the table
    game = published(event).games[0]
    a, b = game.players
    # at time: a kept 40 SP, b kept 50, but two of a's captains survived the battle (+30)
    claim = win(a, b, left=40, lost=50, **{a: 30})
    both_report(event, game, claim)
    scores = round_scores(event, event.rounds[0])
    assert scores[a].tiebreak == 120 - 50 + 30 and scores[b].tiebreak == 120 - 40
    assert game.status == "final"


def test_without_the_bonus_the_fewer_fleet_points_cannot_win_at_time_but_can_by_elimination():
    event = running(["Ann", "Bob"])
    game = published(event).games[0]
    a, b = game.players
    with pytest.raises(RuleError, match="most Fleet Points"):
        report(event, a, win(a, b, left=40, lost=50))
    report(event, a, win(a, b, left=0, lost=0))  # both destroyed: a roll-off at the table decided it
    with pytest.raises(RuleError, match="destroyed"):
        report(event, b, win(b, a, left=0, lost=20))


# ---- 16: a lone report at the deadline ---------------------------------------------------------

@pytest.mark.parametrize("claim_of, expected", [
    ("own win", ("forfeit", "reporter")),
    ("opponent won", ("played", "opponent")),
    ("not played", ("not_played", None)),
])
def test_a_lone_report_at_the_deadline_stands_as_reported(claim_of, expected):
    event = running(["Ann", "Bob"], kind="season")
    rnd = published(event, 0)
    game = rnd.games[0]
    reporter, opponent = game.players
    claim = {"own win": win(reporter, opponent), "opponent won": win(opponent, reporter),
             "not played": Claim(outcome="not_played")}[claim_of]
    report(event, reporter, claim)
    apply_deadlines(event, rnd.deadline)
    outcome, winner = expected
    assert game.result.outcome == outcome
    assert game.result.winner == {"reporter": reporter, "opponent": opponent, None: None}[winner]
    assert rnd.deadline == 7 * DAY


# ---- 17: the audit trail -----------------------------------------------------------------------

def test_every_change_to_a_result_or_build_is_in_the_audit_trail():
    event = running(["Ann", "Bob", "Cy", "Dee"])
    assert actions(event).count("build") == 4
    rnd = published(event)
    game = rnd.games[0]
    a, b = game.players
    verify_build(event, a, FLEET, now=3)
    report(event, a, win(a, b, left=30), now=4)
    report(event, a, win(a, b, left=35), now=5)
    report(event, b, win(a, b, left=35), now=6)
    trail = [(entry.at, entry.actor, entry.action, entry.detail) for entry in event.audit]
    assert (3, a, "sign-off") == trail[-5][:3]
    assert trail[-4][2] == "report" and "30 SP" in trail[-4][3]
    assert trail[-3][2] == "report" and "35 SP" in trail[-3][3] and "(was: " in trail[-3][3]
    assert trail[-2][2] == "report" and trail[-1][1:3] == ("players", "confirmed")
    other = rnd.games[1]
    both_report(event, other, Claim(outcome="not_played"))  # round complete: a 1-0, b 1-0 ... ties
    rolls = [entry for entry in event.audit if entry.action == "roll-off"]
    assert rolls and all("Battle Stations on 5 dice" in entry.detail for entry in rolls)
    assert all(str(n) in rolls[0].detail for n in event.rolloffs[0].throws[0].values())


# ---- 18: bounds ---------------------------------------------------------------------------------

def test_with_no_maximum_build_fleet_points_count_down_from_the_opponents_build():
    event = running(["Ann", "Bob"], max_build=0)
    game = published(event).games[0]
    a, b = game.players
    both_report(event, game, win(a, b, left=100, lost=30))
    scores = round_scores(event, event.rounds[0])
    assert scores[a].tiebreak == 100 - 30 and scores[b].tiebreak == 0
    assert all(row.tiebreak >= 0 for row in standings(event))


def test_surviving_points_above_the_build_are_refused_from_players_and_organisers():
    event = running(["Ann", "Bob"])
    game = published(event).games[0]
    a, b = game.players
    with pytest.raises(RuleError, match="between 0 and 100"):
        report(event, a, win(a, b, left=101))
    with pytest.raises(RuleError, match="between 0 and 100"):
        resolve(event, "org", 1, 1, game.table, win(a, b, left=30, lost=120))


def test_sign_off_compares_the_sheet_shown_with_the_locked_hash():
    event = running(["Ann", "Bob"])
    game = published(event).games[0]
    a, _ = game.players
    changed = Build(kind="fleet", entries=(BuildEntry("Enterprise", "ship", "FED", 80), BuildEntry("Spock", "captain", "FED", 20)))
    with pytest.raises(RuleError, match="not .*locked build"):
        verify_build(event, a, changed)
    verify_build(event, a, FLEET)
    assert game.verified[a] == FLEET.digest()


def test_a_late_join_after_the_last_round_is_published_is_refused():
    event = running(["Ann", "Bob"], rounds_planned=1)
    published(event)
    with pytest.raises(RuleError, match="no round left"):
        join_late(event, "cy", "Cy", FLEET, "org", 5)
    assert "cy" not in event.players
