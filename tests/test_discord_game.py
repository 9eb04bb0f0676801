"""A whole game through Discord interactions only, against the fake Discord of discord_harness,
on SQLite and on PostgreSQL."""
import json
import random
import threading
from collections import Counter
from types import SimpleNamespace

import yaml
from PIL import Image, ImageDraw

import engine.service.service as service_module

from cogs.table_message import TURNS_PER_TABLE
from images.board import board_key
from tests.discord_harness import CHANNEL_ID, GUILD_ID, FakeDiscord, choose, open_panel, thread_of, user

ANN, BO = user(1, "Ann"), user(2, "Bo")
MEMBERS = {1: ANN, 2: BO}
SEED = 6
MOST_REQUESTS = 10  # to Discord per accepted action: opening the panel, the click, the table, the answer


async def new_game(fake: FakeDiscord, channel: int = CHANNEL_ID) -> tuple[int, int]:
    """/game new inviting Bo, Bo joins, Ann starts: (thread id, game id). A `channel` the
    fake does not have yet is made like the first one."""
    if channel not in fake.channels:
        fake.channels[channel] = {**fake.channels[CHANNEL_ID], "id": str(channel), "name": f"table-{channel}"}
    await fake.dispatch(fake.slash(ANN, "game new", channel, opponent=BO))
    return await bo_joins_and_ann_starts(fake)


async def bo_joins_and_ann_starts(fake: FakeDiscord) -> tuple[int, int]:
    """Bo presses Join on the newest lobby and Ann presses Start: (thread id, game id)."""
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


async def revealed(fake: FakeDiscord, game_id: int, actions: int = 1) -> set[str]:
    """Words the last `actions` actions' events made public (a discarded card, say)."""
    events = [e for entry in (await fake.bot.service.log(game_id))[-actions:] for e in json.loads(entry.events)]
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


class OffTheLoop:
    """Counts drawing surfaces made (every ImageDraw, palette ones included), pictures encoded and
    YAML parsed, on the event loop's thread and off it:
    work that would hold every other game up belongs in a worker thread."""

    def __init__(self, monkeypatch):
        self.loop_thread = threading.get_ident()
        self.on_loop: Counter = Counter()
        self.off_loop: Counter = Counter()
        for owner, name, what in [(ImageDraw.ImageDraw, "__init__", "draw"), (Image.Image, "save", "encode"),
                                  (yaml, "load", "parse"), (yaml, "safe_load", "parse")]:
            monkeypatch.setattr(owner, name, self.watched(getattr(owner, name), what))

    def watched(self, function, what: str):
        def call(*args, **kwargs):
            (self.on_loop if threading.get_ident() == self.loop_thread else self.off_loop)[what] += 1
            return function(*args, **kwargs)
        return call


def same_dice(monkeypatch) -> None:
    """Every new game gets the dice seed SEED, so a test plays the same game each run."""
    monkeypatch.setattr(service_module, "secrets", SimpleNamespace(randbits=lambda bits: SEED))


class PlayByPost:
    """A hand-moved clock: players answer ten minutes apart, so nobody is playing live
    (every newly awaited player is pinged at once)."""

    between_moves = 600.0

    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def awaited(info) -> list[int]:
    """Users the game waits on (none once it is over)."""
    return sorted({t.user_id for t in info.awaited}) if info.status == "active" else []


async def table(fake: FakeDiscord, game_id: int) -> dict:
    """The stored record of the game's table message."""
    return await fake.bot.service.guild_setting(GUILD_ID, f"table:{game_id}")


async def test_a_full_game_from_game_new_to_the_final_score_never_blocks_the_loop(monkeypatch, database_url):
    """Also: from the first command on, no picture is drawn and no content parsed on the event
    loop (how long the loop's callbacks take is measured by benchmarks/discord_game_bench.py)."""
    same_dice(monkeypatch)
    clock = PlayByPost()
    async with FakeDiscord(monkeypatch, database_url, clock=clock) as fake:
        watch = OffTheLoop(monkeypatch)  # from the first command on: the bot's start is not play
        thread, game_id = await new_game(fake)
        opening = fake.in_channel(thread)[-1]
        # Ann pressed Start: only Bo is pinged for the opening decision
        assert "<@2>" in opening["content"] and "<@1>" not in opening["content"]
        assert [a["filename"] for a in opening["attachments"]] == ["board.png"]
        assert (await table(fake, game_id))["message"] == int(opening["id"])
        rng, steps, typed, autocompleted = random.Random(5), 0, 0, False
        posts = edits = rolls = most = shown_actions = redrawn = kept = withheld = waited = 0
        while (info := await fake.bot.service.get(game_id)).status == "active":
            turn = info.awaited[0]
            member = MEMBERS[turn.user_id]
            version, commands = await fake.bot.service.legal_commands(game_id, turn.user_id)
            index = rng.randrange(len(commands))
            moves = [c for c in commands if c.startswith("move ")]
            if moves and not autocompleted:  # autocomplete offers exactly the legal values
                who = moves[0].split()[1]
                spaces = await fake.autocomplete(member, "move", "space", thread, character=who, space="")
                assert spaces == [c.split()[2] for c in moves if c.split()[1] == who][:25]
                autocompleted = True
            stored, sent, messages = await table(fake, game_id), len(fake.sent), len(fake.in_channel(thread))
            earlier = [line for line in fake.messages[stored["message"]]["content"].splitlines() if line[0] == "•"]
            if steps % 9 == 4:
                await fake.dispatch(fake.slash(member, "play", thread, command=commands[index]))
                typed += 1
            else:
                await choose(fake, member, await open_panel(fake, member, thread), commands, index)
            after = await fake.bot.service.get(game_id)
            entries = (await fake.bot.service.log(game_id))[-(after.version - version):]
            assert after.version >= version + 1 and entries[0].command == commands[index]  # and passes by P23
            requests = fake.sent[sent:]
            most = max(most, len(requests))
            assert len(requests) <= MOST_REQUESTS, [(r.method, r.path) for r in requests]
            to_thread = [r for r in requests if r.path.startswith(f"/channels/{thread}/messages")]
            assert len(to_thread) == 1, "one table request per accepted action, whatever else happens"
            update = to_thread[0]
            pictures = [name for name, _ in update.files]
            if any(e["type"] in ("rolled", "rerolled") for entry in entries for e in json.loads(entry.events)):
                assert "dice.png" in pictures
                rolls += 1
            new = fake.in_channel(thread)[messages:]
            newly = set(awaited(after)) - {turn.user_id} - set(stored["awaited"])  # one ping per decision
            shown = (stored.get("shown") or {}).get("board.png")
            board_changed = board_key(await fake.bot.service.view(game_id)) != shown
            if update.method == "PATCH":
                # nobody to call: the table message is edited, nothing posted
                assert update.message_id == stored["message"] and not newly and new == []
                going_on = turn.user_id in awaited(after)  # the actor's panel shows their new board
                assert ("board.png" in pictures) == (board_changed and not going_on), \
                    "a new board picture only when it changed and somebody needs it"
                if board_changed and going_on:  # on the actor's private panel instead
                    assert any(r.ephemeral and "board.png" in [n for n, _ in r.files] for r in requests)
                    withheld += 1
                kept += not board_changed
                shown = fake.messages[stored["message"]]
                assert [line for line in shown["content"].splitlines() if line[0] == "•"][:len(earlier)] == earlier
                assert update.json["allowed_mentions"].get("users", []) == []
                assert len((await table(fake, game_id))["turns"]) <= TURNS_PER_TABLE
                edits += 1
                shown_actions += after.version - version
            else:  # a hand-over, a third turn or the end: one fresh table message calls the newly awaited
                assert update.method == "POST" and len(new) == 1
                assert newly or len(stored["turns"]) == TURNS_PER_TABLE or not awaited(after) or \
                    after.awaited[0].seat not in stored["turns"]
                view = await fake.bot.service.view(game_id)
                mid_activation = bool(view.get("activation")) and bool(awaited(after))
                assert ("board.png" in pictures) == ((board_changed and not mid_activation) or not awaited(after)), \
                    "the board again only when it is not the one above, and not mid-activation (P29)"
                if board_changed and mid_activation:  # the player called sees it on their panel
                    called = MEMBERS[after.awaited[0].user_id]
                    opened = await open_panel(fake, called, thread)
                    assert [a["filename"] for a in opened["attachments"]] == ["board.png"]
                    waited += 1
                pinged = set(map(int, update.json["allowed_mentions"]["users"]))
                assert pinged == newly
                assert all(f"<@{u}>" in new[0]["content"] for u in pinged)
                posts += 1
                redrawn += "board.png" in pictures
                kept += not board_changed
                shown_actions = after.version - version
            hidden = set(await hands(fake, game_id)) - await revealed(fake, game_id, shown_actions)
            for request in fake.public()[sum(not s.ephemeral for s in fake.sent[:sent]):]:
                assert not any(card in request.text for card in hidden), (request.text, hidden)
            steps += 1
            clock.now += clock.between_moves
        final = fake.in_channel(thread)[-1]["content"]
        assert "Final score" in final and "The game is over" in final
        assert await table(fake, game_id) is None
        assert steps > 50 and typed > 3 and posts > 10 and edits > 10 and rolls > 0 and redrawn > 5 and kept > 5 \
            and withheld > 5 and waited > 0
        assert len(fake.in_channel(thread)) == 1 + 1 + posts  # lobby, opening table, one per new decision
        assert all(s.path != "/channels/{}/messages".format(CHANNEL_ID) for s in fake.sent[3:])
    assert watch.on_loop == {}, watch.on_loop
    assert watch.off_loop["draw"] >= redrawn and watch.off_loop["encode"] >= redrawn, watch.off_loop  # every picture sent
