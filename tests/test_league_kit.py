"""The event kit's limits on builds and results (issue 29, items 14, 17 and 21): the build's
kind follows the event, a surviving fleet is some of the sheet's entries (never the
resource), a stored sheet is hashed again wherever it is used, and a Captains' Battle bonus
must be one the battle could have given."""
import pytest

from engine.errors import RuleError
from engine.league.arena_table import declare_captains, initiative
from engine.league.builds import Build, BuildEntry, check_build
from engine.league.event import Claim, join_late, new_event, open_registration, register, start, submit_build
from engine.league.profiles import AWAY_MISSIONS
from engine.league.results import report, resolve, verify_build
from engine.league.rounds import pair_next_round, publish_round
from engine.league.standings import round_scores
from tests.league_helpers import fleet, started_event

SHIPS = Build(kind="fleet", entries=(BuildEntry("Enterprise", points=80), BuildEntry("Defiant", points=20)),
              resource=BuildEntry("Tactical Station", points=15))
AWAY_TEAM = Build(kind="away_team", entries=(BuildEntry("Picard", points=10),))


def table(build=SHIPS, **options):
    event = started_event(["Ann", "Bob"], build, seed=2, **options)
    pair_next_round(event, "org", 0)
    return event, publish_round(event, "org", 0).games[0]


def test_the_build_kind_follows_the_event():
    for options, wrong, right in (({}, AWAY_TEAM, SHIPS), ({"profile": AWAY_MISSIONS}, SHIPS, AWAY_TEAM)):
        event = new_event("e", "E", seed=1, **options)
        open_registration(event, "org", 0)
        register(event, "ann", "Ann")
        with pytest.raises(RuleError, match="This event is played with"):
            submit_build(event, "ann", wrong)
        assert event.players["ann"].build is None and len(event.audit) == 1
        submit_build(event, "ann", right)
    event, _game = table()
    with pytest.raises(RuleError, match="played with a fleet; that sheet is an away team"):
        join_late(event, "cy", "Cy", AWAY_TEAM, "org", 1)
    assert "cy" not in event.players
    with pytest.raises(RuleError, match="Only a fleet takes a resource"):
        check_build(Build(kind="away_team", entries=AWAY_TEAM.entries, resource=SHIPS.resource), 0, "away_team")


def test_a_surviving_fleet_is_some_of_the_entries_and_never_the_resource():
    event, game = table()
    a, b = game.players
    assert [SHIPS.can_survive(n) for n in (0, 20, 37, 80, 95, 100, 115)] == [True, True, False, True, False, True, False]
    with pytest.raises(RuleError, match="cannot be 37 squad points: it must be the cost of some of the build's "
                                        r"entries \(80, 20\)"):
        report(event, a, Claim(winner=a, surviving={a: 37, b: 0}))
    with pytest.raises(RuleError, match=r"between 0 and 100 squad points \(the resource is no part of it\)"):
        resolve(event, "org", 1, 1, game.table, Claim(winner=a, surviving={a: 115, b: 0}))
    assert game.claims == {} and game.result is None
    report(event, a, Claim(winner=a, surviving={a: 20, b: 0}))
    assert game.claims[a].surviving[a] == 20


def test_with_no_maximum_build_fleet_points_count_the_ships_destroyed_not_the_resource():
    event, game = table(max_build=0)
    a, b = game.players
    for player in game.players:
        report(event, player, Claim(winner=a, surviving={a: 100, b: 20}))
    scores = round_scores(event, event.rounds[0])
    assert (scores[a].tiebreak, scores[b].tiebreak) == (80, 0)  # Bob lost the Enterprise; Ann lost nothing


def test_a_sheet_changed_in_storage_is_refused_wherever_it_is_used():
    event, game = table(scenario="arena")
    a, b = "ann", "bob"
    locked = event.players[b].build_hash
    event.players[b].build = Build(kind="fleet", entries=(BuildEntry("Enterprise", points=60),))  # edited in storage
    for use in (lambda: verify_build(event, a, locked),
                lambda: report(event, a, Claim(winner=a, surviving={a: 20, b: 0})),
                lambda: initiative(event, game)):
        with pytest.raises(RuleError, match=f"Bob's stored build sheet no longer matches its hash {locked}"):
            use()
    assert game.verified == {} and game.claims == {}
    declare_captains(event, a, [("Kirk", 5)], 1)
    with pytest.raises(RuleError, match="no longer matches"):
        declare_captains(event, b, [("Kor", 4)], 1)  # the Arena's initiative compares the builds
    # between submission and the start (the lock) too
    event = new_event("e", "E", seed=1)
    open_registration(event, "org", 0)
    for name in ("ann", "bob"):
        register(event, name, name.title())
        submit_build(event, name, SHIPS)
    event.players["bob"].build = fleet(100)
    with pytest.raises(RuleError, match="Bob's stored build sheet no longer matches"):
        start(event, "org", 1)
    assert event.status == "open"


@pytest.mark.parametrize("bonus, refusal", [
    ({"ann": 15, "bob": 15}, "Only the winner of the Captains' Battle scores its bonus"),
    ({"ann": 7}, "a multiple of 15 up to 30"),
    ({"ann": 600}, "a multiple of 15 up to 30"),
    ({"bob": 45}, "Bob's bonus is 15 per captain surviving the Captains' Battle: a multiple of 15 up to 30"),
])
def test_a_bonus_without_a_recorded_battle_is_one_the_battle_could_give(bonus, refusal):
    event, game = table(scenario="arena")
    claim = Claim(winner="ann", surviving={"ann": 20, "bob": 0}, bonus=bonus)
    with pytest.raises(RuleError, match=refusal):
        report(event, "ann", claim)
    with pytest.raises(RuleError, match=refusal):
        resolve(event, "org", 1, 1, game.table, claim)
    assert game.claims == {} and game.result is None


def test_a_bonus_goes_only_to_the_arena_and_is_bounded_by_the_captains_named():
    event, game = table(scenario="arena")
    report(event, "bob", Claim(winner="ann", surviving={"ann": 20, "bob": 0}, bonus={"bob": 30}))  # two entries
    event, game = table()
    with pytest.raises(RuleError, match="This event plays no scenario that gives bonus Fleet Points"):
        report(event, "ann", Claim(winner="ann", surviving={"ann": 20, "bob": 0}, bonus={"ann": 15}))
    event, game = table(fleet(100), scenario="arena")
    declare_captains(event, "ann", [("Kirk", 5)], 1)  # Bob has not named his: no battle recorded yet
    with pytest.raises(RuleError, match="Ann's bonus .* up to 15"):
        report(event, "ann", Claim(winner="ann", surviving={"ann": 20, "bob": 0}, bonus={"ann": 30}))
    typed = Build(kind="fleet", entries=(BuildEntry("Enterprise", "ship", points=80), BuildEntry("Kirk", "captain", points=20)))
    event, game = table(typed, scenario="arena")
    with pytest.raises(RuleError, match="up to 15"):
        report(event, "ann", Claim(winner="ann", surviving={"ann": 20, "bob": 0}, bonus={"ann": 30}))
