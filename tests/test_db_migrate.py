"""python -m db.migrate: an SQLite database copied to PostgreSQL, checked by the replay tool,
and the games going on in the copy."""
import asyncio
import random
import sqlite3

from db import Database
from db.migrate import COPIED_TABLES, main, run
from engine.service import GameService, replay
from engine.service.calls import CallDesk
from engine.service.campaign import CampaignService
from engine.service.league import Actor, LeagueService
from engine.service.players import PlayerDesk
from tests.test_campaign_service import PLAYERS as CAPTAINS
from tests.test_league_ratings import two_player_event, win
from tests.test_league_service import Clock

FED = dict(affiliation="federation", team="federation-away-team", deck="federation-starter")
BORG = dict(affiliation="borg", team="borg-away-team", deck="borg-starter")
USERS = {"p1": 1, "p2": 2}
ORGANISER = Actor(2, "Org", admin=True)


async def played_game(service, channel, moves, rng, turn_limit=None):
    game = await service.create(creator=1, guild_id=10, channel_id=channel, seed=channel, turn_limit=turn_limit)
    await service.join(game.id, 1, "Ann", **FED)
    await service.join(game.id, 2, "Bo", **BORG)
    update = await service.start(game.id, 1)
    for _ in range(moves):
        user = USERS[update.awaited[0].seat]
        version, commands = await service.legal_commands(game.id, user)
        update = await service.submit(game.id, user, rng.choice(commands), version)
    return game.id


async def a_full_database(path):
    """Games (one conceded, rated and its seed revealed; one under way with a deadline), a
    lobby, settings, calls every 8 h, a league with a rated result, a rating season, a vacation, and a
    campaign whose first mission is under way (game 4)."""
    service = await GameService.open(path, clock=lambda: 1000.0)
    rng = random.Random(3)
    desk = PlayerDesk(service.db, clock=lambda: 1000.0)
    over = await played_game(service, 20, 12, rng)
    await desk.seal(over)
    await service.concede(over, 1)
    await desk.settle_ratings()
    await desk.revealed(over)
    await desk.seal(await played_game(service, 21, 25, rng, turn_limit=3600))
    await service.create(creator=1, guild_id=10, channel_id=22)
    await service.set_guild_setting(10, "turn_limit", 7200)
    await service.set_user_setting(1, "dm", True)
    await desk.set_vacation(2, days=3)
    await CallDesk(service.db, clock=lambda: 1000.0).choose(2, 8)
    league = LeagueService(service.db, clock=lambda: 1000.0)
    await league.create_event(10, ORGANISER, "Arena", seed=4, profile="awaymissions")
    await league.set_organiser_role(10, ORGANISER, 77)
    event_id = await two_player_event(league, Clock(), [1, 2])
    await win(league, event_id, 1, 1, 2)
    await desk.settle_ratings()
    await desk.ratings.start_season(10, "Spring", by=2)
    campaigns = CampaignService(service)
    made = await campaigns.create(players=CAPTAINS, title="ember", guild_id=10, channel_id=23, thread_id=24,
                                  creator=1, seed=5)
    await campaigns.continue_(made.campaign_id, 1)
    await service.close()


async def test_an_sqlite_database_is_copied_to_postgresql_verified_and_plays_on(tmp_path, postgres_url, capsys):
    source = str(tmp_path / "ready_room.db")
    await a_full_database(source)
    assert await run(f"sqlite:///{source}", postgres_url) == 0
    out = capsys.readouterr().out
    assert "verified" in out and "4 games" in out and "1 campaigns" in out

    original, copy = await Database.open(source), await Database.open(postgres_url)
    try:
        for table in COPIED_TABLES:
            rows = [sorted(await db._conn.fetch(f"SELECT * FROM {table}")) for db in (original, copy)]
            assert rows[0] == rows[1], table
            assert table in ("league_games", "league_threads") or rows[0], f"the test database should have rows in {table}"
        assert (await copy.game(4)).ruleset == "renegades"  # the campaign's mission, copied with its campaign
    finally:
        await original.close()
        await copy.close()

    service = await GameService.open(postgres_url)
    try:
        live = await service.in_channel(21)
        user = USERS[live.awaited[0].seat]
        version, commands = await service.legal_commands(live.id, user)
        assert (await service.submit(live.id, user, commands[0], version)).version == version + 1
        assert (await service.create(creator=1, guild_id=10, channel_id=30)).id == 5  # ids go on after the copied ones
        assert await service.guild_setting(10, "turn_limit") == 7200
        campaign = await CampaignService(service).create(players=CAPTAINS, title="ember", channel_id=31, seed=6)
        assert campaign.campaign_id == 2
    finally:
        await service.close()


async def test_every_table_with_players_data_is_copied(tmp_path):
    path = str(tmp_path / "schema.db")
    await (await Database.open(path)).close()
    conn = sqlite3.connect(path)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                         " AND name NOT LIKE 'sqlite_%'")}  # SQLite's own (AUTOINCREMENT's counters)
    conn.close()
    assert tables - set(COPIED_TABLES) == {"leases"}  # a new table must be copied, or said not to be


async def test_a_target_that_is_not_empty_is_refused_and_left_alone(tmp_path, postgres_url, capsys):
    source = str(tmp_path / "ready_room.db")
    await a_full_database(source)
    assert await run(source, postgres_url) == 0
    assert await run(source, postgres_url) == 2
    assert "nothing copied: the target already has rows in games" in capsys.readouterr().err
    copy = await Database.open(postgres_url)
    try:
        assert await copy.started_game_ids() == [1, 2, 4]
    finally:
        await copy.close()


def test_a_missing_source_is_refused(tmp_path, capsys):
    assert main(["--from", str(tmp_path / "nothing.db"), "--to", str(tmp_path / "new.db")]) == 2
    assert "no such database file" in capsys.readouterr().err
    assert not (tmp_path / "nothing.db").exists()


async def test_the_copy_also_goes_back_from_postgresql_to_sqlite(tmp_path, postgres_url):
    await a_full_database(postgres_url)
    target = str(tmp_path / "back.db")
    assert await run(postgres_url, f"sqlite:///{target}") == 0
    service = await GameService.open(target)
    try:
        assert (await service.in_channel(21)).status == "active"
    finally:
        await service.close()


def test_the_replay_tool_reads_a_postgresql_database(postgres_url, capsys):
    asyncio.run(a_full_database(postgres_url))
    assert replay.main([postgres_url]) == 0
    out = capsys.readouterr().out
    assert "game #1: replay OK" in out and "game #2: replay OK" in out
