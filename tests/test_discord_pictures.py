"""Table pictures through Discord: a board picture the game's thread already shows is
neither drawn nor uploaded again (issue 27): the table message keeps its attachment."""
import dataclasses
import random
from collections import Counter

from images import pictures
from tests.discord_harness import FakeDiscord
from tests.test_discord_game import PlayByPost, same_dice, table
from tests.test_discord_renegades import act, new_renegades_game


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
            now[update.version] = {"board.png": original.board(view, update.events, False),
                                   **({"surface.png": planet} if planet is not None else {})}
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
