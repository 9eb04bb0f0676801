"""Profiles and ratings (issue 14 item 9) through the fake Discord: /profile, /leaderboard,
ratings changed exactly once per finished rated game, also across restarts."""
import asyncio
import random

from db.rating_store import RatingStore
from tests.discord_harness import GUILD_ID, FakeDiscord, user
from tests.test_discord_game import ANN, BO, new_game
from tests.test_discord_turns import Clock

CY = user(3, "Cy")


async def play(fake, clock, game_id, moves, seconds=60.0, seed=1):
    """`moves` random legal answers, each `seconds` after the one before."""
    rng = random.Random(seed)
    for _ in range(moves):
        info = await fake.bot.service.get(game_id)
        if info.status != "active":
            return
        user_id = info.awaited[0].user_id
        version, commands = await fake.bot.service.legal_commands(game_id, user_id)
        clock.now += seconds
        await fake.bot.service.submit(game_id, user_id, rng.choice(commands), version)


async def answer(fake, payload) -> str:
    await fake.dispatch(payload)
    return fake.original(payload)["content"]


async def counts(fake) -> tuple[int, int]:
    """(recorded games, rating changes) in the database."""
    rows = await fake.bot.service.db._conn.fetch(
        "SELECT (SELECT count(*) FROM rated_games), (SELECT count(*) FROM rating_entries)")
    return tuple(rows[0])


async def test_a_conceded_game_is_rated_once_and_shows_in_profile_and_leaderboard(monkeypatch, tmp_path):
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        thread, game_id = await new_game(fake)
        await play(fake, clock, game_id, 30)
        await fake.dispatch(fake.slash(BO, "game concede", thread))  # the game_over event rates it
        store = RatingStore(fake.bot.service.db)
        ann, bo = await store.rating(GUILD_ID, 1), await store.rating(GUILD_ID, 2)
        assert ann.mu > 25 > bo.mu and ann.games == bo.games == 1
        assert await counts(fake) == (1, 2)
        profile = await answer(fake, fake.slash(ANN, "profile"))
        assert "Games: 1 won of 1" in profile and "Federation 1 won of 1" in profile
        assert "2 players 1 won of 1" in profile and "Average turn time: 1 min over" in profile
        assert f"Rating here: **{ann.mu - 3 * ann.sigma:.1f}**" in profile
        seen_by_cy = await answer(fake, fake.slash(CY, "profile", player=BO))
        assert "**Bo**" in seen_by_cy and "Games: 0 won of 1" in seen_by_cy and "Borg 0 won of 1" in seen_by_cy
        board = await answer(fake, fake.slash(CY, "leaderboard"))
        assert board.index("1. Ann") < board.index("2. Bo")
        # again and again, concurrently, and after a restart: nothing more changes
        players = fake.bot.get_cog("Players")
        assert await asyncio.gather(players.desk.settle_ratings(), players.desk.settle_ratings()) == [[], []]
        await fake.run(players.settle())
        await fake.shutdown()
        await fake.boot()
        assert await counts(fake) == (1, 2)
        assert await RatingStore(fake.bot.service.db).rating(GUILD_ID, 1) == ann
        assert "Ratings: Ann 25.0 →" in next(m["content"] for m in fake.in_channel(thread) if "Seed `" in m["content"])


async def test_a_game_that_ended_while_the_bot_was_down_is_rated_at_start_once(monkeypatch, tmp_path):
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        thread, game_id = await new_game(fake)
        await play(fake, clock, game_id, 10)
        await fake.bot.service.concede(game_id, 1)  # stored, but the bot "dies" before any event
        assert await counts(fake) == (0, 0)
        await fake.shutdown()
        await fake.boot()
        assert await counts(fake) == (1, 2)
        assert (await RatingStore(fake.bot.service.db).rating(GUILD_ID, 2)).games == 1
        await fake.shutdown()
        await fake.boot()
        assert await counts(fake) == (1, 2)


async def test_aborted_and_instantly_conceded_games_are_not_rated(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, first = await new_game(fake)
        await fake.dispatch(fake.slash(ANN, "game abort", thread))
        thread, second = await new_game(fake)
        await fake.dispatch(fake.slash(ANN, "game concede", thread))
        await fake.run(fake.bot.get_cog("Players").settle())
        rows = await fake.bot.service.db._conn.fetch(
            "SELECT game_id, rated, reason FROM rated_games ORDER BY game_id")
        assert [tuple(r) for r in rows] == [(first, 0, "aborted"), (second, 0, "conceded before any move")]
        assert await answer(fake, fake.slash(CY, "leaderboard")) == "No rated game has been played in this server yet."
        profile = await answer(fake, fake.slash(ANN, "profile"))
        assert "Rating here: none yet" in profile and "Games: 0 won of 1; 1 aborted" in profile


async def test_leaving_a_table_counts_as_a_loss_and_the_computer_is_never_rated(monkeypatch, tmp_path):
    from tests.test_discord_tables import three_at_table
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        thread, game_id = await three_at_table(fake)  # Ann (creator), Bo and Cy
        await play(fake, clock, game_id, 12)
        await fake.dispatch(fake.slash(CY, "game leave", channel_id=thread))
        await play(fake, clock, game_id, 12, seed=2)
        # the computer holding Cy's seat is among those a concession makes win: Cy still comes last
        await fake.dispatch(fake.slash(BO, "game concede", channel_id=thread))
        await fake.run(fake.bot.get_cog("Players").settle())
        store = RatingStore(fake.bot.service.db)
        ann, bo, cy = [await store.rating(GUILD_ID, n) for n in (1, 2, 3)]
        assert ann.games == bo.games == cy.games == 1
        assert cy.mu < 25 and cy.mu < bo.mu < ann.mu
        assert {r.user_id for r in await store.ratings(GUILD_ID)} == {1, 2, 3}  # no computer among them
        profile = await answer(fake, fake.slash(ANN, "profile", player=CY))
        assert "Games: 0 won of 1" in profile and "3 players 0 won of 1" in profile

        # a game against the computer alone is recorded, not rated, and gives the computer no rating
        await fake.dispatch(fake.slash(ANN, "game new", computer="easy", side="borg"))
        alone = max(r[0] for r in await fake.bot.service.db._conn.fetch("SELECT id FROM games"))
        await play(fake, clock, alone, 6, seed=3)
        await fake.bot.service.concede(alone, 1)
        await fake.run(fake.bot.get_cog("Players").settle())
        rows = await fake.bot.service.db._conn.fetch("SELECT rated, reason FROM rated_games WHERE game_id = ?", (alone,))
        assert [tuple(r) for r in rows] == [(0, "fewer than two different people (the computer is not rated)")]
        assert {r.user_id for r in await store.ratings(GUILD_ID)} == {1, 2, 3}
        assert (await store.rating(GUILD_ID, 1)).games == 1
