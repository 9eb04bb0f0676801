"""The recap and the summary at a game's end through the fake Discord (ruling P44): both on
the one message that reveals the dice seed, posted once, drawn from the public views."""
import io
import json

from PIL import Image

from cogs.pictures import within
from engine.service import steps
from engine.service.rulesets import RULESETS
from tests.discord_harness import FakeDiscord
from tests.test_discord_dice import play_until_dice, same_dice
from tests.test_discord_game import ANN, BO, new_game


async def test_the_end_message_carries_the_recap_and_the_summary(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id = await new_game(fake)
        await play_until_dice(fake, thread, game_id)
        await fake.dispatch(fake.slash(BO, "game concede", thread))
        since = len(fake.sent)
        assert await fake.run(fake.bot.get_cog("Players").settle()) == [1]
        assert fake.tally(since).posted[thread] == 1  # one message: the seed, the recap and the summary
        end = fake.in_channel(thread)[-1]
        assert "its dice can be checked" in end["content"]
        assert [a["filename"] for a in end["attachments"]] == ["recap.gif", "summary.png"]
        files = dict(next(r for r in fake.sent[since:] if r.files).files)
        row = await fake.bot.service.db.game(game_id)
        log = [(e.seat, e.command, e.events) for e in await fake.bot.service.log(game_id)]
        walked = steps.walk(RULESETS[row.ruleset], json.loads(row.config), row.seed, log)
        gif = Image.open(io.BytesIO(files["recap.gif"]))
        assert gif.n_frames == len(steps.marks_of(walked).activations) >= 1
        assert Image.open(io.BytesIO(files["summary.png"])).format == "PNG"
        assert await fake.run(fake.bot.get_cog("Players").settle()) == [0]  # and only once


def test_over_the_upload_limit_the_recap_is_left_out_first():
    drawn = [("recap.gif", b"g" * 900), ("summary.png", b"s" * 100)]
    assert within(drawn, 1000) == drawn
    assert within(drawn, 999) == [("summary.png", b"s" * 100)]


async def test_an_aborted_game_reveals_its_seed_without_pictures(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id = await new_game(fake)
        await fake.dispatch(fake.slash(ANN, "game abort", thread))
        assert await fake.run(fake.bot.get_cog("Players").settle()) == [1]
        end = fake.in_channel(thread)[-1]
        assert "its dice can be checked" in end["content"] and end["attachments"] == []
