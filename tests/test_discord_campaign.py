"""Renegades campaigns through Discord interactions only: /campaign new opens a thread,
/campaign continue launches a mission game there, its end opens shore leave with one ping
per player, shore leave is done privately, the roster shows what carried over, and
/campaign abandon ends it all."""
import json

from tests.discord_harness import FakeDiscord, choose, open_panel, thread_of, user
from tests.test_discord_game import PlayByPost

ANN, BO = user(1, "Ann"), user(2, "Bo")
MEMBERS = {1: ANN, 2: BO}


async def play_passing(fake, game_id, thread, clock):
    """Play the mission through the private panel, every ship passing, until it is over."""
    while (info := await fake.bot.service.get(game_id)).status == "active":
        member = MEMBERS[info.awaited[0].user_id]
        _, commands = await fake.bot.service.legal_commands(game_id, info.awaited[0].user_id)
        panel = await open_panel(fake, member, thread)
        await choose(fake, member, panel, commands, commands.index("pass"))
        clock.now += clock.between_moves


def select_of(fake, message):
    return next(c for c in fake.components(message) if c["custom_id"].startswith("rr:shore:"))


async def test_a_campaign_from_new_to_its_second_mission(monkeypatch, tmp_path):
    clock = PlayByPost()
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db"), clock=clock) as fake:
        lonely = fake.slash(ANN, "campaign new", title="ember")
        await fake.dispatch(lonely)
        assert "need another person" in fake.original(lonely)["content"]
        await fake.dispatch(fake.slash(ANN, "campaign new", title="ember", missions=3, opponent=BO))
        thread = thread_of(fake)
        opening = fake.in_channel(thread)[-1]
        assert "The Ember Accord, 3 missions" in opening["content"] and "<@1> <@2>" in opening["content"]
        assert "Captain Orla Vesk: 0 XP" in opening["content"]

        await fake.dispatch(fake.slash(ANN, "campaign continue", thread))
        game_id = (await fake.bot.service.in_channel(fake.channels[thread]["parent_id"], thread)).id
        assert any("Mission 1 of 3" in m["content"] for m in fake.in_channel(thread))
        assert [a["filename"] for a in fake.in_channel(thread)[-1]["attachments"]] == ["board.png"]
        await play_passing(fake, game_id, thread, clock)

        shore = fake.in_channel(thread)[-1]
        assert "Mission 1" in shore["content"] and "Shore leave is open: <@1> <@2>" in shore["content"]
        posted = next(r for r in reversed(fake.sent) if r.json and r.json.get("content") == shore["content"])
        assert sorted(map(int, posted.json["allowed_mentions"]["users"])) == [1, 2]  # one ping each

        sent = len(fake.sent)
        panel_call = fake.slash(ANN, "campaign shore", thread)
        await fake.dispatch(panel_call)
        panel = fake.original(panel_call)
        values = [o["value"] for o in select_of(fake, panel)["options"]]
        assert "sell blink-beacon" in values and values[-1] == "done"
        await fake.dispatch(fake.click(ANN, int(panel["id"]), select_of(fake, panel)["custom_id"],
                                       ["sell blink-beacon"]))
        shown = fake.messages[int(panel["id"])]["content"]
        assert "You sell Emergency blink beacon for 50 digits." in shown
        assert shown.count("on offer:") == 1  # Ann's own offers, never Bo's
        assert not any("blink beacon" in r.text for r in fake.public()[sent:] if not r.ephemeral)  # private
        refused = fake.slash(ANN, "campaign shore", thread, step="recruit LINNET")
        await fake.dispatch(refused)
        assert "costs 100 digits; you have 50" in fake.original(refused)["content"]
        await fake.dispatch(fake.slash(ANN, "campaign shore", thread, step="done"))
        assert "Ann is back aboard." in fake.in_channel(thread)[-1]["content"]

        early = fake.slash(ANN, "campaign continue", thread)
        await fake.dispatch(early)
        assert "waiting for Bo" in fake.original(early)["content"]
        bo_panel_call = fake.slash(BO, "campaign shore", thread)
        await fake.dispatch(bo_panel_call)
        bo_panel = fake.original(bo_panel_call)
        await fake.dispatch(fake.click(BO, int(bo_panel["id"]), select_of(fake, bo_panel)["custom_id"], ["done"]))
        assert "Shore leave is over; mission 2 awaits." in fake.in_channel(thread)[-1]["content"]

        status = fake.slash(BO, "campaign status", thread)
        await fake.dispatch(status)
        text = fake.original(status)["content"]
        assert "mission 1 of 3 played" in text and "Ann (renegade): the Kestrel" in text and "50 digits" in text
        assert [a["filename"] for a in fake.original(status)["attachments"]] == ["roster.png"]
        assert text.count("on offer:") == 0  # shore leave is over: no offers left to show

        await fake.dispatch(fake.slash(BO, "campaign continue", thread))
        second = (await fake.bot.service.in_channel(fake.channels[thread]["parent_id"], thread)).id
        assert second != game_id and any("Mission 2 of 3" in m["content"] for m in fake.in_channel(thread))

        await fake.dispatch(fake.slash(BO, "campaign abandon", thread))
        assert "Bo abandons the campaign after 1 missions." in fake.in_channel(thread)[-1]["content"]
        assert (await fake.bot.service.get(second)).status == "aborted"
        gone = fake.slash(ANN, "campaign status", thread)
        await fake.dispatch(gone)
        assert "no campaign under way here" in fake.original(gone)["content"]


async def test_a_quick_solo_campaign_launches_its_missions_landed_on_the_planet(monkeypatch, tmp_path):
    """quick:True, and boards:built: every mission's boards built from location cards (N124)."""
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
        await fake.dispatch(fake.slash(ANN, "campaign new", title="ember", mode="solo", quick=True, boards="built"))
        thread = thread_of(fake)
        assert "3 missions (the quicker game)" in fake.in_channel(thread)[-1]["content"]
        await fake.dispatch(fake.slash(ANN, "campaign continue", thread))
        game_id = (await fake.bot.service.in_channel(fake.channels[thread]["parent_id"], thread)).id
        view = await fake.bot.service.view(game_id)
        assert view["phase"] == "landing"  # the quicker game: no flight to the planet
        assert json.loads((await fake.bot.service.db.game(game_id)).state)["surface_layout"]["c"] == "pump-house"
        assert all(s.get("docked") for s in view["ships"].values() if s.get("kind") == "ship")
        opening = fake.in_channel(thread)[-1]
        assert [a["filename"] for a in opening["attachments"]] == ["board.png", "surface.png"]  # NPCs landed


async def test_shore_leave_offers_two_copies_of_a_card_as_one_step_and_every_step_fits(monkeypatch, tmp_path):
    """Issue 29 item 2: two copies of a gear card on offer made the panel's select carry the
    same value twice, which Discord refuses (50035; the fake refuses it too), so shore leave
    never opened. Each step is one option now; more than 25 steps go in further selects."""
    import engine.service.campaign as desk
    monkeypatch.setattr(desk.secrets, "randbits", lambda bits: 2)  # Ann's offer: two flash grenades
    clock = PlayByPost()
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db"), clock=clock) as fake:
        await fake.dispatch(fake.slash(ANN, "campaign new", title="ember", missions=3, opponent=BO))
        thread = thread_of(fake)
        await fake.dispatch(fake.slash(ANN, "campaign continue", thread))
        game_id = (await fake.bot.service.in_channel(fake.channels[thread]["parent_id"], thread)).id
        await play_passing(fake, game_id, thread, clock)
        campaign_id = (await fake.bot.get_cog("Campaigns").desk.in_place(fake.channels[thread]["parent_id"], thread)).id
        _, campaign = await fake.bot.get_cog("Campaigns").desk.get(campaign_id)
        assert campaign.captain("p1").gear_offer.count("flash-grenade") == 2

        call = fake.slash(ANN, "campaign shore", thread)
        await fake.dispatch(call)
        panel = fake.original(call)
        selects = [c for c in fake.components(panel) if c["custom_id"].startswith("rr:shore:")]
        options = [o for s in selects for o in s["options"]]
        values = [o["value"] for o in options]
        steps = await fake.bot.get_cog("Campaigns").desk.shore_choices(campaign_id, 1)
        assert values == [command for command, _ in steps] and values[-1] == "done"  # every step, once
        grenade = next(o for o in options if o["value"] == "buy flash-grenade")
        assert "2 on offer" in grenade["label"]
        await fake.dispatch(fake.click(ANN, int(panel["id"]), selects[0]["custom_id"], ["sell blink-beacon"]))
        await fake.dispatch(fake.click(ANN, int(panel["id"]), selects[0]["custom_id"], ["buy flash-grenade"]))
        shown = fake.messages[int(panel["id"])]
        assert "You buy Flash grenade" in shown["content"]
        left = [o for c in fake.components(shown) if c["custom_id"].startswith("rr:shore:") for o in c["options"]]
        assert [o["label"] for o in left if o["value"] == "buy flash-grenade"] == ["Buy Flash grenade (40 digits)"]


def test_a_shore_leave_panel_of_many_steps_is_several_selects_within_discords_limits():
    """More than 25 steps: further selects (at most five), 'done' the last option; what does
    not fit even then is named, to be typed."""
    from cogs.campaign import shore_view
    from tests.discord_limits import problems

    def panel(count):
        view, note = shore_view(7, [(f"recruit CREW{i}", f"Recruit crewmember {i}") for i in range(count)]
                                + [("done", "Done: back aboard")])
        components = view.to_components()
        values = [o["value"] for row in components for c in row["components"] for o in c["options"]]
        return components, values, note

    components, values, note = panel(40)
    assert problems({"components": components}) == [] and note == ""
    assert len(components) == 2 and len(values) == 41 and len(set(values)) == 41 and values[-1] == "done"
    assert [row["components"][0]["custom_id"] for row in components] == ["rr:shore:7", "rr:shore:7:1"]
    components, values, note = panel(130)
    assert problems({"components": components}) == [] and len(components) == 5 and values[-1] == "done"
    assert len(values) == 125 and note.startswith("6 more steps") and "recruit CREW129" in note
    _, _, note = panel(200)
    assert note.startswith("76 more steps") and "recruit CREW133" in note and "CREW134" not in note
