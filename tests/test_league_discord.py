"""/league through Discord interactions (fake Discord of discord_harness): sign-up, build
sign-off by button, matching and mismatching reports, publishing pairings, standings."""
import io
import json

from openskill.models import PlackettLuce
from PIL import Image

from images.standings import PAD, row_top
from engine.league.event import Claim
from engine.service import ratings
from engine.service.league import Actor
from tests.discord_harness import CHANNEL_ID, EVERYONE, GUILD_ID, FakeDiscord, user

ORG, ANN, BO = user(5, "Org"), user(1, "Ann"), user(2, "Bo")
ADMIN = str(int(EVERYONE) | 8)
# build sheets: Ann's fleet costs 90 with a resource of 20 on top; Bo's 100
SHEETS = ((ANN, "Enterprise 40; Kirk 25; Spock 5; Photon Torpedoes 20; resource: Tactical Station 20"),
          (BO, "Negh'Var 50; Martok 30; Disruptors 15; Cloak 5"))


def last_text(fake):
    return fake.in_channel(CHANNEL_ID)[-1]["content"]


async def running_round(fake, **options):
    """Org creates (with `options`) and opens an event, Ann and Bo sign up with builds, Org
    starts, pairs and publishes.

    The bot loads the league cog itself, as every other cog."""
    await fake.dispatch(fake.slash(ORG, "league create", permissions=ADMIN, name="Arena", **options))
    assert last_text(fake) == "Event #1 'Arena' created."
    await fake.dispatch(fake.slash(ORG, "league open", permissions=ADMIN, event=1))
    for member, sheet in SHEETS:
        await fake.dispatch(fake.slash(member, "league signup", event=1))
        build = fake.slash(member, "league build", event=1, sheet=sheet)
        await fake.dispatch(build)
        assert "Build registered" in fake.original(build)["content"]
    assert last_text(fake) == "Bo is signed up."
    await fake.dispatch(fake.slash(ORG, "league start", permissions=ADMIN, event=1))
    preview = fake.slash(ORG, "league pair", permissions=ADMIN, event=1)
    await fake.dispatch(preview)
    assert fake.original(preview)["content"].startswith("Preview of round 1:\nTable 1: ")
    await fake.dispatch(fake.slash(ORG, "league publish", permissions=ADMIN, event=1))
    return fake.in_channel(CHANNEL_ID)[-1]


async def test_sign_up_publish_verify_report_and_standings(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        published = await running_round(fake)
        first, table = published["content"].splitlines()[:2]
        assert first.startswith("Round 1 is published. Round clock: 60 minutes") and table.startswith("Table 1: ")
        # Ann checks Bo's build and signs it off.
        check = fake.click(ANN, int(published["id"]), "rrl:verify:1")
        await fake.dispatch(check)
        shown = fake.original(check)
        _row, event = await fake.bot.get_cog("League").desk.get(1)
        bo_hash = event.players["2"].build_hash
        assert shown["content"].startswith(f"Bo's build, 100 points, hash {bo_hash}:")
        sign = fake.click(ANN, int(shown["id"]), f"rrl:signoff:1:{bo_hash}")
        await fake.dispatch(sign)
        assert fake.original(sign)["content"] == f"Ann signed off Bo's build ({bo_hash})."
        # Both report the same result: confirmed.
        await fake.dispatch(fake.slash(ANN, "league report", event=1, winner=ANN, winner_points=45, loser_points=0))
        assert last_text(fake).endswith("(waiting for the opponent's report).")
        await fake.dispatch(fake.slash(BO, "league report", event=1, winner=ANN, winner_points=45, loser_points=0))
        assert last_text(fake) == "Table 1: Ann wins (Ann 45 SP left, Bo 0 SP left) (confirmed by both players)."
        await fake.dispatch(fake.slash(ANN, "league standings", event=1))
        standings = fake.in_channel(CHANNEL_ID)[-1]
        # the confirmed result rated both players, as openskill rates one win (ruling L33)
        won, lost = (r[0] for r in PlackettLuce().rate([[PlackettLuce().rating()], [PlackettLuce().rating()]]))
        assert standings["content"] == (
            "Standings of 'Arena':\n"
            f"1. Admiral Ann: 2 BP, 120 FP · rating {won.mu - 3 * won.sigma:.1f}\n"
            f"2. Vice Admiral Bo: 1 BP, 75 FP · rating {lost.mu - 3 * lost.sigma:.1f}\n"
            "Ratings are the server's, from bot games and event results (mu - 3 sigma; /profile).")
        files = dict(next(s for s in reversed(fake.sent) if s.files).files)
        assert files["event-1.csv"].decode().splitlines()[1].startswith("1,Admiral,1,Ann,2,120")
        picture = Image.open(io.BytesIO(files["event-1.png"]))
        assert picture.width == 550 and picture.height == row_top(2) + PAD


async def test_mismatched_reports_go_to_the_organisers(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        await running_round(fake)
        await fake.dispatch(fake.slash(ANN, "league report", event=1, winner=ANN, winner_points=45, loser_points=0))
        await fake.dispatch(fake.slash(BO, "league report", event=1, winner=BO, winner_points=30, loser_points=0))
        first, *claims = last_text(fake).splitlines()
        assert first == "Table 1: the reports differ; the organisers will decide."
        assert sorted(claims) == ["Ann: Ann wins (Ann 45 SP left, Bo 0 SP left)",
                                  "Bo: Bo wins (Ann 0 SP left, Bo 30 SP left)"]  # in table seat order


async def test_players_cannot_run_events(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        attempt = fake.slash(ANN, "league create", name="Mine")
        await fake.dispatch(attempt)
        assert fake.original(attempt)["content"] == "Only the server's event organisers can do that."
        assert fake.original(attempt)["flags"] & 64
        assert not json.dumps(fake.in_channel(CHANNEL_ID)).count("created")


def as_admin(payload):
    """A click by a server administrator (the harness clicks with everyday permissions)."""
    payload["member"]["permissions"] = ADMIN
    return payload


def ephemeral_answer(fake, payload):
    answer = fake.original(payload)
    assert answer["flags"] & 64
    return answer


async def disputed(fake):
    """Round 1 with different reports from Ann and Bo."""
    await running_round(fake)
    await fake.dispatch(fake.slash(ANN, "league report", event=1, winner=ANN, winner_points=45, loser_points=0))
    await fake.dispatch(fake.slash(BO, "league report", event=1, winner=BO, winner_points=30, loser_points=0))


async def test_an_organiser_sees_both_claims_side_by_side_and_picks_one(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        await disputed(fake)
        refused = fake.slash(ANN, "league disputes", event=1)
        await fake.dispatch(refused)
        assert ephemeral_answer(fake, refused)["content"] == "Only the server's event organisers can do that."
        listing = fake.slash(ORG, "league disputes", permissions=ADMIN, event=1)
        await fake.dispatch(listing)
        queue = ephemeral_answer(fake, listing)
        [embed] = queue["embeds"]
        assert embed["title"] == "Round 1, table 1"
        assert sorted((f["name"], f["value"], f["inline"]) for f in embed["fields"]) == [
            ("Ann reported", "Ann wins (Ann 45 SP left, Bo 0 SP left)", True),
            ("Bo reported", "Bo wins (Ann 0 SP left, Bo 30 SP left)", True)]
        buttons = {c["label"]: c["custom_id"] for c in fake.components(queue)}
        assert sorted(buttons) == ["R1 T1: Ann's result", "R1 T1: Bo's result"]
        # A player cannot press it; a claim changed since it was shown is not accepted.
        press = fake.click(BO, int(queue["id"]), buttons["R1 T1: Bo's result"])
        await fake.dispatch(press)
        assert "organisers" in fake.original(press)["content"]
        await fake.dispatch(fake.slash(BO, "league report", event=1, winner=BO, winner_points=35, loser_points=0))
        stale = as_admin(fake.click(ORG, int(queue["id"]), buttons["R1 T1: Bo's result"]))
        await fake.dispatch(stale)
        assert "changed since it was shown" in fake.original(stale)["content"]
        # Ann's claim stands as shown: the organiser accepts it and everyone sees it.
        accept = as_admin(fake.click(ORG, int(queue["id"]), buttons["R1 T1: Ann's result"]))
        await fake.dispatch(accept)
        assert last_text(fake) == "Round 1 table 1: Ann wins (Ann 45 SP left, Bo 0 SP left) (organiser)."
        again = fake.slash(ORG, "league disputes", permissions=ADMIN, event=1)
        await fake.dispatch(again)
        assert fake.original(again)["content"] == "No disputed results."
        await fake.dispatch(fake.slash(ORG, "league standings", event=1))
        assert last_text(fake).splitlines()[1].startswith("1. Admiral Ann: 2 BP, 120 FP · rating ")


async def test_an_organiser_enters_and_fixes_results_with_an_audit_trail(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        await disputed(fake)
        await fake.dispatch(fake.slash(ORG, "league result", permissions=ADMIN, event=1, round=1, table=1,
                                       winner=BO, winner_points=30, loser_points=0, note="photo of the table"))
        assert last_text(fake) == "Round 1 table 1: Bo wins (Ann 0 SP left, Bo 30 SP left) (organiser)."
        await fake.dispatch(fake.slash(ORG, "league result", permissions=ADMIN, event=1, round=1, table=1,
                                       not_played=True, note="never met"))
        assert last_text(fake) == "Round 1 table 1: not played (0-0) (organiser)."
        for refused, expected in (
                (fake.slash(ANN, "league result", event=1, round=1, table=1, not_played=True), "organisers"),
                (fake.slash(ORG, "league result", permissions=ADMIN, event=1, round=1, table=2, not_played=True),
                 "There is no table 2 in a published round 1."),
                (fake.slash(ORG, "league result", permissions=ADMIN, event=1, round=1, table=1, winner=ORG),
                 "Name the winner of table 1: ")):
            await fake.dispatch(refused)
            assert expected in ephemeral_answer(fake, refused)["content"]
        audit = fake.slash(ORG, "league audit", permissions=ADMIN, event=1)
        await fake.dispatch(audit)
        trail = [line for line in ephemeral_answer(fake, audit)["content"].splitlines() if " result: " in line]
        assert trail[-2].endswith("<@5> result: round 1 table 1: disputed -> Bo wins (Ann 0 SP left, Bo 30 SP left)"
                                  " (photo of the table)")
        assert trail[-1].endswith("<@5> result: round 1 table 1: Bo wins (Ann 0 SP left, Bo 30 SP left)"
                                  " -> not played (0-0) (never met)")
        assert trail[-1].startswith("<t:")
        await fake.dispatch(fake.slash(ORG, "league standings", event=1))
        assert "Ann: 0 BP, 0 FP" in last_text(fake) and "Bo: 0 BP, 0 FP" in last_text(fake)


async def test_an_organiser_adds_a_late_joiner_who_is_paired_next_round(monkeypatch, tmp_path):
    cy = user(3, "Cy")
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        await running_round(fake)
        refused = fake.slash(ANN, "league latejoin", event=1, player=cy, sheet="Defiant 80")
        await fake.dispatch(refused)
        assert "organisers" in ephemeral_answer(fake, refused)["content"]
        await fake.dispatch(fake.slash(ORG, "league latejoin", permissions=ADMIN, event=1, player=cy,
                                       sheet="Defiant 80"))
        assert last_text(fake) == "Cy joins from round 2."
        for member in (ANN, BO):
            await fake.dispatch(fake.slash(member, "league report", event=1, winner=ANN, winner_points=45,
                                           loser_points=0))
        preview = fake.slash(ORG, "league pair", permissions=ADMIN, event=1)
        await fake.dispatch(preview)
        assert "Cy" in fake.original(preview)["content"]
        await fake.dispatch(fake.slash(ORG, "league standings", event=1))
        assert last_text(fake).splitlines()[-2] == "3. Rear Admiral Cy: 0 BP, 0 FP"  # no rated game yet


def ephemeral_text(fake, payload):
    return fake.original(payload)["content"]


async def test_a_captains_battle_bonus_is_reported_from_discord(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        await running_round(fake, scenario="arena")  # the Arena played at the table
        # at time Ann kept 40 SP and Bo 50, but two of Ann's captains survived the Captains' Battle
        for member in (ANN, BO):
            await fake.dispatch(fake.slash(member, "league report", event=1, winner=ANN, winner_points=40,
                                           loser_points=50, winner_bonus=30))
        assert last_text(fake) == ("Table 1: Ann wins (Ann 40 SP left, Bo 50 SP left, Ann +30 bonus) "
                                   "(confirmed by both players).")
        await fake.dispatch(fake.slash(ANN, "league standings", event=1))
        assert "Ann: 2 BP, 100 FP" in last_text(fake)


async def test_organisers_cancel_a_round_swap_tables_and_score_a_no_show_from_discord(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        await running_round(fake)
        await fake.dispatch(fake.slash(ORG, "league cancel", permissions=ADMIN, event=1))
        assert last_text(fake).startswith("Round 1 is cancelled")
        refused = fake.slash(ANN, "league cancel", event=1)
        await fake.dispatch(refused)
        assert "organisers" in ephemeral_text(fake, refused)
        await fake.dispatch(fake.slash(ORG, "league pair", permissions=ADMIN, event=1))
        await fake.dispatch(fake.slash(ORG, "league publish", permissions=ADMIN, event=1))
        swap = fake.slash(ORG, "league swap", permissions=ADMIN, event=1, first=ANN, second=BO)
        await fake.dispatch(swap)
        assert "different tables" in ephemeral_text(fake, swap)  # two players at one table
        await fake.dispatch(fake.slash(ORG, "league result", permissions=ADMIN, event=1, round=1, table=1,
                                       winner=ANN, forfeit=True, note="Bo did not show"))
        assert last_text(fake) == "Round 1 table 1: Ann wins by forfeit (organiser)."
        audit = fake.slash(ORG, "league audit", permissions=ADMIN, event=1)
        await fake.dispatch(audit)
        trail = ephemeral_text(fake, audit)
        assert "cancel round: round 1: T1 " in trail and "Bo did not show" in trail


async def test_sign_off_by_the_sheet_shown(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        await running_round(fake)
        wrong = fake.slash(ANN, "league signoff", event=1, sheet="Negh'Var 45; Martok 30; Disruptors 15; Cloak 5")
        await fake.dispatch(wrong)
        assert "not Bo's locked build" in ephemeral_text(fake, wrong)
        right = fake.slash(ANN, "league signoff", event=1, sheet=SHEETS[1][1])
        await fake.dispatch(right)
        assert ephemeral_text(fake, right).startswith("Ann signed off Bo's build (")


async def test_profile_shows_the_event_result_and_a_new_season_carries_the_rating_over(monkeypatch, tmp_path):
    """Issue 17 item 6 through Discord: a confirmed result is in /profile beside bot games;
    an organiser begins a season (not a player), and the carried rating shows wider."""
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        await running_round(fake)
        for member in (ANN, BO):
            await fake.dispatch(fake.slash(member, "league report", event=1, winner=ANN, winner_points=45,
                                           loser_points=0))
        won, _lost = (r[0] for r in PlackettLuce().rate([[PlackettLuce().rating()], [PlackettLuce().rating()]]))
        profile = fake.slash(ANN, "profile")
        await fake.dispatch(profile)
        text = fake.original(profile)["content"]
        assert (f"Rating here: **{won.mu - 3 * won.sigma:.1f}** (mu {won.mu:.1f}, sigma {won.sigma:.1f}; "
                "1 rated game: 0 bot games, 1 event game; season 1: 1)") in text
        refused = fake.slash(BO, "season", start=True, name="Spring")
        await fake.dispatch(refused)
        assert "organisers" in ephemeral_answer(fake, refused)["content"]
        await fake.dispatch(fake.slash(ORG, "season", permissions=ADMIN, start=True, name="Spring"))
        assert last_text(fake).startswith("Rating season 2 ('Spring') begins now.")
        seasons = fake.slash(BO, "season")
        await fake.dispatch(seasons)
        listed = ephemeral_answer(fake, seasons)["content"].splitlines()
        assert listed[0] == "Rating seasons here (the current one is 2):"
        assert listed[1] == "Season 1 'Season 1'" and listed[2].startswith("Season 2 'Spring', from <t:")
        again = fake.slash(ANN, "profile")
        await fake.dispatch(again)
        carried = fake.original(again)["content"]
        sigma = ratings.widened(won.sigma, 1)
        assert f"Rating here: **{won.mu - 3 * sigma:.1f}** (mu {won.mu:.1f}, sigma {sigma:.1f}; " in carried
        assert "season 2: 0)" in carried


async def test_the_leaderboard_pages_ten_players_at_a_time(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        desk, organiser = fake.bot.get_cog("League").desk, Actor(ORG["id"], admin=True)
        event = (await desk.create_event(GUILD_ID, organiser, "Big", seed=3)).event_id
        await desk.open(event, organiser)
        players = range(1, 25)
        for user_id in players:
            await desk.register(event, user_id, f"P{user_id:02d}")
            await desk.submit_build(event, user_id, {"kind": "fleet", "entries": [{"name": "Ship", "points": 50}]})
        await desk.start(event, organiser)
        await desk.preview_round(event, organiser)
        rnd = (await desk.publish_round(event, organiser)).event.rounds[0]
        for game in rnd.games:
            won, lost = sorted(game.players, key=int)
            await desk.resolve(event, organiser, 1, game.table, Claim(winner=won, surviving={won: 50, lost: 0}))
        first = fake.slash(BO, "leaderboard")
        await fake.dispatch(first)
        page = fake.original(first)
        lines = page["content"].splitlines()
        assert lines[0].endswith("page 1 of 3") and len(lines) == 11 and lines[1].startswith("1. ")
        assert [c["label"] for c in fake.components(page)] == ["Next"]
        following = fake.click(BO, int(page["id"]), f"rr:board:{GUILD_ID}:2")
        await fake.dispatch(following)
        second = fake.original(following)
        assert second["content"].splitlines()[1].startswith("11. ")
        assert [c["label"] for c in fake.components(second)] == ["Previous", "Next"]
        last = fake.click(BO, int(second["id"]), f"rr:board:{GUILD_ID}:3")
        await fake.dispatch(last)
        third = fake.original(last)["content"].splitlines()
        assert len(third) == 5 and third[-1].startswith("24. ")
        shown = [int(line.split("<@")[1].split(">")[0])
                 for line in lines[1:] + second["content"].splitlines()[1:] + third[1:]]
        assert sorted(shown) == list(players)  # everyone once, the twelve winners first
        assert set(shown[:12]) == {int(min(g.players, key=int)) for g in rnd.games}


async def test_league_commands_and_buttons_during_a_busy_database_say_try_again_and_change_nothing(
        monkeypatch, tmp_path):
    """Another program holds the database's write lock past the bot's wait: a /league command
    and a league button are each answered privately that nothing changed and to try again (the
    one answer every command and button gives, cogs.replies.answer_busy), nothing is logged as
    an error, and once the lock is let go the same actions go through."""
    import sqlite3

    from engine.service import GameService
    from engine.service.errors import BUSY
    opened = GameService.open.__func__
    monkeypatch.setattr(GameService, "open", classmethod(
        lambda cls, path, **options: opened(cls, path, **{**options, "busy_timeout_ms": 100})))
    path = str(tmp_path / "bot.db")
    async with FakeDiscord(monkeypatch, path) as fake:
        published = await running_round(fake)
        desk = fake.bot.get_cog("League").desk
        _row, event = await desk.get(1)
        bo_hash = event.players["2"].build_hash
        check = fake.click(ANN, int(published["id"]), "rrl:verify:1")
        await fake.dispatch(check)  # the build shown, with its sign-off button
        before = (await desk.get(1))[0]
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another program's write transaction
        try:
            report = fake.slash(ANN, "league report", event=1, winner=ANN, winner_points=45, loser_points=0)
            sign = fake.click(ANN, int(fake.original(check)["id"]), f"rrl:signoff:1:{bo_hash}")
            for payload in (report, sign):
                await fake.dispatch(payload)
                answer = fake.original(payload)
                assert (answer["content"], answer["flags"] & 64) == (BUSY, 64)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert (await desk.get(1))[0] == before  # nothing changed
        await fake.dispatch(sign)
        assert fake.original(sign)["content"] == f"Ann signed off Bo's build ({bo_hash})."
        await fake.dispatch(fake.slash(ANN, "league report", event=1, winner=ANN, winner_points=45, loser_points=0))
        assert last_text(fake).endswith("(waiting for the opponent's report).")
