"""Forged slash command options (issue 29 item 6): Discord's client keeps options within
their declared ranges, lengths and choices, a forged interaction does not; the bot checks
every option itself (cogs/options.py), answers privately which option is wrong, and the
command does not run, so nothing changes."""
import pytest

from tests.discord_harness import EPHEMERAL, EVERYONE, MANAGE_GUILD, FakeDiscord, user

ANN = user(1, "Ann")
ADMIN = str(int(EVERYONE) | 8)


async def refused(fake, path, permissions=EVERYONE, **values):
    """Send the forged command; its private answer (after checking nothing was posted)."""
    before = len(fake.public())
    threads = [c for c, data in fake.channels.items() if data["type"] == 11]
    payload = fake.slash(ANN, path, permissions=permissions, **values)
    await fake.dispatch(payload)
    answer = fake.original(payload)
    assert answer["flags"] & EPHEMERAL and "Nothing was changed." in answer["content"]
    assert len(fake.public()) == before and [c for c, d in fake.channels.items() if d["type"] == 11] == threads
    return answer["content"]


async def test_out_of_range_options_are_refused_and_change_nothing(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
        assert "`page` must be from 1 to 10000, not -3" in await refused(fake, "leaderboard", page=-3)
        assert "`page` must be a whole number, not 'abc'" in await refused(fake, "leaderboard", page="abc")
        assert "`remind_hours` must be from 0.1 to 720" in await refused(fake, "game new", remind_hours=-5)
        assert "`mode` must be one of" in await refused(fake, "game new", mode="9 players")
        assert "`missions` must be from 3 to 5" in await refused(fake, "campaign new", title="ember", missions=9)
        assert "`title` must be one of ember, tide, veil" in await refused(fake, "campaign new", title="dusk")
        assert "`term` must be 1 to 100 characters long (it has 5000)" in await refused(fake, "rules", term="x" * 5000)
        assert "`days` must be from 0.1 to 60" in await refused(fake, "away vacation", days=1000)
        assert "`hours` must be from 0 to 720" in await refused(fake, "settings reminders",
                                                                 permissions=str(MANAGE_GUILD), hours=-1)
        assert "`rounds` must be from 1 to 20" in await refused(fake, "league create", permissions=ADMIN,
                                                                name="Arena", rounds=0)
        assert "`event` must be from 1" in await refused(fake, "league open", permissions=ADMIN, event=-3)
        assert "`event` must be from 1" in await refused(fake, "league open", permissions=ADMIN, event=2 ** 70)

        assert await fake.bot.service.db.game(1) is None  # no game was opened
        back = fake.slash(ANN, "away back")
        await fake.dispatch(back)
        assert fake.original(back)["content"] == "You were not on vacation."  # the forged vacation was not taken
        standings = fake.slash(ANN, "league standings", event=1)
        await fake.dispatch(standings)
        assert "Arena" not in fake.original(standings)["content"]  # no event was created


@pytest.mark.parametrize("page", [1, 10000])
async def test_options_within_range_still_run(monkeypatch, tmp_path, page):
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
        payload = fake.slash(ANN, "leaderboard", page=page)
        await fake.dispatch(payload)
        assert "Nothing was changed" not in fake.original(payload)["content"]


async def test_every_text_and_number_option_declares_its_bounds(monkeypatch, tmp_path):
    """So Discord's client shows them, and the check has more than Discord's own limits to go by."""
    from discord import AppCommandOptionType as Kind, app_commands

    def commands(items):
        for item in items:
            yield from commands(item.commands) if isinstance(item, app_commands.Group) else [item]

    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
        unbounded = [f"/{command.qualified_name} {p.name}" for command in commands(fake.bot.tree.get_commands())
                     for p in command.parameters
                     if p.type in (Kind.string, Kind.integer, Kind.number) and not p.choices
                     and (p.max_value is None or p.type is not Kind.string and p.min_value is None)]
        assert unbounded == []
