"""Table pictures through Discord: a board or dice board picture the game's thread already
shows is neither drawn nor uploaded again (issue 27): the table message keeps its attachment."""
import dataclasses
import json
import random
from collections import Counter

from engine.service.text import public_events
from images import pictures
from images.style import encode
from tests.discord_harness import FakeDiscord, choose, open_panel
from tests.test_discord_game import MEMBERS, PlayByPost, new_game, same_dice, table
from tests.test_discord_renegades import act, new_renegades_game

DICE_SEED = 5  # the random answers of the dice board test: passes that keep and close windows early on


def counted(renderers: pictures.Renderers, drawn: Counter) -> pictures.Renderers:
    """The same renderers, counting each board picture they draw."""
    def board(view, events, waiting):
        drawn["board.png"] += 1
        return renderers.board(view, events, waiting)

    def planet(view, events):
        found = renderers.planet(view, events)
        drawn["surface.png"] += found is not None
        return found
    return dataclasses.replace(renderers, board=board, planet=planet)


async def test_a_board_picture_that_did_not_change_is_not_drawn_or_uploaded_again(monkeypatch, tmp_path):
    """The quicker Renegades game, with the crew down on the planet: while they act there the
    orbit mostly stays as it was, and the surface too at times (a figure's attack draws
    nothing new). Each action's table request uploads a board picture exactly when it
    differs from the one the thread last got; one left out is the same picture, byte for
    byte, and the edited message still carries it (its attachment named, not sent again)."""
    same_dice(monkeypatch)
    original = pictures.RENDERERS["renegades"]
    drawn = Counter()
    monkeypatch.setitem(pictures.RENDERERS, "renegades", counted(original, drawn))
    clock = PlayByPost()
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db"), clock=clock) as fake:
        now: dict[int, dict[str, bytes]] = {}  # version -> the board pictures as they would be drawn then

        async def on_table_update(update, actor_id):
            view = await fake.bot.service.view(update.game_id)
            planet = original.planet(view, update.events)
            now[update.version] = {"board.png": encode(original.board(view, update.events, False)),
                                   **({"surface.png": encode(planet)} if planet is not None else {})}
        fake.bot.add_listener(on_table_update)
        thread, game_id = await new_renegades_game(fake)
        last = {name: data for r in fake.sent if r.channel_id == thread for name, data in r.files}  # the newest
        drawn.clear()  # the opening board
        uploads, left_alone, rng = Counter(), Counter(), random.Random(3)
        for _ in range(60):
            if (await fake.bot.service.get(game_id)).status != "active":
                break
            action = await act(fake, game_id, thread, rng)
            version = (await fake.bot.service.get(game_id)).version
            sent = dict(action.table.files)
            for name, picture in now.get(version, {}).items():
                if name in sent:
                    assert sent[name] == picture
                    uploads[name] += 1
                    last[name] = picture
                elif action.table.method == "PATCH":  # not again: the same picture, still on the message
                    assert last[name] == picture, f"{name} changed at version {version} but was not uploaded"
                    message = fake.messages[action.table.message_id]
                    assert name in [a["filename"] for a in message["attachments"]]
                    kept = {str(a["id"]) for a in action.table.json.get("attachments") or [] if "id" in a}
                    assert any(a["filename"] == name and a["id"] in kept for a in message["attachments"]) or \
                        "attachments" not in action.table.json
                    left_alone[name] += 1
                else:  # a fresh message below one that shows the same picture
                    assert last[name] == picture
                    left_alone[name] += 1
            clock.now += clock.between_moves
        assert left_alone["board.png"] >= 5 and left_alone["surface.png"] >= 1, left_alone
        assert uploads["board.png"] >= 3 and uploads["surface.png"] >= 3, uploads
        assert drawn == uploads, "a picture is drawn only to be uploaded"
        stored = await table(fake, game_id)
        assert stored is None or set(stored["shown"]) <= {*pictures.BOARD_FILES, *pictures.DICE_FILES}


async def roll_so_far(fake: FakeDiscord, game_id: int) -> list[dict]:
    """The public events of the newest roll, from the log entry that rolled it on."""
    roll: list[dict] = []
    for entry in reversed(await fake.bot.service.log(game_id)):
        found = public_events(json.loads(entry.events))
        roll = found + roll
        if any(e["type"] == "rolled" for e in found):
            return roll
    return []


async def test_a_dice_board_that_did_not_change_is_not_drawn_or_uploaded_again(monkeypatch, tmp_path):
    """An Away Missions game with every re-roll window put to the players. A pass that leaves
    the window open leaves the dice board as it was (the table message says who decides
    next): it is neither drawn nor uploaded, and the table (or the message above a fresh
    one) still carries it; a roll, a re-roll and the pass that closes the window each
    upload the new dice board, the one drawn now."""
    same_dice(monkeypatch)
    original = pictures.RENDERERS["awaymissions"]
    drawn = Counter()

    def dice(view, events, waiting):
        found = original.dice(view, events, waiting)
        drawn["dice.png"] += found is not None
        return found
    monkeypatch.setitem(pictures.RENDERERS, "awaymissions", dataclasses.replace(original, dice=dice))
    clock = PlayByPost()
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db"), clock=clock) as fake:
        thread, game_id = await new_game(fake)
        for user_id in MEMBERS:
            await fake.bot.service.set_reaction_preference(user_id, "every")
        rng, seen = random.Random(DICE_SEED), Counter()
        while min(seen[k] for k in ("kept", "rolled", "closed")) < 1 or seen["rolled"] < 3:
            info = await fake.bot.service.get(game_id)
            assert info.status == "active" and info.version < 400, seen
            member = MEMBERS[info.awaited[0].user_id]
            _, commands = await fake.bot.service.legal_commands(game_id, info.awaited[0].user_id)
            stored, sent, draws = await table(fake, game_id), len(fake.sent), drawn["dice.png"]
            window = "pass" in commands and any(c.startswith("reroll") for c in commands)
            index = commands.index("pass") if window and rng.random() < 0.6 else rng.randrange(len(commands))
            await choose(fake, member, await open_panel(fake, member, thread), commands, index)
            clock.now += clock.between_moves
            events = {e["type"] for e in json.loads((await fake.bot.service.log(game_id))[-1].events)}
            tables = [r for r in fake.sent[sent:] if r.path.startswith(f"/channels/{thread}/messages")]
            uploaded = [data for r in tables for name, data in r.files if name == "dice.png"]
            if "reroll_passed" in events and not events & {"rolled", "rerolled", "resolved"}:
                seen["kept"] += 1
                assert not uploaded and drawn["dice.png"] == draws, "the same dice board drawn or uploaded again"
                shows = fake.messages[tables[0].message_id if tables[0].method == "PATCH" else stored["message"]]
                assert "dice.png" in [a["filename"] for a in shows["attachments"]]
                assert (await table(fake, game_id))["shown"].get("dice.png") in (None, stored["shown"]["dice.png"])
            elif events & {"rolled", "rerolled", "resolved"} and await roll_so_far(fake, game_id):
                seen["closed" if "reroll_passed" in events else "rolled"] += 1
                view = await fake.bot.service.view(game_id)
                assert uploaded == [encode(original.dice(view, await roll_so_far(fake, game_id), False))]
                assert drawn["dice.png"] == draws + 1
