"""/privacy (issue 29 item 37, ruling P16) through the fake Discord, on SQLite and
PostgreSQL: a player sees privately what is stored about them, and once they confirm,
their settings, vacations and ratings are gone, their profile is empty, their seats read
"Player N" in the stored games and campaigns, every opponent's rating is as before, and
every game and campaign still rebuilds from its seed and log."""
import json
import subprocess
import sys

from db.privacy_store import PrivacyStore
from db.rating_store import RatingStore
from engine.service import replay
from tests.discord_harness import GUILD_ID, thread_of, FakeDiscord
from tests.test_discord_game import ANN, BO, new_game
from tests.test_discord_profiles import answer, play
from tests.test_discord_turns import Clock


def forget_button(fake, payload):
    message = fake.original(payload)
    return int(message["id"]), next(c["custom_id"] for c in fake.components(message)
                                     if c["custom_id"].startswith("rr:forget:"))


async def test_privacy_shows_what_is_stored_and_forgets_it_keeping_games_replayable(monkeypatch, database_url):
    clock = Clock()
    async with FakeDiscord(monkeypatch, database_url, clock=clock) as fake:
        db = fake.bot.service.db
        thread, game_id = await new_game(fake)
        await play(fake, clock, game_id, 30)
        await fake.dispatch(fake.slash(BO, "game concede", thread))  # rated: Ann won
        await fake.dispatch(fake.slash(ANN, "campaign new", title="ember", mode="solo"))
        campaign_thread = thread_of(fake)
        await fake.dispatch(fake.slash(ANN, "campaign abandon", campaign_thread))
        await fake.dispatch(fake.slash(ANN, "away quiet", start="22:00", end="07:00", zone="UTC"))
        await fake.dispatch(fake.slash(ANN, "away vacation", days=3, starts_in_days=10))
        await fake.dispatch(fake.slash(ANN, "settings dm", enabled=True))
        await fake.dispatch(fake.slash(ANN, "settings calls", every_hours=8))
        store = RatingStore(db)
        bo_before = await store.rating(GUILD_ID, 2)

        shown = await answer(fake, fake.slash(ANN, "privacy show"))
        assert "Calls: at most every 8 h by DM" in shown
        assert "dm true" in shown and "Quiet hours: 22:00-07:00 (UTC)" in shown and "Vacations: none" not in shown
        assert f"server {GUILD_ID}: mu" in shown and f"#{game_id} (awaymissions, over) as Ann" in shown
        assert "Campaigns (1): #1 (campaign, abandoned) as Ann" in shown

        await fake.dispatch(fake.slash(ANN, "game new"))  # a lobby under way: forgetting waits for it
        ask = fake.slash(ANN, "privacy forget")
        await fake.dispatch(ask)
        assert "cannot be undone" in fake.original(ask)["content"]
        message_id, custom_id = forget_button(fake, ask)
        assert "Only the person who asked" in await answer(fake, fake.click(BO, message_id, custom_id))
        busy = await answer(fake, fake.click(ANN, message_id, custom_id))
        assert "You still play in game #2" in busy and "Nothing was forgotten" in busy
        assert (await PrivacyStore(db).held(1)).settings  # nothing changed
        await fake.dispatch(fake.slash(ANN, "game abort", thread_of(fake)))

        done = await answer(fake, fake.click(ANN, message_id, custom_id))
        assert done.startswith("You are forgotten") and "3 stored seats" in done

        held = await PrivacyStore(db).held(1)
        assert (held.settings, held.vacations, held.ratings, held.games, held.campaigns) == ({}, [], [], [], [])
        shown = await answer(fake, fake.slash(ANN, "privacy show"))
        assert "Settings: none" in shown and "Ratings: none" in shown and "Games you sat in (0): none" in shown
        profile = await answer(fake, fake.slash(ANN, "profile"))
        assert "Games: 0 won of 0" in profile and "Rating here: none yet" in profile
        board = await answer(fake, fake.slash(BO, "leaderboard"))
        assert "1. Bo" in board and "2." not in board  # nobody stands where Ann stood
        assert await store.rating(GUILD_ID, 2) == bo_before  # the opponent's rating is as it was

        seats = await db.seats(game_id)
        mine = next(s for s in seats if s.seat == "p1")
        assert mine.name == "Player 1" and mine.user_id < 0 and {s.name for s in seats} == {"Player 1", "Bo"}
        row = await db.game(game_id)
        assert [p["name"] for p in json.loads(row.config)["players"]] == ["Player 1", "Bo"]
        assert [p["name"] for p in json.loads(row.state)["players"]] == ["Player 1", "Bo"]
        assert "Ann" not in row.config + row.state
        for game in (game_id, 2):
            checked = replay.check(await db.game(game), await db.log(game))
            assert checked.ok or (await db.game(game)).state is None, checked.problem
        assert (await replay.check_campaign(db, 1)).ok
        for extra in ([], [str(game_id), "--verify"]):  # every game and campaign; the dice of the game
            rebuilt = subprocess.run([sys.executable, "-m", "engine.service.replay", database_url, *extra],
                                     capture_output=True, text=True, timeout=300)
            assert rebuilt.returncode == 0, rebuilt.stdout + rebuilt.stderr
        assert "dice VERIFIED" in rebuilt.stdout
        assert '"name":"Player 1"' in (await fake.bot.get_cog("Campaigns").desk.store.get(1)).state
        left = await db._conn.fetch(
            "SELECT (SELECT count(*) FROM seats WHERE user_id = 1) + (SELECT count(*) FROM log WHERE user_id = 1)"
            " + (SELECT count(*) FROM rating_entries WHERE user_id = 1) + (SELECT count(*) FROM ratings WHERE"
            " user_id = 1) + (SELECT count(*) FROM campaign_seats WHERE user_id = 1) + (SELECT count(*) FROM"
            " games WHERE created_by = 1)")
        assert left[0][0] == 0
        sides = [json.loads(r[0]) for r in await db._conn.fetch("SELECT sides FROM rating_results")]
        assert sides and all(1 not in side for teams in sides for side in teams)
