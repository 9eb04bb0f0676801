"""Complete games through the fake Discord as two people play them, counting what a
phone sees: new thread messages and pings per round, "Your move" presses per activation.

Players use the panel only: they press "Your move" when they are pinged or see the
button, and keep answering on the same private message while it follows them.
"""
import json
import random
from collections import Counter, defaultdict

import pytest

from cogs.pings import LIVE_GRACE
from tests.discord_harness import GUILD_ID, FakeDiscord, choose, open_panel
from tests.test_discord_game import MEMBERS, PlayByPost, hands, new_game, revealed, same_dice


async def play_game(fake: FakeDiscord, seed: int, prepass: bool, clock=None) -> dict:
    """Play one game at random through the panels; the figures, per round and overall.
    With `prepass`, a player asked a reaction window passes every window for the round;
    with a `clock`, ten minutes pass between answers (play by post), else none (live)."""
    thread, game_id = await new_game(fake)
    rng = random.Random(seed)
    panels: dict[int, dict] = {}  # user -> their private panel, while it shows their decision
    messages, posted, pings, starts = Counter(), Counter(), defaultdict(Counter), defaultdict(Counter)
    boards, pressed, activated, moves = Counter(), Counter(), Counter(), Counter()
    presses = activations = prepasses = 0
    pinged_decisions: set[tuple[int, int]] = set()
    table_message, table_since = None, 0  # the table message shown now, and the log entries before it
    while (info := await fake.bot.service.get(game_id)).status == "active":
        round_number = (await fake.bot.service.view(game_id)).get("round", 0)
        user = info.awaited[0].user_id
        member = MEMBERS[user]
        version, commands = await fake.bot.service.legal_commands(game_id, user)
        shown = panels.get(user)
        if shown is None or not fake.components(shown) or f":{version}:" not in json.dumps(fake.components(shown)):
            shown = await open_panel(fake, member, thread)
            presses += 1
            pressed[round_number] += 1
        before_sent, before_messages = len(fake.sent), len(fake.in_channel(thread))
        ahead = [c["custom_id"] for c in fake.components(shown)
                 if c["custom_id"].startswith("rr:stand:") and c["label"].endswith("round")]
        if prepass and ahead:
            await fake.dispatch(fake.click(member, int(shown["id"]), ahead[0]))
            prepasses += 1
        else:
            await choose(fake, member, shown, commands, rng.randrange(len(commands)))
        panels[user] = fake.messages[int(shown["id"])]
        done = [c["custom_id"] for c in fake.components(panels[user])
                if c["custom_id"].startswith("rr:stand:") and c["label"].endswith("round")]
        if prepass and done and user not in {t.user_id for t in (await fake.bot.service.get(game_id)).awaited}:
            await fake.dispatch(fake.click(member, int(shown["id"]), done[0]))  # on "Done": pass the round ahead
            prepasses += 1
        if clock is not None:
            clock.now += clock.between_moves
            await fake.run(fake.bot.get_cog("Turns").send_due())  # any reminder due is a ping too
        events = json.loads((await fake.bot.service.log(game_id))[-1].events)
        activations += sum(e["type"] == "activated" for e in events)
        activated[round_number] += sum(e["type"] == "activated" for e in events)
        moves[round_number] += 1
        boards[round_number] += sum(name == "board.png" for r in fake.sent[before_sent:] for name, _ in r.files or ())
        for event in events:
            if event["type"] == "activated":  # the activations each player starts, a call each at most
                starts[round_number][next(s.user_id for s in info.seats if s.seat == event["seat"])] += 1
        messages[round_number] += len(fake.in_channel(thread)) - before_messages  # pings are deleted later
        posted[round_number] += sum(r.method == "POST" and r.path == f"/channels/{thread}/messages"
                                    for r in fake.sent[before_sent:])
        after = await fake.bot.service.get(game_id)
        for request in fake.sent[before_sent:]:
            if request.ephemeral or not request.json or "allowed_mentions" not in request.json:
                continue
            for pinged in map(int, request.json["allowed_mentions"].get("users", [])):
                decision = (pinged, after.version)
                assert decision not in pinged_decisions, "a decision pinged twice"
                pinged_decisions.add(decision)
                pings[round_number][pinged] += 1
        table = await fake.bot.service.guild_setting(GUILD_ID, f"table:{game_id}") or {}
        entries = len(await fake.bot.service.log(game_id))
        if table.get("message") != table_message:  # a fresh table message shows this action's lines only
            table_message, table_since = table.get("message"), entries - 1
        hidden = set(await hands(fake, game_id)) - await revealed(fake, game_id, entries - table_since)
        for request in [r for r in fake.sent[before_sent:] if not r.ephemeral]:
            assert not any(card in request.text for card in hidden), (request.text, hidden)
    shown = "\n".join(m["content"] for m in fake.in_channel(thread))
    for number in (1, 2, 3):  # each round ends with a compact summary in the thread
        assert f"Round {number} is over · Ann " in shown and " in play · Bo " in shown
    rounds = sorted(messages)
    return {
        "messages": [messages[r] for r in rounds],
        "posted": [posted[r] for r in rounds],
        "pings": [max(pings[r].values(), default=0) for r in rounds],
        "beyond": [max((pings[r][u] - starts[r][u] for u in MEMBERS), default=0) for r in rounds if r],
        "boards": [boards[r] for r in rounds],
        "moves": [moves[r] for r in rounds],
        "presses": [round(pressed[r] / activated[r], 2) if activated[r] else pressed[r] for r in rounds],
        "presses_per_activation": presses / max(activations, 1),
        "activations": activations,
        "prepasses": prepasses,
    }


MODES = {"live, answering every window": (False, False), "by post, answering every window": (False, True),
         "by post, passing ahead each round": (True, True)}


@pytest.mark.parametrize("seed", [3, 11])
async def test_a_round_is_quiet_enough_for_a_phone(monkeypatch, tmp_path, seed, capsys):
    same_dice(monkeypatch)
    figures = {}
    for n, (mode, (prepass, by_post)) in enumerate(MODES.items()):
        clock = PlayByPost() if by_post else None
        async with FakeDiscord(monkeypatch, str(tmp_path / f"g{n}.db"), clock=clock) as fake:
            figures[mode] = shown = await play_game(fake, seed, prepass, clock)
        with capsys.disabled():
            print(f"\nseed {seed}, {mode}: thread messages left per round {shown['messages']} (posted, pings "
                  f"included: {shown['posted']}), most pings for one player per round {shown['pings']}, "
                  f"board pictures uploaded per round {shown['boards']} over {shown['moves']} moves, "
                  f"'Your move' presses per activation "
                  f"per round {shown['presses']} (set-up: presses), in all {shown['presses_per_activation']:.2f} "
                  f"over {shown['activations']} activations; pings beyond a player's own activation starts "
                  f"per round {shown['beyond']}")
    live, by_post = figures["live, answering every window"], figures["by post, answering every window"]
    ahead = figures["by post, passing ahead each round"]
    assert ahead["prepasses"] > 0 and ahead["activations"] > 10
    assert sum(ahead["pings"]) < sum(by_post["pings"]), "passing ahead saves pings"
    for shown in figures.values():  # one table message per turn pair: the thread keeps at most 12 a round
        assert max(shown["messages"]) <= 12
    assert max(live["posted"]) <= 12 and max(live["pings"]) <= 1, "nobody playing live is pinged again"
    # set-up, by post: at most 6 pings per player and 12 new messages
    assert ahead["pings"][0] <= 6 and by_post["pings"][0] <= 6 and ahead["posted"][0] <= 12
    # by post, passing ahead: a call for each activation a player starts, and at most 2 more a round
    # (a damage spread to choose, a discard, the first window of a round before the round is passed)
    assert max(ahead["beyond"]) <= 2, ahead


async def test_a_live_player_is_reminded_after_the_grace_only_if_they_have_not_answered(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    clock = PlayByPost()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        thread, game_id = await new_game(fake)
        turns, rng = fake.bot.get_cog("Turns"), random.Random(2)
        handed_over = 0
        for _ in range(400):  # live play: everyone answers at once, until the turn passed twice
            info = await fake.bot.service.get(game_id)
            user = info.awaited[0].user_id
            version, commands = await fake.bot.service.legal_commands(game_id, user)
            sent = len(fake.sent)
            await choose(fake, MEMBERS[user], await open_panel(fake, MEMBERS[user], thread), commands,
                         rng.randrange(len(commands)))
            now = [t.user_id for t in (await fake.bot.service.get(game_id)).awaited]
            mentioned = {int(u) for r in fake.sent[sent:] if not r.ephemeral and r.json
                         for u in (r.json.get("allowed_mentions") or {}).get("users", [])}
            if now and now[0] != user and (game_id, now[0]) in fake.bot.last_acted:
                assert now[0] not in mentioned, "someone who just acted is watching: no ping now"
                handed_over += 1
                if handed_over == 2:
                    break
        waiting = now[0]
        clock.now += LIVE_GRACE - 1
        await fake.run(turns.send_due())
        assert not [m for m in fake.in_channel(thread) if m["content"].startswith(f"Reminder: <@{waiting}>")]
        clock.now += 2
        await fake.run(turns.send_due())
        assert [m for m in fake.in_channel(thread) if m["content"].startswith(f"Reminder: <@{waiting}>")], \
            "not answered within the grace: pinged then"


PASS_AHEAD_SEED = 4  # a game where the player who passes ahead would have been asked a window later that round


async def until_done_offers_passing_ahead(fake: FakeDiscord, thread: int, game_id: int, rng: random.Random):
    """Play through the panels until a player's part is done in the activations and their
    Done message offers passing the round ahead: (user, Done message, that button)."""
    service = fake.bot.service
    for _ in range(400):
        user = (await service.get(game_id)).awaited[0].user_id
        version, commands = await service.legal_commands(game_id, user)
        shown = await open_panel(fake, MEMBERS[user], thread)
        await choose(fake, MEMBERS[user], shown, commands, rng.randrange(len(commands)))
        done = fake.messages[int(shown["id"])]
        ahead = [c for c in fake.components(done)
                 if c["custom_id"].startswith("rr:stand:") and c["label"] == "Pass reactions for the rest of this round"]
        if ahead and user not in {t.user_id for t in (await service.get(game_id)).awaited}:
            return user, done, ahead[0]
    raise AssertionError("nobody was offered to pass ahead on their Done message")


async def windows_left_in_round(fake: FakeDiscord, game_id: int, user: int, rng: random.Random) -> int:
    """Play the rest of the round at random; how many reaction windows `user` was asked."""
    service = fake.bot.service
    seat = next(p["seat"] for p in (await service.view(game_id, user))["players"] if "hand" in p)
    start, windows = (await service.view(game_id))["round"], 0
    while (view := await service.view(game_id))["round"] == start and view["phase"] != "over":
        windows += any(d["player"] == seat and d["kind"] in ("interrupt", "reroll") for d in view["pending"])
        mover = (await service.get(game_id)).awaited[0].user_id
        version, commands = await service.legal_commands(game_id, mover)
        await service.submit(game_id, mover, rng.choice(commands), version)
    return windows


async def test_passing_ahead_when_your_part_is_done_is_private_and_no_window_of_yours_opens(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    asked = {}
    for press in (False, True):  # the same game, without and with the press on Done
        async with FakeDiscord(monkeypatch, str(tmp_path / f"g{press}.db"), clock=PlayByPost()) as fake:
            thread, game_id = await new_game(fake)
            rng, service = random.Random(PASS_AHEAD_SEED), fake.bot.service
            user, done, ahead = await until_done_offers_passing_ahead(fake, thread, game_id, rng)
            if press:
                assert done["content"].startswith("Done:")
                seen, public = await service.view(game_id, 3 - user), len(fake.public())
                await fake.dispatch(fake.click(MEMBERS[user], int(done["id"]), ahead["custom_id"]))
                assert len(fake.public()) == public, "nothing is posted or edited where the others look"
                now = await service.view(game_id, 3 - user)  # the opponent sees nothing but the move counter
                assert {k: v for k, v in now.items() if k != "version"} == {k: v for k, v in seen.items() if k != "version"}
                assert not [c for c in fake.components(fake.messages[int(done["id"])])
                            if c["custom_id"].startswith("rr:stand:")], "offered once a round"
            asked[press] = await windows_left_in_round(fake, game_id, user, random.Random(1))
    assert asked[False] > 0 and asked[True] == 0, asked
