"""The game store: games, seats, the guarded write path, turn bookkeeping, settings, leases;
on SQLite and on PostgreSQL."""
import asyncio

import pytest

from db import Database, GameWrite, PlaceTaken, LogEntry, Reminder, StaleWrite, Wait


@pytest.fixture
async def database(database_url):
    database = await Database.open(database_url)
    yield database
    await database.close()


async def new_active_game(database, channel=None, users=(100, 200)):
    game_id = await database.create_game(ruleset="awaymissions", config="{}", seed=1, at=1.0,
                                         guild_id=1, channel_id=channel)
    for n, user in enumerate(users, 1):
        await database.add_seat(game_id, f"p{n}", user, f"user{user}", "{}", 1.0)
    await database.write(GameWrite(game_id=game_id, from_version=0, from_status="lobby", version=0,
                                   status="active", state='{"v":0}', at=2.0, config='{"players":2}',
                                   start_waiting=[Wait("p1", 2.0)]))
    return game_id


def move(game_id, version, seat="p1", **extra):
    return GameWrite(game_id=game_id, from_version=version, from_status="active",
                     version=version + 1, status="active", state=f'{{"v":{version + 1}}}', at=3.0,
                     log=[LogEntry(version + 1, seat, None, f"cmd{version + 1}", "[]", 3.0)], **extra)


async def test_one_live_game_per_channel_and_thread(database):
    first = await database.create_game(ruleset="r", config="{}", seed=1, at=1.0, channel_id=5)
    with pytest.raises(PlaceTaken):
        await database.create_game(ruleset="r", config="{}", seed=1, at=1.0, channel_id=5)
    in_thread = await database.create_game(ruleset="r", config="{}", seed=1, at=1.0,
                                           channel_id=5, thread_id=9)
    assert (await database.live_game_in(5)).id == first
    assert (await database.live_game_in(5, 9)).id == in_thread
    assert await database.live_game_in(6) is None


async def test_seats_change_only_in_the_lobby(database):
    game_id = await new_active_game(database)
    with pytest.raises(StaleWrite):
        await database.add_seat(game_id, "p3", 300, "late", "{}", 3.0)
    assert await database.remove_seat(game_id, 100) is False
    assert [s.user_id for s in await database.seats(game_id)] == [100, 200]


async def test_a_seat_is_handed_over_only_while_the_game_runs(database):
    lobby = await database.create_game(ruleset="r", config="{}", seed=1, at=1.0)
    await database.add_seat(lobby, "p1", 100, "Ann", "{}", 1.0)
    with pytest.raises(StaleWrite):
        await database.hand_seat(lobby, "p1", 100, 1, "Ann (left)", '{"computer": "easy"}')
    game_id = await new_active_game(database, users=(100, 200))
    with pytest.raises(StaleWrite):
        await database.hand_seat(game_id, "p3", 100, 1, "nobody", "{}")
    with pytest.raises(StaleWrite):  # p2 is not the seat of user 100
        await database.hand_seat(game_id, "p2", 100, 2, "user100 (left)", '{"computer": "easy"}')
    await database.hand_seat(game_id, "p2", 200, 2, "user200 (left)", '{"computer": "easy"}')
    with pytest.raises(StaleWrite):  # handed over already
        await database.hand_seat(game_id, "p2", 200, 3, "user200 (left)", '{"computer": "easy"}')
    assert [(s.seat, s.user_id, s.name, s.options) for s in await database.seats(game_id)] == [
        ("p1", 100, "user100", "{}"), ("p2", 2, "user200 (left)", '{"computer": "easy"}')]
    assert [s.user_id for s in await database.seats(lobby)] == [100]


async def test_a_change_beside_the_moves_refuses_every_write_made_from_an_earlier_read(database):
    """Handing a seat over and moving a deadline (vacations, calls) move the game's stamp on; a
    write is applied only from the stamp it was read at, and a refused one changes nothing."""
    from db.call_store import CallStore
    from db.player_store import PlayerStore
    game_id = await new_active_game(database, users=(100, 200, 300))
    changes = [lambda: database.hand_seat(game_id, "p3", 300, 3, "user300 (left)", '{"computer": "easy"}'),
               lambda: PlayerStore(database).move_deadlines([(game_id, "p1", 60.0)]),
               lambda: CallStore(database).set_deadlines([(game_id, "p1", 500.0)])]
    for stamp, change in enumerate(changes):
        assert (await database.game(game_id)).stamp == stamp
        await change()
        with pytest.raises(StaleWrite):  # read before the change
            await database.write(move(game_id, stamp, from_stamp=stamp))
        assert (await database.game(game_id)).version == stamp
        await database.write(move(game_id, stamp, from_stamp=stamp + 1))
    assert [e.seq for e in await database.log(game_id)] == [1, 2, 3]


async def test_a_user_sits_once_per_game(database):
    game_id = await database.create_game(ruleset="r", config="{}", seed=1, at=1.0)
    await database.add_seat(game_id, "p1", 100, "Ann", "{}", 1.0)
    with pytest.raises(database.integrity_errors):
        await database.add_seat(game_id, "p2", 100, "Ann", "{}", 1.0)
    assert await database.remove_seat(game_id, 100) is True
    assert await database.seats(game_id) == []


async def test_start_stores_config_state_and_who_is_awaited(database):
    game_id = await new_active_game(database)
    game = await database.game(game_id)
    assert (game.status, game.version, game.config, game.state) == ("active", 0, '{"players":2}', '{"v":0}')
    assert await database.waits(game_id) == [Wait("p1", 2.0, None)]


async def test_stale_write_is_refused_and_writes_nothing(database):
    game_id = await new_active_game(database)
    await database.write(move(game_id, 0))
    with pytest.raises(StaleWrite):
        await database.write(move(game_id, 0, seat="p2"))
    assert [(e.seq, e.seat) for e in await database.log(game_id)] == [(1, "p1")]
    assert (await database.game(game_id)).state == '{"v":1}'


async def test_concurrent_writes_to_many_games_all_commit(database):
    games = [await new_active_game(database, users=(n, n + 1000)) for n in range(20)]
    await asyncio.gather(*(database.write(move(g, 0)) for g in games))
    for g in games:
        assert (await database.game(g)).version == 1
        assert len(await database.log(g)) == 1


async def test_a_stale_write_in_a_batch_fails_alone(database):
    games = [await new_active_game(database, users=(n, n + 1000)) for n in range(5)]
    await database.write(move(games[2], 0))
    results = await asyncio.gather(*(database.write(move(g, 0)) for g in games), return_exceptions=True)
    assert [type(r).__name__ for r in results] == ["NoneType"] * 2 + ["StaleWrite"] + ["NoneType"] * 2
    assert [(await database.game(g)).version for g in games] == [1] * 5
    assert [len(await database.log(g)) for g in games] == [1] * 5  # the refused write logged nothing


async def test_awaited_games_across_guilds_and_reminders_follow_the_wait(database):
    a = await new_active_game(database, users=(100, 200))
    b = await database.create_game(ruleset="r", config="{}", seed=1, at=1.0, guild_id=2)
    await database.add_seat(b, "p1", 300, "x", "{}", 1.0)
    await database.add_seat(b, "p2", 100, "y", "{}", 1.0)
    await database.write(GameWrite(game_id=b, from_version=0, from_status="lobby", version=0,
                                   status="active", state="{}", at=1.5,
                                   start_waiting=[Wait("p2", 1.5, 99.0)],
                                   reminders=[Reminder("p2", "nudge", 4.0)]))
    waiting = await database.awaited_games(100)
    assert [(w.game_id, w.guild_id, w.seat, w.deadline) for w in waiting] == [(b, 2, "p2", 99.0), (a, 1, "p1", None)]
    assert await database.due_reminders(3.9) == []
    due = await database.due_reminders(4.0)
    assert [(r.game_id, r.user_id, r.kind) for r in due] == [(b, 100, "nudge")]
    await database.mark_reminders_sent([due[0].id], 4.1)
    assert await database.due_reminders(10.0) == []
    # once the seat has answered, its wait and reminders are gone
    await database.write(GameWrite(game_id=b, from_version=0, from_status="active", version=1,
                                   status="active", state="{}", at=5.0,
                                   log=[LogEntry(1, "p2", 100, "pass", "[]", 5.0)],
                                   stop_waiting=["p2"], start_waiting=[Wait("p1", 5.0)],
                                   reminders=[Reminder("p1", "nudge", 6.0)]))
    assert [w.game_id for w in await database.awaited_games(100)] == [a]
    assert [(r.user_id, r.seat) for r in await database.due_reminders(10.0)] == [(300, "p1")]


async def test_finished_games_wait_on_nobody(database):
    game_id = await new_active_game(database)
    await database.write(GameWrite(game_id=game_id, from_version=0, from_status="active", version=0,
                                   status="over", state='{"v":0}', at=3.0, result='{"winner":"p2"}',
                                   stop_waiting=["p1"]))
    assert await database.awaited_games(100) == []
    assert (await database.game(game_id)).result == '{"winner":"p2"}'


async def test_settings_set_replace_and_clear(database):
    await database.set_guild_setting(1, "turn_limit", "3600")
    await database.set_guild_setting(1, "turn_limit", "7200")
    await database.set_user_setting(100, "dm", "false")
    assert await database.guild_setting(1, "turn_limit") == "7200"
    assert await database.guild_setting(2, "turn_limit") is None
    assert await database.user_setting(100, "dm") == "false"
    await database.set_user_setting(100, "dm", None)
    assert await database.user_setting(100, "dm") is None


async def test_foreign_keys_are_enforced(database):
    with pytest.raises(StaleWrite):
        await database.add_seat(404, "p1", 1, "ghost", "{}", 1.0)
    game_id = await new_active_game(database)
    with pytest.raises(database.integrity_errors):  # a wait for a seat that does not exist
        await database.write(GameWrite(game_id=game_id, from_version=0, from_status="active", version=0,
                                       status="active", state="{}", at=3.0, start_waiting=[Wait("p9", 3.0)]))
    assert await database.waits(game_id) == [Wait("p1", 2.0, None)]


async def test_a_statement_given_up_on_another_programs_lock_is_told_apart_as_busy(database_url):
    """SQLite's locked file and PostgreSQL's lock timeout are both `is_busy`, so every part of
    the bot answers them alike (the player is told to try again); other errors are not."""
    from db import is_busy
    if database_url.startswith("postgresql"):
        import asyncpg
        await (await Database.open(database_url)).close()
        holder, waiter = await asyncpg.connect(database_url), await asyncpg.connect(database_url)
        try:
            async with holder.transaction():
                await holder.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")  # another program's
                await waiter.execute("SET lock_timeout = '100ms'")
                with pytest.raises(asyncpg.PostgresError) as raised:
                    await waiter.execute("UPDATE games SET stamp = 0")
        finally:
            await holder.close()
            await waiter.close()
    else:
        import sqlite3
        database = await Database.open(database_url, busy_timeout_ms=100)
        holder = sqlite3.connect(database_url, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(sqlite3.OperationalError) as raised:
                await database.create_game(ruleset="r", config="{}", seed=1, at=1.0)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
            await database.close()
    assert is_busy(raised.value)
    assert not is_busy(StaleWrite("the game moved on")) and not is_busy(ValueError("locked"))
