"""Quiet hours and vacations (issue 14 item 10) through the fake Discord: no ping while a
player is quiet (a reminder comes when the quiet hours end), reminders wait, deadlines move
by a vacation, and the other players can see both."""
import random
from datetime import datetime, timezone

from tests.discord_harness import GUILD_ID, FakeDiscord, choose, open_panel
from tests.test_discord_game import ANN, BO, new_game, same_dice
from tests.test_discord_turns import Clock, play_until_a_reaction_window

NINE_PM_UTC = datetime(2026, 11, 24, 21, 0, tzinfo=timezone.utc).timestamp()  # 23:00 at +02:00
FIVE_AM_UTC = NINE_PM_UTC + 8 * 3600  # 07:00 at +02:00: Bo's quiet hours end
DAY = 86400.0


def reminders(fake, thread, since=0):
    return [m["content"] for m in fake.in_channel(thread)[since:] if m["content"].startswith("Reminder:")]


async def answer(fake, payload) -> str:
    await fake.dispatch(payload)
    return fake.original(payload)["content"]


async def deadlines(fake, game_id) -> dict[str, float]:
    return {w.seat: w.deadline for w in await fake.bot.service.db.waits(game_id)}


async def test_quiet_hours_hold_the_ping_and_reminders_until_they_end(monkeypatch, tmp_path):
    clock = Clock(NINE_PM_UTC)
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        said = await answer(fake, fake.slash(BO, "away quiet", start="22:00", end="7:00", zone="UTC+2"))
        assert "Quiet hours 22:00-07:00 (UTC+2)" in said
        sent = len(fake.sent)
        thread, game_id = await new_game(fake)  # Bo owes a core mission, but it is 23:00 for him
        opening = [s for s in fake.sent[sent:] if s.path == f"/channels/{thread}/messages"][-1]
        assert opening.json["allowed_mentions"]["users"] == [] and "<@2>" not in opening.json["content"]
        assert f"Waiting for Ann, Bo (in quiet hours until <t:{int(FIVE_AM_UTC)}:f>)." in opening.json["content"]
        assert f"Bo is in quiet hours until <t:{int(FIVE_AM_UTC)}:f>: not pinged now" in opening.json["content"]
        status = await answer(fake, fake.slash(ANN, "game status", thread))
        assert f"Bo has quiet hours 22:00-07:00 (UTC+2), quiet now until <t:{int(FIVE_AM_UTC)}:t>" in status
        turns = fake.bot.get_cog("Turns")
        clock.now = FIVE_AM_UTC - 1
        await fake.run(turns.send_due())
        assert reminders(fake, thread) == []
        clock.now = FIVE_AM_UTC + 1  # the ping held back at 23:00 comes as a reminder at 07:00
        await fake.run(turns.send_due())
        assert [r.split(", game")[0] for r in reminders(fake, thread)] == ["Reminder: <@2>"]
        # a day after the start both are nudged; Bo is quiet again, so his reminder waits
        public = len(fake.in_channel(thread))
        clock.now = NINE_PM_UTC + DAY + 1
        await fake.run(turns.send_due())
        assert [r.split(", game")[0] for r in reminders(fake, thread, public)] == ["Reminder: <@1>"]
        clock.now = FIVE_AM_UTC + DAY + 1
        await fake.run(turns.send_due())
        assert [r.split(", game")[0] for r in reminders(fake, thread, public)] == ["Reminder: <@1>", "Reminder: <@2>"]
        await fake.run(turns.send_due())
        assert len(reminders(fake, thread, public)) == 2
        # quiet hours off: pinged at once again
        await answer(fake, fake.slash(BO, "away quiet-off"))
        assert "quiet hours" not in await answer(fake, fake.slash(ANN, "game status", thread))


async def test_the_table_shows_quiet_hours_also_when_no_ping_is_held_back(monkeypatch, tmp_path):
    clock = Clock(NINE_PM_UTC)
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        await answer(fake, fake.slash(BO, "away quiet", start="22:00", end="7:00", zone="UTC+2"))
        thread, game_id = await new_game(fake)  # both owe a core mission
        version, commands = await fake.bot.service.legal_commands(game_id, 1)
        sent = len(fake.sent)
        await choose(fake, ANN, await open_panel(fake, ANN, thread), commands, 0)
        table = [s for s in fake.sent[sent:] if s.path.startswith(f"/channels/{thread}/messages")]
        assert all(not (s.json or {}).get("allowed_mentions", {}).get("users") for s in table), "no ping to hold"
        assert f"Waiting for Bo (in quiet hours until <t:{int(FIVE_AM_UTC)}:f>)." in table[-1].json["content"]
        clock.now = FIVE_AM_UTC + 1  # his quiet hours are over: the next update says nothing of them
        sent = len(fake.sent)
        version, commands = await fake.bot.service.legal_commands(game_id, 2)
        await choose(fake, BO, await open_panel(fake, BO, thread), commands, 0)
        shown = [s.json["content"] for s in fake.sent[sent:] if s.path.startswith(f"/channels/{thread}/messages")
                 and s.json and s.json.get("content", "").startswith("**Game #")]
        assert shown and shown[-1].splitlines()[-1].startswith("Waiting for") and "quiet" not in shown[-1].splitlines()[-1]


async def game_with_deadlines(fake, limit) -> tuple[int, int]:
    """A new game whose server gives each decision `limit` seconds: (thread, game id)."""
    await fake.bot.service.set_guild_setting(GUILD_ID, "turn_limit", limit)
    return await new_game(fake)


async def test_a_vacation_moves_deadlines_by_its_length_and_back_early_moves_them_back(monkeypatch, tmp_path):
    clock = Clock()
    limit, start = 48 * 3600.0, clock.now
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        thread, game_id = await game_with_deadlines(fake, limit)
        assert await deadlines(fake, game_id) == {"p1": start + limit, "p2": start + limit}
        clock.now += 3600
        said = await answer(fake, fake.slash(BO, "away vacation", days=3.0))
        assert said.startswith("Vacation from") and "/away back" in said
        assert await deadlines(fake, game_id) == {"p1": start + limit, "p2": start + limit + 3 * DAY}
        due = await fake.bot.service.db._conn.fetch(
            "SELECT seat, due FROM reminders WHERE kind = 'deadline' ORDER BY seat")
        assert [tuple(r) for r in due] == [("p1", start + limit), ("p2", start + limit + 3 * DAY)]
        vacation_end = int(clock.now + 3 * DAY)
        status = await answer(fake, fake.slash(ANN, "game status", thread))
        assert f"Bo is on vacation until <t:{vacation_end}:f>: their deadlines are paused." in status
        assert "Bo is on vacation" in await answer(fake, fake.slash(ANN, "profile", player=BO))
        mine = await answer(fake, fake.slash(BO, "game mine"))
        assert f"answer by <t:{int(start + limit + 3 * DAY)}:R>" in mine
        clock.now += DAY  # back after one day of three: the deadline moves back by two
        assert await answer(fake, fake.slash(BO, "away back")) == "Welcome back: your vacation has ended."
        assert await deadlines(fake, game_id) == {"p1": start + limit, "p2": start + limit + DAY}
        await fake.run(fake.bot.get_cog("Turns").send_due())  # applying again changes nothing
        assert await deadlines(fake, game_id) == {"p1": start + limit, "p2": start + limit + DAY}
        # a decision that comes during a vacation is due the full limit after the vacation ends
        clock.now += 3600
        await answer(fake, fake.slash(BO, "away vacation", days=2.0))
        ends = clock.now + 2 * DAY
        rng, new_wait = random.Random(1), None
        while new_wait is None:
            info = await fake.bot.service.get(game_id)
            version, commands = await fake.bot.service.legal_commands(game_id, info.awaited[0].user_id)
            clock.now += 60
            await fake.bot.service.submit(game_id, info.awaited[0].user_id, rng.choice(commands), version)
            new_wait = next((w for w in await fake.bot.service.db.waits(game_id)
                             if w.seat == "p2" and w.since > ends - 2 * DAY), None)
        await fake.run(fake.bot.get_cog("Turns").send_due())
        assert (await deadlines(fake, game_id))["p2"] == ends + limit


async def test_a_reaction_window_does_not_pass_by_itself_while_its_player_is_on_vacation(monkeypatch, tmp_path):
    same_dice(monkeypatch)  # the same game every run
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        thread, game_id = await game_with_deadlines(fake, 3600.0)
        view = await play_until_a_reaction_window(fake.bot.service, game_id)
        reacting = {"p1": ANN, "p2": BO}[view["pending"][0]["player"]]
        await answer(fake, fake.slash(reacting, "away vacation", days=1.0))
        turns = fake.bot.get_cog("Turns")
        clock.now += 3600 + 1
        await fake.run(turns.send_due())
        assert (await fake.bot.service.view(game_id))["version"] == view["version"]
        clock.now += DAY
        await fake.run(turns.send_due())
        assert (await fake.bot.service.view(game_id))["version"] == view["version"] + 1
        assert any("Time ran out" in m["content"] for m in fake.in_channel(thread))


async def test_a_new_vacation_replaces_the_one_under_way_keeping_the_days_taken(monkeypatch, tmp_path):
    clock = Clock()
    limit, start = 48 * 3600.0, clock.now
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        thread, game_id = await game_with_deadlines(fake, limit)
        await answer(fake, fake.slash(BO, "away vacation", days=3.0))
        clock.now += DAY
        await answer(fake, fake.slash(BO, "away vacation", days=2.0))  # one day taken, two more from now
        assert (await deadlines(fake, game_id))["p2"] == start + limit + 3 * DAY
        await answer(fake, fake.slash(BO, "away vacation", days=1.0, starts_in_days=0.5))  # later instead
        assert (await deadlines(fake, game_id))["p2"] == start + limit + 2 * DAY
        assert "goes on vacation" in await answer(fake, fake.slash(ANN, "game status", thread))
        await answer(fake, fake.slash(BO, "away vacation", days=1.0, starts_in_days=5.0))  # after the deadline
        assert (await deadlines(fake, game_id))["p2"] == start + limit + DAY
