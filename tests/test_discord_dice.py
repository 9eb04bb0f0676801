"""Auditable dice (issue 14 item 8) through the fake Discord: the seal at the start, nothing
of the seed in any message while the game is played, the reveal and Verify dice at the end,
and a loud failure on a tampered log."""
import json
import random
import sqlite3

from types import SimpleNamespace

import pytest

import engine.service.service as service_module

from db.player_store import PlayerStore
from engine.service import NotAllowed, audit
from engine.awaymissions.state import from_json
from tests.discord_harness import EPHEMERAL, FakeDiscord, choose, open_panel, thread_of
from tests.test_discord_game import ANN, BO, MEMBERS, new_game

SEED = 1234567890123  # long enough that its digits turn up nowhere by chance


def same_dice(monkeypatch) -> None:
    """Every new game gets the dice seed SEED, so the test plays the same game each run."""
    monkeypatch.setattr(service_module, "secrets", SimpleNamespace(randbits=lambda bits: SEED))


async def play_until_dice(fake, thread, game_id, least_rolls=2, most=200):
    """Random legal answers through the panel (and /game status, /game log now and then)
    until at least `least_rolls` rolls are in the log."""
    rng = random.Random(3)
    for user in MEMBERS:  # every window answered by a click of the script (P23)
        await fake.bot.service.set_reaction_preference(user, "every")
    for step in range(most):
        log = await fake.bot.service.log(game_id)
        if sum(1 for e in log for ev in json.loads(e.events) if ev["type"] == "rolled") >= least_rolls:
            return
        info = await fake.bot.service.get(game_id)
        assert info.status == "active", (info.status, info.result, step)
        member = MEMBERS[info.awaited[0].user_id]
        _, commands = await fake.bot.service.legal_commands(game_id, info.awaited[0].user_id)
        await choose(fake, member, await open_panel(fake, member, thread), commands, rng.randrange(len(commands)))
        if step % 10 == 0:
            await fake.dispatch(fake.slash(member, "game status", thread), fake.slash(member, "game log", thread))
    pytest.fail("no dice were rolled")


def secrets_of(row, seal, state_text):
    """The words that would give the dice away: the seed, the salt, the generator's state."""
    return {str(row.seed), seal.salt, str(from_json(state_text).dice.state)}


def tamper_a_roll(path, game_id) -> int:
    """Change one face of the first logged roll (only the log, not the state); its move number."""
    conn = sqlite3.connect(path)
    for seq, events in conn.execute("SELECT seq, events FROM log WHERE game_id = ? ORDER BY seq", (game_id,)):
        events = json.loads(events)
        roll = next((e for e in events if e["type"] == "rolled"), None)
        if roll is not None:
            roll["dice"][0] = roll["dice"][0] % 6 + 1
            conn.execute("UPDATE log SET events = ? WHERE game_id = ? AND seq = ?", (json.dumps(events), game_id, seq))
            conn.commit()
            conn.close()
            return seq
    raise AssertionError("no roll in the log")


async def test_the_seal_is_shown_at_the_start_the_seed_stays_secret_and_verify_proves_the_rolls(monkeypatch, tmp_path):
    path = str(tmp_path / "g.db")
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, path) as fake:
        thread, game_id = await new_game(fake)
        store = PlayerStore(fake.bot.service.db)
        row, seal = await fake.bot.service.db.game(game_id), await store.seal(game_id)
        lobby = fake.in_channel(thread)[0]
        assert f"Dice seal: `{seal.digest}`" in lobby["content"]
        assert seal.digest == audit.seal(row.seed, seal.salt)
        status = fake.slash(BO, "game status", thread)
        await fake.dispatch(status)
        assert f"Dice seal: `{seal.digest}`" in fake.original(status)["content"]
        await play_until_dice(fake, thread, game_id)
        with pytest.raises(NotAllowed, match="secret until the game ends"):
            await fake.bot.get_cog("Players").desk.verify(game_id)
        row = await fake.bot.service.db.game(game_id)
        hidden = secrets_of(row, seal, row.state)
        # nothing anyone was sent (public or private), no view and no event carries the seed
        for request in fake.sent:
            assert not any(word in request.text for word in hidden), request.text[:300]
        for user_id in (None, 1, 2):
            view = json.dumps(await fake.bot.service.view(game_id, user_id))
            assert "seed" not in view and not any(word in view for word in hidden)
        for entry in await fake.bot.service.log(game_id):
            assert not any(word in entry.events for word in hidden)
        # the end: Bo concedes; on the clock the seed is revealed with a Verify dice button
        await fake.dispatch(fake.slash(BO, "game concede", thread))
        players = fake.bot.get_cog("Players")
        assert await fake.run(players.settle()) == [1]
        reveal = fake.in_channel(thread)[-1]
        assert f"Seed `{row.seed}`, salt `{seal.salt}`" in reveal["content"] and seal.digest in reveal["content"]
        assert await fake.run(players.settle()) == [0]  # revealed once
        press = fake.click(ANN, int(reveal["id"]), f"rr:dice:{game_id}")
        await fake.dispatch(press)
        answer = fake.original(press)
        assert answer["flags"] & EPHEMERAL and answer["content"].startswith("Verified:"), answer["content"]
        # a tampered log fails loudly, also after a restart (the button is a dynamic item)
        moved = tamper_a_roll(path, game_id)
        await fake.shutdown()
        await fake.boot()
        press = fake.click(BO, int(reveal["id"]), f"rr:dice:{game_id}")
        await fake.dispatch(press)
        failed = fake.original(press)["content"]
        assert failed.startswith("**VERIFICATION FAILED**") and f"move {moved} " in failed, failed


async def test_an_aborted_game_is_revealed_too_and_an_unsealed_one_says_so(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id = await new_game(fake)
        await fake.dispatch(fake.slash(ANN, "game abort", thread))
        assert await fake.run(fake.bot.get_cog("Players").settle()) == [1]
        assert "its dice can be checked" in fake.in_channel(thread)[-1]["content"]
        # Start pressed too early seals the lobby, but a game never dealt has no dice to reveal
        await fake.dispatch(fake.slash(ANN, "game new"))
        lobby = fake.in_channel(thread_of(fake))[-1]
        start = next(c["custom_id"] for c in fake.components(lobby) if c["custom_id"].startswith("rr:start:"))
        await fake.dispatch(fake.click(ANN, int(lobby["id"]), start))
        assert await PlayerStore(fake.bot.service.db).seal(int(start.split(":")[2])) is not None
        await fake.dispatch(fake.slash(ANN, "game abort", thread_of(fake)))
        assert await fake.run(fake.bot.get_cog("Players").settle()) == [0]
        # a game from before seals (or never started through Discord) has nothing to check against
        service = fake.bot.service
        info = await service.create(creator=1, channel_id=5)
        await service.abort(info.id, 1)
        with pytest.raises(Exception, match="was not sealed"):
            await fake.bot.get_cog("Players").desk.reveal(info.id)
