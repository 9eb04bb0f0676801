"""A whole game through Discord interactions only, against the fake Discord of discord_harness."""
import asyncio
import json
import logging
import random

from tests.discord_harness import CHANNEL_ID, FakeDiscord, choose, open_panel, thread_of, user

ANN, BO = user(1, "Ann"), user(2, "Bo")
MEMBERS = {1: ANN, 2: BO}


async def new_game(fake: FakeDiscord) -> tuple[int, int]:
    """/game new inviting Bo, Bo joins, Ann starts: (thread id, game id)."""
    await fake.dispatch(fake.slash(ANN, "game new", opponent=BO))
    thread = thread_of(fake)
    lobby = fake.in_channel(thread)[-1]
    join = next(c["custom_id"] for c in fake.components(lobby) if c["custom_id"].startswith("rr:join:"))
    game_id = int(join.split(":")[2])
    await fake.dispatch(fake.click(BO, int(lobby["id"]), join))
    await fake.dispatch(fake.click(ANN, int(lobby["id"]), f"rr:start:{game_id}"))
    return thread, game_id


async def hands(fake: FakeDiscord, game_id: int) -> list[str]:
    """Every card in a hand right now (each player's own view)."""
    cards = []
    for user_id in MEMBERS:
        view = await fake.bot.service.view(game_id, user_id)
        cards += next(p["hand"] for p in view["players"] if "hand" in p)
    return cards


async def revealed(fake: FakeDiscord, game_id: int) -> set[str]:
    """Words the last action's events made public (a discarded card, say)."""
    events = json.loads((await fake.bot.service.log(game_id))[-1].events)
    words: set[str] = set()

    def walk(value):
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str):
            words.add(value)
    walk([{k: v for k, v in e.items() if k != "private"} for e in events])
    return words


class SlowCallbacks(logging.Handler):
    """Collects asyncio's debug-mode warnings about callbacks that held the loop too long."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.slow: list[str] = []

    def emit(self, record):
        if "took" in record.getMessage() and "Executing" in record.getMessage():
            self.slow.append(record.getMessage())


async def test_a_full_game_from_game_new_to_the_final_score_never_blocks_the_loop(monkeypatch, tmp_path):
    loop = asyncio.get_running_loop()
    loop.set_debug(True)
    loop.slow_callback_duration = 0.1
    watch = SlowCallbacks()
    logging.getLogger("asyncio").addHandler(watch)
    try:
        async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
            thread, game_id = await new_game(fake)
            opening = fake.in_channel(thread)[-1]
            assert "<@1>" in opening["content"] and [a["filename"] for a in opening["attachments"]] == ["board.png"]
            rng, steps, typed, autocompleted = random.Random(5), 0, 0, False
            while (info := await fake.bot.service.get(game_id)).status == "active":
                turn = info.awaited[0]
                member = MEMBERS[turn.user_id]
                version, commands = await fake.bot.service.legal_commands(game_id, turn.user_id)
                sent, messages = len(fake.sent), len(fake.in_channel(thread))
                index = rng.randrange(len(commands))
                moves = [c for c in commands if c.startswith("move ")]
                if moves and not autocompleted:  # autocomplete offers exactly the legal values
                    who = moves[0].split()[1]
                    spaces = await fake.autocomplete(member, "move", "space", thread, character=who, space="")
                    assert spaces == [c.split()[2] for c in moves if c.split()[1] == who][:25]
                    autocompleted = True
                if steps % 9 == 4:
                    await fake.dispatch(fake.slash(member, "play", thread, command=commands[index]))
                    typed += 1
                else:
                    await choose(fake, member, await open_panel(fake, member, thread), commands, index)
                assert (await fake.bot.service.get(game_id)).version == version + 1, commands[index]
                new = fake.in_channel(thread)[messages:]
                assert len(new) == 1, "one public message per accepted action"
                assert new[0]["attachments"][0]["filename"] == "board.png"
                hidden = set(await hands(fake, game_id)) - await revealed(fake, game_id)
                for request in fake.public()[sum(not s.ephemeral for s in fake.sent[:sent]):]:
                    assert not any(card in request.text for card in hidden), (request.text, hidden)
                steps += 1
            final = fake.in_channel(thread)[-1]["content"]
            assert "Final score" in final and "The game is over" in final
            assert steps > 50 and typed > 3
            assert any(a["filename"] == "dice.png" for m in fake.in_channel(thread) for a in m["attachments"])
            assert all(s.path != "/channels/{}/messages".format(CHANNEL_ID) for s in fake.sent[3:])
    finally:
        logging.getLogger("asyncio").removeHandler(watch)
        loop.set_debug(False)
    assert watch.slow == [], watch.slow
