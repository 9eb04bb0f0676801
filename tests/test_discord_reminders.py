"""Reminders that fail, back off or arrive too late, through the fake Discord (issue 10, items 8, 9, 11)."""
import dataclasses

from bot import shard_of
from tests.discord_harness import CHANNEL_ID, GUILD_ID, FakeDiscord
from tests.test_discord_game import BO, new_game, same_dice
from tests.test_discord_turns import Clock, play_until_a_reaction_window


async def _two_games(fake):
    """Two games of Ann and Bo, each in a channel of its own: ((thread, game id), (thread, game id))."""
    return await new_game(fake), await new_game(fake, CHANNEL_ID + 1)


def _reminders(fake, thread):
    return [m for m in fake.in_channel(thread) if m["content"].startswith("Reminder:")]


async def test_a_deleted_thread_drops_its_reminder_without_holding_back_other_games(monkeypatch, tmp_path):
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        (gone, gone_id), (kept, kept_id) = await _two_games(fake)
        fake.fail("POST", rf"/channels/{gone}/messages", 404)
        clock.now += 25 * 3600
        turns = fake.bot.get_cog("Turns")
        assert await fake.run(turns.send_due()) == [4]  # two players in each game
        assert len(_reminders(fake, kept)) == 1
        notes = [m["content"] for m in fake.in_channel(CHANNEL_ID) if "could not be delivered" in m["content"]]
        assert notes and f"Game #{gone_id}" in notes[0] and "404" in notes[0]
        due = await fake.bot.service.due_reminders()
        assert due == []  # dropped for good, not retried every minute
        clock.now += 3600
        assert await fake.run(turns.send_due()) == [0]


async def test_a_player_who_blocks_dms_is_dropped_and_the_others_are_still_reminded(monkeypatch, tmp_path):
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        await fake.dispatch(fake.slash(BO, "settings dm", enabled=True))
        thread, game_id = await new_game(fake)
        fake.fail("POST", r"/channels/\d+/messages", 403, times=1)  # Bo's DM is the first post
        clock.now += 25 * 3600
        turns = fake.bot.get_cog("Turns")
        await fake.run(turns.send_due())
        contents = [m["content"] for m in fake.in_channel(thread)]
        assert any(c.startswith("Reminder: <@1>") for c in contents)
        assert any("could not be delivered" in c and "<@2>" in c for c in contents)
        assert await fake.bot.service.due_reminders() == []
        assert await fake.run(turns.send_due()) == [0]  # nobody is pinged again


async def test_a_server_error_backs_off_and_is_retried_once_later(monkeypatch, tmp_path):
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        thread, game_id = await new_game(fake)
        fake.fail("POST", rf"/channels/{thread}/messages", 503, times=1)
        clock.now += 25 * 3600
        turns = fake.bot.get_cog("Turns")
        await fake.run(turns.send_due())
        assert _reminders(fake, thread) == []
        assert await fake.run(turns.send_due()) == [0]  # not yet: backing off
        clock.now += 61
        await fake.run(turns.send_due())
        assert len(_reminders(fake, thread)) == 1
        assert await fake.run(turns.send_due()) == [0]


async def test_a_reminder_for_a_decision_a_deadline_just_ended_is_not_sent(monkeypatch, tmp_path):
    same_dice(monkeypatch)  # the same game every run
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        await fake.bot.service.set_guild_setting(GUILD_ID, "turn_limit", 3600.0)
        await fake.bot.service.set_guild_setting(GUILD_ID, "remind_after", 1800.0)
        thread, game_id = await new_game(fake)
        view = await play_until_a_reaction_window(fake.bot.service, game_id)
        reacting = {"p1": 1, "p2": 2}[view["pending"][0]["player"]]
        public = len(fake.in_channel(thread))
        clock.now += 3600 + 1  # the window's reminder (after 30 min) and its deadline are both due
        await fake.run(fake.bot.get_cog("Turns").send_due())
        after = [m["content"] for m in fake.in_channel(thread)[public:]]
        assert any("Time ran out" in m["content"] for m in fake.in_channel(thread))  # on the table
        assert not any(c.startswith("Reminder:") and f"<@{reacting}>" in c for c in after), after


async def test_the_digest_is_one_dm_listing_every_waiting_game(monkeypatch, tmp_path):
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        await fake.dispatch(fake.slash(BO, "settings digest", enabled=True))
        (first, first_id), (second, second_id) = await _two_games(fake)
        clock.now += 25 * 3600
        await fake.run(fake.bot.get_cog("Turns").send_due())
        dms = [m for m in fake.messages.values() if fake.channels.get(int(m["channel_id"]), {}).get("type") == 1]
        assert len(dms) == 1
        assert f"Game #{first_id}" in dms[0]["content"] and f"Game #{second_id}" in dms[0]["content"]
        for thread in (first, second):
            assert all("<@2>" not in m["content"] for m in _reminders(fake, thread))


async def test_a_sharded_process_reminds_only_the_games_of_its_own_shards(monkeypatch, tmp_path):
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        thread, game_id = await new_game(fake)
        clock.now += 25 * 3600
        turns, config = fake.bot.get_cog("Turns"), fake.bot.config
        home = shard_of(GUILD_ID, 2)
        monkeypatch.setattr(fake.bot, "config", dataclasses.replace(config, shard_count=2, shard_ids=(1 - home,)))
        assert await fake.run(turns.send_due()) == [0]  # the guild's games belong to the other process
        assert _reminders(fake, thread) == [] and len(await fake.bot.service.due_reminders()) == 2
        monkeypatch.setattr(fake.bot, "config", dataclasses.replace(config, shard_count=2, shard_ids=(home,)))
        assert await fake.run(turns.send_due()) == [2]
        assert len(_reminders(fake, thread)) == 1


async def test_the_stand_in_plays_deadline_after_deadline_to_the_end_of_a_game(monkeypatch, database_url):
    """Issue 29 item 1: each decision the stand-in makes at a deadline is followed by the
    next decision with a deadline of its own, however the database numbers the new
    reminder rows (SQLite reuses the id of a row just deleted), on both engines."""
    clock = Clock()
    async with FakeDiscord(monkeypatch, database_url, clock=clock) as fake:
        service = fake.bot.service
        await service.set_guild_setting(GUILD_ID, "turn_limit", 2 * 3600.0)
        await service.set_guild_setting(GUILD_ID, "computer_stands_in", True)
        thread, game_id = await new_game(fake)
        turns, rounds = fake.bot.get_cog("Turns"), 0
        while (info := await service.get(game_id)).status == "active":
            deadlines = [r for r in await service.due_reminders(clock.now + 2 * 3600.0) if r.kind == "deadline"]
            assert sorted(r.seat for r in deadlines) == sorted(t.seat for t in info.awaited), (rounds, info.awaited)
            played = len(await service.log(game_id))
            clock.now += 2 * 3600.0 + 1
            await fake.run(turns.send_due())
            assert len(await service.log(game_id)) > played, f"deadline {rounds + 1}: nobody played"
            rounds += 1
        assert rounds >= 10 and info.result  # played to the end, a deadline at a time
        assert any("the computer plays for" in m["content"] for m in fake.in_channel(thread))
