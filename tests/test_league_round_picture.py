"""A league round's results and standings as one picture in the event channel, posted once
when the round's last result comes in (ruling L48), whichever way it came (both reports, an
organiser, the deadline, a bot game): through the fake Discord, and the picture and the
round's results in words on their own."""
import io

from PIL import Image

from engine.league import rounds
from engine.league.event import Claim
from engine.league.results import report, round_results
from engine.league.standings import standings
from images.round_results import HEADER, LINE, round_image
from images.standings import PAD, standings_image
from tests.discord_harness import CHANNEL_ID, GUILD_ID, FakeDiscord
from tests.league_helpers import fleet, started_event
from tests.test_league_discord import ADMIN, ANN, BO, ORG, running_round
from tests.test_league_seasons import Clock, published

ROUND_FILE = "event-1-round-1.png"


def pictures_in(message: dict) -> list[str]:
    return [a["filename"] for a in message["attachments"]]


async def test_the_last_result_of_a_round_posts_its_picture_once_in_the_event_channel(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        await running_round(fake)
        await fake.dispatch(fake.slash(ANN, "league report", event=1, winner=ANN, winner_points=45, loser_points=0))
        assert pictures_in(fake.in_channel(CHANNEL_ID)[-1]) == []  # one report: the round is not complete
        await fake.dispatch(fake.slash(BO, "league report", event=1, winner=ANN, winner_points=45, loser_points=0))
        confirmed = fake.in_channel(CHANNEL_ID)[-1]
        assert confirmed["content"].endswith("(confirmed by both players).")
        assert pictures_in(confirmed) == [ROUND_FILE]  # with the line that completed it, in the event channel
        sent = dict(next(s for s in reversed(fake.sent) if s.files).files)
        _row, event = await fake.bot.get_cog("League").desk.get(1)
        picture = Image.open(io.BytesIO(sent[ROUND_FILE]))
        assert picture.width == 550
        assert picture.height == HEADER + 2 * PAD + LINE + standings_image("", standings(event)).height
        posted = len(fake.in_channel(CHANNEL_ID))
        await fake.dispatch(fake.slash(ORG, "league result", permissions=ADMIN, event=1, round=1, table=1,
                                       winner=BO, winner_points=30, loser_points=0, note="fixed"))
        assert len(fake.in_channel(CHANNEL_ID)) == posted + 1  # a fix in a complete round: its line only
        assert pictures_in(fake.in_channel(CHANNEL_ID)[-1]) == []


async def test_a_round_completed_in_a_pairing_thread_is_pictured_in_the_event_channel(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        await running_round(fake)
        thread = fake.add_channel(GUILD_ID, parent_id=CHANNEL_ID)
        await fake.dispatch(fake.slash(ANN, "league report", thread, event=1, winner=BO, winner_points=30,
                                       loser_points=0))
        await fake.dispatch(fake.slash(BO, "league report", thread, event=1, winner=BO, winner_points=30,
                                       loser_points=0))
        assert all(pictures_in(m) == [] for m in fake.in_channel(thread))
        posted = fake.in_channel(CHANNEL_ID)[-1]
        assert posted["content"] == "Round 1 of 'Arena' is complete." and pictures_in(posted) == [ROUND_FILE]


def test_a_round_in_words_and_the_update_that_completes_it():
    event = started_event(["Ann", "Bo", "Cy"], fleet(90), seed=3)
    rnd = rounds.pair_next_round(event, "org", 0)
    rounds.publish_round(event, "org", 0)
    a, b = rnd.games[0].players
    assert rounds.complete_rounds(event) == set()
    claim = Claim(winner=a, surviving={a: 20, b: 0})
    report(event, a, claim)
    assert rounds.complete_rounds(event) == set()
    report(event, b, claim)
    assert rounds.complete_rounds(event) == {1}
    names = {p: event.players[p].name for p in (a, b)}
    table, bye = round_results(event, 1)
    assert table.startswith(f"Table 1: {names[a]} vs {names[b]}: {names[a]} wins (") and "20 SP left" in table
    assert bye == f"Bye: {event.players[rnd.bye].name}"
    two = round_image("Arena", 1, round_results(event, 1), standings(event))
    one = round_image("Arena", 1, round_results(event, 1)[:1], standings(event))
    assert two.height == one.height + LINE and two.width == 550


async def test_a_round_the_deadline_or_a_bot_game_completes_is_pictured_with_its_announcement(monkeypatch, tmp_path):
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db"), clock=clock) as fake:
        event = await published(fake, [ANN, BO], kind="season", round_days=2)
        clock.now = event.rounds[0].deadline
        await fake.run(fake.bot.get_cog("League").tick())
        passed = fake.in_channel(CHANNEL_ID)[-1]
        assert passed["content"].startswith("Round 1 deadline passed.") and pictures_in(passed) == [ROUND_FILE]
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
        await published(fake, [ANN, BO], sheet="Picard 10", build="away_team", profile="awaymissions", max_build=0)
        await fake.dispatch(fake.slash(BO, "league play", event=1, side="borg"))
        thread = max(c for c, data in fake.channels.items() if data["type"] == 11)
        await fake.dispatch(fake.slash(BO, "game concede", thread))
        assert pictures_in(fake.in_channel(CHANNEL_ID)[-1]) == [ROUND_FILE]  # in the event's channel
        assert pictures_in(fake.in_channel(thread)[-1]) == []  # the game's thread gets the line only
