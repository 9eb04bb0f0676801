"""Replay: a stored game rebuilds from seed and log to exactly its stored state."""
import asyncio
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


# --- a game stored before `assimilated_by` existed (R92) ------------------------------------
def _hunting(state, rng):
    """(seat, command): the Borg take Assimilation Quota, close in on non-Borg characters and
    assimilate them; the others neither move nor attack; anything else is chosen at random."""
    from engine.awaymissions import rules
    seat = rules.awaited(state)[0]
    commands = rules.legal_commands(state, seat)
    wanted = [c for c in commands if c == "core borg-core-assimilation-quota"]
    if state.player(seat).affiliation != "borg":
        wanted = wanted or [c for c in commands if not c.startswith(("attack", "move"))]
    else:
        wanted = wanted or [c for c in commands if c.endswith(" tubules")]
        prey = [c.space for c in state.characters.values() if c.in_play and not c.is_borg]
        moves = [c for c in commands if c.startswith("move ")]
        if not wanted and moves and prey:
            at = lambda space: (ord(space[0]), int(space[1:]))
            apart = {c: min(abs(at(c.split()[2])[0] - x) + abs(at(c.split()[2])[1] - y) for x, y in map(at, prey))
                     for c in moves}
            wanted = [c for c in moves if apart[c] == min(apart.values())]
    return seat, rng.choice(wanted or commands)


def _as_stored_before_assimilated_by(path, game_id):
    """Rewrite the stored state in the shape it had before `assimilated_by` existed."""
    import json
    conn = sqlite3.connect(path)
    state = json.loads(conn.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()[0])
    dropped = [c.pop("assimilated_by") for c in state["characters"].values() if "assimilated_by" in c]
    conn.execute("UPDATE games SET state = ? WHERE id = ?", (json.dumps(state, separators=(",", ":")), game_id))
    conn.commit()
    conn.close()
    return dropped


async def _first_game_with_an_assimilation(service):
    """A four-player game (p2 and p4 Borg) started in `service` whose hunting play sees an
    assimilation: (game id, its commands, how many precede the first drone's placing, the
    final state those commands give on the running engine)."""
    import json
    from engine.awaymissions import rules
    for seed in range(1, 21):
        game = await service.create(creator=1, channel_id=seed, seed=seed, options={"seats": 4, "layout": "six"})
        for user, name, side in [(1, "Ann", FED), (2, "Bo", BORG), (3, "Cy", FED), (4, "Di", BORG)]:
            await service.join(game.id, user, name, **side)
        for user in (1, 2, 3, 4):  # every window answered by a command of the script (P23)
            await service.set_reaction_preference(user, "every")
        await service.start(game.id, 1)
        row = await service.db.game(game.id)
        state, rng, commands, first = rules.new_game(json.loads(row.config), row.seed), random.Random(seed), [], None
        while state.phase != "over":
            seat, command = _hunting(state, rng)
            state, _ = rules.apply(state, seat, command)
            commands.append((seat, command))
            if first is None and any(c.assimilated and c.in_play for c in state.characters.values()):
                first = len(commands)
        if first is not None:
            return game.id, commands, first, state
        await service.abort(game.id, 1)
    raise AssertionError("no game of 20 deals saw an assimilation")


async def _play(service, game_id, moves):
    users = {"p1": 1, "p2": 2, "p3": 3, "p4": 4}
    for seat, command in moves:
        version, _ = await service.legal_commands(game_id, users[seat])
        await service.submit(game_id, users[seat], command, version)


async def test_a_game_stored_before_assimilated_by_scores_as_before_and_replays(tmp_path, capsys):
    """Four players, two of them Borg on Assimilation Quota: the game is stored without
    `assimilated_by` after its first assimilation, then loaded by a new service and played
    to the end; it scores exactly what the same commands score on an engine that never
    lost the field, and the replay check and the dice audit still pass (R92)."""
    import json
    path = str(tmp_path / "games.db")
    service = await GameService.open(path)
    try:
        game_id, commands, first, final = await _first_game_with_an_assimilation(service)
        await _play(service, game_id, commands[:first])
    finally:
        await service.close()
    assimilators = {c.assimilated_by for c in final.characters.values() if c.assimilated}
    assert all(final.result["scores"][seat] >= 2 for seat in assimilators)  # each scored its assimilations
    assert _as_stored_before_assimilated_by(path, game_id)
    assert await asyncio.to_thread(replay.main, [path, str(game_id), "--verify"]) == 0
    out = capsys.readouterr().out
    assert "replay OK" in out and "dice VERIFIED" in out
    service = await GameService.open(path)
    try:
        await _play(service, game_id, commands[first:])
        stored = await service.db.game(game_id)
    finally:
        await service.close()
    assert json.loads(stored.result) == final.result
