"""Scoring: the OP kit's worked numbers, byes, profiles, roll-offs, ranks and the CSV export."""
import pytest

from engine.errors import RuleError
from engine.league.builds import Build, BuildEntry
from engine.league.event import Claim, from_json, rank_title, to_json
from engine.league.profiles import AWAY_MISSIONS, OP, profile_from_data
from engine.league.results import report
from engine.league.rounds import pair_next_round, publish_round
from engine.league.export import standings_csv as to_csv
from engine.league.standings import fleet_points, round_average, round_scores, standings
from tests.league_helpers import fleet, started_event

AWAY_TEAM = Build(kind="away_team", entries=(BuildEntry("Picard", points=10),))
FLEET = fleet(90, "Enterprise", resource=("Tactical Station", 30))


def running_event(names, **options):
    return started_event(names, FLEET, seed=11, **options)


def both_report(event, claim):
    for player in (claim.winner, *[p for p in (claim.surviving or claim.mission_points) if p != claim.winner]):
        report(event, player, claim)


def test_fleet_points_worked_examples():
    assert fleet_points(120, 0) == 120  # opponent tabled
    assert fleet_points(120, 45) == 75  # 45 squad points survive


def test_bye_average_rounds_up():
    assert round_average([120, 80, 95, 60]) == 89  # 355 / 4 = 88.75
    assert round_average([]) == 0


def test_bye_scores_the_round_average_provisional_until_complete():
    event = running_event(["Ann", "Bob", "Cy", "Dee", "Eve"])
    rnd = pair_next_round(event, "org", 0)
    publish_round(event, "org", 0)
    (a, b), (c, d) = (g.players for g in rnd.games)
    # a tables b (120) and keeps 40 SP (b scores 80).
    both_report(event, Claim(winner=a, surviving={a: 40, b: 0}))
    bye = round_scores(event, rnd)[rnd.bye]
    assert (bye.battle_points, bye.tiebreak, bye.provisional) == (2, 100, True)
    # c scores 95 (d keeps 25 SP), d scores 60 (c keeps 60 SP).
    both_report(event, Claim(winner=c, surviving={c: 60, d: 25}))
    scores = round_scores(event, rnd)
    assert [scores[p].tiebreak for p in (a, b, c, d)] == [120, 80, 95, 60]
    assert [scores[p].battle_points for p in (a, b, c, d)] == [2, 1, 2, 1]
    bye = scores[rnd.bye]
    assert (bye.battle_points, bye.tiebreak, bye.provisional, bye.outcome) == (2, 89, False, "bye")


def test_a_bonus_adds_to_fleet_points():
    event = running_event(["Ann", "Bob"], scenario="arena")
    rnd = pair_next_round(event, "org", 0)
    publish_round(event, "org", 0)
    a, b = rnd.games[0].players
    both_report(event, Claim(winner=a, surviving={a: 45, b: 0}, bonus={b: 30}))  # b won the Captains' Battle
    scores = round_scores(event, rnd)
    assert (scores[a].tiebreak, scores[b].tiebreak) == (120, 105)  # 120, 75+30


def test_away_missions_profile_ranks_by_mission_points():
    event = started_event(["Ann", "Bob", "Cy", "Dee"], AWAY_TEAM, seed=11, profile=AWAY_MISSIONS, max_build=0)
    rnd = pair_next_round(event, "org", 0)
    publish_round(event, "org", 0)
    (a, b), (c, d) = (g.players for g in rnd.games)
    both_report(event, Claim(winner=a, mission_points={a: 10, b: 7}))
    both_report(event, Claim(winner=c, mission_points={c: 12, d: 9}))
    rows = standings(event)
    assert [(r.player, r.battle_points, r.tiebreak) for r in rows] == [(c, 2, 12), (a, 2, 10), (d, 1, 9), (b, 1, 7)]


def test_profiles_are_data():
    custom = profile_from_data({"name": "three-one-oh", "win": 3, "loss": 0, "bye": 3})
    assert (custom.win, custom.loss, custom.bye, custom.tiebreak) == (3, 0, 3, "fleet_points")
    assert OP == profile_from_data({"name": "op"})
    with pytest.raises(RuleError):
        profile_from_data({"name": "x", "tiebreak": "kills"})
    with pytest.raises(RuleError):
        profile_from_data({"name": "x", "draw": 1})


def test_rank_titles():
    titles = [rank_title(n) for n in range(1, 13)]
    assert titles == [
        "Admiral", "Vice Admiral", "Rear Admiral", "Commodore", "Captain", "Commander",
        "Lieutenant Commander", "Lieutenant", "Lieutenant Junior Grade", "Ensign", "Ensign", "Ensign",
    ]


def test_ties_go_to_a_recorded_roll_off_that_survives_storage():
    event = running_event(["Ann", "Bob", "Cy", "Dee"])
    rnd = pair_next_round(event, "org", 0)
    publish_round(event, "org", 0)
    (a, b), (c, d) = (g.players for g in rnd.games)
    both_report(event, Claim(winner=a, surviving={a: 30, b: 0}))
    rows = standings(event)  # round not complete: c and d are level on 0 BP and 0 FP
    assert [r.tied for r in rows] == [False, False, True, True]
    both_report(event, Claim(winner=c, surviving={c: 30, d: 0}))
    assert rnd.status == "complete"
    assert len(event.rolloffs) == 2  # winners tie on 2 BP 120 FP, losers on 1 BP 90 FP
    winners = next(r for r in event.rolloffs if set(r.players) == {a, c})
    assert all(0 <= n <= 5 for throw in winners.throws for n in throw.values())
    last = winners.throws[-1]
    assert last[winners.order[0]] > last[winners.order[1]]
    rows = standings(event)
    assert [r.player for r in rows[:2]] == winners.order
    assert not any(r.tied for r in rows)
    assert [r.player for r in standings(from_json(to_json(event)))] == [r.player for r in rows]


def test_csv_export():
    event = running_event(["Ann", "Bob", "Cy"])
    rnd = pair_next_round(event, "org", 0)
    publish_round(event, "org", 0)
    a, b = rnd.games[0].players
    both_report(event, Claim(winner=a, surviving={a: 45, b: 0}))
    name = {p: event.players[p].name for p in event.players}
    lines = to_csv(event).splitlines()
    assert lines[0] == "rank,title,player,name,battle_points,fleet_points,byes,dropped,prize,round_1"
    assert lines[1:] == [
        f"1,Admiral,{a},{name[a]},2,120,0,,,win vs {name[b]}: 2 BP 120 FP",
        f"2,Vice Admiral,{rnd.bye},{name[rnd.bye]},2,98,1,,,bye: 2 BP 98 FP",  # (120 + 75) / 2 = 97.5
        f"3,Rear Admiral,{b},{name[b]},1,75,0,,,loss vs {name[a]}: 1 BP 75 FP",
    ]
