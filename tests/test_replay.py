"""Replay: a stored game rebuilds from seed and log to exactly its stored state."""
import random
import sqlite3

import pytest

from engine.service import replay
from engine.service import GameService

FED = dict(affiliation="federation", team="federation-away-team", deck="federation-starter")
BORG = dict(affiliation="borg", team="borg-away-team", deck="borg-starter")


@pytest.fixture
async def played(tmp_path):
    """A database with one game 60 commands in; returns (path, game id)."""
    path = str(tmp_path / "games.db")
    service = await GameService.open(path)
    game = await service.create(creator=1, channel_id=5, seed=99)
    await service.join(game.id, 1, "Ann", **FED)
    await service.join(game.id, 2, "Bo", **BORG)
    for user in (1, 2):  # every window answered by a command of the script (P23)
        await service.set_reaction_preference(user, "every")
    update = await service.start(game.id, 1)
    rng = random.Random(99)
    for _ in range(60):
        user = {"p1": 1, "p2": 2}[update.awaited[0].seat]
        version, commands = await service.legal_commands(game.id, user)
        update = await service.submit(game.id, user, rng.choice(commands), version)
    await service.close()
    return path, game.id


def tamper(path, sql, *args):
    conn = sqlite3.connect(path)
    conn.execute(sql, args)
    conn.commit()
    conn.close()


def test_a_stored_game_replays_exactly_and_prints_its_log(played, capsys):
    path, game_id = played
    assert replay.main([path, str(game_id), "--log"]) == 0
    out = capsys.readouterr().out
    assert f"game #{game_id}: replay OK (version 60, 60 commands)" in out
    assert "    1  Ann (p1): " in out and "   60  " in out
    assert "You drew" not in out


def test_secrets_are_printed_only_when_asked(played, capsys):
    path, game_id = played
    replay.main([path, "--log", "--secrets"])
    assert "] You drew: " in capsys.readouterr().out


@pytest.mark.parametrize("damage, problem", [
    ("UPDATE log SET command = 'nonsense' WHERE seq = 40", "refused"),
    ("DELETE FROM log WHERE seq = 30", "gaps"),
    ("UPDATE games SET seed = seed + 1", ""),
    ("UPDATE games SET state = replace(state, '\"round\":', '\"round\":1')", "differs"),
])
def test_a_game_that_does_not_rebuild_is_reported(played, capsys, damage, problem):
    path, game_id = played
    tamper(path, damage)
    assert replay.main([path, str(game_id)]) == 1
    out = capsys.readouterr().out
    assert "REPLAY MISMATCH" in out and problem in out


@pytest.mark.parametrize("rules, said", [
    ('"000000000000"', "played under rules version 000000000000, now "),
    (None, "predates the record of its rules version"),
])
def test_a_mismatch_says_when_the_game_started_under_other_rules(played, capsys, rules, said):
    path, game_id = played
    tamper(path, "UPDATE games SET state = replace(state, '\"round\":', '\"round\":1')")
    tamper(path, "UPDATE games SET config = json_remove(config, '$.rules')" if rules is None else
           f"UPDATE games SET config = json_set(config, '$.rules', json('{rules}'))")
    assert replay.main([path, str(game_id)]) == 1
    assert said in capsys.readouterr().out


def test_a_mismatch_under_the_running_rules_adds_no_note(played, capsys):
    path, game_id = played
    tamper(path, "UPDATE games SET state = replace(state, '\"round\":', '\"round\":1')")
    assert replay.main([path, str(game_id)]) == 1
    out = capsys.readouterr().out
    assert "differs from the stored one" in out and "rules version" not in out


def test_unknown_game_fails_the_check(played, capsys):
    path, _ = played
    assert replay.main([path, "777"]) == 1
    assert "no such game" in capsys.readouterr().out


def test_a_missing_database_is_an_error_and_is_not_created(tmp_path, capsys):
    path = tmp_path / "nowhere.db"
    assert replay.main([str(path)]) == 2
    assert "no such database file" in capsys.readouterr().err
    assert not path.exists()


def _corrupt(path):
    """Overwrite the middle of the file's last pages, leaving the header readable."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with open(path, "r+b") as handle:
        handle.seek(0, 2)
        size = handle.tell()
        for start in range(2 * page, size, page):
            handle.seek(start + 100)
            handle.write(b"\xa5" * (page // 2))


def test_a_damaged_database_is_reported_before_any_game_is_called_ok(played, capsys):
    path, game_id = played
    _corrupt(path)
    assert replay.main([path]) == 1
    captured = capsys.readouterr()
    assert "DAMAGED" in captured.err
    assert "replay OK" not in captured.out
