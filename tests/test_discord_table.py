"""The game's table message: edited within a decision, across a restart, replaced when deleted;
pictures kept within the server's upload limit."""
import random

from cogs import pictures
from tests.discord_harness import CHANNEL_ID, GUILD_ID, FakeDiscord
from tests.test_discord_game import MEMBERS, awaited, new_game, same_dice, table


async def restart(fake: FakeDiscord, game_id: int) -> None:
    """Stop the bot and start a new one over the same database."""
    await fake.shutdown()
    await fake.boot()


async def delete_table(fake: FakeDiscord, game_id: int) -> None:
    """Somebody deletes the game's table message."""
    fake.messages.pop((await table(fake, game_id))["message"])


async def play_until_kept(fake: FakeDiscord, game_id: int, thread: int, rng: random.Random,
                          before) -> tuple[dict, list]:
    """Typed random legal commands, each after `before(fake, game_id)`, until one leaves the same
    players awaited: the table record before it, and the requests to the thread it caused."""
    for _ in range(100):
        await before(fake, game_id)
        info, stored = await fake.bot.service.get(game_id), await table(fake, game_id)
        _, commands = await fake.bot.service.legal_commands(game_id, info.awaited[0].user_id)
        sent = len(fake.sent)
        await fake.dispatch(fake.slash(MEMBERS[info.awaited[0].user_id], "play", thread,
                                       command=rng.choice(commands)))
        if awaited(await fake.bot.service.get(game_id)) == awaited(info):
            return stored, [s for s in fake.sent[sent:] if s.path.startswith(f"/channels/{thread}/messages")]
    raise AssertionError("no action kept the same player awaited")


async def test_the_table_message_is_edited_after_a_restart_and_replaced_when_deleted(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id = await new_game(fake)
        rng = random.Random(3)
        stored, edited = await play_until_kept(fake, game_id, thread, rng, restart)
        assert [(r.method, r.message_id) for r in edited] == [("PATCH", stored["message"])]
        assert (await table(fake, game_id))["message"] == stored["message"]
        assert fake.messages[stored["message"]]["attachments"][0]["filename"] == "board.png"  # kept or replaced
        assert fake.messages[stored["message"]]["content"] == edited[0].json["content"]

        stored, replaced = await play_until_kept(fake, game_id, thread, rng, delete_table)
        assert [(r.method, r.message_id) for r in replaced][0] == ("PATCH", stored["message"])
        assert [r.method for r in replaced] == ["PATCH", "POST"]
        assert (await table(fake, game_id))["message"] == replaced[1].message_id != stored["message"]
        assert fake.in_channel(thread)[-1]["attachments"][0]["filename"] == "board.png"
        assert replaced[1].json["allowed_mentions"]["users"] == []  # no second ping for the same decision


def test_pictures_over_the_upload_limit_go_dice_first_then_board():
    drawn = [("board.png", b"b" * 10), ("dice.png", b"d" * 5)]
    assert pictures.within(drawn, 15) == drawn
    assert pictures.within(drawn, 14) == drawn[:1]
    assert pictures.within(drawn, 9) == []


async def test_the_upload_limit_is_the_servers_and_the_message_goes_out_without_pictures(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        assert pictures.upload_limit(fake.bot, GUILD_ID) == 10 << 20  # server not known yet: Discord's default
        fake.guild(premium_tier=2)
        assert pictures.upload_limit(fake.bot, GUILD_ID) == 50 << 20
        monkeypatch.setattr(pictures, "UPLOAD_LIMIT", 1)
        monkeypatch.setattr(fake.bot, "get_guild", lambda guild_id: None)
        thread, game_id = await new_game(fake)
        opening = fake.in_channel(thread)[-1]
        assert opening["attachments"] == [] and "<@2>" in opening["content"]


SEED = 1  # a deal whose beam-down roll goes to Ann after both core missions


async def _second_core_with_table_posts_failing(fake, monkeypatch, failures):
    """Ann and then Bo choose a core mission; Bo's answer hands the game to somebody newly
    awaited while the table posts fail as told. (thread, Bo's panel, users to be pinged)."""
    from engine.service import service as service_module
    from tests.discord_harness import choose, open_panel
    from tests.test_discord_game import ANN, BO
    monkeypatch.setattr(service_module.secrets, "randbits", lambda bits: SEED)
    thread, game_id = await new_game(fake)
    for member, user_id in ((ANN, 1), (BO, 2)):
        version, commands = await fake.bot.service.legal_commands(game_id, user_id)
        panel = await open_panel(fake, member, thread)
        if user_id == 2:
            fake.bot.last_acted.clear()  # Ann answered long ago, not live: she is pinged at once
            for pattern, status, times in failures:
                fake.fail("POST", pattern.format(thread=thread), status, times)
        await choose(fake, member, panel, commands, 0)
    info = await fake.bot.service.get(game_id)
    assert info.version == version + 1  # the move is stored regardless
    newly = {t.user_id for t in info.awaited} - {2}
    assert newly, "somebody other than Bo should be awaited next"
    return thread, fake.messages[int(panel["id"])], newly


async def test_a_table_post_that_fails_once_is_tried_again(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, panel, newly = await _second_core_with_table_posts_failing(
            fake, monkeypatch, [(r"/channels/{thread}/messages", 503, 1)])
        latest = fake.in_channel(thread)[-1]
        # the call (a fresh table message, or a ping beside the edited one) went out the second time
        assert "game #" in latest["content"].lower() and all(f"<@{u}>" in latest["content"] for u in newly)
        assert panel["content"].startswith("Done:") and "stored, but" not in panel["content"]


async def test_a_thread_that_refuses_the_table_falls_back_to_the_channel(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, panel, newly = await _second_core_with_table_posts_failing(
            fake, monkeypatch, [(r"/channels/{thread}/messages", 403, None)])
        moved = fake.in_channel(CHANNEL_ID)[-1]
        assert "thread could not be reached" in moved["content"] and all(f"<@{u}>" in moved["content"] for u in newly)
        assert panel["content"].startswith("Done:") and "stored, but" not in panel["content"]


async def test_when_no_table_can_be_posted_the_actor_is_told_privately(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, panel, newly = await _second_core_with_table_posts_failing(
            fake, monkeypatch, [(r"/channels/{thread}/messages", 500, None), (rf"/channels/{CHANNEL_ID}/messages", 500, None)])
        assert panel["content"].startswith("Done:")
        assert "Your move is stored" in panel["content"] and "Ann" in panel["content"]


def test_a_new_turn_drops_both_dice_boards_and_a_surface_nobody_is_on():
    """P37: the kept attachments of an edited table message (named again, not uploaded)."""
    from types import SimpleNamespace

    from cogs.table_message import _kept_pictures
    files = {name: {"id": str(n), "filename": name, "size": 1, "url": f"https://cdn.example/{name}",
                    "proxy_url": f"https://cdn.example/{name}"}
             for n, name in enumerate(("board.png", "surface.png", "dice.png", "crew-dice.png"))}
    bot = SimpleNamespace(_connection=SimpleNamespace(http=None))

    def kept(drawn, same_turn, gone=()):
        return [a.filename for a in _kept_pictures(bot, {"files": files}, drawn, same_turn, gone)]
    assert kept([], same_turn=True) == ["board.png", "surface.png", "dice.png", "crew-dice.png"]
    assert kept([], same_turn=False) == ["board.png", "surface.png"]
    assert kept([("board.png", b"new")], same_turn=False, gone={"surface.png"}) == []
    assert kept([("dice.png", b"new")], same_turn=True) == ["board.png", "surface.png", "crew-dice.png"]
