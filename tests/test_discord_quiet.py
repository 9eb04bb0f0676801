"""Complete games through the fake Discord as two people play them, counting what a
phone sees: new thread messages and pings per round, "Your move" presses per activation.

Players use the panel only: they press "Your move" when they are pinged or see the
button, and keep answering on the same private message while it follows them.
"""
import json
import random
from collections import Counter, defaultdict

import pytest

from tests.discord_harness import FakeDiscord, choose, open_panel
from tests.test_discord_game import MEMBERS, hands, new_game, revealed, same_dice


async def play_game(fake: FakeDiscord, seed: int, prepass: bool) -> dict:
    """Play one game at random through the panels; the figures, per round and overall.
    With `prepass`, a player asked a reaction window passes every window for the round."""
    thread, game_id = await new_game(fake)
    rng = random.Random(seed)
    panels: dict[int, dict] = {}  # user -> their private panel, while it shows their decision
    messages, posted, pings = Counter(), Counter(), defaultdict(Counter)
    presses = activations = prepasses = 0
    pinged_decisions: set[tuple[int, int]] = set()
    while (info := await fake.bot.service.get(game_id)).status == "active":
        round_number = (await fake.bot.service.view(game_id)).get("round", 0)
        user = info.awaited[0].user_id
        member = MEMBERS[user]
        version, commands = await fake.bot.service.legal_commands(game_id, user)
        shown = panels.get(user)
        if shown is None or not fake.components(shown) or f":{version}:" not in json.dumps(fake.components(shown)):
            shown = await open_panel(fake, member, thread)
            presses += 1
        before_sent, before_messages = len(fake.sent), len(fake.in_channel(thread))
        ahead = [c["custom_id"] for c in fake.components(shown)
                 if c["custom_id"].startswith("rr:stand:") and c["label"].endswith("round")]
        if prepass and ahead:
            await fake.dispatch(fake.click(member, int(shown["id"]), ahead[0]))
            prepasses += 1
        else:
            await choose(fake, member, shown, commands, rng.randrange(len(commands)))
        panels[user] = fake.messages[int(shown["id"])]
        events = json.loads((await fake.bot.service.log(game_id))[-1].events)
        activations += sum(e["type"] == "activated" for e in events)
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
        hidden = set(await hands(fake, game_id)) - await revealed(fake, game_id, 1)
        for request in fake.public()[-3:]:
            assert not any(card in request.text for card in hidden), (request.text, hidden)
    shown = "\n".join(m["content"] for m in fake.in_channel(thread))
    for number in (1, 2, 3):  # each round ends with a compact summary in the thread
        assert f"Round {number} is over · Ann " in shown and " in play · Bo " in shown
    rounds = sorted(messages)
    return {
        "messages": [messages[r] for r in rounds],
        "posted": [posted[r] for r in rounds],
        "pings": [max(pings[r].values(), default=0) for r in rounds],
        "presses_per_activation": presses / max(activations, 1),
        "activations": activations,
        "prepasses": prepasses,
    }


@pytest.mark.parametrize("seed", [3, 11])
async def test_a_round_is_quiet_enough_for_a_phone(monkeypatch, tmp_path, seed, capsys):
    same_dice(monkeypatch)
    figures = {}
    for prepass in (False, True):
        async with FakeDiscord(monkeypatch, str(tmp_path / f"g{prepass}.db")) as fake:
            figures[prepass] = await play_game(fake, seed, prepass)
        with capsys.disabled():
            shown = figures[prepass]
            print(f"\nseed {seed}, {'pre-passing each round' if prepass else 'answering every window'}: "
                  f"thread messages left per round {shown['messages']} (posted, pings included: "
                  f"{shown['posted']}), most pings for one player per round "
                  f"{shown['pings']}, 'Your move' presses per activation {shown['presses_per_activation']:.2f} "
                  f"over {shown['activations']} activations")
    assert figures[True]["prepasses"] > 0 and figures[True]["activations"] > 10
    assert sum(figures[True]["pings"]) < sum(figures[False]["pings"])
