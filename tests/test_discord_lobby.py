"""/game new with its pack and mode, and the private "Choose your away team" step, through the fake Discord
(the step on SQLite and on PostgreSQL)."""
from tests.discord_harness import CHANNEL_ID, EPHEMERAL, FakeDiscord, thread_of
from tests.test_discord_game import ANN, BO
from tests.test_discord_turns import CY

CHOSEN = ("LINDQ", "Lindqvist", "OSSA", "Ossa", "QUILL", "Quill", "SC2-5", "Subcoordinator")


async def pick(fake, member, message, custom_id, value) -> dict:
    """Choose `value` in a select of `message`; the message as it then reads."""
    await fake.dispatch(fake.click(member, int(message["id"]), custom_id, [value]))
    return fake.messages[int(message["id"])]


async def test_each_player_chooses_the_away_team_privately_and_the_game_deals_it(monkeypatch, database_url):
    async with FakeDiscord(monkeypatch, database_url) as fake:
        new = fake.slash(ANN, "game new", opponent=BO)
        await fake.dispatch(new)
        mine = fake.original(new)
        game_id = int(mine["content"].split("#")[1].split()[0])
        assert mine["flags"] & EPHEMERAL and "Choose your away team" in mine["content"]
        assert "Captain Elena Reyes (REYES)" in mine["content"]
        ids = [c["custom_id"] for c in fake.components(mine)]
        assert ids == [f"rr:commander:{game_id}"] + [f"rr:swap:{game_id}:{c}" for c in ("OKAFOR", "HARUNA", "FERROW", "SOLIS")]
        mine = await pick(fake, ANN, mine, f"rr:commander:{game_id}", "LINDQ")
        assert "Commander: Commander Anika Lindqvist (LINDQ)" in mine["content"]
        mine = await pick(fake, ANN, mine, f"rr:swap:{game_id}:OKAFOR", "OSSA")
        assert "Lieutenant Tavrin Ossa (OSSA)" in mine["content"] and "OKAFOR)" not in mine["content"]
        mine = await pick(fake, ANN, mine, f"rr:swap:{game_id}:HARUNA", "OSSA")  # refused with the engine's reason
        assert "Not changed: OSSA is already in the away team." in mine["content"]
        assert (await fake.bot.service.seat_options(game_id, 1))[1]["swaps"] == {"OKAFOR": "OSSA"}
        await fake.shutdown()
        await fake.boot()  # the step's selects still work after a restart
        mine = await pick(fake, ANN, mine, f"rr:swap:{game_id}:FERROW", "QUILL")
        assert (await fake.bot.service.seat_options(game_id, 1))[1]["swaps"] == {"OKAFOR": "OSSA", "FERROW": "QUILL"}

        thread = thread_of(fake)
        lobby = fake.in_channel(thread)[-1]
        again = fake.click(ANN, int(lobby["id"]), f"rr:team:{game_id}")  # the lobby reopens a dismissed step
        await fake.dispatch(again)
        shown = fake.original(again)
        assert shown["flags"] & EPHEMERAL and "(LINDQ)" in shown["content"] and "(QUILL)" in shown["content"]
        assert fake.components(shown) == fake.components(mine)
        stranger = fake.click(CY, int(lobby["id"]), f"rr:team:{game_id}")
        await fake.dispatch(stranger)
        assert "Join the game first" in fake.original(stranger)["content"]
        join = fake.click(BO, int(lobby["id"]), f"rr:join:{game_id}:2:borg")
        await fake.dispatch(join)
        his = fake.original(join)
        assert his["flags"] & EPHEMERAL and "Convergence Nexus (NEXUS)" in his["content"]
        assert "Seated: Ann (p1), Bo (p2)" in fake.messages[int(lobby["id"])]["content"]
        his = await pick(fake, BO, his, f"rr:commander:{game_id}", "SC2-5")
        his = await pick(fake, BO, his, f"rr:commander:{game_id}", "NEXUS")  # back to the ready-made commander
        assert "commander" not in (await fake.bot.service.seat_options(game_id, 2))[1]
        his = await pick(fake, BO, his, f"rr:commander:{game_id}", "SC2-5")
        assert all(word not in s.text for s in fake.public() for word in CHOSEN), "private until the start"

        await fake.dispatch(fake.click(ANN, int(lobby["id"]), f"rr:start:{game_id}"))
        owners = {c["card"]: c["owner"] for c in (await fake.bot.service.view(game_id))["characters"].values()}
        assert {code: owners.get(code) for code in ("LINDQ", "OSSA", "QUILL", "SC2-5")} == dict.fromkeys(
            ("LINDQ", "OSSA", "QUILL"), "p1") | {"SC2-5": "p2"}
        assert not {"REYES", "OKAFOR", "FERROW", "NEXUS"} & set(owners)
        late = fake.click(ANN, int(mine["id"]), f"rr:commander:{game_id}", ["REYES"])
        await fake.dispatch(late)
        assert "already started" in fake.sent[-1].json["content"] and fake.sent[-1].ephemeral
        assert fake.components(fake.messages[int(lobby["id"])]) == []  # the lobby's buttons are gone


async def test_game_new_refuses_a_bad_pack_and_creates_nothing(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        mode = fake._command("game new").get_parameter("mode")
        assert [c.name for c in mode.choices] == ["2 players", "3 players", "4 players", "2 vs 2",
                                                  "solo", "co-op", "coalition vs renegades"]
        for pack, reason in (("no-such-pack", "cannot be used"), ("../etc", "is not a pack name")):
            new = fake.slash(ANN, "game new", pack=pack)
            await fake.dispatch(new)
            assert reason in fake.original(new)["content"]
        assert not any(s.path.endswith("/threads") for s in fake.sent)
        assert fake.in_channel(CHANNEL_ID) == []
        new = fake.slash(ANN, "game new", pack="content/starter", mode="2 players")
        await fake.dispatch(new)
        assert (await fake.bot.service.seat_options(1, 1))[0]["pack"] == "content/starter"
