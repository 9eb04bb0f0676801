"""Taking back an action with the other player's consent (R42): only when no die was
rolled and no hidden card shown or drawn; the log keeps the action and the take-back,
and replay rebuilds it."""
import pytest

from db import Database
from engine.service import GameService, NotAllowed
from engine.service import replay
from tests.discord_harness import EPHEMERAL, FakeDiscord, choose, open_panel
from tests.test_discord_game import MEMBERS, new_game, same_dice
from tests.test_discord_panel import first_action, play_until
from tests.test_replay import tamper


async def replays(fake, game_id) -> bool:
    database = await Database.open(fake.database)
    try:
        return replay.check(await database.game(game_id), await database.log(game_id)).ok
    finally:
        await database.close()


async def at_first_action(fake):
    """A new game played until someone is to take the first action of an activation:
    (thread, game id, that user, version, legal commands)."""
    thread, game_id = await new_game(fake)
    return (thread, game_id, *await play_until(fake.bot.service, game_id, first_action))


async def test_a_move_is_taken_back_when_the_other_player_agrees(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id, user, version, commands = await at_first_action(fake)
        service = fake.bot.service
        other = 3 - user
        before = await service.view(game_id, user)
        panel = await open_panel(fake, MEMBERS[user], thread)
        move = next(i for i, c in enumerate(commands) if c.startswith("move "))
        await choose(fake, MEMBERS[user], panel, commands, move)
        followed = fake.messages[int(panel["id"])]
        ask = f"rr:takeback:{game_id}:{version + 1}"
        assert ask in [c["custom_id"] for c in fake.components(followed)]

        await fake.dispatch(fake.click(MEMBERS[user], int(panel["id"]), ask))
        request = fake.in_channel(thread)[-1]
        assert f"<@{other}>, do you agree?" in request["content"] and "moves" in request["content"]
        assert not request["flags"] & EPHEMERAL
        own = fake.click(MEMBERS[user], int(request["id"]), f"{ask}:yes")
        await fake.dispatch(own)
        assert "Another player must agree" in fake.sent[-1].json["content"]
        await fake.dispatch(fake.click(MEMBERS[other], int(request["id"]), f"{ask}:no"))
        assert "refused: the action stands" in fake.messages[int(request["id"])]["content"]
        assert (await service.get(game_id)).version == version + 1

        await fake.dispatch(fake.click(MEMBERS[user], int(panel["id"]), ask))
        request = fake.in_channel(thread)[-1]
        await fake.dispatch(fake.click(MEMBERS[other], int(request["id"]), f"{ask}:yes"))
        assert "agreed: taken back" in fake.messages[int(request["id"])]["content"]
        after = await service.view(game_id, user)
        assert after.pop("version") == version + 2
        before.pop("version")
        assert after == before, "the game is exactly as before the move"
        log = await service.log(game_id)
        assert [e.command for e in log[-2:]] == [commands[move], "take back"]
        assert any("takes back" in m["content"] for m in fake.in_channel(thread)), "the table says so"
        assert await replays(fake, game_id)
        assert [t.user_id for t in (await service.get(game_id)).awaited] == [user]


@pytest.mark.parametrize("what", ["attack", "draw"])
async def test_an_action_that_rolled_or_drew_cannot_be_taken_back(monkeypatch, tmp_path, what):
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id = await new_game(fake)
        service = fake.bot.service
        user, version, commands = await play_until(
            service, game_id, lambda view, c: view["pending"][0]["kind"] == "action" and any(
                x.split()[0] == what for x in c))
        index = next(i for i, c in enumerate(commands) if c.split()[0] == what)
        panel = await open_panel(fake, MEMBERS[user], thread)
        await choose(fake, MEMBERS[user], panel, commands, index)
        shown = fake.messages[int(panel["id"])]
        assert not any(c["custom_id"].startswith("rr:takeback:") for c in fake.components(shown))
        log = await service.log(game_id)
        assert log[-1].command == commands[index]
        latest = (await service.get(game_id)).version
        with pytest.raises(NotAllowed, match="rolled dice or showed or drew a card"):
            await service.take_back(game_id, 3 - user, latest)
        assert (await service.get(game_id)).version == latest


async def test_a_take_back_is_refused_once_the_game_moved_on_or_twice(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        _, game_id, user, version, commands = await at_first_action(fake)
        service = fake.bot.service
        move = next(c for c in commands if c.startswith("move "))
        await service.submit(game_id, user, move, version)
        with pytest.raises(Exception, match="moved on"):
            await service.take_back(game_id, 3 - user, version)
        await service.take_back(game_id, 3 - user, version + 1)
        with pytest.raises(NotAllowed, match="no action to take back"):
            await service.take_back(game_id, 3 - user, version + 2)


async def test_a_game_whose_log_no_longer_rebuilds_keeps_its_last_action(monkeypatch, tmp_path):
    """A game dealt under older rules or cards cannot have its earlier state rebuilt exactly,
    so its last action stands (a different seed stands in for the older cards here)."""
    same_dice(monkeypatch)
    path = str(tmp_path / "g.db")
    async with FakeDiscord(monkeypatch, path) as fake:
        _, game_id, user, version, commands = await at_first_action(fake)
        move = next(c for c in commands if c.startswith("move "))
        await fake.bot.service.submit(game_id, user, move, version)
    tamper(path, "UPDATE games SET seed = seed + 1")
    service = await GameService.open(path)
    try:
        with pytest.raises(NotAllowed, match="earlier version of the rules or cards"):
            await service.take_back(game_id, 3 - user, version + 1)
        assert (await service.get(game_id)).version == version + 1
        assert [e.command for e in await service.log(game_id)][-1] == move
    finally:
        await service.close()
