"""/league through Discord interactions (fake Discord of discord_harness): sign-up, build
sign-off by button, matching and mismatching reports, publishing pairings, standings."""
import json

from tests.discord_harness import CHANNEL_ID, EVERYONE, FakeDiscord, user

ORG, ANN, BO = user(5, "Org"), user(1, "Ann"), user(2, "Bo")
ADMIN = str(int(EVERYONE) | 8)


def last_text(fake):
    return fake.in_channel(CHANNEL_ID)[-1]["content"]


async def running_round(fake):
    """Org creates and opens an event, Ann and Bo sign up with builds, Org starts, pairs and publishes.

    The bot loads the league cog itself, as every other cog."""
    await fake.dispatch(fake.slash(ORG, "league create", permissions=ADMIN, name="Arena"))
    assert last_text(fake) == "Event #1 'Arena' created."
    await fake.dispatch(fake.slash(ORG, "league open", permissions=ADMIN, event=1))
    for member, sheet in ((ANN, "Enterprise 90; resource: Tactical Station 20"), (BO, "Negh'Var 100")):
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
        assert published["content"].startswith("Round 1 is published.\nTable 1: ")
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
        assert standings["content"] == ("Standings of 'Arena':\n1. Admiral Ann: 2 BP, 120 FP\n"
                                        "2. Vice Admiral Bo: 1 BP, 75 FP")
        csv = next(s for s in reversed(fake.sent) if s.files)
        assert csv.files[0][1].decode().splitlines()[1].startswith("1,Admiral,1,Ann,2,120")


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
