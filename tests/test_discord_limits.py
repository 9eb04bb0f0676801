"""The fake Discord refuses what Discord refuses (tests/discord_limits.py): every documented
limit broken once is refused, a body within them all is taken, and a refused message
raises discord.HTTPException 400/50035 in the bot and fails the test's next check."""
import discord
import pytest

from tests.discord_harness import CHANNEL_ID, CallbackError, FakeDiscord
from tests.discord_limits import problems


def select(options, **extra):
    return {"type": 1, "components": [{"type": 3, "custom_id": "s", "options": options, **extra}]}


def option(value, label="x", **extra):
    return {"label": label, "value": value, **extra}


def button(custom_id, label="Go", **extra):
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label, **extra}


FINE = {"content": "x" * 2000, "embeds": [{"title": "t" * 256, "description": "d" * 4096}],
        "components": [select([option(str(i), "l" * 100, description="d" * 100) for i in range(25)],
                              placeholder="p" * 150),
                       {"type": 1, "components": [button(f"b{i}", "l" * 80) for i in range(5)]},
                       {"type": 1, "components": [{"type": 2, "style": 5, "url": "https://x.example", "label": "L"}]}]}

BROKEN = {
    "duplicate option values": {"components": [select([option("a"), option("a")])]},
    "26 options": {"components": [select([option(str(i)) for i in range(26)])]},
    "no options": {"components": [select([])]},
    "option label over 100": {"components": [select([option("a", "l" * 101)])]},
    "option value over 100": {"components": [select([option("v" * 101)])]},
    "option description over 100": {"components": [select([option("a", description="d" * 101)])]},
    "empty option label": {"components": [select([option("a", "")])]},
    "placeholder over 150": {"components": [select([option("a")], placeholder="p" * 151)]},
    "max_values over 25": {"components": [select([option("a")], max_values=26)]},
    "custom id over 100": {"components": [{"type": 1, "components": [button("c" * 101)]}]},
    "six rows": {"components": [{"type": 1, "components": [button(f"b{i}")]} for i in range(6)]},
    "six buttons in a row": {"components": [{"type": 1, "components": [button(f"b{i}") for i in range(6)]}]},
    "a select beside a button": {"components": [{"type": 1, "components": [
        {"type": 3, "custom_id": "s", "options": [option("a")]}, button("b")]}]},
    "empty button label": {"components": [{"type": 1, "components": [button("b", "")]}]},
    "button label over 80": {"components": [{"type": 1, "components": [button("b", "l" * 81)]}]},
    "duplicate custom ids": {"components": [{"type": 1, "components": [button("b")]},
                                            {"type": 1, "components": [button("b")]}]},
    "content over 2000": {"content": "x" * 2001},
    "embed title over 256": {"embeds": [{"title": "t" * 257}]},
    "embed description over 4096": {"embeds": [{"description": "d" * 4097}]},
    "26 embed fields": {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
    "embeds over 6000 in all": {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
}


def test_a_body_within_every_limit_is_taken():
    assert problems(FINE) == []


@pytest.mark.parametrize("body", BROKEN.values(), ids=BROKEN.keys())
def test_each_limit_broken_is_refused(body):
    assert problems(body)


async def test_the_bot_gets_discords_invalid_form_body_and_the_test_fails(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
        view = discord.ui.View()
        view.add_item(discord.ui.Select(custom_id="twice", options=[discord.SelectOption(label="A", value="a"),
                                                                    discord.SelectOption(label="B", value="a")]))
        with pytest.raises(discord.HTTPException) as refused:
            await fake.bot.get_partial_messageable(CHANNEL_ID).send("pick", view=view)
        assert (refused.value.status, refused.value.code) == (400, 50035)
        assert "components.0.components.0.options.1.value" in refused.value.text
        assert fake.in_channel(CHANNEL_ID) == []  # nothing was posted
        with pytest.raises(CallbackError, match="Discord would refuse"):
            fake.check()  # even had the bot swallowed the error
