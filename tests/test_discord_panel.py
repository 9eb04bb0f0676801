"""The private panel as a player meets it: it follows you through your own decisions,
asks in words with card names, shows exact odds, offers passing ahead, catches you up
after a while; and /game log is readable and paged. Through the fake Discord."""
import random

import pytest

from tests.discord_harness import EPHEMERAL, FakeDiscord, choose, open_panel
from tests.test_discord_game import MEMBERS, new_game, same_dice
from tests.test_discord_turns import Clock, play_until_a_reaction_window

USERS = {"p1": 1, "p2": 2}


async def play_until(service, game_id: int, wanted, seed: int = 4, limit: int = 800):
    """Random legal play through the service until `wanted(view, commands)` holds for the
    awaited player; (user id, version, commands) then."""
    rng = random.Random(seed)
    for _ in range(limit):
        view = await service.view(game_id)
        user = USERS[view["pending"][0]["player"]]
        version, commands = await service.legal_commands(game_id, user)
        if wanted(view, commands):
            return user, version, commands
        await service.submit(game_id, user, rng.choice(commands), version)
    pytest.fail("the wanted moment never came")


def first_action(view, commands) -> bool:
    decision = view["pending"][0]
    return decision["kind"] == "action" and decision["info"].get("left") == 2 and any(
        c.startswith("move ") for c in commands)


async def test_a_two_action_turn_is_one_press_and_the_panel_asks_in_words(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id = await new_game(fake)
        user, version, commands = await play_until(fake.bot.service, game_id, first_action)
        panel = await open_panel(fake, MEMBERS[user], thread)
        character = commands[0].split()[1] if commands[0].split()[0] in ("move", "attack") else None
        assert "do next? (2 action(s) left)" in panel["content"]
        assert "Your hand:" in panel["content"] and "fed-" not in panel["content"] and "borg-" not in panel["content"]
        words = [c.get("label") or c.get("placeholder") or "" for c in fake.components(panel)]
        words += [o["label"] for c in fake.components(panel) for o in c.get("options", [])]
        assert not [w for w in words if "fed-" in w or "borg-" in w], "names, not card codes, on every control"
        move = next(i for i, c in enumerate(commands) if c.startswith("move "))
        await choose(fake, MEMBERS[user], panel, commands, move)
        followed = fake.messages[int(panel["id"])]
        assert followed["content"].startswith(f"Done: {commands[move]}")
        assert "(1 action(s) left)" in followed["content"], "the same private message asks the second action"
        assert fake.components(followed), "with its choices"
        version, second = await fake.bot.service.legal_commands(game_id, user)
        await choose(fake, MEMBERS[user], followed, second, second.index("pass") if "pass" in second else 0)
        assert (await fake.bot.service.get(game_id)).version == version + 1, "answered without pressing Your move"
        assert character is None or character in commands[move]


async def test_attack_options_carry_their_exact_odds(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id = await new_game(fake)
        user, version, commands = await play_until(
            fake.bot.service, game_id, lambda view, commands: any(c.startswith("attack ") for c in commands))
        panel = await open_panel(fake, MEMBERS[user], thread)
        attacks = {i for i, c in enumerate(commands) if c.startswith("attack ")}
        described = {int(o["value"]): o.get("description") for c in fake.components(panel)
                     if not c["custom_id"].startswith("rr:open:")  # "More choices": its values are groups
                     for o in c.get("options", [])}
        shown = {i: d for i, d in described.items() if i in attacks}
        if not shown:  # the attacks were a lone button or behind "More choices"
            shown = {i: (await fake.bot.service.panel(game_id, user)).odds.get(i) for i in attacks}
        assert shown and all(d and "%" in d and ("damage 0:" in d or "stun" in d) for d in shown.values()), shown
        others = [d for i, d in described.items() if i not in attacks and commands[i].split()[0] == "move"]
        assert all(d is None for d in others)


async def test_passing_ahead_from_the_panel_closes_the_window_and_the_next_ones(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id = await new_game(fake)
        view = await play_until_a_reaction_window(fake.bot.service, game_id)
        seat = view["pending"][0]["player"]
        user = USERS[seat]
        panel = await open_panel(fake, MEMBERS[user], thread)
        ahead = {c["label"]: c["custom_id"] for c in fake.components(panel) if c["custom_id"].startswith("rr:stand:")}
        assert set(ahead) == {"Pass reactions for this activation", "Pass reactions for this round"}
        public = [s.text for s in fake.public()]
        await fake.dispatch(fake.click(MEMBERS[user], int(panel["id"]), ahead["Pass reactions for this round"]))
        after = await fake.bot.service.view(game_id, user)
        assert all(d["player"] != seat for d in after["pending"]), "the open window was passed"
        mine = next(p for p in after["players"] if p["seat"] == seat)
        assert mine["mute"] and all(m.endswith("@round") for m in mine["mute"])
        other = next(p for p in (await fake.bot.service.view(game_id, 3 - user))["players"] if p["seat"] == seat)
        assert "mute" not in other, "the choice is private"
        assert not any("pass in advance" in s.text.lower() for s in fake.public()[len(public):])


async def test_a_pass_ahead_out_of_turn_keeps_the_clock_and_posts_nothing(monkeypatch, tmp_path):
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        thread, game_id = await new_game(fake)
        info = await fake.bot.service.get(game_id)
        idle = ({1, 2} - {t.user_id for t in info.awaited}).pop() if len(info.awaited) == 1 else None
        if idle is None:
            user, version, _ = await play_until(fake.bot.service, game_id, lambda v, c: len(v["pending"]) == 1)
            idle = 3 - user
        waits = [(t.user_id, t.deadline, t.since) for t in (await fake.bot.service.get(game_id)).awaited]
        public = len(fake.public())
        clock.now += 60
        sent = fake.slash(MEMBERS[idle], "play", thread, command="mute reroll")
        await fake.dispatch(sent)
        assert fake.original(sent)["flags"] & EPHEMERAL and "You pass in advance: reroll" in fake.original(sent)["content"]
        assert len(fake.public()) == public, "nothing in the thread"
        assert [(t.user_id, t.deadline, t.since) for t in (await fake.bot.service.get(game_id)).awaited] == waits


async def test_back_after_a_while_the_panel_says_what_happened_since(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        thread, game_id = await new_game(fake)
        service = fake.bot.service
        user, _, _ = await play_until(service, game_id, first_action)
        rng = random.Random(1)
        others = 0
        for _ in range(300):  # the user plays on; the other player answers an hour later each time
            view = await service.view(game_id)
            now = USERS[view["pending"][0]["player"]]
            if now == user and others:
                break
            others += now != user
            clock.now += 0 if now == user else 3600
            version, commands = await service.legal_commands(game_id, now)
            await service.submit(game_id, now, rng.choice(commands), version)
        lines = await service.catch_up(game_id, user)
        assert lines, "the other player did something since"
        panel = await open_panel(fake, MEMBERS[user], thread)
        assert panel["content"].startswith("Since your last move")
        assert lines[-1] in panel["content"]
        assert await service.catch_up(game_id, user, after=10 ** 9) == [], "not when back soon"


async def test_the_log_reads_in_words_and_pages(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id = await new_game(fake)
        await play_until(fake.bot.service, game_id, lambda view, commands: view.get("version", 0) >= 40)
        asked = fake.slash(MEMBERS[1], "game log", thread)
        await fake.dispatch(asked)
        page = fake.original(asked)
        assert page["flags"] & EPHEMERAL and page["content"].startswith(f"**Game #{game_id} log**, page 3 of 3")
        assert "fed-" not in page["content"] and "borg-" not in page["content"]
        earlier = next(c["custom_id"] for c in fake.components(page) if c["label"] == "Earlier")
        await fake.dispatch(fake.click(MEMBERS[1], int(page["id"]), earlier))
        turned = fake.messages[int(page["id"])]
        assert "page 2 of 3" in turned["content"] and {c["label"] for c in fake.components(turned)} == {"Earlier", "Later"}
        assert "\n1. " not in turned["content"] and "\n16. " in turned["content"]


def test_a_long_catch_up_is_cut_but_never_the_question_or_the_hand():
    from cogs.private_panel import panel_text
    from cogs.replies import MAX_CONTENT
    from engine.service import Panel
    shown = Panel(version=3, seat="p1", question="Which dice do Kestrel's attack bonuses raise?", commands=["pass"],
                  labels=["pass"], odds={}, hand=["Hold the Ship"], names={})
    note = "Since your last move:\n" + "\n".join(f"• NPC ships: Warden moves K{n} > K{n + 1}" * 5 for n in range(40))
    text = panel_text(shown, note, "Choose: move ...")
    assert len(text) <= MAX_CONTENT and text.startswith("Since your last move:")
    assert text.endswith("...\n**Which dice do Kestrel's attack bonuses raise?**\nYour hand: Hold the Ship\nChoose: move ...")
    assert panel_text(shown, "Moved.") == ("Moved.\n**Which dice do Kestrel's attack bonuses raise?**\n"
                                           "Your hand: Hold the Ship")
