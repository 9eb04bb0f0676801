"""The fake Discord itself (tests/discord_harness.py): what it keeps of a long run."""
import random
from collections import Counter

import pytest

from tests import discord_harness
from tests.discord_harness import FakeDiscord, play
from tests.test_discord_game import MEMBERS, PlayByPost, new_game, same_dice


@pytest.mark.parametrize("record", [False, True])
async def test_a_fake_that_does_not_record_keeps_only_what_is_in_use(tmp_path, monkeypatch, record):
    """Without recording (the scale benchmark's long runs, whose memory must be the bot's),
    each channel keeps only its KEPT messages last used and the newest TOKENS interactions
    keep their tokens; the players still find the table's "Your move" and their panels, and
    the bot is never told a message or token it still uses is unknown. Recording, the fake
    keeps every message and every request, as the tests read them."""
    monkeypatch.setattr(discord_harness, "KEPT", 4)
    monkeypatch.setattr(discord_harness, "TOKENS", 5)
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "game.db"), clock=PlayByPost(), record=record) as fake:
        fake.guild()
        thread, game_id = await new_game(fake)
        before = (await fake.bot.service.get(game_id)).version
        await play(fake, game_id, thread, MEMBERS, random.Random(7), 12)
        assert (await fake.bot.service.get(game_id)).version >= before + 12
        assert fake.unknown == 0
        kept = Counter(int(m["channel_id"]) for m in fake.messages.values())
        if record:
            assert kept[thread] > 12 and len(fake.places) > 12 and fake.sent
        else:
            assert max(kept.values()) == 4 and len(fake.places) == 5 and not fake.sent
            assert len(fake.originals) <= 5 and len(fake.clicked) <= 5
