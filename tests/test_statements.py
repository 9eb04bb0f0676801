"""Round trips per move (issue 27 item 4): a move through Discord sends at most 3 database
statements besides its commit, and reads its players' settings once, on SQLite and PostgreSQL.
Counted by the store itself (db.watch), while each click is handled."""
from __future__ import annotations

import json
import random
from collections import Counter
from types import SimpleNamespace

import engine.service.service as service_module

from engine.service import GameService, reactions
from engine.service.service import LOG_TAIL
from tests.discord_harness import FakeDiscord, choose, open_panel
from tests.test_discord_game import ANN, BO, new_game, same_dice
from tests.test_service_play import new_game as service_game, play

MOVES = 24
MOST_BESIDES_COMMIT = 3


async def statements_per_move(fake: FakeDiscord, moves: int, seed: int) -> list[Counter]:
    """Play a new game's first `moves` random legal moves (fewer if it ends), each a player
    opening the panel and clicking a command: for each move, its statements by SQL ("game
    writes" for the commit) sent while the click was handled."""
    thread, game_id = await new_game(fake)
    rng, members = random.Random(seed), {int(ANN["id"]): ANN, int(BO["id"]): BO}
    counted: list[Counter] = []
    current: list[Counter] = []
    stop = fake.bot.service.db.watch(lambda told: current and current[0].update([told.sql or told.kind]))
    try:
        for _ in range(moves):
            info = await fake.bot.service.get(game_id)
            if info.status != "active":
                break
            member = members[info.awaited[0].user_id]
            _, commands = await fake.bot.service.legal_commands(game_id, int(member["id"]))
            panel = await open_panel(fake, member, thread)
            current.append(Counter())
            await choose(fake, member, panel, commands, rng.randrange(len(commands)))
            counted.append(current.pop())
    finally:
        stop()
    return counted


async def test_a_move_costs_its_commit_and_at_most_three_statements(monkeypatch, database_url):
    """Dice and choices from seed 104: among its moves are grace reminders (the costliest moves)
    and a move made through a page of grouped choices in a reaction window (two clicks)."""
    monkeypatch.setattr(service_module, "secrets", SimpleNamespace(randbits=lambda bits: 104))
    async with FakeDiscord(monkeypatch, database_url) as fake:
        moves = await statements_per_move(fake, MOVES, seed=104)
    assert len(moves) == MOVES
    assert all(move["game writes"] == 1 for move in moves)
    besides = [sum(move.values()) - move["game writes"] for move in moves]
    assert max(besides) <= MOST_BESIDES_COMMIT, [dict(m) for m in moves if sum(m.values()) - 1 > MOST_BESIDES_COMMIT]
    for move in moves:  # the players' settings and vacations once, the table record with them
        assert sum(n for sql, n in move.items() if "user_settings" in sql or "vacations" in sql) <= 1, move
        assert not any(sql.startswith("SELECT value FROM guild_settings") for sql in move), move
    reminders = [move for move in moves if any(sql.startswith("INSERT INTO reminders") for sql in move)]
    assert reminders  # the live player's grace reminder was among the moves counted (the costliest kind)


async def test_a_table_record_written_after_it_was_read_ahead_is_followed(monkeypatch, database_url):
    """Ruling P35: while a move is applied, the table record it read ahead is replaced (as the
    end of the previous move's table update would replace it); the move edits the message
    the new record names, not the one it read ahead."""
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, database_url) as fake:
        thread, game_id = await new_game(fake)
        service, key = fake.bot.service, f"table:{game_id}"
        guild = (await service.get(game_id)).guild_id
        read_ahead = service.read_ahead
        newer: dict = {}

        async def then_replaced(game, keys=()):
            await read_ahead(game, keys)  # what the move holds now: the record as it was
            await service.db.set_guild_setting(guild, key, json.dumps(newer))  # a newer one lands in the database
        monkeypatch.setattr(service, "read_ahead", then_replaced)
        rng, members, followed = random.Random(2), {int(ANN["id"]): ANN, int(BO["id"]): BO}, 0
        for _ in range(MOVES):
            info = await service.get(game_id)
            member = members[info.awaited[0].user_id]
            _, commands = await service.legal_commands(game_id, int(member["id"]))
            panel = await open_panel(fake, member, thread)
            record = await service.guild_setting(guild, key)
            shown = fake.messages[record["message"]]
            replacement = fake.post(thread, {"content": shown["content"], "components": shown["components"]})
            newer.clear()
            newer.update(record, message=int(replacement["id"]))
            await service.db.set_guild_setting(guild, key, json.dumps({**record, "version": record["version"] - 1}))
            before = len(fake.sent)
            await choose(fake, member, panel, commands, rng.randrange(len(commands)))
            edited = {s.message_id for s in fake.sent[before:] if s.method == "PATCH" and s.path.startswith("/channels/")}
            assert record["message"] not in edited
            followed += int(replacement["id"]) in edited
    assert followed  # some moves edited the table message rather than posting a fresh one


async def test_the_log_the_service_remembers_is_the_end_of_the_stored_log(tmp_path):
    """A re-roll's picture looks back in the service's memory of the newest log entries
    (GameService.recent_events): after every command of a random game, and after the game is
    dropped from memory and loaded again, that memory is exactly the stored log's end."""
    service = await GameService.open(str(tmp_path / "games.db"))
    try:
        game_id, update = await service_game(service)
        rng = random.Random(5)
        for step in range(60):
            updates = await play(service, game_id, update, 1, rng)
            if not updates:
                break
            update = updates[-1]
            if step == 30:
                service.reload(game_id)  # loaded again: nothing remembered until the next command
                assert await service.recent_events(game_id, lambda tail: tail == []) == []
                continue
            stored = [entry.events for entry in await service.log(game_id)]
            remembered = await service.recent_events(game_id, lambda tail: True)
            assert remembered and remembered == stored[-len(remembered):]
            assert len(remembered) <= LOG_TAIL
            assert await service.recent_events(game_id, lambda tail: False) == stored
    finally:
        await service.close()


async def test_within_one_interaction_settings_are_read_once_and_writes_are_seen(tmp_path):
    """Ruling P34 at the service: inside `reading_once` a user's settings are read once (with
    their vacations), a write is seen at once, a guild setting read ahead is not read again;
    outside it every read goes to the database."""
    service = await GameService.open(str(tmp_path / "games.db"))
    sent: list[str] = []
    service.db.watch(lambda told: sent.append(told.sql))
    try:
        await service.set_user_setting(1, "dm", True)
        await service.set_guild_setting(10, "stand_in", True)
        sent.clear()
        with service.reading_once():
            assert await service.user_setting(1, "dm") is True
            assert await service.user_setting(1, "digest") is None
            assert await service.reaction_preference(1) == reactions.DEFAULT
            assert len(sent) == 1 and "vacations" in sent[0]
            await service.set_user_setting(1, "dm", None)
            assert await service.user_setting(1, "dm") is None
            assert await service.guild_setting(10, "stand_in") is True
            assert await service.guild_setting(10, "stand_in") is True
            assert len(sent) == 3  # the read, the write, one guild read
        sent.clear()
        assert await service.user_setting(1, "dm") is None
        assert await service.user_setting(1, "dm") is None
        assert len(sent) == 2
    finally:
        await service.close()
