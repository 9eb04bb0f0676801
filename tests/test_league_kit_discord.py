"""The league items of issue 29 (13-21) through the bot's commands on the fake Discord:
one resource per sheet, the build's kind, the Captains' Battle bonus, both players ending
an Arena round, hand swaps that break the pairing rules, the time limit at the command,
two processes writing one event, reports of another table's game, and a stored sheet
changed after it was locked."""
import msgspec

from db import Database
from engine.league import event as league
from engine.league.builds import BuildEntry
from engine.service.league import LeagueService
from tests.discord_harness import CHANNEL_ID, FakeDiscord, user
from tests.test_league_discord import ADMIN, ANN, BO, ORG, SHEETS, last_text
from tests.test_league_seasons import Clock

CY, DEE = user(3, "Cy"), user(4, "Dee")
SHEET_OF = {**dict((m["id"], s) for m, s in SHEETS), CY["id"]: "Bird of Prey 40; Kruge 20; Cloak 5"}


def said(fake, payload):
    """The bot's private answer to a command."""
    answer = fake.original(payload)
    assert answer["flags"] & 64
    return answer["content"]


async def event_with(fake, members, **options):
    """Org runs an event for `members` up to a published round 1; returns the event."""
    await fake.dispatch(fake.slash(ORG, "league create", permissions=ADMIN, name="Kit", **options))
    await fake.dispatch(fake.slash(ORG, "league open", permissions=ADMIN, event=1))
    for member in members:
        await fake.dispatch(fake.slash(member, "league signup", event=1))
        await fake.dispatch(fake.slash(member, "league build", event=1, sheet=SHEET_OF[member["id"]]))
    for step in ("start", "pair", "publish"):
        await fake.dispatch(fake.slash(ORG, f"league {step}", permissions=ADMIN, event=1))
    return await stored(fake)


async def stored(fake):
    _row, event = await fake.bot.get_cog("League").desk.get(1)
    return event


async def test_a_sheet_has_one_resource_and_the_events_kind(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        await fake.dispatch(fake.slash(ORG, "league create", permissions=ADMIN, name="Kit"))
        await fake.dispatch(fake.slash(ORG, "league open", permissions=ADMIN, event=1))
        await fake.dispatch(fake.slash(ANN, "league signup", event=1))
        two = fake.slash(ANN, "league build", event=1, sheet="Enterprise 90; resource: A 5; resource: B 20")
        await fake.dispatch(two)
        assert said(fake, two) == "A fleet takes one resource, not two: 'A' and 'B'. Keep one."
        away = fake.slash(ANN, "league build", event=1, sheet="Picard 10; Riker 8", kind="away_team")
        await fake.dispatch(away)
        assert said(fake, away) == "This event is played with a fleet; that sheet is an away team."
        assert (await stored(fake)).players["1"].build is None
        one = fake.slash(ANN, "league build", event=1, sheet="Enterprise 90; resource: B 20")
        await fake.dispatch(one)
        assert said(fake, one).startswith("Build registered: 110 points")


async def test_a_bonus_without_a_recorded_captains_battle_must_be_one_it_could_give(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        await event_with(fake, [ANN, BO])  # no Arena
        plain = fake.slash(ANN, "league report", event=1, winner=ANN, winner_points=45, loser_points=0,
                           winner_bonus=15)
        await fake.dispatch(plain)
        assert said(fake, plain) == "This event plays no scenario that gives bonus Fleet Points: report without a bonus."
    async with FakeDiscord(monkeypatch, str(tmp_path / "arena.db")) as fake:
        await event_with(fake, [ANN, BO], scenario="arena")  # the Arena played at the table
        for bonus, refusal in (
                ({"winner_bonus": 15, "loser_bonus": 15}, "Only the winner of the Captains' Battle scores its bonus"),
                ({"winner_bonus": 7}, "Ann's bonus is 15 per captain surviving the Captains' Battle: a multiple of "
                                      "15 up to 60."),
                ({"winner_bonus": 600}, "up to 60."),
                ({"loser_bonus": 75}, "Bo's bonus is 15 per captain")):
            report = fake.slash(ANN, "league report", event=1, winner=ANN, winner_points=45, loser_points=0, **bonus)
            await fake.dispatch(report)
            assert refusal in said(fake, report)
        assert (await stored(fake)).rounds[0].games[0].claims == {}
        for member in (ANN, BO):
            await fake.dispatch(fake.slash(member, "league report", event=1, winner=ANN, winner_points=45,
                                           loser_points=0, loser_bonus=30))  # Bo won the battle, Ann the game
        assert last_text(fake).endswith("Bo +30 bonus) (confirmed by both players).")


async def arena_ready(fake, clock=None):
    """An Arena event with Ann and Bo at table 1, both captains named."""
    await event_with(fake, [ANN, BO], scenario="arena")
    await fake.dispatch(fake.slash(ANN, "league arena captains", event=1, captains="Kirk 6, Sulu 4"))
    await fake.dispatch(fake.slash(BO, "league arena captains", event=1, captains="Kor 6, Kang 3"))
    assert "The Arena begins" in last_text(fake)


async def battle(fake):
    return (await stored(fake)).rounds[0].games[0].battle


async def test_an_arena_round_ends_when_both_players_end_it(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        await arena_ready(fake)
        await fake.dispatch(fake.slash(ANN, "league arena do", event=1, command="end"))
        assert last_text(fake).startswith("Ann has ended round 1; its End Phase comes when Bo ends it too.")
        assert (await battle(fake)).mission_tokens == 3
        again = fake.slash(ANN, "league arena do", event=1, command="end")
        await fake.dispatch(again)
        assert said(fake, again) == "You have already ended round 1; it ends when your opponent ends it too."
        await fake.dispatch(fake.slash(BO, "league arena do", event=1, command="end"))
        assert "End of round 1: a mission token is removed (2 left)." in last_text(fake)
        # round 2: Ann gathers and ends; Bo still has his raw-materials action
        await fake.dispatch(fake.slash(ANN, "league arena do", event=1, command="gather Kirk"))
        await fake.dispatch(fake.slash(ANN, "league arena do", event=1, command="end"))
        await fake.dispatch(fake.slash(BO, "league arena do", event=1, command="gather Kor"))
        assert "Kor gathers" in last_text(fake)
        late = fake.slash(ANN, "league arena do", event=1, command="gather Sulu")
        await fake.dispatch(late)
        assert said(fake, late) == "You have ended round 2: your actions wait for the next round."
        state = await battle(fake)
        assert state.round == 2 and state.mission_tokens == 2 and state.ended == ["1"]
        assert {c.name: c.materials > 0 for c in state.captains if c.away} == {"Kirk": True, "Kor": True}


async def test_arena_commands_stop_at_the_time_limit_itself(monkeypatch, tmp_path):
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db"), clock=clock) as fake:
        published_at = clock.now
        await arena_ready(fake)
        clock.now = published_at + 60 * 60  # time, and the clock's loop has not come round yet
        late = fake.slash(ANN, "league arena do", event=1, command="end")
        await fake.dispatch(late)
        assert said(fake, late) == "Time is up in this round: the Arena stops where it is."
        assert (await battle(fake)).ended == []


async def test_a_swap_that_makes_a_rematch_or_a_second_bye_needs_confirming(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        event = await event_with(fake, [ANN, BO, CY])
        first_bye = event.rounds[0].bye
        [game] = event.rounds[0].games
        name = {p: event.players[p].name for p in event.players}
        member = lambda p: user(int(p), name[p])  # noqa: E731
        for player in game.players:
            await fake.dispatch(fake.slash(member(player), "league report", event=1, not_played=True))
        await fake.dispatch(fake.slash(ORG, "league pair", permissions=ADMIN, event=1))
        preview = (await stored(fake)).rounds[1]
        assert preview.bye != first_bye
        a, b = (preview.bye if p == first_bye else p for p in preview.games[0].players)  # the table after the swap
        swap = fake.slash(ORG, "league swap", permissions=ADMIN, event=1, first=member(first_bye),
                          second=member(preview.bye))
        await fake.dispatch(swap)
        assert said(fake, swap) == (
            f"Rematch: {name[a]} and {name[b]} met in round 1. {name[first_bye]} had the bye in "
            "round 1 and would have it again. Swap again with confirm to make it anyway.")
        assert (await stored(fake)).rounds[1] == preview  # nothing changed
        await fake.dispatch(fake.slash(ORG, "league swap", permissions=ADMIN, event=1, first=member(first_bye),
                                       second=member(preview.bye), confirm=True, note="Cy must leave early"))
        lines = last_text(fake).splitlines()
        assert lines[0] == "Round 2 preview changed by hand:" and f"Bye: {name[first_bye]}" in lines
        notes = (await stored(fake)).rounds[1].notes
        assert notes[0] == f"Bye: {name[first_bye]}, given by hand (the draw gave it to {name[preview.bye]})."
        assert not any(n.startswith(f"Bye: {name[preview.bye]}") for n in notes)
        assert notes[-3:] == [f"Changed by hand: {name[first_bye]} and {name[preview.bye]} swapped places "
                              "(Cy must leave early).",
                              f"Rematch: {name[a]} and {name[b]} met in round 1.",
                              f"{name[first_bye]} had the bye in round 1 and would have it again."]


async def test_only_a_games_players_report_it(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        event = await event_with(fake, [ANN, BO, CY])
        [game] = event.rounds[0].games
        a, b = (event.players[p].name for p in game.players)
        for outsider in (user(int(event.rounds[0].bye), "Bye"), DEE):
            report = fake.slash(outsider, "league report", event=1, winner=user(int(game.players[0]), a),
                                winner_points=45, loser_points=0)
            await fake.dispatch(report)
            assert said(fake, report) == (f"Table 1 is {a} and {b}'s game: only its two players report it "
                                          "(organisers enter results).")
        alone = fake.slash(DEE, "league report", event=1, not_played=True)
        await fake.dispatch(alone)
        assert said(fake, alone) == "You have no game in round 1: only a game's two players report it (organisers enter results)."
        assert (await stored(fake)).rounds[0].games[0].claims == {}


async def other_process(path):
    """A second bot process's league desk on the same database file."""
    return LeagueService(await Database.open(path))


async def test_two_processes_writing_one_event_reload_and_apply_again(monkeypatch, tmp_path):
    path = str(tmp_path / "bot.db")
    async with FakeDiscord(monkeypatch, path) as fake:
        await event_with(fake, [ANN, BO])
        other = await other_process(path)
        desk = fake.bot.get_cog("League").desk
        save = desk.store.save
        interfere = [lambda: other.report_score(1, int(BO["id"]), int(ANN["id"]), 45, 0)]

        async def meanwhile(*args, **kwargs):  # the other process stores first, while this one is deciding
            if interfere:
                await interfere.pop()()
            return await save(*args, **kwargs)
        monkeypatch.setattr(desk.store, "save", meanwhile)
        await fake.dispatch(fake.slash(ANN, "league report", event=1, winner=ANN, winner_points=45, loser_points=0))
        assert last_text(fake) == "Table 1: Ann wins (Ann 45 SP left, Bo 0 SP left) (confirmed by both players)."
        # a process that keeps writing: after a few attempts, a clear refusal and nothing stored
        busy = lambda: other._apply(1, lambda event, now: [])  # noqa: E731
        interfere.extend([busy] * 10)
        before = await stored(fake)
        drop = fake.slash(ANN, "league drop", event=1)
        await fake.dispatch(drop)
        assert said(fake, drop) == ("The event kept changing while this was being stored (another process is "
                                    "writing it); nothing was changed. Try again in a moment.")
        assert (await stored(fake)).players == before.players
        await other.db.close()


async def test_a_sheet_changed_in_storage_after_the_lock_is_refused(monkeypatch, tmp_path):
    path = str(tmp_path / "bot.db")
    async with FakeDiscord(monkeypatch, path) as fake:
        event = await event_with(fake, [ANN, BO])
        published = fake.in_channel(CHANNEL_ID)[-1]
        locked = event.players["2"].build_hash
        other = await other_process(path)
        row = await other.store.get(1)
        event.players["2"].build = msgspec.structs.replace(
            event.players["2"].build, entries=(BuildEntry("Negh'Var", points=30),))  # edited behind the bot's back
        await other.store.save(1, row.version, status=row.status, state=league.to_json(event).decode(),
                               next_due=row.next_due, at=row.updated_at)
        check = fake.click(ANN, int(published["id"]), "rrl:verify:1")
        await fake.dispatch(check)
        refusal = (f"Bo's stored build sheet no longer matches its hash {locked}: it was changed after it was "
                   "submitted. An organiser must check it.")
        assert fake.original(check)["content"] == refusal
        sign = fake.slash(ANN, "league signoff", event=1, sheet=SHEETS[1][1])
        await fake.dispatch(sign)
        assert said(fake, sign) == refusal
        await other.db.close()
