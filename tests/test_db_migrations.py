"""Schema migrations: from an empty file and from every earlier version with data in it."""
import sqlite3

import aiosqlite
import pytest

import db.database
from db.sqlite_backend import SqliteConnection
from engine.service import rating_book, ratings
from db import LATEST, MIGRATIONS, Database, GameWrite, LogEntry, Reminder, SchemaTooNew, Wait


OLD_RATINGS = ratings.rate([ratings.Player("p1", 100, "p1"), ratings.Player("p2", 200, "p2")], {"winner": "p1"}, {})


def build_at(path, version):
    """A database file at schema `version`, holding data in every table that version has."""
    conn = sqlite3.connect(path)
    for number in range(1, version + 1):
        conn.executescript(f"BEGIN;{MIGRATIONS[number - 1]}PRAGMA user_version = {number};COMMIT;")
    conn.execute("INSERT INTO games (id, ruleset, guild_id, channel_id, status, version, config, seed,"
                 " state, created_at, updated_at) VALUES (7, 'awaymissions', 1, 2, 'active', 1,"
                 " '{\"pack\":\"p\"}', 42, '{\"v\":1}', 1.0, 2.0)")
    conn.execute("INSERT INTO seats (game_id, seat, user_id, name, options, joined_at) VALUES (7, 'p1', 100, 'Ann', '{}', 1.0)")
    conn.execute("INSERT INTO seats (game_id, seat, user_id, name, options, joined_at) VALUES (7, 'p2', 200, 'Bo', '{}', 1.0)")
    conn.execute("INSERT INTO log VALUES (7, 1, 'p1', 100, 'pass', '[]', 2.0)")
    if version >= 2:
        conn.execute("INSERT INTO guild_settings VALUES (1, 'prefix', '\"!\"')")
        conn.execute("INSERT INTO user_settings VALUES (100, 'dm', 'true')")
    if version >= 3:
        conn.execute("INSERT INTO awaited (game_id, seat, since, deadline) VALUES (7, 'p2', 1.0, 50.0)")
        conn.execute("INSERT INTO reminders (game_id, seat, kind, due) VALUES (7, 'p2', 'deadline', 50.0)")
    if version == 6:  # a game rated under migration 6, in server 2
        conn.execute("INSERT INTO games (id, ruleset, guild_id, status, version, config, seed, state, result,"
                     " created_at, updated_at) VALUES (8, 'awaymissions', 2, 'over', 9, '{}', 1, '{}',"
                     " '{\"winner\": \"p1\"}', 1.0, 4.0)")
        conn.executemany("INSERT INTO seats (game_id, seat, user_id, name, options, joined_at) VALUES (8, ?, ?, ?, '{}', 1.0)", [("p1", 100, "Ann"), ("p2", 200, "Bo")])
        conn.execute("INSERT INTO log VALUES (8, 1, 'p1', 100, 'pass', '[]', 2.0)")
        conn.execute("INSERT INTO rated_games VALUES (8, 1, 'played to the end', 5.0)")
        for user, (mu, sigma) in OLD_RATINGS.items():
            conn.execute("INSERT INTO ratings VALUES (2, ?, ?, ?, 1, 5.0)", (user, mu, sigma))
            conn.execute("INSERT INTO rating_changes VALUES (8, ?, 25.0, 8.333, ?, ?)", (user, mu, sigma))
    conn.commit()
    conn.close()


async def test_empty_file_reaches_latest_with_wal_and_foreign_keys(tmp_path):
    database = await Database.open(str(tmp_path / "new.db"))
    try:
        assert await database.pragma("user_version") == LATEST
        assert await database.pragma("journal_mode") == "wal"
        assert await database.pragma("foreign_keys") == 1
        assert await database.pragma("synchronous") == 1  # NORMAL
        assert await database.pragma("integrity_check") == "ok"
    finally:
        await database.close()


@pytest.mark.parametrize("version", range(1, LATEST))
async def test_each_earlier_version_upgrades_and_keeps_its_data(tmp_path, version):
    path = str(tmp_path / f"v{version}.db")
    build_at(path, version)
    database = await Database.open(path)
    try:
        assert await database.pragma("user_version") == LATEST
        game = await database.game(7)
        assert (game.status, game.version, game.seed, game.state) == ("active", 1, 42, '{"v":1}')
        assert [s.name for s in await database.seats(7)] == ["Ann", "Bo"]
        assert [e.command for e in await database.log(7)] == ["pass"]
        if version >= 2:
            assert await database.guild_setting(1, "prefix") == '"!"'
            assert await database.user_setting(100, "dm") == "true"
        # the old game goes on under the new schema, turn bookkeeping included
        await database.write(GameWrite(
            game_id=7, from_version=1, from_status="active", version=2, status="active",
            state='{"v":2}', at=3.0, log=[LogEntry(2, "p2", 200, "pass", "[]", 3.0)],
            start_waiting=[Wait("p1", 3.0, 10.0)], reminders=[Reminder("p1", "nudge", 5.0)]))
        assert [g.game_id for g in await database.awaited_games(100)] == [7]
        assert [r.user_id for r in await database.due_reminders(6.0)] == [100]
        await _players_work_on(database, version)
        await _campaigns_work_on(database)
        # migration 9: a clock's lease is taken once
        assert await database.claim_lease("reminders", "A", now=1.0, ttl=3.0)
        assert not await database.claim_lease("reminders", "B", now=2.0, ttl=3.0)
        assert await database.pragma("integrity_check") == "ok"
    finally:
        await database.close()


async def _campaigns_work_on(database):
    """Migration 8 on an upgraded file: a campaign is stored with its players and log, and
    the old game becomes one of its missions."""
    from db.campaign_store import CampaignEntry, CampaignSeat, CampaignStore
    store = CampaignStore(database)
    campaign = await store.create(config="{}", seed=5, state='{"v":0}', at=1.0, channel_id=2,
                                  seats=[CampaignSeat("p1", 100, "Ann"), CampaignSeat("p2", 200, "Bo")])
    await store.link_game(7, campaign)
    await store.save(campaign, 0, status="active", state='{"v":1}',
                     entry=CampaignEntry(1, "p1", 100, "finish", 7, "[]", 2.0))
    assert await store.games(campaign) == [7]
    assert [(e.command, e.game_id) for e in await store.log(campaign)] == [("finish", 7)]
    assert (await store.live_in(2)).state == '{"v":1}'
    assert (await database.game(7)).status == "active"  # the game itself is untouched


async def _players_work_on(database, version):
    """Migration 6 on an upgraded file: seals, ratings and vacations work on the old game,
    and an old wait (from version 3 on) moves by a vacation."""
    from engine.service.players import PlayerDesk
    desk = PlayerDesk(database, clock=lambda: 10.0)
    # a game rated before migration 7 is rated again into the history, to the same numbers, once
    assert await desk.settle_ratings() == ([8] if version == 6 else [])
    assert await desk.settle_ratings() == []
    if version == 6:
        assert {u: (r.mu, r.sigma) for u in OLD_RATINGS if (r := await desk.ratings.store.rating(2, u))} == OLD_RATINGS
    digest = await desk.seal(7)
    assert digest == await desk.seal(7) and len(digest) == 64
    # migration 7: the old game rated into the history once, and an event's result beside it
    store = desk.ratings.store
    row = ("game:7", 2.0, [[100], [200]], [1, 2])
    assert await store.record_game(7, 1, True, "test", 10.0, row, rating_book.fold)
    assert not await store.record_game(7, 1, True, "test", 11.0, row, rating_book.fold)
    first = await store.rating(1, 100)
    assert first.mu > ratings.START[0] and first.games == 1
    await database._conn.execute("INSERT INTO league_events (id, guild_id, name, status, version, state,"
                                 " created_at, updated_at) VALUES (3, 1, 'e', 'running', 4, '{}', 1.0, 1.0)")
    assert [e[0] for e in await store.unsynced_events()] == [3]
    event = ("event:3:1", 1.0, [[200], [100]], [1, 2])  # before the game: the game is re-rated after it
    assert await store.sync_event(3, 1, 4, "event:3:", [event], rating_book.fold, 12.0)
    assert await store.unsynced_events() == []
    assert (await store.rating(1, 100)).games == 2 and (await store.rating(1, 100)).mu != first.mu
    await desk.store.set_vacation(200, 10.0, 20.0, 10.0)
    assert await desk.apply_vacations() == (1 if version >= 3 else 0)
    if version >= 3:
        assert [w.deadline for w in await database.waits(7) if w.seat == "p2"] == [60.0]


async def test_database_from_a_newer_release_is_refused(tmp_path):
    path = str(tmp_path / "future.db")
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    conn.close()
    with pytest.raises(SchemaTooNew):
        await Database.open(path)


async def test_a_failing_migration_leaves_the_previous_version_intact(tmp_path, monkeypatch):
    path = str(tmp_path / "broken.db")
    build_at(path, LATEST)
    monkeypatch.setattr(db.database, "MIGRATIONS",
                        MIGRATIONS + ["CREATE TABLE extra (a); CREATE TABLE extra (a);"])
    async with aiosqlite.connect(path) as conn:
        with pytest.raises(sqlite3.OperationalError):
            await db.database.migrate(SqliteConnection(conn), target=LATEST + 1)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'extra'").fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 1
    conn.close()


async def test_after_the_upgrade_a_reminder_never_takes_the_id_of_one_deleted_with_its_wait(database_url):
    """Migration 11 (issue 29 item 1): rows made before it keep their ids, and a reminder
    deleted with its wait never lends its id to the next one, on both engines."""
    from db.backend import is_postgres, sqlite_path
    from db.postgres_backend import PostgresConnection
    old = await (PostgresConnection.open(database_url) if is_postgres(database_url)
                 else SqliteConnection.open(sqlite_path(database_url), 5000))
    await db.database.migrate(old, target=10)
    await old.execute("INSERT INTO games (id, ruleset, status, version, config, seed, state, created_at,"
                      " updated_at) VALUES (7, 'awaymissions', 'active', 1, '{}', 42, '{}', 1.0, 1.0)")
    for seat, user in (("p1", 100), ("p2", 200)):
        await old.execute("INSERT INTO seats (game_id, seat, user_id, name, joined_at) VALUES (7, ?, ?, 'x', 1.0)",
                          (seat, user))
    await old.execute("INSERT INTO awaited (game_id, seat, since, deadline) VALUES (7, 'p2', 1.0, 50.0)")
    await old.execute("INSERT INTO reminders (id, game_id, seat, kind, due) VALUES (1, 7, 'p2', 'nudge', 20.0)")
    await old.execute("INSERT INTO reminders (id, game_id, seat, kind, due) VALUES (2, 7, 'p2', 'deadline', 50.0)")
    await old.close()
    database = await Database.open(database_url)
    try:
        assert [(r.id, r.kind) for r in await database.due_reminders(60.0)] == [(1, "nudge"), (2, "deadline")]
        given = {1, 2}
        for version in range(1, 4):  # p2 answers and is asked again: the wait and its reminders are new
            await database.write(GameWrite(
                game_id=7, from_version=version, from_status="active", version=version + 1, status="active",
                state="{}", at=60.0 * version, log=[LogEntry(version + 1, "p2", 200, "pass", "[]", 60.0 * version)],
                stop_waiting=["p2"], start_waiting=[Wait("p2", 60.0 * version, 60.0 * version + 50)],
                reminders=[Reminder("p2", "deadline", 60.0 * version + 50)]))
            [new] = await database.due_reminders(60.0 * version + 50)
            assert new.id not in given
            given.add(new.id)
    finally:
        await database.close()
