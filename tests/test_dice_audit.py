"""Dice seals and `replay --verify` (issue 14 item 8): a sealed game verifies; a tampered
roll, a wrong seed or a wrong salt fail loudly, naming what is wrong."""
import json
import random
import shutil
import sqlite3

import pytest

from engine.service import GameService, audit, replay, rules_version
from engine.service.players import PlayerDesk
from engine.service.rulesets import AWAY_MISSIONS
from tests.test_discord_dice import tamper_a_roll
from tests.test_replay import BORG, FED, tamper


@pytest.fixture
async def sealed(tmp_path):
    """A sealed game played until some dice were rolled, then conceded: (path, game id)."""
    path = str(tmp_path / "games.db")
    service = await GameService.open(path)
    desk = PlayerDesk(service.db)
    game = await service.create(creator=1, channel_id=5, guild_id=9, seed=1234567890123)
    await service.join(game.id, 1, "Ann", **FED)
    await service.join(game.id, 2, "Bo", **BORG)
    for user in (1, 2):  # every window answered by a command of the script (P23)
        await service.set_reaction_preference(user, "every")
    await desk.seal(game.id)
    update = await service.start(game.id, 1)
    rng = random.Random(7)
    rolls = 0
    while rolls < 3:
        assert update.status == "active" and update.awaited, update
        user = {"p1": 1, "p2": 2}[update.awaited[0].seat]
        version, commands = await service.legal_commands(game.id, user)
        update = await service.submit(game.id, user, rng.choice(commands), version)
        rolls += any(e["type"] == "rolled" for e in update.events)
    await service.concede(game.id, 2)
    await service.close()
    return path, game.id


def test_a_sealed_game_verifies(sealed, capsys):
    path, game_id = sealed
    assert replay.main([path, str(game_id), "--verify"]) == 0
    out = capsys.readouterr().out
    assert f"game #{game_id}: dice VERIFIED (seal OK; " in out and "rolls in" in out


def test_a_tampered_roll_fails_loudly_though_the_state_still_rebuilds(sealed, capsys):
    path, game_id = sealed
    moved = tamper_a_roll(path, game_id)
    assert replay.main([path, str(game_id)]) == 0  # the plain replay only compares the final state
    capsys.readouterr()
    assert replay.main([path, str(game_id), "--verify"]) == 1
    out = capsys.readouterr().out
    assert "DICE VERIFICATION FAILED" in out and f"move {moved} " in out and "the seed gives rolled" in out


@pytest.mark.parametrize("damage, problem", [
    ("UPDATE games SET seed = seed + 1", "does not match the seal"),
    # the salt is random: one time in 256 it starts with 00 already
    ("UPDATE dice_seals SET salt = CASE WHEN salt LIKE '00%' THEN 'ff' ELSE '00' END || substr(salt, 3)",
     "does not match the seal"),
])
def test_a_wrong_seed_or_salt_fails_loudly(sealed, capsys, damage, problem):
    path, game_id = sealed
    tamper(path, damage)
    assert replay.main([path, str(game_id), "--verify"]) == 1
    out = capsys.readouterr().out
    assert "DICE VERIFICATION FAILED" in out and problem in out


def test_verify_of_a_claimed_wrong_seed_names_the_first_roll_it_gets_wrong(config):
    state = AWAY_MISSIONS.new_game(config, 11)
    rng, log = random.Random(2), []
    while not any(e["type"] in AWAY_MISSIONS.dice_events for _, _, _, events in log for e in json.loads(events)):
        seat = AWAY_MISSIONS.awaited(state)[0]
        command = rng.choice(AWAY_MISSIONS.legal_commands(state, seat))
        state, events = AWAY_MISSIONS.apply(state, seat, command)
        log.append((len(log) + 1, seat, command, json.dumps(events)))
    stored = AWAY_MISSIONS.to_json(state).decode()
    salt = audit.new_salt()
    good = audit.verify(AWAY_MISSIONS, config, 11, log, stored, salt=salt, digest=audit.seal(11, salt))
    assert good.ok and good.commands == len(log) and good.rolls >= 1
    wrong = audit.verify(AWAY_MISSIONS, config, 12, log, stored, salt=salt, digest=audit.seal(11, salt))
    assert not wrong.ok and "does not match the seal" in wrong.problems[0]
    assert len(wrong.problems) == 2 and wrong.problems[1].startswith("move ")


def test_the_seal_is_sha256_of_salt_and_seed():
    import hashlib
    assert audit.seal(42, "ab") == hashlib.sha256(b"ab:42").hexdigest()
    assert len(audit.new_salt()) == 32 and audit.new_salt() != audit.new_salt()


def test_a_taken_back_move_verifies_and_a_take_back_cannot_carry_dice(config):
    from engine.service.replay import TAKE_BACK, taken_back
    state = AWAY_MISSIONS.new_game(config, 11)
    rng, log, took_back = random.Random(2), [], False
    while not took_back or not any(e["type"] == "rolled" for *_, events in log for e in json.loads(events)):
        seat = AWAY_MISSIONS.awaited(state)[0]
        legal = AWAY_MISSIONS.legal_commands(state, seat)
        moves = [c for c in legal if c.startswith("move ")]
        command = moves[0] if moves and not took_back else rng.choice(legal)
        before = state
        state, events = AWAY_MISSIONS.apply(state, seat, command)
        log.append((len(log) + 1, seat, command, json.dumps(events)))
        if moves and not took_back:
            state, took_back = taken_back(before, state.version + 1), True
            log.append((len(log) + 1, "p1" if seat == "p2" else "p2", TAKE_BACK, json.dumps([{"type": "taken_back"}])))
    stored = AWAY_MISSIONS.to_json(state).decode()
    verdict = audit.verify(AWAY_MISSIONS, config, 11, log, stored)
    assert verdict.ok, verdict.problems
    at = next(n for n, entry in enumerate(log) if entry[2] == TAKE_BACK)
    forged = log[:at] + [(*log[at][:3], json.dumps([{"type": "rolled", "dice": [6]}]))] + log[at + 1:]
    assert "dice were rolled by a take-back" in audit.verify(AWAY_MISSIONS, config, 11, forged, stored).problems[0]


# --- the rules version a game started under ------------------------------------------------------
def test_a_started_game_records_the_version_of_its_rules_and_cards(sealed):
    path, game_id = sealed
    conn = sqlite3.connect(path)
    config = json.loads(conn.execute("SELECT config FROM games WHERE id = ?", (game_id,)).fetchone()[0])
    conn.close()
    assert config["rules"] == rules_version.of(AWAY_MISSIONS, config)
    assert len(config["rules"]) == 12


def test_the_version_follows_the_cards_of_the_pack(tmp_path):
    same, changed = tmp_path / "same", tmp_path / "changed"
    shutil.copytree("content/starter", same)
    shutil.copytree("content/starter", changed)
    card_file = next(p for p in sorted(changed.rglob("*.yaml")))
    card_file.write_text(card_file.read_text() + "\n# one more line\n")
    assert rules_version.of(AWAY_MISSIONS, {"pack": str(same)}) == rules_version.of(AWAY_MISSIONS, {})
    assert rules_version.of(AWAY_MISSIONS, {"pack": str(changed)}) != rules_version.of(AWAY_MISSIONS, {})


def set_rules(path, game_id, version):
    conn = sqlite3.connect(path)
    config = json.loads(conn.execute("SELECT config FROM games WHERE id = ?", (game_id,)).fetchone()[0])
    if version is None:
        config.pop("rules")
    else:
        config["rules"] = version
    conn.execute("UPDATE games SET config = ? WHERE id = ?", (json.dumps(config), game_id))
    conn.commit()
    conn.close()


@pytest.mark.parametrize("played, said", [
    ("000000000000", "played under rules version 000000000000 and this bot now runs"),
    (None, "played before this bot recorded the version of its rules and cards"),
])
def test_a_replay_that_differs_under_changed_rules_is_not_called_tampering(sealed, capsys, played, said):
    path, game_id = sealed
    moved = tamper_a_roll(path, game_id)  # stands in for a roll the older rules gave differently
    set_rules(path, game_id, played)
    assert replay.main([path, str(game_id), "--verify"]) == 1
    out = capsys.readouterr().out
    assert "dice NOT VERIFIABLE today" in out and said in out and f"move {moved} " in out
    assert "FAILED" not in out


def test_a_broken_seal_fails_loudly_whatever_the_rules_version(sealed, capsys):
    path, game_id = sealed
    set_rules(path, game_id, "000000000000")
    tamper(path, "UPDATE games SET seed = seed + 1")
    assert replay.main([path, str(game_id), "--verify"]) == 1
    assert "DICE VERIFICATION FAILED" in capsys.readouterr().out
