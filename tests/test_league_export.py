"""Exports: standings and pairings as CSV and JSON read back to the same rows, the printable
one-page standings, and /league export, /league repair and /league player through Discord."""
import io
import json

from PIL import Image

from engine.league import export
from engine.league.event import close
from engine.league.standings import standings
from images.printable import HEIGHT, WIDTH, render_printable
from tests.discord_harness import CHANNEL_ID, FakeDiscord
from tests.league_helpers import fleet, started_event
from tests.test_league_discord import ADMIN, ANN, BO, ORG, last_text
from tests.test_league_organisers import play_round
from tests.test_league_seasons import CY, DEE, published

FLEET = fleet(100)
NAMES = ["Ann", "Bo", "Cy", "Dee", "Eve"]


def finished_event(**options):
    event = started_event(NAMES, FLEET, seed=8, rounds_planned=2, **options)
    for _ in range(event.rounds_planned):
        play_round(event)
    while event.top_cut and len([r for r in event.rounds if r.cut]) < 2:
        play_round(event)
    close(event, "org", 9)
    return event


def test_standings_and_pairings_survive_csv_and_json():
    for event in (finished_event(), finished_event(top_cut=3)):
        fields = export.standings_fields(event)
        rows = export.standings_rows(event)
        assert export.read_csv(fields, export.standings_csv(event)) == rows
        pairings = export.pairing_rows(event)
        assert export.read_csv(export.PAIRING_FIELDS, export.pairings_csv(event)) == pairings
        document = json.loads(export.write_json(event))
        assert document["standings"] == rows and document["pairings"] == pairings
        assert [r["player"] for r in rows] == [s.player for s in standings(event)]
        assert [r["prize"] for r in rows] == [True, True, True, False, False]


def test_what_the_rows_say():
    event = finished_event(top_cut=3)
    pairings = export.pairing_rows(event)
    byes = [p for p in pairings if p["status"] == "bye"]
    assert [(p["round"], p["stage"], p["table"]) for p in byes] == [(1, "swiss", 0), (2, "swiss", 0), (3, "top cut", 0)]
    final = pairings[-1]
    assert final["stage"] == "top cut" and final["winner"] in (final["player_a"], final["player_b"])
    played = next(p for p in pairings if p["status"] == "final" and p["stage"] == "swiss")
    assert played["points_a"] == 50 and played["points_b"] == 0  # squad points left
    champion = export.standings_rows(event)[0]
    assert champion["round_4"].startswith("top cut win vs ")
    assert export.standings_rows(event)[0]["title"] == "Admiral"


def test_the_printable_page_is_one_a4_page_whatever_the_field():
    event = finished_event()
    for rows in (standings(event), standings(event) * 20):
        page = Image.open(io.BytesIO(render_printable(event.name, rows, "FP", "Final standings")))
        assert page.size == (WIDTH, HEIGHT) == (1240, 1754)


async def test_organiser_tools_and_exports_through_discord(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        event = await published(fake, [ANN, BO, CY, DEE], rounds=1)
        members = {m["id"]: m for m in (ANN, BO, CY, DEE)}
        absent = members[event.rounds[0].games[0].players[0]]
        await fake.dispatch(fake.slash(ORG, "league player", permissions=ADMIN, event=1, player=absent, action="drop"))
        assert last_text(fake) == f"{absent['username']} has dropped."
        repair = fake.slash(ORG, "league repair", permissions=ADMIN, event=1)
        await fake.dispatch(repair)
        again = fake.original(repair)["content"]
        assert again.startswith("Round 1 paired again (a preview: publish it when it is right):")
        assert absent["username"] not in again.split("\n", 1)[1].split("Round 1 is drawn")[0]
        await fake.dispatch(fake.slash(ORG, "league player", permissions=ADMIN, event=1, player=absent, action="readd"))
        assert last_text(fake) == f"{absent['username']} is back in the event from round 1."
        refused = fake.slash(ANN, "league repair", event=1)
        await fake.dispatch(refused)
        assert fake.original(refused)["content"] == "Only the server's event organisers can do that."
        await fake.dispatch(fake.slash(ANN, "league export", event=1))
        files = dict(next(s for s in reversed(fake.sent) if s.files).files)
        assert sorted(files) == ["event-1-pairings.csv", "event-1-standings.csv", "event-1-standings.png", "event-1.json"]
        assert Image.open(io.BytesIO(files["event-1-standings.png"])).size == (1240, 1754)
        assert json.loads(files["event-1.json"])["event"] == "Season"
        assert fake.in_channel(CHANNEL_ID)[-1]["content"].startswith("'Season': standings and pairings")
