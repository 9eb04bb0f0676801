"""The operators' metrics (metrics.py): scraped over HTTP during a game played through the fake
Discord, on SQLite and on PostgreSQL; off unless a port is set; a bad port is refused."""
from __future__ import annotations

import asyncio
import random
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import Config, make_bot
from metrics import Metrics, request_kind
from tests.discord_harness import FakeDiscord, choose, open_panel
from tests.test_discord_game import ANN, BO, new_game

MOVES = 4
TICKS_AWAITED = 200  # a guard against a hang while waiting for the ticker, not a timing


async def scrape(port: int) -> dict[tuple[str, tuple], float]:
    """(sample name, sorted labels) -> value, read from http://127.0.0.1:port/metrics."""
    def get() -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as answer:
            assert answer.headers["Content-Type"].startswith("text/plain")
            return answer.read().decode()
    text = await asyncio.to_thread(get)
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def total(samples: dict, name: str, **labels: str) -> float:
    """The sum of the samples called `name` whose labels include `labels`."""
    return sum(value for (found, have), value in samples.items()
               if found == name and set(labels.items()) <= set(have))


async def play(fake: FakeDiscord, game_id: int, thread: int, moves: int) -> None:
    """`moves` random legal moves, each a player opening the panel and clicking a command."""
    rng, members = random.Random(3), {int(ANN["id"]): ANN, int(BO["id"]): BO}
    for _ in range(moves):
        info = await fake.bot.service.get(game_id)
        member = members[info.awaited[0].user_id]
        _, commands = await fake.bot.service.legal_commands(game_id, int(member["id"]))
        panel = await open_panel(fake, member, thread)
        await choose(fake, member, panel, commands, rng.randrange(len(commands)))


async def test_a_game_moves_the_counters_an_operator_scrapes(monkeypatch, database_url):
    async with FakeDiscord(monkeypatch, database_url, metrics_port=0) as fake:
        port = fake.bot.metrics.port
        thread, game_id = await new_game(fake)
        before = await scrape(port)
        fake.fail("POST", r"/channels/\d+/messages", 429, times=1)  # Discord slows the bot down once
        fake.fail("PATCH", r"/channels/\d+/messages/\d+", 429, times=1)
        await play(fake, game_id, thread, MOVES)
        await fake.dispatch(fake.slash(ANN, "play", thread, command="beam up the whole ship"))  # refused (P32)
        for _ in range(TICKS_AWAITED):  # the ticker counts the games in memory on its next tick
            after = await scrape(port)
            if total(after, "ready_room_games_in_memory", shard="0") == 1:
                break
            await asyncio.sleep(fake.bot.metrics.tick / 4)
        moved = {key: total(after, name, **labels) - total(before, name, **labels) for key, name, labels in [
            ("actions", "ready_room_actions_total", {"outcome": "done"}),
            ("refused", "ready_room_actions_total", {"outcome": "refused"}),
            ("timed", "ready_room_action_seconds_count", {}),
            ("answers", "ready_room_discord_requests_total", {"kind": "POST /interactions/{id}/{token}/callback"}),
            ("posts", "ready_room_discord_requests_total", {"kind": "POST /channels/{id}/messages"}),
            ("429s", "ready_room_discord_requests_total", {"status": "429"}),
            ("rate limited", "ready_room_discord_rate_limited_total", {}),
            ("commits", "ready_room_db_statement_seconds_count", {"kind": "game writes"}),
            ("reads", "ready_room_db_statement_seconds_count", {"kind": "SELECT"})]}
    assert moved["actions"] == MOVES and moved["refused"] == 1 and moved["timed"] == MOVES + 1
    assert moved["answers"] >= 2 * MOVES  # each panel opened, each click answered
    assert moved["posts"] >= 1
    assert moved["429s"] == moved["rate limited"] == 2
    assert moved["commits"] >= MOVES and moved["reads"] >= 1
    engine = "postgresql" if database_url.startswith("postgres") else "sqlite"
    assert total(after, "ready_room_db_statement_seconds_count", engine=engine) > 0
    assert total(after, "ready_room_games_in_memory", shard="0") == 1
    assert total(after, "ready_room_event_loop_lag_seconds_count") >= 1
    assert total(after, "process_cpu_seconds_total") > 0


async def test_without_a_port_nothing_is_measured_nor_served():
    bot = make_bot(Config(token="fake", database=":memory:", dev_guild=None))
    assert bot.metrics is None and bot.http.http_trace is None
    assert Config.from_env({}).metrics_port is None
    assert Config.from_env({"READY_ROOM_METRICS_PORT": "9108"}).metrics_port == 9108


@pytest.mark.parametrize("port", ["metrics", "0", "70000", "-1"])
def test_a_bad_port_is_refused_saying_what_is_expected(port):
    with pytest.raises(ValueError, match="READY_ROOM_METRICS_PORT must be a port number from 1 to 65535"):
        Config.from_env({"READY_ROOM_METRICS_PORT": port})


def test_request_kinds_leave_out_ids_tokens_and_emoji():
    assert request_kind("PATCH", "/api/v10/channels/7/messages/9") == "PATCH /channels/{id}/messages/{id}"
    assert request_kind("POST", "/api/v10/interactions/12/aW50ZXJhY3Rpb24/callback") == \
        "POST /interactions/{id}/{token}/callback"
    assert request_kind("PATCH", "/api/v10/webhooks/1/tok-en/messages/@original") == \
        "PATCH /webhooks/{id}/{token}/messages/@original"
    assert request_kind("PUT", "/api/v10/channels/1/messages/2/reactions/%F0%9F%91%8D/@me") == \
        "PUT /channels/{id}/messages/{id}/reactions/{emoji}/@me"
    assert request_kind("GET", "/api/v10/users/@me") == "GET /users/@me"


def test_a_shard_whose_games_left_memory_reads_zero():
    metrics = Metrics(lambda guild_id: 0 if guild_id is None else guild_id % 2)
    metrics.held([1, 3, 2])
    metrics.held([2])
    assert metrics.games.labels("1")._value.get() == 0
    assert metrics.games.labels("0")._value.get() == 1


async def test_a_port_already_taken_is_refused_saying_which():
    first = Metrics(lambda guild_id: 0)
    port = first.start(0, "127.0.0.1", list)
    try:
        with pytest.raises(OSError, match=f"READY_ROOM_METRICS_PORT {port}: cannot serve metrics there"):
            Metrics(lambda guild_id: 0).start(port, "127.0.0.1", list)
    finally:
        await first.stop()
