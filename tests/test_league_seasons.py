"""Season leagues and bot games through the fake Discord: a thread per pairing, the league
clock (reminders in the threads, then the deadline policy) on a hand-moved clock, the
clock loop's life with the cog, and a linked bot game that reports itself."""
import asyncio
import dataclasses

from cogs.league import League
from tests.discord_harness import CHANNEL_ID, FakeDiscord, user
from tests.test_league_discord import ADMIN, ANN, BO, ORG, last_text

CY, DEE = user(3, "Cy"), user(4, "Dee")
DAY = 86400


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now=1_000_000.0):
        self.now = now

    def __call__(self):
        return self.now


async def published(fake, members, *, sheet="Enterprise 90", build="fleet", **options):
    """Org runs an event up to a published round 1 for `members`; returns the event."""
    await fake.dispatch(fake.slash(ORG, "league create", permissions=ADMIN, name="Season", **options))
    await fake.dispatch(fake.slash(ORG, "league open", permissions=ADMIN, event=1))
    for member in members:
        await fake.dispatch(fake.slash(member, "league signup", event=1))
        await fake.dispatch(fake.slash(member, "league build", event=1, sheet=sheet, kind=build))
    for step in ("start", "pair", "publish"):
        await fake.dispatch(fake.slash(ORG, f"league {step}", permissions=ADMIN, event=1))
    _row, event = await fake.bot.get_cog("League").desk.get(1)
    return event


def threads(fake):
    return [c for c, data in fake.channels.items() if data["type"] == 11]


async def test_a_season_round_opens_a_thread_per_pairing_reminds_it_then_applies_the_deadline(monkeypatch, tmp_path):
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db"), clock=clock) as fake:
        cog = fake.bot.get_cog("League")
        event = await published(fake, [ANN, BO, CY, DEE], kind="season", round_days=2)
        rnd = event.rounds[0]
        assert rnd.deadline == clock.now + 2 * DAY
        stored = await cog.desk.store.threads(1, 1)
        assert [t.thread_id for t in stored] == threads(fake) and len(stored) == 2
        for game, thread in zip(rnd.games, stored):
            a, b = game.players
            opening = fake.in_channel(thread.thread_id)[0]
            assert fake.channels[thread.thread_id]["parent_id"] == str(CHANNEL_ID)
            assert opening["content"].startswith(f"Round 1, table {game.table}: <@{a}> vs <@{b}>, due <t:{rnd.deadline}:f>.")
            assert [c["custom_id"] for c in fake.components(opening)] == ["rrl:verify:1"]
        (a, b), (c, d) = (g.players for g in rnd.games)
        members = {m["id"]: m for m in (ANN, BO, CY, DEE)}
        await fake.dispatch(fake.slash(members[a], "league report", event=1, not_played=True))
        clock.now = rnd.deadline - 3 * DAY
        await fake.run(cog.tick())
        assert all(len(fake.in_channel(t.thread_id)) == 1 for t in stored)  # too early
        clock.now = rnd.deadline - 3600
        await fake.run(cog.tick())
        for thread, (p, q) in zip(stored, ((a, b), (c, d))):
            reminder = fake.in_channel(thread.thread_id)[-1]["content"]
            assert reminder == (f"Reminder: <@{p}> <@{q}>, round 1 table {thread.table_no} is due "
                                f"<t:{rnd.deadline}:R>. Report the result with /league report.")
        sent = next(s for s in reversed(fake.sent) if s.path == f"/channels/{stored[1].thread_id}/messages")
        assert sorted(map(int, sent.json["allowed_mentions"]["users"])) == sorted([int(c), int(d)])
        await fake.run(cog.tick())
        assert all(len(fake.in_channel(t.thread_id)) == 2 for t in stored)  # reminded once
        clock.now = rnd.deadline
        await fake.run(cog.tick())
        # the lone report (not played) stands as reported; nobody reported table 2
        assert last_text(fake) == "Round 1 deadline passed.\nTable 1: not played (0-0)\nTable 2: not played (0-0)"


async def test_one_day_events_open_no_threads(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        await published(fake, [ANN, BO])
        assert threads(fake) == [] and await fake.bot.get_cog("League").desk.store.threads(1, 1) == []


async def test_the_league_clock_runs_while_the_cog_is_loaded(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        assert fake.bot.get_cog("League").task is None  # the harness turns background loops off
        ticked = asyncio.Event()
        real_tick = League.tick

        async def tick(self):
            await real_tick(self)
            ticked.set()

        async def ready():
            return None
        monkeypatch.setattr(League, "tick", tick)
        monkeypatch.setattr(fake.bot, "wait_until_ready", ready)
        monkeypatch.setattr(fake.bot, "config", dataclasses.replace(fake.bot.config, reminder_interval=3600))
        await fake.bot.remove_cog("League")
        await fake.bot.add_cog(League(fake.bot))
        cog = fake.bot.get_cog("League")
        await asyncio.wait_for(ticked.wait(), 300)  # a guard against a hang, not a timing: the first tick comes at once
        await fake.bot.remove_cog("League")
        await asyncio.gather(cog.task, return_exceptions=True)
        assert cog.task.cancelled()


async def rated_rows(fake) -> tuple[list, list]:
    """(rated_games rows, sources in the rating history) of the bot's database."""
    conn = fake.bot.service.db._conn
    games = [tuple(r) for r in await conn.fetch("SELECT game_id, rated, reason FROM rated_games")]
    return games, [r[0] for r in await conn.fetch("SELECT source FROM rating_results ORDER BY at, source")]


async def test_a_linked_bot_game_reports_itself_when_a_player_concedes(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        await published(fake, [ANN, BO], sheet="Picard 10", build="away_team", profile="awaymissions", max_build=0)
        play = fake.slash(BO, "league play", event=1, side="borg")
        await fake.dispatch(play)
        [thread] = threads(fake)
        info = await fake.bot.service.in_channel(CHANNEL_ID, thread)
        assert info.status == "active" and fake.original(play)["content"].startswith(f"Game #{info.id} plays round 1 table 1:")
        assert {(s.user_id, s.name) for s in info.seats} == {(1, "Ann"), (2, "Bo")}
        again = fake.slash(ANN, "league play", event=1)
        await fake.dispatch(again)
        assert fake.original(again)["content"] == f"This pairing is already being played as game #{info.id}."
        await fake.dispatch(fake.slash(BO, "game concede", thread))
        line = f"Table 1: Ann wins (Ann 0 MP, Bo 0 MP) (game #{info.id})."
        assert last_text(fake) == line and fake.in_channel(thread)[-1]["content"] == line
        await fake.dispatch(fake.slash(ANN, "league standings", event=1))
        ann, bo = last_text(fake).splitlines()[1:3]
        assert ann.startswith("1. Admiral Ann: 2 BP, 0 MP · rating ") and bo.startswith("2. Vice Admiral Bo: 1 BP, 0 MP · rating ")
        # counted once (ruling L34): as the event's result, not again as a bot game, also after a restart
        await fake.run(fake.bot.get_cog("Players").settle())
        assert await rated_rows(fake) == ([(info.id, 0, "played for event #1: its result there is rated (L34)")],
                                          ["event:000000001:001:0001"])
        await fake.shutdown()
        await fake.boot()
        await fake.dispatch(fake.slash(ANN, "league standings", event=1))
        assert last_text(fake).splitlines()[1:3] == [ann, bo]
        assert await rated_rows(fake) == ([(info.id, 0, "played for event #1: its result there is rated (L34)")],
                                          ["event:000000001:001:0001"])
        after = fake.slash(ANN, "league play", event=1)
        await fake.dispatch(after)
        assert fake.original(after)["content"] == "You have no game waiting for a result in round 1."


async def test_fleet_events_are_not_played_as_bot_games(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        await published(fake, [ANN, BO])
        play = fake.slash(ANN, "league play", event=1)
        await fake.dispatch(play)
        assert fake.original(play)["content"].startswith("Bot games report mission points")
        assert threads(fake) == []
