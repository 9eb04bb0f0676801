"""Playing through the service: accepted commands are stored, refusals change nothing."""
import asyncio
import random
import sqlite3

import pytest

from db import Database
from engine.awaymissions.state import to_json
from engine.service import (DamagedGame, GameOver, GameService, IllegalCommand, InvalidId, MalformedCommand, NotAPlayer,
                            NotYourDecision, StaleVersion, StorageBusy, UnknownGame)
from engine.service.text import private_lines, public_line

FED = dict(affiliation="federation", team="federation-away-team", deck="federation-starter")
BORG = dict(affiliation="borg", team="borg-away-team", deck="borg-starter")
USERS = {"p1": 1, "p2": 2}


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now=1000.0):
        self.now = now

    def __call__(self):
        return self.now


async def new_game(service, guild=10, channel=20, seed=7, users=(1, 2), **create):
    game = await service.create(creator=users[0], guild_id=guild, channel_id=channel, seed=seed, **create)
    await service.join(game.id, users[0], "Ann", **FED)
    await service.join(game.id, users[1], "Bo", **BORG)
    return game.id, await service.start(game.id, users[0])


async def play(service, game_id, update, count, rng, users=USERS):
    """Send `count` random legal commands; return every update."""
    updates = []
    for _ in range(count):
        if update.status != "active":
            break
        seat = update.awaited[0].seat
        version, commands = await service.legal_commands(game_id, users[seat])
        update = await service.submit(game_id, users[seat], rng.choice(commands), version)
        updates.append(update)
    return updates


async def stored(url, game_id):
    """(version, state, [(seq, seat, command)]) of a game, read through a connection of its own."""
    database = await Database.open(url)
    try:
        row = await database.game(game_id)
        return row.version, row.state, [(e.seq, e.seat, e.command) for e in await database.log(game_id)]
    finally:
        await database.close()


@pytest.fixture
def path(database_url):
    """A new database, on SQLite and on PostgreSQL."""
    return database_url


@pytest.fixture
async def service(path):
    service = await GameService.open(path)
    yield service
    await service.close()


async def test_an_accepted_command_is_stored_before_submit_returns(service, path):
    game_id, update = await new_game(service)
    seat = update.awaited[0].seat
    version, commands = await service.legal_commands(game_id, USERS[seat])
    update = await service.submit(game_id, USERS[seat], commands[0], version)
    assert update.version == version + 1
    db_version, state, log = await stored(path, game_id)
    assert db_version == update.version
    assert log == [(update.version, seat, commands[0])]
    view = await service.view(game_id)
    assert view["version"] == update.version and state  # the state row moved with it


async def test_only_the_canonical_command_text_is_stored(service, path):
    game_id, update = await new_game(service)
    seat = update.awaited[0].seat
    version, commands = await service.legal_commands(game_id, USERS[seat])
    sloppy = "  " + "   ".join(commands[0].swapcase().split()) + "\t"
    update = await service.submit(game_id, USERS[seat], sloppy, version)
    assert (await stored(path, game_id))[2] == [(update.version, seat, commands[0])]
    assert [entry.command for entry in await service.log(game_id)] == [commands[0]]


async def test_a_restarted_service_continues_the_same_game(path):
    service = await GameService.open(path)
    game_id, update = await new_game(service)
    updates = await play(service, game_id, update, 30, random.Random(1))
    before = await service.view(game_id, 1)
    await service.close()
    service = await GameService.open(path)
    try:
        assert await service.view(game_id, 1) == before
        more = await play(service, game_id, updates[-1], 10, random.Random(2))
        assert more[-1].version >= updates[-1].version + len(more)  # a window passed by preference adds one
        assert [e.seq for e in await service.log(game_id)][-1] == more[-1].version
    finally:
        await service.close()


@pytest.mark.parametrize("case", ["illegal", "stale", "not your decision", "not a player", "malformed",
                                  "too long", "unknown game", "extra words", "two lines", "lone surrogate",
                                  "none", "bytes", "look-alike digit"])
async def test_refusals_have_a_reason_and_change_nothing(service, path, case):
    game_id, update = await new_game(service)
    await play(service, game_id, update, 5, random.Random(3))
    info = await service.get(game_id)
    waiting = info.awaited[0].seat
    other = "p2" if waiting == "p1" else "p1"
    before = await stored(path, game_id)
    version, legal = await service.legal_commands(game_id, USERS[waiting])
    attempts = {
        "illegal": (IllegalCommand, game_id, USERS[waiting], "move NOBODY Z99", version),
        "stale": (StaleVersion, game_id, USERS[waiting], legal[0], version - 1),
        "not your decision": (NotYourDecision, game_id, USERS[other], "pass", version),
        "not a player": (NotAPlayer, game_id, 77, legal[0], version),
        "malformed": (MalformedCommand, game_id, USERS[waiting], "   ", version),
        "too long": (MalformedCommand, game_id, USERS[waiting], "pass " * 300, version),
        "unknown game": (UnknownGame, 4040, USERS[waiting], legal[0], version),
        "extra words": (MalformedCommand, game_id, USERS[waiting], legal[0] + " ; DROP TABLE games; --", version),
        "two lines": (MalformedCommand, game_id, USERS[waiting], legal[0] + "\n" + legal[0], version),
        "lone surrogate": (MalformedCommand, game_id, USERS[waiting], legal[0] + " \udc80", version),
        "none": (MalformedCommand, game_id, USERS[waiting], None, version),
        "bytes": (MalformedCommand, game_id, USERS[waiting], legal[0].encode(), version),
        "look-alike digit": (MalformedCommand, game_id, USERS[waiting], "reroll x \u0663", version),
    }
    error, *args = attempts[case]
    assert other not in {t.seat for t in info.awaited}  # the game waits on one seat here
    with pytest.raises(error) as refused:
        await service.submit(*args)
    assert refused.value.message
    if case == "stale":
        assert "moved on" in refused.value.message
    assert await stored(path, game_id) == before
    assert await service.legal_commands(game_id, USERS[waiting]) == (version, legal)


async def test_two_submissions_of_the_same_decision_apply_once(service, path):
    game_id, update = await new_game(service)
    seat = update.awaited[0].seat
    version, commands = await service.legal_commands(game_id, USERS[seat])
    results = await asyncio.gather(
        service.submit(game_id, USERS[seat], commands[0], version),
        service.submit(game_id, USERS[seat], commands[0], version), return_exceptions=True)
    applied = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(applied) == 1 and applied[0].version == version + 1
    assert len(refused) == 1 and isinstance(refused[0], StaleVersion)
    db_version, _, log = await stored(path, game_id)
    assert db_version == version + 1 and [row[0] for row in log] == [version + 1]


async def test_many_games_submitting_at_once_all_commit(service, path):
    games = [await new_game(service, channel=100 + n, seed=n, users=(10 * n + 1, 10 * n + 2))
             for n in range(12)]

    async def one(n, game_id, update):
        users = {"p1": 10 * n + 1, "p2": 10 * n + 2}
        return await play(service, game_id, update, 8, random.Random(n), users)

    runs = await asyncio.gather(*(one(n, g, u) for n, (g, u) in enumerate(games)))
    for (game_id, _), updates in zip(games, runs):
        db_version, _, log = await stored(path, game_id)
        assert db_version == updates[-1].version == len(log)


async def test_drawn_cards_are_told_only_to_their_holder_and_dice_are_shown(service):
    game_id, update = await new_game(service)
    updates = await play(service, game_id, update, 120, random.Random(4))
    drew = [u for u in updates if u.private]
    assert drew, "some command should draw cards"
    for u in drew:
        assert set(u.private) <= {"p1", "p2"}
        assert u.events and not any("private" in e for e in u.events)
        assert all(line.startswith("You drew") for lines in u.private.values() for line in lines)
    assert any(u.images == ["board", "dice"] for u in updates)
    assert all(u.images[0] == "board" for u in updates)


def test_private_event_contents_never_reach_the_public_line():
    event = {"type": "drew", "seat": "p1", "count": 2, "private": {"p1": ["secret-a", "secret-b"]}}
    line = public_line(event, {"p1": "Ann"})
    assert line == "Ann draws 2 card(s)"
    assert private_lines([event]) == {"p1": ["You drew: secret-a, secret-b"]}
    assert "secret" not in public_line({"type": "new_thing", "private": {"p1": ["secret"]}, "x": 1}, {})


async def test_concede_ends_the_game_and_later_commands_are_refused(service, path):
    game_id, update = await new_game(service)
    update = await service.concede(game_id, 2)
    assert (update.status, update.result, update.awaited) == ("over", {"winner": "p1", "conceded": "p2"}, [])
    assert await service.awaiting(1) == [] and await service.awaiting(2) == []
    before = await stored(path, game_id)
    with pytest.raises(GameOver):
        await service.submit(game_id, 1, "pass", update.version)
    with pytest.raises(GameOver):
        await service.concede(game_id, 1)
    assert await stored(path, game_id) == before


async def test_a_game_played_to_the_end_is_over(service):
    game_id, update = await new_game(service, seed=11)
    updates = await play(service, game_id, update, 2000, random.Random(11))
    last = updates[-1]
    assert (last.status, last.awaited) == ("over", [])
    assert last.result is not None
    with pytest.raises(GameOver):
        await service.submit(game_id, 1, "pass", last.version)


async def test_turns_deadlines_and_reminders_follow_the_game(path):
    clock = Clock()
    service = await GameService.open(path, clock=clock)
    try:
        game_id, update = await new_game(service, turn_limit=3600, remind_after=600)
        first = update.awaited
        assert {(t.since, t.deadline) for t in first} == {(1000.0, 4600.0)}
        clock.now = 1599.0
        assert await service.due_reminders() == []
        clock.now = 1600.0
        due = await service.due_reminders()
        assert {(r.game_id, r.seat, r.user_id, r.kind) for r in due} == {
            (game_id, t.seat, t.user_id, "nudge") for t in first}
        await service.reminders_sent([r.id for r in due])
        assert await service.due_reminders() == []

        clock.now = 2000.0
        seat = first[0].seat
        version, commands = await service.legal_commands(game_id, USERS[seat])
        update = await service.submit(game_id, USERS[seat], commands[0], version)
        for turn in update.awaited:  # asked again or newly asked: a fresh clock; others keep theirs
            fresh = turn.seat == seat or turn.seat not in [t.seat for t in first]
            assert (turn.since, turn.deadline) == ((2000.0, 5600.0) if fresh else (1000.0, 4600.0))
        clock.now = 4600.0
        due = {(r.seat, r.kind) for r in await service.due_reminders()}
        assert due == {(t.seat, "deadline") for t in update.awaited if t.since == 1000.0}
    finally:
        await service.close()


async def test_awaiting_lists_a_users_games_across_guilds(service):
    here, update_here = await new_game(service, guild=10, channel=20, users=(1, 2))
    there, update_there = await new_game(service, guild=11, channel=30, users=(3, 1))
    waiting = {(w.game_id, w.guild_id, w.seat) for w in await service.awaiting(1)}
    expected = {(here, 10, t.seat) for t in update_here.awaited if t.user_id == 1}
    expected |= {(there, 11, t.seat) for t in update_there.awaited if t.user_id == 1}
    assert waiting == expected and len(expected) == 2
    await service.concede(there, 3)
    assert {w.game_id for w in await service.awaiting(1)} == {here}


async def test_idle_games_leave_memory_and_reload_on_demand(path):
    clock = Clock()
    service = await GameService.open(path, clock=clock, idle_after=60)
    try:
        first, update = await new_game(service)
        second, _ = await new_game(service, channel=21, users=(3, 4))
        assert service.hot_games == {first, second}
        clock.now += 30
        await service.get(second)
        clock.now += 40
        await service.get(second)  # first has been idle 70 s, second 40 s
        assert service.hot_games == {second}
        updates = await play(service, first, update, 5, random.Random(5))
        assert first in service.hot_games and updates[-1].version == update.version + 5
    finally:
        await service.close()


async def test_the_stored_state_is_the_engines_state(service, path):
    game_id, update = await new_game(service)
    await play(service, game_id, update, 25, random.Random(6))
    _, state, _ = await stored(path, game_id)
    hot = service._hot[game_id]
    assert state.encode() == to_json(hot.state)


@pytest.mark.parametrize("game_id", [2 ** 63, 2 ** 64 + 1, -1, 0, "2", "x1", "\u0661", 1.0, None, True])
async def test_ids_no_game_can_have_are_unknown_games(service, game_id):
    with pytest.raises(UnknownGame, match="There is no game #"):
        await service.get(game_id)


@pytest.mark.parametrize("ids", [dict(creator=2 ** 63), dict(guild_id=2 ** 64), dict(channel_id=-5),
                                 dict(thread_id="12")])
async def test_discord_ids_out_of_range_are_refused_clearly(service, ids):
    with pytest.raises(InvalidId, match="cannot be a"):
        await service.create(**ids)


async def test_a_game_id_given_as_text_is_the_same_game_with_one_lock(service, path):
    game_id, update = await new_game(service)
    seat = update.awaited[0].seat
    version, commands = await service.legal_commands(game_id, USERS[seat])
    assert (await service.get(str(game_id))).id == game_id
    results = await asyncio.gather(
        service.submit(game_id, USERS[seat], commands[0], version),
        service.submit(str(game_id), USERS[seat], commands[0], version), return_exceptions=True)
    assert sorted(type(r).__name__ for r in results) == ["StaleVersion", "Update"]
    assert service.hot_games == {game_id}
    assert len((await stored(path, game_id))[2]) == 1


async def test_a_corrupt_stored_state_is_refused_naming_the_game(tmp_path):
    path = str(tmp_path / "games.db")
    service = await GameService.open(path)
    game_id, _ = await new_game(service)
    await service.close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE games SET state = '{\"pack\": 3' WHERE id = ?", (game_id,))
    conn.commit()
    conn.close()
    service = await GameService.open(path)
    try:
        with pytest.raises(DamagedGame, match=f"Game #{game_id}'s stored state cannot be read"):
            await service.get(game_id)
    finally:
        await service.close()


async def test_a_database_held_by_another_process_is_waited_for_then_refused(tmp_path):
    path = str(tmp_path / "games.db")
    service = await GameService.open(path, busy_timeout_ms=200)
    try:
        game_id, update = await new_game(service)
        seat = update.awaited[0].seat
        version, commands = await service.legal_commands(game_id, USERS[seat])
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            with pytest.raises(StorageBusy, match="held by another program"):
                await service.submit(game_id, USERS[seat], commands[0], version)
        finally:
            other.execute("ROLLBACK")
            other.close()
        update = await service.submit(game_id, USERS[seat], commands[0], version)  # nothing was applied
        assert update.version == version + 1
    finally:
        await service.close()


async def test_a_database_from_a_newer_release_is_refused_before_it_is_changed(tmp_path):
    from db import SchemaTooNew
    path = tmp_path / "future.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(SchemaTooNew):
        await GameService.open(str(path))
    assert path.read_bytes() == before
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()


async def test_hot_games_keep_their_state_as_stored_text_between_commands(service, path):
    """A thousand live state trees made the garbage collector hold the loop (issue 10, item 23):
    between operations a hot game keeps only the committed text, and reads stay exact."""
    games = [await new_game(service, channel=20 + n, users=(10 + 2 * n, 11 + 2 * n)) for n in range(5)]
    for n, (game_id, update) in enumerate(games):
        users = {"p1": 10 + 2 * n, "p2": 11 + 2 * n}
        await play(service, game_id, update, 15, random.Random(n), users)
    for game_id, _ in games:
        hot = service._hot[game_id]
        assert hot._live is None
        _version, state, _log = await stored(path, game_id)
        assert hot.row.state == state
        assert to_json(hot.state).decode() == state  # decoded again on demand, byte for byte
        hot.let_go()
