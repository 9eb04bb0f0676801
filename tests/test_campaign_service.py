"""Renegades campaigns through the service: missions are ordinary games in the campaign's
thread, their ends are recorded, shore leave is done alone, and nothing is lost on restart."""
import json
import random

import pytest

from db import Database
from engine.renegades.campaign import campaign as rules
from engine.renegades.contents import state as game_state
from engine.service import GameService, IllegalCommand, NotAPlayer
from engine.service.campaign import CampaignService
from engine.service import replay
from engine.service.replay import check_campaign

ANN, BO = 1, 2
PLAYERS = [(ANN, "Ann", {"faction": "renegade"}), (BO, "Bo", {"faction": "coalition"})]


@pytest.fixture
def path(database_url):
    return database_url


async def open_desk(path):
    games = await GameService.open(path)
    return games, CampaignService(games)


async def play_mission(games, game_id, rng):
    """Play random legal commands until the mission's game is over."""
    users = {s.seat: s.user_id for s in (await games.get(game_id)).seats}
    for _ in range(3000):
        info = await games.get(game_id)
        if info.status != "active":
            return info
        seat = info.awaited[0].seat
        version, commands = await games.legal_commands(game_id, users[seat])
        passing = [c for c in commands if c == "pass"]
        await games.submit(game_id, users[seat], rng.choice(commands if rng.random() < 0.3 else passing or commands),
                           version)
    raise AssertionError("the mission did not end")


async def test_two_missions_with_a_restart_carry_the_crew_over(path, capsys):
    rng = random.Random(3)
    games, desk = await open_desk(path)
    made = await desk.create(players=PLAYERS, title="ember", missions=3, guild_id=10, channel_id=20,
                             thread_id=30, creator=ANN, seed=11)
    cid = made.campaign_id
    first = await desk.continue_(cid, ANN)
    assert first.game_id is not None and "Mission 1 of 3" in first.public[0]
    game = await games.get(first.game_id)
    assert (game.thread_id, [s.user_id for s in game.seats]) == (30, [ANN, BO])
    await play_mission(games, first.game_id, rng)
    await games.close()  # the bot stops between the mission's end and its recording

    games, desk = await open_desk(path)
    recorded = await desk.continue_(cid, BO)  # records the mission, opens shore leave
    assert recorded.phase == "shore_leave" and any("Mission 1" in line for line in recorded.public)
    assert recorded.awaited == ["p1", "p2"]
    _, campaign = await desk.get(cid)
    ann = campaign.captain("p1")
    assert all(h.xp >= 1 for h in ann.crew.values())
    # Ann's shore leave: gear sold for digits, then a recruit who flies instead of the navigator
    for gear in ("blink-beacon", "arc-pistol"):
        await desk.command(cid, ANN, f"sell {gear}")
    await games.close()
    games, desk = await open_desk(path)  # a restart in the middle of shore leave
    await desk.command(cid, ANN, "sell arc-pistol")
    assert (await desk.get(cid))[1].captain("p1").digits == 100
    recruit = await desk.command(cid, ANN, "recruit LINNET")
    assert recruit.private == {"p1": ["Linnet Shay signs on for 100 digits."]} and recruit.public == []
    flying = ["VESK", "LINNET", "RHEE", "MOTT", "GRUND"]
    await desk.command(cid, ANN, "crew " + " ".join(flying))
    with pytest.raises(IllegalCommand, match="not among your upgrades"):
        await desk.command(cid, ANN, "train no-such-thing VESK")
    with pytest.raises(NotAPlayer):
        await desk.command(cid, 99, "done")
    await desk.command(cid, ANN, "done")
    waiting = await desk.continue_(cid, ANN)
    assert waiting.public == ["Shore leave: waiting for Bo."] and waiting.game_id is None
    await desk.command(cid, BO, "done")
    await games.close()

    games, desk = await open_desk(path)
    second = await desk.continue_(cid, ANN)
    assert second.game_id not in (None, first.game_id)
    row = await games.db.game(second.game_id)
    mission = game_state.from_json(row.state)
    assert mission.ships["KESTREL"].stations["navigation"] == "LINNET"
    assert "TALLO" not in mission.crew  # the reserve stays ashore
    roster = "\n".join(await desk.roster(cid, ANN))
    assert "Linnet Shay: 0 XP" in roster and "Tallo Brisk: 1 XP" in roster
    await play_mission(games, second.game_id, rng)
    update = await desk.settle_game(second.game_id)
    assert update.phase == "shore_leave" and len((await desk.get(cid))[1].played) == 2
    assert await desk.store.games(cid) == [first.game_id, second.game_id]
    checked = await check_campaign(games.db, cid)
    assert checked.ok, checked.problem
    await games.close()
    assert await replay._run(path, [], True, False) == 0  # the tool checks every game and campaign
    printed = capsys.readouterr().out
    assert f"campaign #{cid}: replay OK" in printed and f"finish (game #{first.game_id})" in printed
    assert f"game #{second.game_id}: replay OK" in printed
    await tamper(path, cid)  # a purse changed behind the campaign's back no longer replays
    games = await GameService.open(path)
    assert "differs from the stored one" in (await check_campaign(games.db, cid)).problem
    await games.close()


async def tamper(path, cid):
    database = await Database.open(path)
    state = json.loads((await database._conn.fetch("SELECT state FROM campaigns WHERE id = ?", (cid,)))[0][0])
    state["captains"][0]["digits"] = state["captains"][0].get("digits", 0) + 500
    await database._conn.execute("UPDATE campaigns SET state = ? WHERE id = ?", (json.dumps(state), cid))
    await database.close()


async def test_a_crash_after_the_launch_is_finished_by_the_next_continue(path):
    games, desk = await open_desk(path)
    made = await desk.create(players=PLAYERS, title="ember", channel_id=20, thread_id=31, seed=5)
    cid = made.campaign_id
    async with desk._locked(cid):  # the launch is committed, then the bot dies before the game exists
        await desk._apply(cid, None, ANN, "launch")
    await games.close()
    games, desk = await open_desk(path)
    update = await desk.continue_(cid, ANN)
    game = await games.get(update.game_id)
    assert game.status == "active" and game.thread_id == 31
    again = await desk.continue_(cid, BO)  # nothing new is made
    assert (again.game_id, await desk.store.games(cid)) == (update.game_id, [update.game_id])
    await games.close()


async def test_abandon_aborts_the_mission_game_and_ends_the_campaign(path):
    games, desk = await open_desk(path)
    cid = (await desk.create(players=PLAYERS, title="tide", channel_id=20, seed=2)).campaign_id
    game_id = (await desk.continue_(cid, ANN)).game_id
    update = await desk.abandon(cid, BO)
    assert update.phase == "abandoned" and "Bo abandons the campaign" in update.public[0]
    assert (await games.get(game_id)).status == "aborted"
    with pytest.raises(IllegalCommand, match="over"):
        await desk.command(cid, ANN, "done")
    await games.close()


async def test_a_bad_campaign_is_refused_and_nothing_is_stored(path):
    games, desk = await open_desk(path)
    with pytest.raises(IllegalCommand, match="three, four or five"):
        await desk.create(players=PLAYERS, title="ember", missions=7)
    with pytest.raises(IllegalCommand, match="exactly five crew"):
        await desk.create(players=[(ANN, "Ann", {"faction": "renegade", "crew": ["VESK", "TALLO"]}), PLAYERS[1]],
                          title="ember")
    assert await desk.store.ids() == []
    await games.close()


async def test_an_aborted_mission_game_is_dealt_again_by_the_next_continue(path):  # N96
    games, desk = await open_desk(path)
    cid = (await desk.create(players=PLAYERS, title="ember", channel_id=20, thread_id=32, seed=8)).campaign_id
    first = (await desk.continue_(cid, ANN)).game_id
    await games.abort(first, ANN)
    assert await desk.settle(cid) is None  # nothing to record
    again = await desk.continue_(cid, BO)
    assert again.game_id != first and again.mission_start is not None
    old, new = await games.db.game(first), await games.db.game(again.game_id)
    assert (new.seed, json.loads(new.config)["mission"]) == (old.seed, json.loads(old.config)["mission"])
    assert (await desk.get(cid))[1].phase == "mission"
    await games.close()


async def test_a_solo_campaign_flies_against_the_npc_coalition(path):
    games, desk = await open_desk(path)
    cid = (await desk.create(players=[(ANN, "Ann", {})], title="tide", mode="coop", channel_id=20, seed=9)).campaign_id
    update = await desk.continue_(cid, ANN)
    game = await games.get(update.game_id)
    assert game.status == "active" and [s.user_id for s in game.seats] == [ANN]
    mission = game_state.from_json((await games.db.game(game.id)).state)
    assert sorted(s.faction for s in mission.ships.values() if s.kind == "ship") == ["coalition", "renegade"]
    choices = await desk.shore_choices(cid, ANN)
    assert choices == []  # no shore leave during a mission
    await games.close()


async def test_the_shore_leave_panel_lists_the_steps_open_to_its_player(path):
    games, desk = await open_desk(path)
    cid = (await desk.create(players=PLAYERS, title="ember", channel_id=20, thread_id=33, seed=12)).campaign_id
    await play_mission(games, (await desk.continue_(cid, ANN)).game_id, random.Random(5))
    await desk.continue_(cid, ANN)
    _, campaign = await desk.get(cid)
    ann = campaign.captain("p1")
    commands = [command for command, _ in await desk.shore_choices(cid, ANN)]
    assert [c for c in commands if c.startswith("buy")] == [f"buy {g}" for g in ann.gear_offer]
    assert ["sell arc-pistol", "sell arc-blade", "sell blink-beacon"] == [c for c in commands if c.startswith("sell")]
    assert {"recruit KAIRO", "recruit LINNET"} <= set(commands) and "recruit VESK" not in commands
    for upgrade in ann.upgrade_offer:
        trained = [c for c in commands if c.startswith(f"train {upgrade}")]
        assert trained, upgrade
        if upgrade == "command-course":
            assert trained == ["train command-course VESK"]  # only the commander may take it
    assert commands[-1] == "done"
    await desk.command(cid, ANN, "done")
    assert await desk.shore_choices(cid, ANN) == []
    row, drained = await desk.get(cid)  # N175, N176: a spent beacon is recharged, not sold
    drained.captain("p1").ready, drained.captain("p1").energy["blink-beacon"] = False, [0]

    async def stored(_):
        return row, drained
    desk.get = stored
    commands = dict(await desk.shore_choices(cid, ANN))
    assert "sell blink-beacon" not in commands
    assert commands["recharge blink-beacon"] == "Recharge Emergency blink beacon (10 digits)"
    await games.close()


async def test_a_shore_leave_step_stored_by_another_process_meanwhile_is_applied_to_the_newer_campaign(path):
    """Two processes: Bo's step was read before Ann's, through the other service, was stored;
    Bo's is applied again to the campaign with Ann's step in it (ruling P54), not lost or
    shown as a database error."""
    games, desk = await open_desk(path)
    other_games, other = await open_desk(path)
    try:
        cid = (await desk.create(players=PLAYERS, title="ember", channel_id=20, thread_id=33, seed=12)).campaign_id
        await play_mission(games, (await desk.continue_(cid, ANN)).game_id, random.Random(5))
        await desk.continue_(cid, ANN)  # shore leave
        save = desk.store.save

        async def after_the_other(*args, **kwargs):
            desk.store.save = save
            await other.command(cid, ANN, "done")  # stored first, by the other process
            return await save(*args, **kwargs)
        desk.store.save = after_the_other
        update = await desk.command(cid, BO, "done")
        assert [(e.seat, e.command) for e in (await desk.store.log(cid))[-2:]] == [("p1", "done"), ("p2", "done")]
        assert update.version == (await desk.get(cid))[0].version
        assert (await check_campaign(games.db, cid)).ok
    finally:
        await games.close()
        await other_games.close()
