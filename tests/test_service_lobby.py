"""The service's lobby: create, join, leave, start, abort, find by channel, settings."""
import pytest

from engine.service import GameService, LobbyError, NotAllowed, NotAPlayer, UnknownGame

FED = dict(affiliation="federation", team="federation-away-team", deck="federation-starter")
BORG = dict(affiliation="borg", team="borg-away-team", deck="borg-starter")


@pytest.fixture
async def service(database_url):
    service = await GameService.open(database_url)
    yield service
    await service.close()


async def test_create_join_start_deals_a_game(service):
    game = await service.create(creator=1, guild_id=10, channel_id=20, seed=5)
    await service.join(game.id, 1, "Ann", **FED)
    info = await service.join(game.id, 2, "Bo", **BORG)
    assert [(s.seat, s.user_id, s.name) for s in info.seats] == [("p1", 1, "Ann"), ("p2", 2, "Bo")]
    update = await service.start(game.id, 2)
    assert (update.status, update.version, update.images) == ("active", 0, ["board"])
    assert update.players == {"p1": 1, "p2": 2}
    assert update.awaited  # somebody has to decide something
    view = await service.view(game.id, 1)
    assert view["players"][0]["name"] == "Ann"


async def test_join_refusals_change_nothing(service):
    game = await service.create(creator=1, channel_id=20)
    await service.join(game.id, 1, "Ann", **FED)
    with pytest.raises(LobbyError, match="already in"):
        await service.join(game.id, 1, "Ann again", **BORG)
    await service.join(game.id, 2, "Bo", **BORG)
    with pytest.raises(LobbyError, match="full"):
        await service.join(game.id, 3, "Cy", **BORG)
    with pytest.raises(UnknownGame):
        await service.join(999, 3, "Cy", **BORG)
    assert [s.user_id for s in (await service.get(game.id)).seats] == [1, 2]


async def test_leave_frees_the_seat_only_before_the_start(service):
    game = await service.create(creator=1, channel_id=20)
    await service.join(game.id, 1, "Ann", **FED)
    await service.join(game.id, 2, "Bo", **BORG)
    info = await service.leave(game.id, 1)
    assert [s.seat for s in info.seats] == ["p2"]
    with pytest.raises(NotAPlayer):
        await service.leave(game.id, 1)
    info = await service.join(game.id, 3, "Cy", **FED)
    assert [(s.seat, s.name) for s in info.seats] == [("p1", "Cy"), ("p2", "Bo")]
    await service.start(game.id, 3)
    with pytest.raises(LobbyError, match="already started"):
        await service.leave(game.id, 3)
    with pytest.raises(LobbyError, match="already started"):
        await service.join(game.id, 4, "Di", **FED)


async def test_start_needs_every_seat_and_a_seated_player(service):
    game = await service.create(creator=1, channel_id=20)
    await service.join(game.id, 1, "Ann", **FED)
    with pytest.raises(LobbyError, match="1 of 2"):
        await service.start(game.id, 1)
    await service.join(game.id, 2, "Bo", **BORG)
    with pytest.raises(NotAPlayer):
        await service.start(game.id, 99)
    assert (await service.get(game.id)).status == "lobby"


async def test_a_game_that_cannot_be_dealt_stays_in_the_lobby(service):
    game = await service.create(creator=1, channel_id=20)
    await service.join(game.id, 1, "Ann", **FED)
    await service.join(game.id, 2, "Bo", affiliation="borg", team="no-such-team", deck="borg-starter")
    with pytest.raises(LobbyError, match="cannot start"):
        await service.start(game.id, 1)
    await service.leave(game.id, 2)
    await service.join(game.id, 2, "Bo", **BORG)
    assert (await service.start(game.id, 1)).status == "active"


async def test_one_live_game_per_channel_found_by_channel(service):
    game = await service.create(creator=1, guild_id=10, channel_id=20)
    with pytest.raises(LobbyError, match="already a game"):
        await service.create(creator=2, guild_id=10, channel_id=20)
    in_thread = await service.create(creator=2, guild_id=10, channel_id=20, thread_id=30)
    assert (await service.in_channel(20)).id == game.id
    assert (await service.in_channel(20, 30)).id == in_thread.id
    with pytest.raises(UnknownGame):
        await service.in_channel(21)


async def test_abort_by_a_stranger_is_refused_and_by_the_creator_frees_the_channel(service):
    game = await service.create(creator=1, channel_id=20)
    with pytest.raises(NotAllowed):
        await service.abort(game.id, 5)
    info = await service.abort(game.id, 5, force=True)
    assert (info.status, info.result) == ("aborted", {"aborted_by": 5})
    with pytest.raises(UnknownGame):
        await service.in_channel(20)
    again = await service.create(creator=1, channel_id=20)
    assert (await service.abort(again.id, 1)).status == "aborted"


async def test_guild_settings_give_new_games_their_turn_limit(service):
    await service.set_guild_setting(10, "turn_limit", 3600)
    await service.set_guild_setting(10, "remind_after", 600)
    await service.set_user_setting(1, "dm", True)
    assert await service.user_setting(1, "dm") is True
    game = await service.create(creator=1, guild_id=10, channel_id=20)
    await service.join(game.id, 1, "Ann", **FED)
    await service.join(game.id, 2, "Bo", **BORG)
    update = await service.start(game.id, 1)
    turn = update.awaited[0]
    assert turn.deadline == pytest.approx(turn.since + 3600)
    due = await service.due_reminders(turn.since + 600)
    assert {(r.user_id, r.kind) for r in due} == {(t.user_id, "nudge") for t in update.awaited}


async def test_seat_options_change_in_the_lobby_only_and_reach_the_game(service):
    game = await service.create(creator=1, channel_id=20, options={"pack": "content/starter"})
    await service.join(game.id, 1, "Ann", **FED)
    await service.join(game.id, 2, "Bo", **BORG)
    chosen = await service.set_seat_options(game.id, 1, commander="LINDQ", swaps={"OKAFOR": "OSSA"})
    assert chosen == {**FED, "commander": "LINDQ", "swaps": {"OKAFOR": "OSSA"}}
    assert await service.set_seat_options(game.id, 1, commander=None) == {**FED, "swaps": {"OKAFOR": "OSSA"}}
    config, options = await service.seat_options(game.id, 1)
    assert config["pack"] == "content/starter" and options["swaps"] == {"OKAFOR": "OSSA"}
    assert [(s.seat, s.user_id, s.name) for s in (await service.get(game.id)).seats] == [("p1", 1, "Ann"), ("p2", 2, "Bo")]
    with pytest.raises(NotAPlayer):
        await service.set_seat_options(game.id, 3, commander="LINDQ")
    assert (await service.seat_options(game.id, 3))[1] == {}
    await service.start(game.id, 1)
    codes = {c["card"] for c in (await service.view(game.id))["characters"].values() if c["owner"] == "p1"}
    assert "OSSA" in codes and "OKAFOR" not in codes and "REYES" in codes
    with pytest.raises(LobbyError, match="already started"):
        await service.set_seat_options(game.id, 1, commander="LINDQ")
    assert "commander" not in (await service.seat_options(game.id, 1))[1]


async def test_three_seats_are_asked_for_and_filled_in_turn(service):
    game = await service.create(creator=1, channel_id=21, seed=3, options={"seats": 3, "layout": "six"})
    await service.join(game.id, 1, "Ann", **FED)
    await service.join(game.id, 2, "Bo", **BORG)
    with pytest.raises(LobbyError, match="2 of 3"):
        await service.start(game.id, 1)
    info = await service.join(game.id, 3, "Cy", **FED)
    assert [s.seat for s in info.seats] == ["p1", "p2", "p3"]
    with pytest.raises(LobbyError, match="full"):
        await service.join(game.id, 4, "Di", **BORG)
    update = await service.start(game.id, 1)
    assert update.players == {"p1": 1, "p2": 2, "p3": 3}
    with pytest.raises(LobbyError, match="two, three or four"):
        await service.create(creator=1, channel_id=22, options={"seats": 5})


async def test_a_team_game_seats_four_and_a_concession_loses_for_the_whole_team(service):
    game = await service.create(creator=1, channel_id=23, seed=4, options={"mode": "teams", "layout": "six"})
    for user, (name, seat) in enumerate((("Ann", FED), ("Bo", BORG), ("Cy", FED), ("Di", BORG)), start=1):
        await service.join(game.id, user, name, **seat)
    update = await service.start(game.id, 3)
    assert update.players == {"p1": 1, "p2": 2, "p3": 3, "p4": 4}
    view = await service.view(game.id, 1)
    assert [p["team"] for p in view["players"]] == ["team-a", "team-b", "team-a", "team-b"]
    assert "hand" in view["players"][2] and "hand" not in view["players"][1]
    conceded = await service.concede(game.id, 2)
    assert conceded.result["winner"] == ["p1", "p3"] and conceded.result["conceded"] == "p2"
