"""Ratings across events and seasons (issue 17 item 6, rulings L33-L38): which event results
are rated, a reported round changes ratings, a correction re-rates the whole history to the
numbers it would have had, nothing counts twice (repeats, restarts, a lost update), and
seasons carry ratings over with a wider sigma."""
import pytest

from db import Database
from engine.league.event import Claim, drop
from engine.league.results import resolve
from engine.league.rounds import pair_next_round, publish_round
from engine.service import ratings
from engine.service.league import Actor, LeagueService
from engine.service.rating_book import RatingBook
from engine.service.ratings import Match, Standing, replay, season_of
from tests.discord_harness import GUILD_ID, FakeDiscord
from tests.league_helpers import started_event
from tests.test_discord_game import BO, new_game
from tests.test_discord_profiles import play
from tests.test_discord_turns import Clock as TurnClock
from tests.test_league_organisers import FLEET, play_round
from tests.test_league_service import FLEET as SHEET
from tests.test_league_service import GUILD, ORGANISER, Clock

IDS = ["101", "102", "103", "104", "105"]


# ---- which results, in what order (pure) ---------------------------------------------------

def test_byes_forfeits_and_games_not_played_are_not_rated_and_top_cut_games_are():
    event = started_event(IDS, FLEET, seed=3, rounds_planned=1, top_cut=2)
    rnd = pair_next_round(event, "org", 50)
    publish_round(event, "org", 60)
    first, second = rnd.games
    resolve(event, "org", 70, 1, first.table, Claim(outcome="forfeit", winner=first.players[0]))
    resolve(event, "org", 70, 1, second.table, Claim(outcome="not_played"))
    assert rnd.bye is not None and ratings.event_matches(1, event) == []
    won, lost = second.players
    resolve(event, "org", 80, 1, second.table, Claim(winner=won, surviving={won: 10, lost: 0}))
    assert ratings.event_matches(1, event) == [
        Match(f"event:000000001:001:{second.table:04d}", 60.0, ((int(won),), (int(lost),)), (1, 2))]
    drop(event, won, "org", 90)  # a drop changes nothing already rated
    assert len(ratings.event_matches(1, event)) == 1
    cut = play_round(event, now=100)
    assert cut.cut and [m.at for m in ratings.event_matches(1, event)] == [60.0, 100.0]


def test_a_round_is_rated_at_its_publication_whatever_order_its_results_came_in():
    event = started_event(IDS[:4], FLEET, seed=5, rounds_planned=1)
    rnd = pair_next_round(event, "org", 0)
    publish_round(event, "org", 500)
    for game in reversed(rnd.games):  # the last table reports first, a day later
        won, lost = game.players
        resolve(event, "org", 500 + 86400, 1, game.table, Claim(winner=won, surviving={won: 10, lost: 0}))
    matches = ratings.event_matches(7, event)
    assert [m.source for m in matches] == ["event:000000007:001:0001", "event:000000007:001:0002"]
    assert {m.at for m in matches} == {500.0}
    # the players of one round are all different, so the table order does not change a number
    forward = replay(matches, {}, season_of([]))
    backward = replay(matches[::-1], {}, season_of([]))
    assert {u: s for r in forward for u, s in r.items()} == {u: s for r in backward for u, s in r.items()}


def test_a_new_season_carries_a_rating_over_with_a_wider_sigma():
    first = Match("a", 10.0, ((1,), (2,)), (1, 2))
    later = Match("b", 30.0, ((1,), (3,)), (1, 2))
    [after_first, after_later] = replay([first, later], {}, season_of([20.0]))
    one = after_first[1][1]
    assert one.season == 1 and after_later[1][1].season == 2
    rated_from = after_later[1][0]
    assert rated_from == (one.mu, ratings.widened(one.sigma, 1)) and rated_from[1] > one.sigma
    assert ratings.widened(3.0, 1) == pytest.approx((9 + ratings.SEASON_WIDENING ** 2) ** 0.5)
    assert after_later[3][0] == ratings.START  # a newcomer starts fresh in any season
    # two seasons passed widen twice, never past a newcomer's sigma
    assert ratings.widened(2.0, 2) > ratings.widened(2.0, 1) > 2.0
    assert ratings.widened(1.0, 50) == ratings.START[1]
    # shown in a later season without a game there: carried the same way
    assert ratings.carried(Standing(one.mu, one.sigma, 1), 2) == rated_from


# ---- through the league desk, over a database ---------------------------------------------

@pytest.fixture
async def two_desks(new_database_url):
    """Two separate databases (on each engine), each with its league desk and clock."""
    desks = []
    for _ in range(2):
        database = await Database.open(new_database_url())
        clock = Clock()
        service = LeagueService(database, clock=clock)
        await service.set_organiser_role(GUILD, Actor(1, admin=True), 77)
        desks.append((service, clock, database))
    yield desks
    for _service, _clock, database in desks:
        await database.close()


async def two_player_event(service, clock, players):
    """A one-day event of two players (user ids), round 1 published."""
    update = await service.create_event(GUILD, ORGANISER, "Duel", seed=2)
    event_id = update.event_id
    await service.open(event_id, ORGANISER)
    for user in players:
        await service.register(event_id, user, f"P{user}")
        await service.submit_build(event_id, user, SHEET)
    await service.start(event_id, ORGANISER)
    clock.now += 60
    await service.preview_round(event_id, ORGANISER)
    await service.publish_round(event_id, ORGANISER)
    return event_id


async def win(service, event_id, round_number, winner, loser, *, by_players=True):
    claim = Claim(winner=str(winner), surviving={str(winner): 50, str(loser): 0})
    if by_players:
        await service.report(event_id, winner, claim)
        await service.report(event_id, loser, claim)
    else:
        await service.resolve(event_id, ORGANISER, round_number, 1, claim, "fixed")


async def history(database) -> list[tuple]:
    """Every rating entry, in history order, and every rating as it stands."""
    entries = await database._conn.fetch(
        "SELECT r.source, r.at, e.user_id, e.mu_before, e.sigma_before, e.mu_after, e.sigma_after, e.season"
        " FROM rating_entries e JOIN rating_results r ON r.id = e.result_id ORDER BY r.at, r.source, e.user_id")
    rows = await database._conn.fetch(
        "SELECT user_id, mu, sigma, games, season FROM ratings ORDER BY user_id")
    return [tuple(e) for e in entries] + [tuple(r) for r in rows]


async def test_a_reported_round_changes_ratings_once_both_reports_match(two_desks):
    service, clock, database = two_desks[0]
    event_id = await two_player_event(service, clock, [1, 2])
    book = service.ratings
    await service.report(event_id, 1, Claim(winner="1", surviving={"1": 50, "2": 0}))
    assert await book.shown(GUILD, 1) is None  # one report is not a result yet
    await win(service, event_id, 1, 1, 2)
    one, two = await book.shown(GUILD, 1), await book.shown(GUILD, 2)
    expected = ratings.rate_match(Match("x", 0, ((1,), (2,)), (1, 2)), {})
    assert (one.mu, one.sigma) == expected[1] and (two.mu, two.sigma) == expected[2]
    assert (one.games, one.event_games, one.bot_games, one.season_games) == (1, 1, 0, 1)
    _event, shown = await service.ratings_of(event_id)
    assert set(shown) == {"1", "2"} and shown["1"].ordinal > shown["2"].ordinal


async def test_a_correction_re_rates_to_the_numbers_of_the_right_result_reported_first(two_desks):
    """Event A's round 1 is reported wrongly; event B (a later round, sharing player 1) is
    rated after it; then an organiser corrects A. Both databases end exactly alike."""
    (wrong, wrong_clock, wrong_db), (right, right_clock, right_db) = two_desks
    for service, clock, first_winner in ((wrong, wrong_clock, 1), (right, right_clock, 2)):
        a = await two_player_event(service, clock, [1, 2])
        await win(service, a, 1, first_winner, 3 - first_winner)
        b = await two_player_event(service, clock, [1, 3])
        await win(service, b, 1, 1, 3)
        clock.now += 3600
    before = await history(wrong_db)
    await win(wrong, 1, 1, 2, 1, by_players=False)  # the organiser's fix
    assert await history(wrong_db) == await history(right_db) != before
    # the fix again, and a fix back and forth, change nothing more than the fix itself
    await win(wrong, 1, 1, 2, 1, by_players=False)
    await win(wrong, 1, 1, 1, 2, by_players=False)
    await win(wrong, 1, 1, 2, 1, by_players=False)
    assert await history(wrong_db) == await history(right_db)
    # a result taken back (not played) leaves the history as if it never was
    await wrong.resolve(1, ORGANISER, 1, 1, Claim(outcome="not_played"), "never played")
    sources = [e[0] for e in await history(wrong_db) if isinstance(e[0], str)]
    assert "event:000000001:001:0001" not in sources and await wrong.ratings.shown(GUILD, 2) is None


async def test_results_count_once_across_repeats_restarts_and_a_lost_update(two_desks, tmp_path, monkeypatch):
    service, clock, database = two_desks[0]
    event_id = await two_player_event(service, clock, [1, 2])

    async def lost(*args):
        raise OSError("the process died here")
    monkeypatch.setattr(service.ratings, "sync_event", lost)
    await win(service, event_id, 1, 1, 2)  # the result is stored; the ratings missed it
    _row, event = await service.get(event_id)
    assert event.rounds[0].games[0].status == "final" and await service.ratings.shown(GUILD, 1) is None
    monkeypatch.undo()
    book = RatingBook(database, clock=clock)  # as after a restart
    await book.settle()
    taken = await history(database)
    assert len([e for e in taken if isinstance(e[0], str)]) == 2
    await book.settle()
    await RatingBook(database, clock=clock).settle()
    row, event = await service.get(event_id)
    assert not await book.sync_event(event_id, GUILD, row.version, event)  # already taken in
    assert await history(database) == taken


async def test_a_season_started_by_an_organiser_widens_sigma_at_the_next_game(two_desks):
    service, clock, database = two_desks[0]
    first = await two_player_event(service, clock, [1, 2])
    await win(service, first, 1, 1, 2)
    old = await service.ratings.shown(GUILD, 1)
    clock.now += 3600
    with pytest.raises(Exception, match="organisers"):
        await service.start_season(GUILD, Actor(9), "Spring")
    season = await service.start_season(GUILD, ORGANISER, "Spring")
    assert (season.number, season.name) == (2, "Spring")
    carried = await service.ratings.shown(GUILD, 1)
    assert (carried.mu, carried.season, carried.season_games) == (old.mu, 2, 0)
    assert carried.sigma == pytest.approx(ratings.widened(old.sigma, 1)) and carried.ordinal < old.ordinal
    clock.now += 60
    second = await two_player_event(service, clock, [1, 2])
    await win(service, second, 1, 1, 2)
    rows = await database._conn.fetch(
        "SELECT e.sigma_before, e.season FROM rating_entries e JOIN rating_results r ON r.id = e.result_id"
        " WHERE e.user_id = 1 ORDER BY r.at")
    assert [tuple(r) for r in rows][1] == (pytest.approx(carried.sigma), 2)
    assert (await service.ratings.shown(GUILD, 1)).season_games == 1


async def test_a_late_event_result_takes_its_round_s_place_before_a_bot_game_that_ended_since(monkeypatch, tmp_path):
    """Ruling L36 with both sources: the round is published, Ann and Bo then finish a casual
    bot game (rated at once), and only then report their round. The event result goes in
    before the bot game, which is re-rated from the ratings the round left."""
    clock = TurnClock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        desk, organiser = fake.bot.get_cog("League").desk, Actor(9, admin=True)
        event = (await desk.create_event(GUILD_ID, organiser, "Duel", seed=2)).event_id
        await desk.open(event, organiser)
        for user_id in (1, 2):
            await desk.register(event, user_id, f"P{user_id}")
            await desk.submit_build(event, user_id, SHEET)
        await desk.start(event, organiser)
        await desk.preview_round(event, organiser)
        published_at = clock.now
        await desk.publish_round(event, organiser)
        thread, game_id = await new_game(fake)
        await play(fake, clock, game_id, 20)
        await fake.dispatch(fake.slash(BO, "game concede", thread))
        book = desk.ratings
        game_entry = await book.game_changes(game_id)
        assert game_entry[1][0] == ratings.START[0]  # rated at once, from scratch
        await win(desk, event, 1, 2, 1)  # Bo won the round, reported only now
        order = await fake.bot.service.db._conn.fetch(
            "SELECT source, at FROM rating_results ORDER BY at, source")
        assert [tuple(r) for r in order] == [("event:000000001:001:0001", published_at),
                                             (ratings.game_source(game_id), (await fake.bot.service.db.game(game_id)).updated_at)]
        expected = replay([Match("e", 0, ((2,), (1,)), (1, 2)), Match("g", 1, ((1,), (2,)), (1, 2))], {}, season_of([]))
        assert (await book.game_changes(game_id))[1][0] == expected[1][1][0][0] != ratings.START[0]
        for user in (1, 2):
            shown = await book.shown(GUILD_ID, user)
            assert (shown.mu, shown.sigma, shown.bot_games, shown.event_games) == (
                expected[1][user][1].mu, expected[1][user][1].sigma, 1, 1)
