"""Who may act, double clicks, restarts, reminders, panels and the owner's sync, through the fake Discord."""
import random

import pytest

from cogs import panel
from tests.discord_harness import EPHEMERAL, OWNER_ID, FakeDiscord, choose, open_panel, thread_of, turn_button, user
from tests.test_discord_game import ANN, BO, MEMBERS, new_game, same_dice, table

CY = user(3, "Cy")


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now=1_000_000.0):
        self.now = now

    def __call__(self):
        return self.now


async def state_of(fake, game_id):
    info = await fake.bot.service.get(game_id)
    return info.version, len(await fake.bot.service.log(game_id))


async def test_only_the_awaited_player_acts_and_others_are_told_why(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id = await new_game(fake)
        # both choose a core mission first; Ann answers, then the game waits on Bo alone
        version, commands = await fake.bot.service.legal_commands(game_id, 1)
        await choose(fake, ANN, await open_panel(fake, ANN, thread), commands, 0)
        info = await fake.bot.service.get(game_id)
        assert [t.user_id for t in info.awaited] == [2]
        before, public = await state_of(fake, game_id), len(fake.in_channel(thread))
        for member, reason in ((ANN, "not your decision"), (CY, "not a player")):
            refused = await open_panel(fake, member, thread)
            assert refused["flags"] & EPHEMERAL and reason in refused["content"] and not refused["components"]
        slash = fake.slash(CY, "pass", thread)
        await fake.dispatch(slash)
        assert "not a player" in fake.original(slash)["content"]
        assert await state_of(fake, game_id) == before and len(fake.in_channel(thread)) == public


async def test_a_double_click_is_applied_once(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id = await new_game(fake)
        version, commands = await fake.bot.service.legal_commands(game_id, 1)
        shown = await open_panel(fake, ANN, thread)
        pick = next(c["custom_id"] for c in fake.components(shown) if c["custom_id"].startswith("rr:pick:"))
        public, sent = len(fake.in_channel(thread)), len(fake.sent)
        await fake.dispatch(fake.click(ANN, int(shown["id"]), pick, ["0"]),
                            fake.click(ANN, int(shown["id"]), pick, ["0"]))
        assert (await fake.bot.service.get(game_id)).version == version + 1
        # Bo was asked already: the table message is edited once, nothing new is posted
        assert len(await fake.bot.service.log(game_id)) == 1 and len(fake.in_channel(thread)) == public
        assert len([s for s in fake.sent[sent:] if s.method == "PATCH" and s.path.startswith(f"/channels/{thread}/")]) == 1
        notes = [s.json["content"] for s in fake.sent[sent:] if s.ephemeral and s.json and "content" in s.json]
        assert any("moved on" in n for n in notes)


async def test_old_buttons_work_after_a_restart(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id = await new_game(fake)
        for user_id in (1, 2):  # both core missions
            version, commands = await fake.bot.service.legal_commands(game_id, user_id)
            await choose(fake, MEMBERS[user_id], await open_panel(fake, MEMBERS[user_id], thread), commands, 0)
        info = await fake.bot.service.get(game_id)
        member = MEMBERS[info.awaited[0].user_id]
        shown = await open_panel(fake, member, thread)  # a panel opened before the restart
        await fake.shutdown()
        await fake.boot()
        version, commands = await fake.bot.service.legal_commands(game_id, info.awaited[0].user_id)
        await choose(fake, member, shown, commands, len(commands) - 1)  # its buttons still work
        assert (await fake.bot.service.get(game_id)).version == version + 1
        old_message = (await table(fake, game_id))["message"]
        for _ in range(100):  # until a fresh table message: the one before keeps its last "Your move"
            if (await table(fake, game_id))["message"] != old_message:
                break
            user_id = (await fake.bot.service.get(game_id)).awaited[0].user_id
            _, commands = await fake.bot.service.legal_commands(game_id, user_id)
            await fake.dispatch(fake.slash(MEMBERS[user_id], "play", thread, command=commands[0]))
        old_button = turn_button(fake, thread, old_message)
        info = await fake.bot.service.get(game_id)
        assert old_button[1].split(":")[-1] != str(info.version), "an old button"
        press, sent = fake.click(MEMBERS[info.awaited[0].user_id], *old_button), len(fake.sent)  # an old "Your move"
        await fake.dispatch(press)
        opened = [fake.messages[r.message_id] for r in fake.sent[sent:] if r.ephemeral and r.posts]
        assert opened and fake.components(opened[0]), "the old button opened the current panel"
        assert not fake.components(fake.original(press)), "and went from the old message (P30)"


async def test_a_reminder_fires_after_the_wait_once_and_survives_a_restart(monkeypatch, tmp_path):
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        await fake.dispatch(fake.slash(ANN, "game new", opponent=BO, remind_hours=2.0))
        thread = thread_of(fake)
        lobby = fake.in_channel(thread)[-1]
        await fake.dispatch(fake.click(BO, int(lobby["id"]), fake.components(lobby)[0]["custom_id"]))
        await fake.dispatch(fake.click(ANN, int(lobby["id"]), fake.components(fake.messages[int(lobby["id"])])[0]["custom_id"]))
        await fake.shutdown()
        clock.now += 2 * 3600 - 1
        await fake.boot()
        turns = fake.bot.get_cog("Turns")
        assert await fake.run(turns.send_due()) == [0]
        clock.now += 1
        public = len(fake.in_channel(thread))
        assert await fake.run(turns.send_due()) == [2]  # both players owe a core mission
        nudges = fake.in_channel(thread)[public:]  # both in one message: no burst of sends per game
        assert [m["content"].split(", game")[0] for m in nudges] == ["Reminder: <@1>, <@2>"]
        assert fake.components(nudges[0])[0]["custom_id"].startswith("rr:turn:")
        assert await fake.run(turns.send_due()) == [0]


async def test_a_user_who_opted_in_gets_reminders_by_dm(monkeypatch, tmp_path):
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        await fake.dispatch(fake.slash(BO, "settings dm", enabled=True))
        thread, game_id = await new_game(fake)
        clock.now += 25 * 3600
        public = len(fake.in_channel(thread))
        await fake.run(fake.bot.get_cog("Turns").send_due())
        dms = [m for m in fake.messages.values() if fake.channels.get(int(m["channel_id"]), {}).get("type") == 1]
        assert len(dms) == 1 and "<@2>" in dms[0]["content"]
        assert ["<@1>" in m["content"] for m in fake.in_channel(thread)[public:]] == [True]


async def test_game_mine_lists_the_games_waiting_for_me(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id = await new_game(fake)
        mine = fake.slash(BO, "game mine")
        await fake.dispatch(mine)
        assert f"Game #{game_id}" in fake.original(mine)["content"]
        status = fake.slash(CY, "game status", thread)
        await fake.dispatch(status)
        assert "Waiting for Ann, Bo" in fake.original(status)["content"]
        abort = fake.slash(CY, "game abort", thread)
        await fake.dispatch(abort)
        assert "Only the game's creator" in fake.original(abort)["content"]
        await fake.dispatch(fake.slash(ANN, "game abort", thread))
        assert (await fake.bot.service.get(game_id)).status == "aborted"


async def test_the_owner_syncs_the_command_tree_and_nobody_else_can(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        for author in (user(OWNER_ID, "owner"), CY):
            fake.bot._connection.parse_message_create({
                "id": "1", "channel_id": "5", "type": 0, "content": f"<@{fake.bot.user.id}> sync", "author": author,
                "mentions": [], "mention_roles": [], "mention_everyone": False, "attachments": [], "embeds": [],
                "pinned": False, "tts": False, "timestamp": "2026-01-01T00:00:00+00:00", "edited_timestamp": None,
                "flags": 0, "components": []})
            await fake.run()
        syncs = [s for s in fake.sent if s.method == "PUT" and s.path.endswith("/commands")]
        assert len(syncs) == 1
        names = {c["name"] for c in syncs[0].json}
        assert {"game", "move", "attack", "cover", "special", "draw", "cycle", "pass", "play", "reroll", "hand",
                "settings"} <= names


@pytest.mark.parametrize("count", [1, 7, 30, 192])
def test_panels_fit_discord_limits_and_offer_every_command(count):
    commands = ["pass"] + [f"place C{n % 6} S{n}" for n in range(count)] + ["draw"]
    offered = set()
    main = panel.main_page(commands)
    assert main.rows <= panel.MAX_ROWS
    pages = [main] + [panel.group_page(commands, g, p) for g in main.drill for p in range(10)
                      if panel.group_page(commands, g, max(p - 1, 0)).next_page == p or p == 0]
    for layout in pages:
        assert layout.rows <= panel.MAX_ROWS and all(len(i) <= panel.MAX_OPTIONS for _, i in layout.selects)
        offered |= set(layout.buttons) | {i for _, indices in layout.selects for i in indices}
    assert offered == set(range(len(commands)))


async def play_until_a_reaction_window(service, game_id: int) -> dict:
    """Random legal play (fixed seed) until someone is asked to react; the view then. Both
    players are asked at every window (P23), so a window the random play reaches is asked."""
    for user_id in (1, 2):
        await service.set_reaction_preference(user_id, "every")
    rng = random.Random(4)
    for _ in range(600):
        view = await service.view(game_id)
        waiting = view["pending"][0]
        if waiting["kind"] in ("reroll", "interrupt"):
            return view
        user_id = {"p1": 1, "p2": 2}[waiting["player"]]
        version, commands = await service.legal_commands(game_id, user_id)
        await service.submit(game_id, user_id, rng.choice(commands), version)
    pytest.fail("no reaction window came up")


async def test_a_reaction_window_passes_by_itself_at_its_deadline(monkeypatch, tmp_path):
    same_dice(monkeypatch)  # the same game every run
    from tests.discord_harness import GUILD_ID

    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        await fake.bot.service.set_guild_setting(GUILD_ID, "turn_limit", 3600.0)
        thread, game_id = await new_game(fake)
        service = fake.bot.service
        view = await play_until_a_reaction_window(service, game_id)
        before = view["version"]
        public = len(fake.in_channel(thread))
        clock.now += 3600 + 1
        await fake.run(fake.bot.get_cog("Turns").send_due())
        after = await service.view(game_id)
        assert after["version"] == before + 1
        log = await service.log(game_id)
        assert log[-1].command == "pass"
        # told on the table: the edited table message of the turn pair, or a fresh one
        assert any("Time ran out" in (m.get("content") or "") for m in fake.in_channel(thread)), fake.in_channel(thread)[public:]


async def test_a_simultaneous_decision_pings_each_player_once(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        sent = len(fake.sent)
        thread, game_id = await new_game(fake)  # both owe a core mission; Ann pressed Start
        version, commands = await fake.bot.service.legal_commands(game_id, 1)
        await choose(fake, ANN, await open_panel(fake, ANN, thread), commands, 0)
        assert [t.user_id for t in (await fake.bot.service.get(game_id)).awaited] == [2]
        tables = [s for s in fake.sent[sent:] if s.path.startswith(f"/channels/{thread}/messages")
                  and s.json and s.json.get("content", "").startswith("**Game #")]
        pings = [int(u) for s in tables for u in (s.json.get("allowed_mentions") or {}).get("users", [])]
        assert pings == [2]  # Bo once, at the start; Ann, who pressed Start, never


async def test_play_autocomplete_never_offers_a_command_cut_short(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id = await new_game(fake)
        long_discard = "discard " + " ".join(f"fed-card-number-{n}" for n in range(8))
        assert len(long_discard) > 100
        legal = [long_discard, "discard fed-card-number-1", "keep"]

        async def legal_commands(game, user):
            return 1, legal
        monkeypatch.setattr(fake.bot.service, "legal_commands", legal_commands)
        offered = await fake.autocomplete(ANN, "play", "command", thread, command="")
        assert offered == ["discard fed-card-number-1", "keep"]


@pytest.mark.parametrize("value", ["999", "abc", "-1", "1e3"])
async def test_a_forged_select_value_is_refused_with_a_message(monkeypatch, tmp_path, value):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id = await new_game(fake)
        version = (await fake.bot.service.get(game_id)).version
        shown = await open_panel(fake, ANN, thread)
        pick = next(c["custom_id"] for c in fake.components(shown) if c["custom_id"].startswith("rr:pick:"))
        sent = len(fake.sent)
        await fake.dispatch(fake.click(ANN, int(shown["id"]), pick, [value]))  # an exception would fail here
        notes = [s.json["content"] for s in fake.sent[sent:] if s.ephemeral and s.json and "content" in s.json]
        assert any("not on your panel" in note for note in notes), notes
        assert (await fake.bot.service.get(game_id)).version == version
