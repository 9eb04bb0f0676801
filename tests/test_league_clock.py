"""The round clock of a one-day event: the time limit counts down from publishing, calls at
15 and 5 minutes left, then time and the kit's scoring of games in progress; on a hand-moved
clock, in the engine and through the fake Discord."""
import pytest

from engine.errors import RuleError
from engine.league import clock
from engine.league.arena_table import arena_command, declare_captains
from engine.league.event import Claim
from engine.league.results import report
from engine.league.rounds import pair_next_round, publish_round
from tests.discord_harness import CHANNEL_ID, FakeDiscord
from tests.league_helpers import fleet, started_event
from tests.test_league_discord import ADMIN, ANN, BO, ORG, last_text
from tests.test_league_seasons import Clock, published

FLEET = fleet(100)


def live_round(minutes=60, **options):
    event = started_event(["Ann", "Bo"], FLEET, seed=3, time_limit_minutes=minutes, **options)
    pair_next_round(event, "org", 0)
    return event, publish_round(event, "org", 1000)


def test_the_clock_calls_15_and_5_minutes_then_time():
    event, rnd = live_round()
    assert clock.round_end(event, rnd) == 1000 + 3600
    assert clock.schedule(event, rnd) == [("15", 1000 + 45 * 60), ("5", 1000 + 55 * 60), ("time", 4600)]
    assert clock.make_calls(event, rnd, 1000 + 44 * 60) is None
    assert clock.next_call(event, rnd) == 1000 + 45 * 60
    assert clock.make_calls(event, rnd, 1000 + 45 * 60) == "15"
    assert clock.make_calls(event, rnd, 1000 + 46 * 60) is None  # called once
    assert clock.make_calls(event, rnd, 1000 + 55 * 60) == "5"
    assert clock.make_calls(event, rnd, 4600) == "time"
    assert clock.time_called(rnd) and clock.next_call(event, rnd) is None
    assert event.audit[-1].action == "time" and "tables still open: 1" in event.audit[-1].detail


def test_a_short_round_gets_only_the_warnings_that_fit_and_missed_calls_are_not_made_late():
    event, rnd = live_round(minutes=10)
    assert [c for c, _at in clock.schedule(event, rnd)] == ["5", "time"]
    assert clock.make_calls(event, rnd, 1000 + 3600) == "time"  # the bot was away: just time
    assert rnd.calls == ["5", "time"]


def test_season_rounds_and_finished_rounds_run_no_clock():
    event = started_event(["Ann", "Bo"], FLEET, seed=3, kind="season")
    pair_next_round(event, "org", 0)
    rnd = publish_round(event, "org", 0)
    assert clock.round_end(event, rnd) is None and clock.next_call(event, rnd) is None
    event, rnd = live_round()
    a, b = rnd.games[0].players
    for player in (a, b):
        report(event, player, Claim(winner=a, surviving={a: 40, b: 0}), 1100)
    assert rnd.status == "complete" and clock.next_call(event, rnd) is None


def test_at_time_an_unfinished_captains_battle_stops_and_gives_no_bonus():
    event, rnd = live_round(scenario="arena")
    a, b = rnd.games[0].players
    declare_captains(event, a, [("Kirk", 5)], 1100)
    declare_captains(event, b, [("Kor", 4)], 1100)
    arena_command(event, a, "end", 1200)
    clock.make_calls(event, rnd, 4600)
    with pytest.raises(RuleError, match="Time is up in this round"):
        arena_command(event, a, "end", 4700)
    with pytest.raises(RuleError, match="gave no bonus"):
        report(event, a, Claim(winner=a, surviving={a: 60, b: 50}, bonus={a: 15}), 4800)
    # at time both fleets stand: the most Fleet Points win (100 - 50 = 50 against 100 - 60 = 40)
    with pytest.raises(RuleError, match="most Fleet Points win"):
        report(event, b, Claim(winner=b, surviving={a: 60, b: 50}), 4800)
    report(event, a, Claim(winner=a, surviving={a: 60, b: 50}), 4800)


def test_time_is_up_at_the_limit_itself_before_the_clock_calls_it():
    """Issue 29 item 18: the limit is checked at the command, not at the clock's next round."""
    event, rnd = live_round(scenario="arena")
    a, b = rnd.games[0].players
    declare_captains(event, a, [("Kirk", 5)], 1100)
    game = declare_captains(event, b, [("Kor", 4)], 1100)
    arena_command(event, a, "end", 4599)  # a second before time
    with pytest.raises(RuleError, match="Time is up in this round: the Arena stops where it is"):
        arena_command(event, b, "end", 4600)  # nobody has called time yet
    assert rnd.calls == [] and game.battle.mission_tokens == 3 and game.battle.ended == [a]
    event, rnd = live_round(scenario="arena")
    with pytest.raises(RuleError, match="Time is up in this round: the Arena cannot begin"):
        declare_captains(event, a, [("Kirk", 5)], 4601)
    clock.pause(event, rnd, "org", 4500)  # a paused clock stands still: time is not up
    declare_captains(event, a, [("Kirk", 5)], 4700)


async def test_the_round_clock_in_the_event_channel(monkeypatch, tmp_path):
    now = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db"), clock=now) as fake:
        cog = fake.bot.get_cog("League")
        start = int(now.now)
        await published(fake, [ANN, BO], minutes=20)
        end = start + 20 * 60
        assert last_text(fake).startswith(
            f"Round 1 is published. Round clock: 20 minutes, time is called <t:{end}:R> (<t:{end}:t>).")
        count = len(fake.in_channel(CHANNEL_ID))
        asked = fake.slash(ANN, "league pairings", event=1)
        await fake.dispatch(asked)
        assert fake.original(asked)["content"].endswith(f"\nRound clock: time is called <t:{end}:R> (<t:{end}:t>).")
        now.now = start + 4 * 60
        await fake.run(cog.tick())
        assert len(fake.in_channel(CHANNEL_ID)) == count  # nothing due yet
        now.now = start + 5 * 60
        await fake.run(cog.tick())
        assert last_text(fake) == f"Round 1: 15 minutes left on the clock (time is called <t:{end}:t>)."
        now.now = start + 15 * 60
        await fake.run(cog.tick())
        assert last_text(fake) == f"Round 1: 5 minutes left on the clock (time is called <t:{end}:t>)."
        await fake.run(cog.tick())
        assert len(fake.in_channel(CHANNEL_ID)) == count + 2  # each call once
        now.now = end
        await fake.run(cog.tick())
        first, rule, still = last_text(fake).splitlines()
        assert first == "Round 1: time! Play stops now."
        assert rule.startswith("Games still in progress end where they stand: the most Fleet Points wins")
        assert still in ("Still open: table 1 (Ann vs Bo)", "Still open: table 1 (Bo vs Ann)")
        now.now = end + 600
        await fake.run(cog.tick())
        assert len(fake.in_channel(CHANNEL_ID)) == count + 3


def test_pausing_resuming_and_extending_move_the_end_and_are_audited():
    event, rnd = live_round(minutes=30)
    clock.pause(event, rnd, "org", 1000 + 600)
    assert not clock.running(rnd) and clock.next_call(event, rnd) is None
    assert clock.left(event, rnd, 1000 + 5000) == 20 * 60  # a paused clock stands still
    assert clock.make_calls(event, rnd, 1000 + 5000) is None
    with pytest.raises(RuleError, match="already paused"):
        clock.pause(event, rnd, "org", 1000 + 700)
    clock.extend(event, rnd, 5, "org", 1000 + 900)  # a paused clock can be extended too
    clock.resume(event, rnd, "org", 1000 + 1200)
    assert clock.round_end(event, rnd) == 1000 + 35 * 60 + 600
    assert clock.left(event, rnd, 1000 + 1200) == 25 * 60
    with pytest.raises(RuleError, match="not paused"):
        clock.resume(event, rnd, "org", 1000 + 1300)
    # the 15-minute warning is made, then an extension moves it back into the future: made again
    end = clock.round_end(event, rnd)
    assert clock.make_calls(event, rnd, end - 15 * 60) == "15"
    clock.extend(event, rnd, 10, "org", end - 14 * 60)
    assert rnd.calls == [] and clock.make_calls(event, rnd, end - 14 * 60 + 60) is None
    assert clock.make_calls(event, rnd, end - 5 * 60) == "15"
    for minutes in (0, 121):
        with pytest.raises(RuleError, match="between 1 and 120"):
            clock.extend(event, rnd, minutes, "org", end)
    assert clock.make_calls(event, rnd, end + 600) == "time"
    for change in (lambda: clock.pause(event, rnd, "org", end + 700), lambda: clock.extend(event, rnd, 5, "org", end + 700)):
        with pytest.raises(RuleError, match="time has been called"):
            change()
    assert [(e.action, e.detail) for e in event.audit if e.action.startswith("clock")] == [
        ("clock paused", "round 1, 20 min 0 s left"), ("clock extended", "round 1: +5 min, 25 min 0 s left"),
        ("clock resumed", "round 1, 25 min 0 s left"), ("clock extended", "round 1: +10 min, 24 min 0 s left")]


def test_season_rounds_have_no_clock_to_pause():
    event = started_event(["Ann", "Bo"], FLEET, seed=3, kind="season")
    pair_next_round(event, "org", 0)
    rnd = publish_round(event, "org", 1000)
    with pytest.raises(RuleError, match="no round clock"):
        clock.pause(event, rnd, "org", 1100)


async def test_an_organiser_pauses_and_extends_the_clock_through_discord(monkeypatch, tmp_path):
    now = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db"), clock=now) as fake:
        cog = fake.bot.get_cog("League")
        start = int(now.now)
        await published(fake, [ANN, BO], minutes=20)
        refused = fake.slash(ANN, "roundclock", event=1, action="pause")
        await fake.dispatch(refused)
        assert "organisers" in fake.original(refused)["content"]
        now.now = start + 3 * 60
        await fake.dispatch(fake.slash(ORG, "roundclock", permissions=ADMIN, event=1, action="pause"))
        assert last_text(fake) == "Round 1: the round clock is paused with 17 min 0 s left."
        count = len(fake.in_channel(CHANNEL_ID))
        now.now = start + 30 * 60
        await fake.run(cog.tick())
        assert len(fake.in_channel(CHANNEL_ID)) == count  # no call while paused
        asked = fake.slash(BO, "league pairings", event=1)
        await fake.dispatch(asked)
        assert fake.original(asked)["content"].endswith("\nRound clock: the round clock is paused with 17 min 0 s left.")
        now.now = start + 33 * 60
        await fake.dispatch(fake.slash(ORG, "roundclock", permissions=ADMIN, event=1, action="resume"))
        end = start + 50 * 60
        assert last_text(fake) == f"Round 1: time is called <t:{end}:R> (<t:{end}:t>)."
        await fake.dispatch(fake.slash(ORG, "roundclock", permissions=ADMIN, event=1, action="extend", minutes=10))
        end += 10 * 60
        assert last_text(fake) == f"Round 1: time is called <t:{end}:R> (<t:{end}:t>)."
        now.now = end - 15 * 60
        await fake.run(cog.tick())
        assert last_text(fake) == f"Round 1: 15 minutes left on the clock (time is called <t:{end}:t>)."
        audit = fake.slash(ORG, "league audit", permissions=ADMIN, event=1)
        await fake.dispatch(audit)
        trail = fake.original(audit)["content"]
        assert "clock paused: round 1, 17 min 0 s left" in trail and "clock resumed: round 1, 17 min 0 s left" in trail
        assert "clock extended: round 1: +10 min, 27 min 0 s left" in trail
        now.now = end
        await fake.run(cog.tick())
        assert last_text(fake).startswith("Round 1: time! Play stops now.")
