"""Calls at most every N hours (issue 25 item 4, rulings P24-P27) through the fake Discord:
a player in five games with N = 8 is mentioned at most 3 times in any 24 hours, each call
lists every game waiting for them, and no deadline of theirs passes before they were
called; bad input changes nothing; the other players see the choice."""
import dataclasses
import random
import re
from dataclasses import dataclass, field
from types import SimpleNamespace

import pytest

from bot import shard_of
from cogs import table_message
from cogs.calls import call_text
from cogs.pings import calls_of
from db import AwaitedGame
from engine.service import Update
from engine.service.calls import Calls
from engine.service.errors import LobbyError
from tests.discord_harness import CHANNEL_ID, GUILD_ID, FakeDiscord
from tests.test_discord_away import FIVE_AM_UTC, NINE_PM_UTC
from tests.test_discord_game import ANN, BO, new_game, same_dice
from tests.test_discord_turns import Clock

HOUR, DAY = 3600.0, 86400.0
LIMIT = 4 * HOUR  # each decision's time limit in the server: shorter than a window of 8 h
STEP = 900.0  # the reminder loop's tick in the simulation


async def answer(fake, payload) -> str:
    await fake.dispatch(payload)
    return fake.original(payload)["content"]


async def games(fake, count: int) -> list[int]:
    """`count` games of Ann and Bo, each in a channel of its own: their ids."""
    return [(await new_game(fake, CHANNEL_ID + n))[1] for n in range(count)]


async def play_while_awaited(fake, game_id: int, user_id: int, rng: random.Random) -> int:
    """The user answers every decision of theirs in the game, as the table shows it; moves made."""
    service, moves = fake.bot.service, 0
    while (info := await service.get(game_id)).status == "active" and user_id in {t.user_id for t in info.awaited}:
        version, commands = await service.legal_commands(game_id, user_id)
        update = await service.submit(game_id, user_id, rng.choice(commands), version)
        await fake.run(table_message.publish(fake.bot, update, user_id))
        moves += 1
    return moves


def calls_to(fake, user_id: int, since: int) -> list[str]:
    """The calls posted for the user in `fake.sent[since:]`."""
    return [s.content for s in fake.sent[since:] if s.posts and s.content.startswith(f"<@{user_id}>, your call")]


@dataclass
class Played:
    """What Bo received while Ann and he played by post."""

    start: float
    pinged_at: list[float] = field(default_factory=list)  # one entry per notification, when Bo looked
    calls: list[tuple[float, str, set[int], list[float]]] = field(default_factory=list)  # when, text, games waiting, deadlines
    games: list[int] = field(default_factory=list)
    moves: int = 0
    timed_out: list[str] = field(default_factory=list)  # lines saying Bo's time ran out
    over: int = 0  # games that ended

    def most_in_a_day(self) -> int:
        """The most notifications in any 24 hours."""
        return max((sum(t <= p < t + DAY for p in self.pinged_at) for t in self.pinged_at), default=0)

    def line(self, hours: float) -> str:
        called = [round((t - self.start) / HOUR, 2) for t, *_ in self.calls]
        return (f"{len(self.games)} games ({self.over} ended), {hours:g} h: Bo notified {len(self.pinged_at)} times, "
                f"at most {self.most_in_a_day()} in 24 h; {self.moves} moves; Bo's time ran out "
                f"{len(self.timed_out)} times" + (f"; called at hours {called}" if called else ""))


async def by_post(fake, clock, count: int, hours: float, rng: random.Random) -> Played:
    """Ann and Bo play `count` games by post for `hours`: each quarter of an hour the reminder
    loop runs, Bo answers every game waiting for him when something notified him since he
    last looked, and Ann answers at once. Bo, who has just joined, makes his first choices
    at once; counted from then (the invitations: ruling P27)."""
    service, bo, turns = fake.bot.service, int(BO["id"]), fake.bot.get_cog("Turns")
    played = Played(clock.now, games=await games(fake, count))
    for game_id in played.games:
        played.moves += await play_while_awaited(fake, game_id, bo, rng)
    looked = begin = len(fake.sent)
    while clock.now < played.start + hours * HOUR:
        clock.now += STEP
        before = len(fake.sent)
        await fake.run(turns.send_due())
        for text in calls_to(fake, bo, before):
            waiting = await service.awaiting(bo)
            played.calls.append((clock.now, text, {w.game_id for w in waiting}, [w.deadline for w in waiting]))
        pings = fake.tally(looked).pings[bo]
        looked = len(fake.sent)
        if pings:
            played.pinged_at += [clock.now] * pings
            for game_id in {w.game_id for w in await service.awaiting(bo)}:
                played.moves += await play_while_awaited(fake, game_id, bo, rng)
        for game_id in played.games:
            played.moves += await play_while_awaited(fake, game_id, int(ANN["id"]), rng)
    played.pinged_at += [clock.now] * fake.tally(looked).pings[bo]
    played.over = sum([(await service.get(g)).status == "over" for g in played.games])
    assert fake.tally(begin).pings[bo] == len(played.pinged_at)
    played.timed_out = [s.content for s in fake.sent[begin:]
                        if re.search(r"Time ran out: (the computer plays for )?Bo\b", s.content)]
    return played


async def test_a_player_in_five_games_is_called_at_most_three_times_a_day_and_misses_no_deadline(
        monkeypatch, database_url):
    same_dice(monkeypatch)  # the same games every run
    clock = Clock()
    async with FakeDiscord(monkeypatch, database_url, clock=clock) as fake:
        said = await answer(fake, fake.slash(BO, "settings calls", every_hours=8))
        assert said.startswith("Calls every 8 h by DM")
        await fake.bot.service.set_guild_setting(GUILD_ID, "turn_limit", LIMIT)
        await fake.bot.service.set_guild_setting(GUILD_ID, "computer_stands_in", True)
        played = await by_post(fake, clock, 5, 30, random.Random(5))
        print(played.line(30))
        assert played.pinged_at == [t for t, *_ in played.calls] and len(played.calls) >= 4  # calls, nothing else
        assert played.most_in_a_day() <= 3
        for at, text, waiting, deadlines in played.calls:  # every game waiting for Bo is in his call
            assert waiting and all(f"Game #{g}:" in text for g in waiting), (text, waiting)
            assert min(deadlines) >= at + LIMIT  # and the time limit counts from the call
        assert set().union(*(w for *_, w, _ in played.calls)) == set(played.games) and played.moves > 20
        assert played.timed_out == []  # Bo answered within minutes of each call: no deadline of his passed


async def test_a_deadline_does_not_pass_before_the_player_was_called(monkeypatch, tmp_path):
    """Bo's wait begins just after a call: its deadline (4 h) falls before his next call
    (8 h), so it moves to the call plus the limit; the stand-in waits for it."""
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        service, bo = fake.bot.service, int(BO["id"])
        await answer(fake, fake.slash(BO, "settings calls", every_hours=8))
        await service.set_guild_setting(GUILD_ID, "turn_limit", LIMIT)
        await service.set_guild_setting(GUILD_ID, "computer_stands_in", True)
        thread, game_id = await new_game(fake)
        turns = fake.bot.get_cog("Turns")
        await fake.run(turns.send_due())  # the first call, at once
        first = clock.now
        assert len(calls_to(fake, bo, 0)) == 1
        await play_while_awaited(fake, game_id, bo, random.Random(1))
        clock.now += 60
        await play_while_awaited(fake, game_id, int(ANN["id"]), random.Random(1))
        (wait,) = [w for w in await service.awaiting(bo)]
        assert wait.deadline == first + 8 * HOUR + LIMIT  # booked for the next window, counted from it
        table = fake.in_channel(thread)[-1]["content"]
        assert "Bo (called every 8 h)" in table and "Bo is called at most every 8 h: not pinged now" in table
        version = (await service.get(game_id)).version
        for hours in (4.5, 8.0):  # past the first deadline, then the call at the window
            clock.now = first + hours * HOUR
            await fake.run(turns.send_due())
            assert (await service.get(game_id)).version == version, hours  # nobody played for Bo
        assert len(calls_to(fake, bo, 0)) == 2
        clock.now = first + 8 * HOUR + LIMIT + 1  # the deadline counted from the call: the stand-in plays
        await fake.run(turns.send_due())
        assert (await service.get(game_id)).version > version


async def test_bad_input_gets_a_clear_message_and_changes_nothing(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        for hours in (25, -1):
            said = await answer(fake, fake.slash(BO, "settings calls", every_hours=hours))
            assert f"must be from 0 to 24, not {hours}" in said and "Nothing was changed" in said
            with pytest.raises(LobbyError, match="1 to 24 hours"):  # the service says so to any front end
                await calls_of(fake.bot).choose(int(BO["id"]), hours)
        other = fake.add_channel(GUILD_ID)
        fake.fail("POST", rf"/channels/{other}/messages", 403)
        said = await answer(fake, fake.slash(BO, "settings calls", every_hours=8, channel=fake.channels[other]))
        assert f"I cannot post in <#{other}>" in said and "Nothing changed" in said
        assert "Calls: at every hand-over" in await answer(fake, fake.slash(BO, "settings show"))


async def test_calls_in_a_channel_are_shown_to_the_others_and_can_be_turned_off(monkeypatch, tmp_path):
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        bo, place = int(BO["id"]), fake.add_channel(GUILD_ID)
        said = await answer(fake, fake.slash(BO, "settings calls", every_hours=6, channel=fake.channels[place]))
        assert said.startswith(f"Calls every 6 h in <#{place}>")
        assert "chose to be called here" in fake.in_channel(place)[-1]["content"]
        assert f"Calls: every 6 h in <#{place}>" in await answer(fake, fake.slash(BO, "settings show"))
        thread, game_id = await new_game(fake)
        begin = len(fake.sent)  # after the invitation to the game (ruling P27)
        status = await answer(fake, fake.slash(ANN, "game status", thread))
        assert "Bo is called at most every 6 h" in status
        opening = fake.in_channel(thread)[-1]
        assert "<@2>" not in opening["content"] and "Bo (called every 6 h)" in opening["content"]
        await fake.run(fake.bot.get_cog("Turns").send_due())
        call = fake.in_channel(place)[-1]
        assert call["content"].startswith("<@2>, your call") and f"Game #{game_id}:" in call["content"]
        assert fake.tally(begin).pings[bo] == 1  # the call in the channel, nothing else
        said = await answer(fake, fake.slash(BO, "settings calls", every_hours=0))
        assert said.startswith("Calls off")
        assert "called at most" not in await answer(fake, fake.slash(ANN, "game status", thread))


async def test_the_window_survives_a_restart_and_a_refused_call_lets_the_deadlines_run(monkeypatch, tmp_path):
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        bo = int(BO["id"])
        await answer(fake, fake.slash(BO, "settings calls", every_hours=8))
        await fake.bot.service.set_guild_setting(GUILD_ID, "turn_limit", LIMIT)
        thread, game_id = await new_game(fake)
        await fake.run(fake.bot.get_cog("Turns").send_due())
        first = clock.now
        await play_while_awaited(fake, game_id, bo, random.Random(2))
        await fake.shutdown()  # a restart between the call and the next hand-over
        await fake.boot()
        clock.now += 60
        await play_while_awaited(fake, game_id, int(ANN["id"]), random.Random(2))
        (wait,) = await fake.bot.service.awaiting(bo)
        assert wait.deadline == first + 8 * HOUR + LIMIT  # the window counts from the call before the restart
        clock.now = first + 8 * HOUR - 1
        await fake.run(fake.bot.get_cog("Turns").send_due())
        assert len(calls_to(fake, bo, 0)) == 1
        fake.fail("POST", r"/channels/\d+/messages", 403, times=1)  # Bo has closed his DMs
        clock.now = first + 8 * HOUR
        await fake.run(fake.bot.get_cog("Turns").send_due())
        assert any("could not be delivered" in m["content"] and "<@2>" in m["content"] for m in fake.in_channel(thread))
        assert (await fake.bot.service.db._conn.fetch("SELECT last_call FROM calls"))[0][0] == clock.now
        assert await fake.bot.service.due_reminders(clock.now + LIMIT) != []  # his deadline runs again


async def test_a_long_list_of_games_fits_in_one_call():
    """Forty games waiting: the call lists what fits in one message and counts the rest."""
    async def asked(game_id, user_id):
        return "Which core mission do you play?"
    waiting = [AwaitedGame(n, "awaymissions", GUILD_ID, CHANNEL_ID, CHANNEL_ID + n, 3, "p2", 0.0, 9e5) for n in range(40)]
    service = SimpleNamespace(awaiting=lambda user_id: _returns(waiting), asked=asked)
    text = await call_text(SimpleNamespace(service=service), 2, {}, Calls(8 * HOUR, None, None))
    assert len(text) <= 2000 and text.startswith("<@2>, your call") and "40 games waiting" in text
    listed = text.count("• Game #")
    assert 5 < listed < 40 and text.endswith(f"…and {40 - listed} more: /game mine lists every game waiting for you.")


async def _returns(value):
    return value


async def test_quiet_hours_hold_the_call_and_the_deadline_waits_for_it(monkeypatch, tmp_path):
    """Ruling P26: Bo's first call falls in his quiet hours (23:00 at +02:00); his 4 h
    deadline would pass at 03:00, but it waits for the call at 07:00 and counts from it."""
    clock = Clock(NINE_PM_UTC)
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        service, bo = fake.bot.service, int(BO["id"])
        await answer(fake, fake.slash(BO, "settings calls", every_hours=8))
        await answer(fake, fake.slash(BO, "away quiet", start="22:00", end="7:00", zone="UTC+2"))
        await service.set_guild_setting(GUILD_ID, "turn_limit", LIMIT)
        await service.set_guild_setting(GUILD_ID, "computer_stands_in", True)
        thread, game_id = await new_game(fake)  # both owe a core mission; Ann chooses hers
        await play_while_awaited(fake, game_id, int(ANN["id"]), random.Random(3))
        version, turns = (await service.get(game_id)).version, fake.bot.get_cog("Turns")
        clock.now = NINE_PM_UTC + LIMIT + 1
        await fake.run(turns.send_due())
        assert (await service.get(game_id)).version == version and calls_to(fake, bo, 0) == []
        clock.now = FIVE_AM_UTC  # 07:00 for Bo: his call, and his deadline from it
        await fake.run(turns.send_due())
        assert len(calls_to(fake, bo, 0)) == 1
        assert [w.deadline for w in await service.awaiting(bo)] == [FIVE_AM_UTC + LIMIT]
        clock.now = FIVE_AM_UTC + LIMIT + 1
        await fake.run(turns.send_due())
        assert (await service.get(game_id)).version > version  # now the stand-in plays for him


async def test_with_calls_off_the_next_hand_over_mentions_the_player_again(monkeypatch, tmp_path):
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        bo = int(BO["id"])
        await answer(fake, fake.slash(BO, "settings calls", every_hours=8))
        thread, game_id = await new_game(fake)
        await fake.run(fake.bot.get_cog("Turns").send_due())
        first = clock.now
        await play_while_awaited(fake, game_id, bo, random.Random(4))
        await play_while_awaited(fake, game_id, int(ANN["id"]), random.Random(4))  # his next call is booked
        await answer(fake, fake.slash(BO, "settings calls", every_hours=0))
        clock.now = first + 8 * HOUR  # the call booked becomes an ordinary reminder in the thread
        await fake.run(fake.bot.get_cog("Turns").send_due())
        assert [m["content"].split(",")[0] for m in fake.in_channel(thread)[-1:]] == ["Reminder: <@2>"]
        await play_while_awaited(fake, game_id, bo, random.Random(4))
        before = len(fake.sent)
        await play_while_awaited(fake, game_id, int(ANN["id"]), random.Random(4))
        assert fake.tally(before).pings[bo] == 1 and calls_to(fake, bo, before) == []  # the table mentions him


async def test_private_lines_are_not_sent_by_dm_while_calls_are_on(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        bo = int(BO["id"])
        await answer(fake, fake.slash(BO, "settings dm", enabled=True))
        update = Update(1, 5, "active", [], [], {"p2": ["You draw a card."]}, [], {"p1": 1, "p2": bo})
        for every, dms in ((8, 0), (0, 1)):
            await answer(fake, fake.slash(BO, "settings calls", every_hours=every))
            before = len(fake.sent)
            await fake.run(table_message.deliver_private(fake.bot, update, skip=1))
            assert fake.tally(before).pings[bo] == dms, every


async def test_with_shards_the_process_of_shard_0_calls_also_for_games_of_other_shards(monkeypatch, tmp_path):
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        bo, config, turns = int(BO["id"]), fake.bot.config, fake.bot.get_cog("Turns")
        far = next(g for g in (GUILD_ID, GUILD_ID + (1 << 22)) if shard_of(g, 2) == 1)  # a server of shard 1
        await answer(fake, fake.slash(BO, "settings calls", every_hours=8))
        thread, game_id = await new_game(fake, fake.add_channel(far))

        async def loop_of(shard: int) -> None:  # the reminder loop of the process running `shard`
            monkeypatch.setattr(fake.bot, "config", dataclasses.replace(config, shard_count=2, shard_ids=(shard,)))
            await fake.run(turns.send_due())
        await loop_of(1)
        assert calls_to(fake, bo, 0) == []  # not from the game's own process: two could find the window open
        await loop_of(0)
        (text,) = calls_to(fake, bo, 0)
        assert f"Game #{game_id}:" in text
        await loop_of(1)
        await loop_of(0)
        assert len(calls_to(fake, bo, 0)) == 1
