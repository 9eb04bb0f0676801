"""Event life: sign-up, locked builds and sign-off, reports and disputes, organiser fixes,
deadline policy, drops, late joins, linked games, storage."""
import pytest

from engine.errors import RuleError
from engine.league.builds import Build, BuildEntry
from engine.league.event import (
    Claim, close, drop, from_json, join_late, new_event, open_registration, register, start,
    submit_build, to_json, withdraw,
)
from engine.league.results import (
    apply_deadlines, disputes, link_game, report, report_linked, resolve, verify_build,
)
from engine.league.rounds import DAY, pair_next_round, publish_round
from engine.league.standings import round_scores, standings, totals
from tests.league_helpers import fleet, started_event

FLEET = fleet(100, "Enterprise")


def running_event(names, **options):
    return started_event(names, FLEET, seed=3, **options)


def published(event, now=0):
    pair_next_round(event, "org", now)
    return publish_round(event, "org", now)


def win(a, b, left=30):
    return Claim(winner=a, surviving={a: left, b: 0})


def test_sign_up_and_start_rules():
    event = new_event("e1", "Arena", seed=1)
    with pytest.raises(RuleError):
        register(event, "u1", "Ann")  # registration not open yet
    open_registration(event, "org", 5)
    register(event, "u1", "Ann")
    register(event, "u2", "Bob")
    register(event, "u3", "Cy")
    withdraw(event, "u3")
    submit_build(event, "u1", FLEET)
    with pytest.raises(RuleError, match="costs 130 points; this event allows 120"):
        submit_build(event, "u2", Build(kind="fleet", entries=(BuildEntry("Big", points=130),)))
    with pytest.raises(RuleError, match="No build yet from: Bob"):
        start(event, "org", 6)
    submit_build(event, "u2", FLEET)
    start(event, "org", 6)
    assert event.players["u1"].build_hash == FLEET.digest()
    with pytest.raises(RuleError):
        submit_build(event, "u1", FLEET)  # builds are locked once the event runs
    assert [(a.actor, a.action) for a in event.audit] == [
        ("org", "open"), ("u1", "build"), ("u2", "build"), ("org", "start")]


def test_build_hash_is_stable_and_sensitive():
    same = fleet(100, "Enterprise")
    other = fleet(101, "Enterprise")
    assert same.digest() == FLEET.digest() != other.digest()
    assert FLEET.total == 100


def test_opponents_sign_off_the_locked_build():
    event = running_event(["Ann", "Bob"])
    game = published(event).games[0]
    a, b = game.players
    with pytest.raises(RuleError, match="not .*'s locked build"):
        verify_build(event, a, "0000")
    verify_build(event, a, event.players[b].build_hash)
    assert game.verified == {a: FLEET.digest()}


def test_matching_reports_confirm_and_mismatches_queue_for_organisers():
    event = running_event(["Ann", "Bob", "Cy", "Dee"])
    rnd = published(event)
    (a, b), (c, d) = (g.players for g in rnd.games)
    report(event, a, win(a, b))
    assert rnd.games[0].status == "pending"
    report(event, b, win(a, b))
    assert rnd.games[0].status == "final"
    report(event, c, win(c, d, left=40))
    report(event, d, win(d, c, left=40))
    assert rnd.games[1].status == "disputed"
    [(queued_round, queued)] = disputes(event)
    assert queued_round.number == 1 and queued.claims == {c: win(c, d, left=40), d: win(d, c, left=40)}
    with pytest.raises(RuleError, match="final"):
        report(event, a, win(a, b))
    resolve(event, "org", 50, 1, 2, win(c, d, left=40), note="photo of the table")
    assert rnd.status == "complete" and not disputes(event)
    entry = event.audit[-1]
    assert (entry.at, entry.actor, entry.action) == (50, "org", "result")
    assert "round 1 table 2: disputed -> " in entry.detail and "(photo of the table)" in entry.detail
    # An organiser can fix a final result later; the trail shows before and after.
    resolve(event, "org", 60, 1, 1, Claim(outcome="not_played"))
    assert "wins (" in event.audit[-1].detail and event.audit[-1].detail.endswith("-> not played (0-0)")


def test_a_player_may_correct_a_report_before_it_matches():
    event = running_event(["Ann", "Bob"])
    game = published(event).games[0]
    a, b = game.players
    report(event, a, win(b, a))
    report(event, b, win(b, a, left=50))
    assert game.status == "disputed"
    report(event, a, win(b, a, left=50))
    assert game.status == "final"


def test_claims_that_do_not_fit_are_refused():
    event = running_event(["Ann", "Bob"])
    game = published(event).games[0]
    a, b = game.players
    with pytest.raises(RuleError, match="At time the most Fleet Points win: Ann has 100, Bob 110"):
        report(event, a, Claim(winner=a, surviving={a: 10, b: 20}))
    with pytest.raises(RuleError, match="between 0 and 100"):
        report(event, a, Claim(winner=a, surviving={a: 101, b: 0}))
    with pytest.raises(RuleError, match="surviving fleet"):
        report(event, a, Claim(winner=a, surviving={a: 10}))
    with pytest.raises(RuleError, match="winner"):
        report(event, a, Claim(winner="zed", surviving={a: 10, b: 0}))
    with pytest.raises(RuleError, match="Forfeits"):
        report(event, a, Claim(outcome="forfeit", winner=a))
    with pytest.raises(RuleError, match="Table 1 is Ann and Bob's game: only its two players report it"):
        report(event, "nobody", win(a, b))
    with pytest.raises(RuleError, match="You have no game in round 1: only a game's two players report it"):
        report(event, "nobody", Claim(outcome="not_played"))
    assert game.claims == {}


def test_not_played_scores_nothing_and_is_left_out_of_the_bye_average():
    event = running_event(["Ann", "Bob", "Cy", "Dee", "Eve"])
    rnd = published(event)
    (a, b), (c, d) = (g.players for g in rnd.games)
    for p in (a, b):
        report(event, p, Claim(outcome="not_played"))
    for p in (c, d):
        report(event, p, win(c, d, left=45))
    scores = round_scores(event, rnd)
    assert (scores[a].battle_points, scores[a].tiebreak, scores[a].outcome) == (0, 0, "not played")
    assert scores[rnd.bye].tiebreak == 98  # average of 120 and 75, rounded up


def test_season_deadline_policy():
    event = running_event(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], kind="season", round_days=7)
    rnd = published(event, now=1000)
    assert rnd.deadline == 1000 + 7 * DAY
    (a, b), (c, d), (e, f) = (g.players for g in rnd.games)
    report(event, a, win(a, b))  # only a reports
    report(event, e, win(e, f))
    report(event, f, win(f, e))  # disputed
    assert apply_deadlines(event, rnd.deadline - 1) == []
    decided = apply_deadlines(event, rnd.deadline)
    assert [g.table for g in decided] == [1, 2]
    scores = round_scores(event, rnd)
    assert (scores[a].battle_points, scores[a].outcome) == (2, "forfeit win")
    assert (scores[b].battle_points, scores[b].tiebreak, scores[b].outcome) == (0, 0, "forfeit loss")
    assert (scores[c].battle_points, scores[d].battle_points) == (0, 0)
    assert rnd.games[2].status == "disputed"  # waits for an organiser
    assert [e.actor for e in event.audit[-2:]] == ["deadline", "deadline"]
    # The forfeit win scores the round average, provisional until the dispute is settled.
    resolve(event, "org", 2, 1, 3, win(e, f, left=45))
    scores = round_scores(event, rnd)
    assert (scores[a].tiebreak, scores[a].provisional) == (98, False)


def test_drops_keep_past_games_and_are_not_paired_again():
    event = running_event(["Ann", "Bob", "Cy", "Dee"])
    rnd = published(event)
    (a, b), (c, d) = (g.players for g in rnd.games)
    report(event, a, win(a, b))
    report(event, b, win(a, b))
    drop(event, a, "org", 9)  # mid-round: c and d still play
    for p in (c, d):
        report(event, p, win(c, d))
    second = pair_next_round(event, "org", 10)
    assert second.bye is not None and a not in [p for g in second.games for p in g.players] + [second.bye]
    row = next(r for r in standings(event) if r.player == a)
    assert (row.battle_points, row.tiebreak, row.dropped) == (2, 120, True)
    with pytest.raises(RuleError):
        drop(event, a, "org", 11)


def test_late_joins_start_from_the_next_round_with_nothing_for_missed_rounds():
    event = running_event(["Ann", "Bob", "Cy"])
    rnd = published(event)
    first = join_late(event, "gus", "Gus", FLEET, "org", 5)
    assert first == 2
    a, b = rnd.games[0].players
    for p in (a, b):
        report(event, p, win(a, b))
    assert rnd.status == "complete"
    assert totals(event)["gus"].battle_points == 0
    second = pair_next_round(event, "org", 6)
    assert second.bye is None and "gus" in [p for g in second.games for p in g.players]
    with pytest.raises(RuleError):
        join_late(event, "gus", "Gus", FLEET, "org", 7)


def test_linked_bot_game_reports_itself():
    event = running_event(["Ann", "Bob"])
    game = published(event).games[0]
    a, b = game.players
    link_game(event, 1, 1, "g42")
    assert report_linked(event, "g99", win(a, b), 3) is None
    assert report_linked(event, "g42", win(a, b), 3) is game
    assert game.status == "final" and event.audit[-1].actor == "game:g42"


def test_rounds_follow_the_plan_and_close():
    event = running_event(["Ann", "Bob"], rounds_planned=1)
    with pytest.raises(RuleError, match="no previewed round"):
        publish_round(event, "org", 0)
    game = published(event).games[0]
    with pytest.raises(RuleError, match="without a final result"):
        close(event, "org", 1)
    a, b = game.players
    for p in (a, b):
        report(event, p, win(a, b))
    with pytest.raises(RuleError, match="All 1 rounds"):
        pair_next_round(event, "org", 2)
    close(event, "org", 3)
    assert event.status == "closed"


def test_preview_is_deterministic_and_remade():
    event = running_event([f"P{i}" for i in range(9)])
    first = pair_next_round(event, "org", 0)
    again = pair_next_round(event, "org", 1)
    assert len(event.rounds) == 1 and first == again


def test_event_round_trips_through_json():
    event = running_event(["Ann", "Bob", "Cy"], kind="season")
    rnd = published(event)
    a, b = rnd.games[0].players
    report(event, a, win(a, b))
    assert from_json(to_json(event)) == event


def test_bad_settings_are_refused():
    with pytest.raises(RuleError):
        new_event("e", "x", 1, kind="weekly")
    with pytest.raises(RuleError):
        new_event("e", "x", 1, rounds_planned=0)
