"""Tables of three and four, and 2 vs 2, through the fake Discord: the lobby, the team
threads, a complete team game played through the panels only, leaving and aborting by vote."""
import json
import random
import re
from collections import Counter

from engine.awaymissions.content import load_pack
from cogs.table_message import told
from engine.rulesets import AWAY_MISSIONS
from engine.service import is_computer
from engine.service.service import useful_answers
from tests.discord_harness import EPHEMERAL, FakeDiscord, choose, open_panel, thread_of, user
from tests.test_discord_game import PlayByPost, revealed, same_dice, table

ANN, BO, CY, DI, ED = user(1, "Ann"), user(2, "Bo"), user(3, "Cy"), user(4, "Di"), user(5, "Ed")
MEMBERS = {1: ANN, 2: BO, 3: CY, 4: DI, 5: ED}
PACK = load_pack("content/starter")


def buttons_of(fake: FakeDiscord, message: dict) -> list[str]:
    """Labels of a message's buttons, in order."""
    return [c.get("label") for c in fake.components(message)]


def custom(fake: FakeDiscord, message: dict, label: str) -> str:
    """The custom id of the button labelled `label`."""
    return next(c["custom_id"] for c in fake.components(message) if c.get("label") == label)


async def open_lobby(fake: FakeDiscord, mode: str, **values) -> tuple[int, dict, int]:
    """Ann opens a table of `mode`: (thread, lobby message, game id)."""
    await fake.dispatch(fake.slash(ANN, "game new", mode=mode, **values))
    thread = thread_of(fake)
    game_id = (await fake.bot.service.in_channel(fake.channels[thread]["parent_id"], thread)).id
    return thread, fake.in_channel(thread)[-1], game_id


async def press(fake: FakeDiscord, member: dict, message: dict, label: str) -> dict:
    """Press a lobby button as `member`; the private answer."""
    payload = fake.click(member, int(message["id"]), custom(fake, message, label))
    sent = len(fake.sent)
    await fake.dispatch(payload)
    private = [fake.messages[r.message_id] for r in fake.sent[sent:]
               if r.ephemeral and r.message_id in fake.messages and fake.messages[r.message_id]["flags"] & EPHEMERAL]
    return private[-1] if private else fake.original(payload)


async def press_gone(fake: FakeDiscord, member: dict, message: dict, custom_id: str) -> str:
    """Press a button an older copy of `message` still showed; the private answer's text."""
    button = {"type": 2, "style": 3, "label": "Join", "custom_id": custom_id}
    payload = fake._interaction(3, member, {"custom_id": custom_id, "component_type": 2},
                                int(message["channel_id"]),
                                message={**message, "components": [{"type": 1, "components": [button]}]})
    sent = len(fake.sent)
    await fake.dispatch(payload)
    return next(r.json.get("content") or "" for r in reversed(fake.sent[sent:]) if r.ephemeral and r.json)


async def test_a_table_of_three_seats_three_and_starts_only_when_full(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, lobby, game_id = await open_lobby(fake, "3 players", side="borg")
        assert "3 players, everyone for themselves" in lobby["content"] and "(1 of 3)" in lobby["content"]
        assert buttons_of(fake, lobby) == ["Join as Federation", "Join as Borg", "Computer fills empty seats",
                                           "Start", "Away team", "Leave"]
        early = await press(fake, ANN, lobby, "Start")
        assert "Waiting for players: 1 of 3 seats taken" in early["content"]
        assert (await fake.bot.service.get(game_id)).status == "lobby"
        answer = await press(fake, BO, lobby, "Join as Federation")
        assert answer["flags"] & EPHEMERAL and "Choose your away team" in answer["content"]
        lobby = fake.messages[int(lobby["id"])]
        assert "Ann (p1, Borg), Bo (p2, Federation) (2 of 3)" in lobby["content"]
        await press(fake, CY, lobby, "Join as Borg")
        full = fake.messages[int(lobby["id"])]
        assert "(3 of 3)" in full["content"] and "press Start" in full["content"]
        assert buttons_of(fake, full) == ["Start", "Away team", "Leave"]
        late = await press_gone(fake, DI, lobby, f"rr:seat:{game_id}:any:borg")  # refused, nothing changes
        assert "This game is full" in late
        await press(fake, CY, full, "Start")
        view = await fake.bot.service.view(game_id)
        assert [(p["seat"], p["name"], p["affiliation"]) for p in view["players"]] == [
            ("p1", "Ann", "borg"), ("p2", "Bo", "federation"), ("p3", "Cy", "borg")]
        assert not view["options"].get("teams") and (await fake.bot.service.get(game_id)).status == "active"
        started = fake.messages[int(lobby["id"])]["content"]
        assert "The game has started." in started and "3 players, everyone for themselves" in started
        assert "Ann (p1, Borg), Bo (p2, Federation), Cy (p3, Borg) (3 of 3)" in started


async def test_a_table_of_four_is_filled_by_the_computer_which_plays_at_once(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, lobby, game_id = await open_lobby(fake, "4 players", layout="borg-corridor")
        await press(fake, BO, lobby, "Join as Borg")
        stranger = await press(fake, CY, fake.messages[int(lobby["id"])], "Computer fills empty seats")
        assert "Only a seated player" in stranger["content"]
        await press(fake, BO, fake.messages[int(lobby["id"])], "Computer fills empty seats")
        info = await fake.bot.service.get(game_id)
        assert [s.name for s in info.seats] == ["Ann", "Bo", "Computer (easy)", "Computer (easy)"]
        assert len({s.user_id for s in info.seats}) == 4
        await press(fake, ANN, fake.messages[int(lobby["id"])], "Start")
        info = await fake.bot.service.get(game_id)
        assert info.awaited and not any(is_computer(t.user_id) for t in info.awaited)  # the computer moved at once
        layout = (await fake.bot.service.view(game_id))["layout"]
        assert layout["six"] and len(layout["placements"]) == 6 and layout["corridor"] == "corridor-borg"


async def test_bad_tables_are_refused_with_a_reason(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        for values, reason in (({"mode": "4 players", "layout": "cube"}, "six mission boards"),
                               ({"mode": "2 vs 2", "opponent": BO}, "open lobbies")):
            payload = fake.slash(ANN, "game new", **values)
            await fake.dispatch(payload)
            assert reason in fake.original(payload)["content"]
        assert not any(s.path.endswith("/threads") for s in fake.sent)


def hand_lines(content: str) -> dict[str, list[str]]:
    """"• Name: card, card" lines of a team thread message, by player name."""
    found = {}
    for name, cards in re.findall(r"^• (\w+): (.*)$", content, re.M):
        found[name] = [] if cards in ("empty", "hidden") else cards.split(", ")
    return found


async def seat_teams(fake: FakeDiscord, **values) -> tuple[int, int]:
    """A 2 vs 2 lobby (of the `/game new` `values`) seated through the buttons: Ann and Cy
    are Team A, Bo and Di Team B."""
    thread, lobby, game_id = await open_lobby(fake, "2 vs 2", **values)
    assert buttons_of(fake, lobby)[:4] == ["Team A: Federation", "Team A: Borg", "Team B: Federation",
                                           "Team B: Borg"]
    await press(fake, BO, lobby, "Team B: Borg")
    await press(fake, CY, fake.messages[int(lobby["id"])], "Team A: Borg")
    lobby = fake.messages[int(lobby["id"])]
    assert "Team A: Ann (Federation), Cy (Borg) (2 of 2)" in lobby["content"]
    assert buttons_of(fake, lobby)[:2] == ["Team B: Federation", "Team B: Borg"]  # Team A is full
    refused = await press_gone(fake, DI, lobby, f"rr:seat:{game_id}:team-a:federation")
    assert "That team is full" in refused
    early = await press(fake, ANN, lobby, "Start")
    assert "3 of 4 seats taken" in early["content"]
    await press(fake, DI, lobby, "Team B: Federation")
    await press(fake, DI, fake.messages[int(lobby["id"])], "Start")
    started = fake.messages[int(lobby["id"])]["content"]  # the started lobby keeps its teams
    assert "2 vs 2" in started and "The game has started." in started
    assert "Team A: Ann (Federation), Cy (Borg) (2 of 2)" in started
    assert "Team B: Bo (Borg), Di (Federation) (2 of 2)" in started
    return thread, game_id


async def test_a_complete_2_vs_2_game_through_the_panels_keeps_each_teams_hands_to_itself(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    clock = PlayByPost()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        thread, game_id = await seat_teams(fake)
        view = await fake.bot.service.view(game_id)
        assert {p["name"]: p["team"] for p in view["players"]} == {
            "Ann": "team-a", "Bo": "team-b", "Cy": "team-a", "Di": "team-b"}
        record = await fake.bot.service.guild_setting(int(fake.channels[thread]["guild_id"]), f"teams:{game_id}")
        team_threads = {team: entry["thread"] for team, entry in record.items()}
        assert {team: fake.channels[t]["type"] for team, t in team_threads.items()} == {"team-a": 12, "team-b": 12}
        assert fake.thread_members == {team_threads["team-a"]: {1, 3}, team_threads["team-b"]: {2, 4}}
        members = {"team-a": {"Ann", "Cy"}, "team-b": {"Bo", "Di"}}
        names = {code: card.name for code, card in PACK.cards.items()}
        rng, seen_public, pinged = random.Random(5), set(), set()
        team_answers = checked = cards_shown = team_turns = 0
        while (info := await fake.bot.service.get(game_id)).status == "active":
            awaited = [t.user_id for t in info.awaited]
            user_id = rng.choice(awaited)
            version, commands = await fake.bot.service.legal_commands(game_id, user_id)
            pending = (await fake.bot.service.view(game_id))["pending"]
            team_prompt = next(([d["player"], *d["also"]] for d in pending if d.get("also")), None)
            sent, entries = len(fake.sent), len(await fake.bot.service.log(game_id))
            shown = await open_panel(fake, MEMBERS[user_id], thread)
            mate = next(s for s in info.seats if s.user_id != user_id and
                        any(s.name in m and MEMBERS[user_id]["username"] in m for m in members.values()))
            mine = await fake.bot.service.view(game_id, user_id)  # the teammate's hand on the panel (R53)
            mates_hand = next(p["hand"] for p in mine["players"] if p["seat"] == mate.seat)
            assert f"{mate.name}'s hand: " + (", ".join(names[c] for c in mates_hand) or "empty") in shown["content"]
            await choose(fake, MEMBERS[user_id], shown, commands, rng.randrange(len(commands)))
            clock.now += clock.between_moves
            seen_public |= await revealed(fake, game_id, len(await fake.bot.service.log(game_id)) - entries)  # standing passes too
            after = await fake.bot.service.get(game_id)
            if team_prompt and after.status == "active":
                team_answers += 1
                mate = next(s.user_id for s in info.seats if s.seat in team_prompt and s.user_id != user_id)
                late = await open_panel(fake, MEMBERS[mate], thread)  # the other teammate: the prompt is closed
                assert f":{version}:" not in json.dumps(fake.components(late))
            for request in fake.sent[sent:]:  # one ping per decision per player
                if request.ephemeral or not request.json or "allowed_mentions" not in request.json:
                    continue
                mentioned = list(map(int, request.json["allowed_mentions"].get("users", [])))
                if mentioned:  # pings go to the game thread, where the decision's buttons are (R66)
                    webhook = fake.places.get(request.path.split("/")[3]) if "/webhooks/" in request.path else None
                    assert (webhook or int(request.path.split("/")[2])) == thread, request.path
                for pinged_user in mentioned:
                    assert (pinged_user, after.version) not in pinged, "a decision pinged twice"
                    pinged.add((pinged_user, after.version))
            hands = {}
            for seat in info.seats:
                mine = await fake.bot.service.view(game_id, seat.user_id)
                hands[seat.name] = next(p["hand"] for p in mine["players"] if p["seat"] == seat.seat)
            hidden = {c for cards in hands.values() for c in cards} - seen_public
            hidden_names = {names[c] for c in hidden} - {names.get(w) for w in seen_public}
            for request in fake.sent[sent:]:
                place = fake.places.get(request.path.split("/")[3]) if "/webhooks/" in request.path else None
                channel = place or (int(request.path.split("/")[2]) if request.path.startswith("/channels/") else None)
                if request.ephemeral or channel not in (thread, *team_threads.values()):
                    continue
                if channel == thread:  # the game thread: no card of any hand
                    assert not any(w in request.text for w in hidden | hidden_names), request.text
                    checked += 1
            public = await fake.bot.service.view(game_id)
            for team, team_thread in team_threads.items():  # a team thread: its own team's hands only,
                message = fake.messages[record[team]["message"]]  # as they are when its turn to activate comes
                shown = hand_lines(message["content"])
                assert set(shown) == members[team]
                if any(d["kind"] == "activate" and d["player"] in {s.seat for s in info.seats if s.name in members[team]}
                       for d in public.get("pending", [])):
                    assert all(shown[name] == [names[c] for c in hands[name]] for name in shown), (shown, hands)
                    cards_shown += sum(map(len, shown.values()))
                    team_turns += 1
        assert after.status == "over" and set(after.result["teams"]) == {"team-a", "team-b"}  # played to its end
        assert team_answers > 20 and checked > 300 and team_turns > 50 and cards_shown > 200
        answered = [fake.messages[record[t]["message"]]["content"] for t in team_threads]
        assert all(len(fake.in_channel(t)) == 1 for t in team_threads.values()), "one message per team thread"
        assert "The game is over." in answered[0]
        edits = sum(r.method == "PATCH" and f"/channels/{t}/" in r.path for r in fake.sent for t in team_threads.values())
        assert edits <= team_turns + 4, "a team's message is edited only when its turn to activate comes (P28)"


async def three_at_table(fake: FakeDiscord) -> tuple[int, int]:
    """Ann, Bo and Cy seated at a table of three and started: (thread, game id)."""
    thread, lobby, game_id = await open_lobby(fake, "3 players")
    await press(fake, BO, lobby, "Join as Borg")
    await press(fake, CY, fake.messages[int(lobby["id"])], "Join as Federation")
    await press(fake, ANN, fake.messages[int(lobby["id"])], "Start")
    return thread, game_id


async def test_a_player_who_leaves_is_replaced_and_the_table_can_vote_to_abort(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id = await three_at_table(fake)
        assert 3 in [t.user_id for t in (await fake.bot.service.get(game_id)).awaited]  # Cy is asked as she goes
        leaving = fake.slash(CY, "game leave", channel_id=thread)
        await fake.dispatch(leaving)
        assert "the computer has your seat" in fake.original(leaving)["content"]
        info = await fake.bot.service.get(game_id)
        assert [s.name for s in info.seats] == ["Ann", "Bo", "Cy (left)"] and is_computer(info.seats[2].user_id)
        assert not any(is_computer(t.user_id) for t in info.awaited)  # the left seat already played
        assert any(e.seat == "p3" and is_computer(e.user_id) for e in await fake.bot.service.log(game_id))
        assert any("Cy left the game: the seat passes where it may." in m["content"] for m in fake.in_channel(thread))
        again = fake.slash(CY, "game leave", channel_id=thread)
        await fake.dispatch(again)
        assert "not a player" in fake.original(again)["content"]
        vote = fake.slash(BO, "game abort", channel_id=thread)
        await fake.dispatch(vote)
        assert "vote is counted" in fake.original(vote)["content"]
        assert (await fake.bot.service.get(game_id)).status == "active"
        assert "1 of 2 votes needed" in fake.in_channel(thread)[-1]["content"]
        await fake.dispatch(fake.slash(BO, "game abort", channel_id=thread))  # a second vote by Bo counts once
        assert (await fake.bot.service.get(game_id)).status == "active"
        await fake.dispatch(fake.slash(ANN, "game abort", channel_id=thread, permissions="0"))
        assert (await fake.bot.service.get(game_id)).status == "aborted"  # Ann created it: at once


async def test_votes_of_the_table_abort_a_game_nobody_can_end_alone(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id = await three_at_table(fake)
        stranger = fake.slash(ED, "game abort", channel_id=thread)
        await fake.dispatch(stranger)
        assert "Only the game's players" in fake.original(stranger)["content"]
        await fake.dispatch(fake.slash(BO, "game abort", channel_id=thread))
        await fake.dispatch(fake.slash(CY, "game abort", channel_id=thread))
        assert (await fake.bot.service.get(game_id)).status == "aborted"
        assert "aborted by a vote of the table" in fake.in_channel(thread)[-1]["content"]


async def test_against_three_computers_the_person_leads_the_team_decisions(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, _, game_id = await open_lobby(fake, "2 vs 2", computer="easy")
        info = await fake.bot.service.get(game_id)
        assert [s.name for s in info.seats] == ["Ann"] + ["Computer (easy)"] * 3
        opening = fake.in_channel(thread)[0]["content"]  # the table's seats by team, before the first move
        assert "You and the computer (easy)." in opening and "The game has started." in opening
        assert re.search(r"Team A: Ann \(\w+\), Computer \(easy\) \(\w+\) \(2 of 2\)", opening), opening
        view = await fake.bot.service.view(game_id)
        assert [p["team"] for p in view["players"]] == ["team-a", "team-b", "team-a", "team-b"]
        assert len([c for c in fake.channels.values() if c["type"] == 12]) == 2
        rng, led = random.Random(8), 0
        for _ in range(40):
            info = await fake.bot.service.get(game_id)
            if info.status != "active":
                break
            assert [t.user_id for t in info.awaited if not is_computer(t.user_id)] == [1]  # never left waiting
            pending = (await fake.bot.service.view(game_id))["pending"]
            led += any(d.get("also") and "p1" in (d["player"], *d["also"]) for d in pending)
            version, commands = await fake.bot.service.legal_commands(game_id, 1)
            await choose(fake, ANN, await open_panel(fake, ANN, thread), commands, rng.randrange(len(commands)))
        log = await fake.bot.service.log(game_id)
        assert led > 5 and sum(is_computer(e.user_id) for e in log) > 40
        team_a_picks = [e for e in log if e.command.startswith(("start ", "activate ")) and e.seat in ("p1", "p3")]
        assert team_a_picks and all(e.user_id == 1 for e in team_a_picks)  # the team's choices were Ann's


async def test_a_team_window_reminds_each_teammate_once_and_its_deadline_passes_it_for_the_team(
        monkeypatch, tmp_path):
    from tests.discord_harness import GUILD_ID
    from tests.test_discord_turns import Clock
    same_dice(monkeypatch)
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        await fake.bot.service.set_guild_setting(GUILD_ID, "turn_limit", 3600.0)
        await fake.bot.service.set_guild_setting(GUILD_ID, "remind_after", 1800.0)
        thread, game_id = await seat_teams(fake)
        rng = random.Random(2)
        for _ in range(400):  # play until a reaction window is put to a team of two people
            pending = (await fake.bot.service.view(game_id))["pending"]
            window = next((d for d in pending if d["kind"] in ("interrupt", "reroll") and d.get("also")), None)
            if window:
                break
            user_id = rng.choice([t.user_id for t in (await fake.bot.service.get(game_id)).awaited])
            version, commands = await fake.bot.service.legal_commands(game_id, user_id)
            await fake.bot.service.submit(game_id, user_id, rng.choice(commands), version)
        assert window, "no team window came up"
        info = await fake.bot.service.get(game_id)
        team = {s.seat: s.user_id for s in info.seats if s.seat in (window["player"], *window["also"])}
        assert {t.seat for t in info.awaited} == set(team)
        turns = fake.bot.get_cog("Turns")
        clock.now += 1801
        await fake.run(turns.send_due())
        nudges = [m["content"] for m in fake.in_channel(thread) if m["content"].startswith("Reminder:")]
        assert len(nudges) == 1 and all(nudges[0].count(f"<@{u}>") == 1 for u in team.values())
        clock.now += 1800
        await fake.run(turns.send_due())
        after = await fake.bot.service.view(game_id)
        assert after["version"] == info.version + 1  # one pass closed the window for the whole team
        assert not any(d["kind"] == window["kind"] and d["player"] == window["player"] for d in after["pending"])
        assert sum("Time ran out" in m["content"] for m in fake.in_channel(thread)) == 1


async def test_a_left_seat_passes_every_window_and_still_plays_its_turns(monkeypatch, tmp_path):
    from cogs import table_message
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, game_id = await three_at_table(fake)
        await fake.dispatch(fake.slash(CY, "game leave", channel_id=thread))
        rng = random.Random(4)
        for _ in range(250):
            info = await fake.bot.service.get(game_id)
            if info.status != "active":
                break
            user_id = rng.choice([t.user_id for t in info.awaited])
            version, commands = await fake.bot.service.legal_commands(game_id, user_id)
            await fake.bot.service.submit(game_id, user_id, rng.choice(commands), version)
            await fake.run(table_message.computers_play(fake.bot, game_id))
        left = [e.command for e in await fake.bot.service.log(game_id) if e.seat == "p3" and is_computer(e.user_id)]
        assert "pass" in left and any(c.startswith(("activate", "move", "attack")) for c in left)
        assert not any(c.startswith(("play ", "reroll ")) for c in left), left  # it never answers a window


async def test_team_threads_refused_once_by_discord_are_opened_at_the_next_update_once_each(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        thread, lobby, game_id = await open_lobby(fake, "2 vs 2")
        for member, label in ((BO, "Team B: Borg"), (CY, "Team A: Borg"), (DI, "Team B: Federation")):
            await press(fake, member, fake.messages[int(lobby["id"])], label)
        fake.fail("POST", r"/channels/\d+/threads", 503, times=1)
        await press(fake, ANN, fake.messages[int(lobby["id"])], "Start")
        assert not [c for c in fake.channels.values() if c["type"] == 12]  # refused: the game goes on
        info = await fake.bot.service.get(game_id)
        user_id = info.awaited[0].user_id
        version, commands = await fake.bot.service.legal_commands(game_id, user_id)
        await choose(fake, MEMBERS[user_id], await open_panel(fake, MEMBERS[user_id], thread), commands, 0)
        private = [int(c["id"]) for c in fake.channels.values() if c["type"] == 12]
        assert len(private) == 2 and all(len(fake.in_channel(t)) == 1 for t in private)
        assert sorted(map(sorted, fake.thread_members.values())) == [[1, 3], [2, 4]]


def left_to_activate(view: dict, seat: str) -> int:
    """What the seat may still activate this round: its characters in play not activated,
    and its bonus tokens while it has a character in play."""
    mine = [c for c in view["characters"].values() if c["controller"] == seat and c.get("status") == "in_play"]
    tokens = next(p.get("bonus_actions", 0) for p in view["players"] if p["seat"] == seat)
    return sum(not c.get("activated") for c in mine) + (tokens if mine else 0)


async def test_a_teams_choice_of_activation_calls_one_teammate_and_either_may_answer(monkeypatch, tmp_path):
    """P51: the team's choice is put to both teammates but mentions one, with most left to
    activate, never one with nothing left; the other may still choose (and sometimes does
    here); a teammate whose character the called one chooses is called then. P52: a team
    window mentions only the teammates who could play; P53: of a re-roll window, the player
    whose dice they are, when they could re-roll."""
    same_dice(monkeypatch)
    clock = PlayByPost()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        thread, game_id = await seat_teams(fake)
        service, rng = fake.bot.service, random.Random(7)
        users = {s.seat: s.user_id for s in (await service.get(game_id)).seats}
        choices = uncalled_chose = handed = windows = 0
        while (info := await service.get(game_id)).status == "active" and (await service.view(game_id)).get("round", 0) < 5:
            view = await service.view(game_id)
            team = next(([d["player"], *d["also"]] for d in view["pending"] if d.get("also")), None)
            kind = next((d["kind"] for d in view["pending"] if d.get("also")), None)
            awaited = [t.user_id for t in info.awaited]
            line = next(line for line in fake.in_channel(thread)[-1]["content"].splitlines() if "Waiting for" in line)
            named = [u for u in awaited if f"<@{u}>" in line]
            if kind == "place":  # placing is a team's choice too: one teammate called (P51)
                assert len(named) <= 1 and "Either may answer" in line
            if kind == "activate":
                left = {seat: left_to_activate(view, seat) for seat in team}
                table = await service.guild_setting(int(fake.channels[thread]["guild_id"]), f"table:{game_id}")
                called = [users[s] for s in team if users[s] not in table["uncalled"]]
                assert len(called) == 1 and left[next(s for s in team if users[s] == called[0])] == max(left.values())
                assert "Either may answer" in line and set(named) <= set(called)
                choices += 1
            elif kind in ("interrupt", "reroll"):
                state = AWAY_MISSIONS.from_json((await service.db.game(game_id)).state)
                able = {seat for seat in team if useful_answers(AWAY_MISSIONS, state, seat) != ["pass"]}  # P59
                rolled = able & {view["roll"]["actor_player"], view["roll"].get("target_player")} \
                    if kind == "reroll" else set()
                for seat in set(team) - (rolled or able):  # who could only pass, or did not roll (P52, P53)
                    assert f"<@{users[seat]}>" not in line
                windows += 1
            user_id = rng.choice(awaited)  # either teammate answers, called or not
            version, commands = await service.legal_commands(game_id, user_id)
            index = rng.randrange(len(commands))
            sent = len(fake.sent)
            await choose(fake, MEMBERS[user_id], await open_panel(fake, MEMBERS[user_id], thread), commands, index)
            clock.now += clock.between_moves
            assert (await service.get(game_id)).version > version, "the answer was taken"
            if kind == "activate":
                uncalled_chose += user_id not in called
                owner = users[view["characters"][commands[index].split()[1]]["controller"]]
                if owner not in (user_id, *called) and owner in [t.user_id for t in (await service.get(game_id)).awaited]:
                    assert fake.tally(sent).pings[owner] == 1, "the teammate left uncalled takes the activation: called"
                    handed += 1
        assert choices > 20 and uncalled_chose > 3 and handed > 3 and windows > 5, (choices, uncalled_chose, handed, windows)


async def test_a_teammate_away_leaves_the_teams_call_to_the_other(monkeypatch, tmp_path):
    """P51: when the teammate the table would call is on vacation, the other is called."""
    same_dice(monkeypatch)
    clock = PlayByPost()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        thread, game_id = await seat_teams(fake)
        await fake.dispatch(fake.slash(CY, "away vacation", days=30.0))
        service, rng, instead = fake.bot.service, random.Random(3), 0
        while (info := await service.get(game_id)).status == "active" and instead < 3:
            user_id = rng.choice([t.user_id for t in info.awaited])
            version, commands = await service.legal_commands(game_id, user_id)
            sent, shown = len(fake.sent), await table(fake, game_id)
            await choose(fake, MEMBERS[user_id], await open_panel(fake, MEMBERS[user_id], thread), commands,
                         rng.randrange(len(commands)))
            clock.now += clock.between_moves
            pinged = fake.tally(sent).pings
            assert not pinged[3], "Cy is on vacation"
            last = fake.in_channel(thread)[-1]["content"]
            if "Cy is called" in last and user_id != 1 and 1 not in told(shown) and \
                    {1, 3} <= {t.user_id for t in (await service.get(game_id)).awaited}:  # not told of it already
                assert pinged[1] == 1, "Ann is called in Cy's place"
                instead += 1
        assert instead == 3


SET_UP = ("corridor", "board", "start_area")  # a team's set-up choices (P64)


async def test_a_teams_set_up_choices_call_the_teammate_who_made_its_last_one(monkeypatch, tmp_path):
    """P64: the mission area built in set-up. The Main Corridor's side, each mission board
    and each board of a starting area is put to both teammates and mentions one: the team's
    first seat at first, then whoever made the team's previous set-up choice, called or
    not. Either may answer (the uncalled one sometimes does here); a set-up run of one team
    mentions one player, where it mentioned both before."""
    same_dice(monkeypatch)
    clock = PlayByPost()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        before = len(fake.sent)
        thread, game_id = await seat_teams(fake, layout="build")
        service, rng = fake.bot.service, random.Random(11)
        seats = {s.user_id: s.seat for s in (await service.get(game_id)).seats}
        users = {seat: user_id for user_id, seat in seats.items()}
        made_last: dict[str, str] = {}  # a team's first seat -> the seat that made its last set-up choice
        pinged, choices, uncalled_chose = fake.tally(before).pings, Counter(), 0
        last_team, actor = None, None
        while (view := await service.view(game_id))["pending"][0]["kind"] != "place":
            decision = next((d for d in view["pending"] if d["kind"] in SET_UP), None)
            info = await service.get(game_id)
            called = None
            if decision is not None:
                team = [decision["player"], *decision["also"]]
                called = users[made_last.get(team[0], team[0])]
                line = next(line for line in fake.in_channel(thread)[-1]["content"].splitlines() if "Waiting for" in line)
                name = next(s.name for s in info.seats if s.user_id == called)
                assert f"Either may answer; {name} is called." in line
                assert [users[s] for s in team if pinged[users[s]]] in ([], [called]), (decision, pinged)
                if team != last_team and called != actor:  # the team's run begins: its player is called
                    assert pinged[called] == 1, (decision, pinged)
                last_team = team
                choices[decision["kind"]] += 1
            user_id = rng.choice([t.user_id for t in info.awaited])  # either teammate answers, called or not
            version, commands = await service.legal_commands(game_id, user_id)
            sent = len(fake.sent)
            await choose(fake, MEMBERS[user_id], await open_panel(fake, MEMBERS[user_id], thread), commands,
                         rng.randrange(len(commands)))
            clock.now += clock.between_moves
            assert (await service.get(game_id)).version > version, "the answer was taken"
            if decision is not None:
                made_last[team[0]] = seats[user_id]
                uncalled_chose += user_id != called
            pinged, actor = fake.tally(sent).pings, user_id
        assert choices == {"corridor": 1, "board": 6, "start_area": 5} and uncalled_chose >= 3, (choices, uncalled_chose)
