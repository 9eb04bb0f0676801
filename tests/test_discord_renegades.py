"""Renegades through Discord interactions only: /game new ruleset:renegades, the lobby,
the private panel, NPC turns summarised once per phase, one ping per decision, and no
world event card shown before it is drawn."""
import json
import random
from dataclasses import dataclass

from engine.renegades.contents.content import load_pack
from tests.discord_harness import CHANNEL_ID, FakeDiscord, choose, open_panel, thread_of, user
from tests.test_discord_game import PlayByPost, awaited, bo_joins_and_ann_starts, same_dice, table

ANN, BO = user(1, "Ann"), user(2, "Bo")
MEMBERS = {1: ANN, 2: BO}


async def new_renegades_game(fake: FakeDiscord) -> tuple[int, int]:
    """The quicker Renegades game opened through /game new, Join and Start: (thread id, game id)."""
    await fake.dispatch(fake.slash(ANN, "game new", ruleset="renegades", mode="coalition vs renegades",
                                   opponent=BO, quick=True, mission="the-courier"))
    return await bo_joins_and_ann_starts(fake)


async def world_deck_names(fake: FakeDiscord, game_id: int) -> set[str]:
    """Names of the world event cards still face down in the deck (read from storage)."""
    state = json.loads((await fake.bot.service.db.game(game_id)).state)
    cards = load_pack(state["pack"]).world_events
    deck = state.get("world_deck", [])  # an empty deck is left out of the stored state
    return {cards[code].name for code in deck} | set(deck)


def pick(rng: random.Random, commands: list[str]) -> int:
    """A random legal command, mostly not a station change, so the game moves on."""
    acting = [i for i, c in enumerate(commands) if not c.startswith("station")]
    return rng.choice(acting if acting and rng.random() < 0.9 else range(len(commands)))


@dataclass
class Action:
    """One decision taken through the private panel, and what reached the thread for it."""

    stored: dict  # the table message's record before the action
    table: object  # the one request that posted or edited the table message
    events: list[dict]


async def act(fake: FakeDiscord, game_id: int, thread: int, rng: random.Random) -> Action:
    """The awaited player opens the panel and picks a random legal command. Checks that the
    game moved one step, that one table message carries it and that exactly the newly
    awaited players were pinged (one ping per decision, never the one who just acted)."""
    turn = (await fake.bot.service.get(game_id)).awaited[0]
    member = MEMBERS[turn.user_id]
    version, commands = await fake.bot.service.legal_commands(game_id, turn.user_id)
    stored, sent = await table(fake, game_id), len(fake.sent)
    panel = await open_panel(fake, member, thread)
    assert any(question in panel["content"] for question in ("What does the", "Which crew of the", "Which dice do")), \
        panel["content"]
    await choose(fake, member, panel, commands, pick(rng, commands))
    after = await fake.bot.service.get(game_id)
    assert after.version == version + 1
    to_thread = [r for r in fake.sent[sent:] if r.path.startswith(f"/channels/{thread}/messages")]
    tables = [r for r in to_thread if r.method == "PATCH" or (r.method == "POST" and r.files)]
    assert len(tables) == 1, "one table message per action, NPC turns and world events included"
    newly = set(awaited(after)) - {turn.user_id} - set(stored["awaited"] if stored else ())
    pinged = {int(u) for r in to_thread for u in (r.json or {}).get("allowed_mentions", {}).get("users", [])}
    assert pinged == newly, (pinged, newly)
    return Action(stored, tables[0], json.loads((await fake.bot.service.log(game_id))[-1].events))


async def test_a_co_operative_renegades_game_is_played_through_interactions_only(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    clock = PlayByPost()
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db"), clock=clock) as fake:
        await fake.dispatch(fake.slash(ANN, "game new", ruleset="renegades", mode="co-op", opponent=BO))
        thread = thread_of(fake)
        lobby = fake.in_channel(thread)[-1]
        assert "Renegades #" in lobby["content"] and "<@2>" in lobby["content"]
        join = next(c["custom_id"] for c in fake.components(lobby) if c["custom_id"].startswith("rr:join:"))
        assert join.endswith(":renegade")  # co-op: everybody flies a Renegade ship
        game_id = int(join.split(":")[2])
        intruder = fake.click(user(3, "Cy"), int(lobby["id"]), join)
        await fake.dispatch(intruder)
        assert "kept for <@2>" in fake.original(intruder)["content"]
        click = fake.click(BO, int(lobby["id"]), join)
        await fake.dispatch(click)
        assert "Renegade" in fake.original(click)["content"]
        await fake.dispatch(fake.click(ANN, int(lobby["id"]), f"rr:start:{game_id}"))
        view = await fake.bot.service.view(game_id)
        assert {s["faction"] for s in view["ships"].values() if s.get("seat")} == {"renegade"}
        assert sum(1 for s in view["ships"].values() if s.get("seat") is None) == 2  # the NPC Coalition
        opening = fake.in_channel(thread)[-1]
        assert [a["filename"] for a in opening["attachments"]] == ["board.png"]
        rng, steps, npc_phases, dice = random.Random(7), 0, 0, 0
        while (await fake.bot.service.get(game_id)).status == "active":
            action = await act(fake, game_id, thread, rng)
            stored, content = action.stored, action.table.json["content"]
            npc_lines = [line for line in content.splitlines() if line.startswith("• NPC ships:")]
            edited = action.table.method == "PATCH" and stored is not None  # lines of earlier actions stay
            shown_before = sum(line.startswith("NPC ships:") for line in stored["lines"]) if edited else 0
            assert len(npc_lines) - shown_before <= 1  # the same seat may end one round and begin the next
            if any(e["type"] == "npc_turn" for e in action.events):
                npc_phases += 1
                assert npc_lines, content  # the NPCs' turns in one readable line
            files = [name for name, _ in action.table.files]
            assert files[0] == "board.png"
            if any(e["type"] == "ship_attack" for e in action.events):
                assert "dice.png" in files  # the orbit's dice; the surface and its dice too while anyone is down there
                assert set(files) <= {"board.png", "dice.png", "surface.png", "crew-dice.png"}
                dice += 1
            hidden = await world_deck_names(fake, game_id)
            for request in fake.public():
                assert not any(card in request.text for card in hidden), hidden
            steps += 1
            clock.now += clock.between_moves
        final = fake.in_channel(thread)[-1]["content"]
        assert "The game is over" in final and "World event phase:" in "\n".join(
            m["content"] for m in fake.in_channel(thread))
        assert steps > 10 and npc_phases >= 6 and dice > 0


async def test_solo_starts_at_once_plays_typed_commands_and_takes_no_computer(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
        refused = fake.slash(ANN, "game new", ruleset="renegades", mode="solo", computer="easy")
        await fake.dispatch(refused)
        assert "Solo is you against the NPC Coalition" in fake.original(refused)["content"]
        wrong = fake.slash(ANN, "game new", mode="solo")
        await fake.dispatch(wrong)
        assert "choose ruleset renegades" in fake.original(wrong)["content"]
        for refused, said in ((fake.slash(ANN, "game new", quick=True), "Renegades options"),
                              (fake.slash(ANN, "game new", ruleset="renegades", mission="nowhere"), "No mission")):
            await fake.dispatch(refused)
            assert said in fake.original(refused)["content"]
        assert not any(c.get("parent_id") for c in fake.channels.values())  # no thread opened
        await fake.dispatch(fake.slash(ANN, "game new", ruleset="renegades", mode="solo"))
        thread = thread_of(fake)
        game_id = (await fake.bot.service.in_channel(fake.channels[thread]["parent_id"], thread)).id
        info = await fake.bot.service.get(game_id)
        assert info.status == "active" and [t.user_id for t in info.awaited] == [1]
        opening = fake.in_channel(thread)[-1]
        assert [a["filename"] for a in opening["attachments"]] == ["board.png"]
        version, legal = await fake.bot.service.legal_commands(game_id, 1)
        offered = await fake.autocomplete(ANN, "play", "command", thread, command="move")
        assert offered and set(offered) <= set(legal) and all(c.startswith("move") for c in offered)
        await fake.dispatch(fake.slash(ANN, "play", thread, command=offered[-1]))  # typed, not clicked
        assert (await fake.bot.service.get(game_id)).version == version + 1
        status = fake.slash(ANN, "game status", thread)
        await fake.dispatch(status)
        assert [a["filename"] for a in fake.original(status)["attachments"]] == ["board.png", "status.png"]


async def test_coalition_against_renegades_seats_the_joiner_in_the_coalition(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
        await fake.dispatch(fake.slash(ANN, "game new", ruleset="renegades", mode="coalition vs renegades"))
        thread = thread_of(fake)
        lobby = fake.in_channel(thread)[-1]
        join = next(c["custom_id"] for c in fake.components(lobby) if c["custom_id"].startswith("rr:join:"))
        assert join.endswith(":coalition")
        game_id = int(join.split(":")[2])
        await fake.dispatch(fake.click(BO, int(lobby["id"]), join))
        await fake.dispatch(fake.click(BO, int(lobby["id"]), f"rr:start:{game_id}"))
        view = await fake.bot.service.view(game_id)
        factions = {s["seat"]: s["faction"] for s in view["ships"].values() if s.get("seat")}
        assert factions == {"p1": "renegade", "p2": "coalition"}
        assert "The game has started" in fake.messages[int(lobby["id"])]["content"]


async def hidden_on_the_surface(fake: FakeDiscord, game_id: int) -> tuple[set[str], dict[str, str]]:
    """Names of the search items still in shut containers, and each unpaid bounty
    (seat -> the hunted crewmember), read from storage."""
    state = json.loads((await fake.bot.service.db.game(game_id)).state)
    items = load_pack(state["pack"]).search_items
    shut = {items[code].name for code in state.get("containers", {}).values() if code in items}
    paid = set(state.get("bounties_paid", []))
    return shut, {seat: crew for seat, crew in state.get("bounties", {}).items() if seat not in paid}


async def test_the_quicker_game_is_played_on_the_surface_with_its_pictures_and_no_secret_shown(
        monkeypatch, tmp_path):
    same_dice(monkeypatch)
    clock = PlayByPost()
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db"), clock=clock) as fake:
        offered = await fake.autocomplete(ANN, "game new", "mission", CHANNEL_ID, ruleset="renegades", mission="cour")
        assert offered == ["the-courier"]
        thread, game_id = await new_renegades_game(fake)
        view = await fake.bot.service.view(game_id)
        assert view["mission"] == "the-courier" and view["phase"] == "landing"
        assert all(s.get("docked") == "veyra" for s in view["ships"].values() if s.get("kind") == "ship")
        assert view["bounties"] == {}  # nobody's bounty is public before it is paid
        rng, steps, surface, crew_dice = random.Random(3), 0, 0, 0
        while (await fake.bot.service.get(game_id)).status == "active":
            action = await act(fake, game_id, thread, rng)
            files, events = [name for name, _ in action.table.files], action.events
            on_surface = any(c.get("cell") for c in (await fake.bot.service.view(game_id))["crew"].values())
            if on_surface:  # drawn anew, or the one the thread shows is still the same (not uploaded again)
                before = ((action.stored or {}).get("shown") or {}).get("surface.png")
                after = ((await table(fake, game_id) or {}).get("shown") or {}).get("surface.png")
                assert "surface.png" in files or before == after is not None, files
                surface += 1
            if any(e["type"] in ("crew_attack", "figure_attack") for e in events):
                assert "crew-dice.png" in files, (files, [e["type"] for e in events])
                crew_dice += 1
            shut, bounties = await hidden_on_the_surface(fake, game_id)
            face_down = await world_deck_names(fake, game_id)
            for request in fake.public():
                assert not any(item in request.text for item in shut | face_down), (shut, face_down)
                told = [line for line in request.text.splitlines() if "bount" in line.lower()]
                assert not any(crew in line for line in told for crew in bounties.values()), told
            steps += 1
            clock.now += clock.between_moves
        assert steps > 10 and surface > 5 and crew_dice > 0, (steps, surface, crew_dice)


async def test_the_computer_crew_flies_the_other_ship_at_once(monkeypatch, tmp_path):
    """coalition vs renegades with computer: the computer crew takes the Coalition seat, the
    game starts at once, its moves are played as soon as it is awaited and it is never pinged."""
    from tests.test_discord_computer import play_against_the_computer
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
        opened = fake.slash(ANN, "game new", ruleset="renegades", computer="easy")
        await fake.dispatch(opened)
        assert "against the computer crew (easy)" in fake.original(opened)["content"]
        rng = random.Random(8)
        _, game_id, info, computer = await play_against_the_computer(fake, 25, lambda commands: pick(rng, commands))
        assert {s.seat: s.name for s in info.seats} == {"p1": "Ann", "p2": "Computer (easy)"}
        players = {p["seat"]: p["faction"] for p in (await fake.bot.service.view(game_id))["players"]}
        assert players == {"p1": "renegade", "p2": "coalition"}
        assert len(computer) >= 5 and any(e.command.startswith(("move", "attack")) for e in computer)


async def test_built_boards_and_world_cards_are_offered_and_bad_combinations_refused(monkeypatch, tmp_path):
    """/game new boards:built builds both boards from location cards (N124, N127); world cards
    are 6-10, 5 or 6 in the quicker game (N57); Renegades options on an Away Missions table
    and bad counts are refused before any thread opens."""
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
        for refused, said in (
                (fake.slash(ANN, "game new", boards="built"), "Renegades options"),
                (fake.slash(ANN, "game new", world_cards=6), "Renegades options"),
                (fake.slash(ANN, "game new", ruleset="renegades", quick=True, world_cards=8),
                 "Play with 5 to 6 world cards in the quicker game"),
                (fake.slash(ANN, "game new", ruleset="renegades", mode="solo", world_cards=5),
                 "Play with 6 to 10 world cards")):
            await fake.dispatch(refused)
            assert said in fake.original(refused)["content"]
        assert not any(c.get("parent_id") for c in fake.channels.values())  # no thread opened
        await fake.dispatch(fake.slash(ANN, "game new", ruleset="renegades", mode="solo", boards="built",
                                       mission="the-ledger", quick=True, world_cards=5))
        thread = thread_of(fake)
        game_id = (await fake.bot.service.in_channel(fake.channels[thread]["parent_id"], thread)).id
        state = json.loads((await fake.bot.service.db.game(game_id)).state)
        assert state["surface_layout"]["c"] == "records-vault" and state["orbit_layout"]
        assert len(state["world_deck"]) == 5 and state["phase"] == "landing"
        view = await fake.bot.service.view(game_id)
        assert view["surface"]["tiles"][4]["name"] == "The Records Vault"


COALITION = ["SOLANE", "KOVIN", "ILDA", "NOOR", "FENWICK"]


async def test_solo_offers_the_coalition_crew_pick_by_pick_and_flies_the_one_chosen(monkeypatch, tmp_path):
    """Issue 26 item 6 (N241): /game new mode:solo coalition_crew autocompletes the NPC
    Coalition crew one crewmember at a time (only those who keep every station manned) and
    the NPC ship flies the five typed, by code or card name."""
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
        first = await fake.autocomplete(ANN, "game new", "coalition_crew", CHANNEL_ID, ruleset="renegades",
                                        mode="solo", coalition_crew="")
        assert first[0] == "HALVERN, PELL, ORSO, ANSEL, BRECK" and "SOLANE" in first  # the standard crew first
        two_commanders = await fake.autocomplete(ANN, "game new", "coalition_crew", CHANNEL_ID, ruleset="renegades",
                                                 mode="solo", coalition_crew="SOLANE, ")
        assert "SOLANE, KOVIN" in two_commanders and "SOLANE, HALVERN" not in two_commanders
        typed = await fake.autocomplete(ANN, "game new", "coalition_crew", CHANNEL_ID, ruleset="renegades",
                                        mode="solo", coalition_crew="solane, kovin, ilda, noor, fen")
        assert typed == ["SOLANE, KOVIN, ILDA, NOOR, FENWICK"]
        opened = fake.slash(ANN, "game new", ruleset="renegades", mode="solo",
                            coalition_crew="Inspector Ada Solane, kovin, ILDA, noor, Fenwick")
        await fake.dispatch(opened)
        assert "The NPC Coalition ship flies your choice: SOLANE, KOVIN, ILDA, NOOR, FENWICK" \
            in fake.original(opened)["content"]
        thread = thread_of(fake)
        game_id = (await fake.bot.service.in_channel(fake.channels[thread]["parent_id"], thread)).id
        view = await fake.bot.service.view(game_id)
        npc = next(s for s in view["ships"].values() if s.get("faction") == "coalition")
        assert npc.get("seat") is None and sorted(npc["stations"].values()) == sorted(COALITION)
        assert view["ships"]["KESTREL"]["stations"]["commander"] == "VESK"  # the player's own crew as before


async def test_solo_without_a_choice_says_the_standard_crew_and_how_to_choose(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
        opened = fake.slash(ANN, "game new", ruleset="renegades", mode="solo")
        await fake.dispatch(opened)
        said = fake.original(opened)["content"]
        assert "flies the standard crew (HALVERN, PELL, ORSO, ANSEL, BRECK)" in said and "coalition_crew" in said


async def test_a_coalition_crew_or_draft_that_cannot_be_played_is_refused_before_any_thread(monkeypatch, tmp_path):
    """Bad input gets a clear message and opens nothing (N241)."""
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
        for values, said in (
                ({"mode": "solo", "coalition_crew": "SOLANE, KOVIN"}, "you named 2: SOLANE, KOVIN"),
                ({"mode": "solo", "coalition_crew": "HALVERN SOLANE PELL ORSO ANSEL"}, "leave a station empty"),
                ({"mode": "solo", "coalition_crew": "VESK PELL ORSO ANSEL BRECK"}, "'VESK' is not coalition crew"),
                ({"mode": "solo", "coalition_crew": "PELL PELL ORSO ANSEL BRECK"}, "Named twice: PELL"),
                ({"mode": "co-op", "coalition_crew": " ".join(COALITION)}, "Only the solo game names"),
                ({"mode": "solo", "coalition_crew": " ".join(COALITION), "draft": True}, "not both")):
            refused = fake.slash(ANN, "game new", ruleset="renegades", **values)
            await fake.dispatch(refused)
            assert said in fake.original(refused)["content"], values
        for values in ({"draft": True}, {"coalition_crew": "SOLANE"}):
            refused = fake.slash(ANN, "game new", **values)  # an Away Missions table
            await fake.dispatch(refused)
            assert "choose ruleset renegades" in fake.original(refused)["content"]
        assert not any(c.get("parent_id") for c in fake.channels.values())  # no thread opened



async def test_a_solo_draft_is_picked_on_the_panel_own_crew_then_the_coalition(monkeypatch, tmp_path):
    """draft:true (N219, N220): the solo game starts with the draft; each pick is a choice of
    the private panel, only crew who leave every station mannable are offered, and the
    last pick launches both ships with the crews picked."""
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
        opened = fake.slash(ANN, "game new", ruleset="renegades", mode="solo", draft=True)
        await fake.dispatch(opened)
        assert "You draft your crew, then the Coalition's" in fake.original(opened)["content"]
        thread = thread_of(fake)
        game_id = (await fake.bot.service.in_channel(fake.channels[thread]["parent_id"], thread)).id
        assert (await fake.bot.service.view(game_id))["phase"] == "draft"
        wanted = ["KAIRO", "LINNET", "DRAX", "PEREL", "ZEMMA", *COALITION]
        for n, code in enumerate(wanted):
            _, commands = await fake.bot.service.legal_commands(game_id, 1)
            panel = await open_panel(fake, ANN, thread)
            ship = "Kestrel" if n < 5 else "Warden"
            assert f"Which crewmember joins the {ship}? (pick {n % 5 + 1} of 5)" in panel["content"]
            await choose(fake, ANN, panel, commands, commands.index(f"draft {code}"))
        view = await fake.bot.service.view(game_id)
        assert view.get("phase", "orbital") == "orbital" and not view.get("draft")  # the first round began
        assert sorted(view["ships"]["KESTREL"]["stations"].values()) == sorted(wanted[:5])
        assert sorted(view["ships"]["WARDEN"]["stations"].values()) == sorted(COALITION)


async def test_a_co_op_draft_takes_turns_between_the_players_for_all_four_ships(monkeypatch, tmp_path):
    """draft:True at a co-op table (N219, N220, N242): the joiner is told the crews are picked
    at the start; the two players pick in turn for their Renegade ships, then each for its
    NPC Coalition ship, every pick on the panel of the player awaited."""
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
        opened = fake.slash(ANN, "game new", ruleset="renegades", mode="co-op", opponent=BO, draft=True)
        await fake.dispatch(opened)
        assert "picked one at a time on your panel when the game starts" in fake.original(opened)["content"]
        thread = thread_of(fake)
        lobby = fake.in_channel(thread)[-1]
        join = next(c["custom_id"] for c in fake.components(lobby) if c["custom_id"].startswith("rr:join:"))
        game_id = int(join.split(":")[2])
        click = fake.click(BO, int(lobby["id"]), join)
        await fake.dispatch(click)
        assert "(the draft)" in fake.original(click)["content"]
        await fake.dispatch(fake.click(ANN, int(lobby["id"]), f"rr:start:{game_id}"))
        pickers = []
        while (await fake.bot.service.view(game_id)).get("draft"):
            turn = (await fake.bot.service.get(game_id)).awaited[0]
            _, commands = await fake.bot.service.legal_commands(game_id, turn.user_id)
            panel = await open_panel(fake, MEMBERS[turn.user_id], thread)
            assert "Which crewmember joins the" in panel["content"]
            await choose(fake, MEMBERS[turn.user_id], panel, commands, 0)
            pickers.append(turn.user_id)
        assert len(pickers) == 20 and set(pickers[:10]) == set(pickers[10:]) == {1, 2}
        ships = (await fake.bot.service.view(game_id))["ships"]
        assert len(ships) == 4 and all(len(set(s["stations"].values())) == 5 for s in ships.values())


async def test_the_computer_crew_drafts_its_own_crew_by_rule_of_thumb(monkeypatch, tmp_path):
    """draft:True against the computer (N243): the person picks the Renegade crew on the
    panel, the computer crew then picks the Coalition's at once (by rule of thumb, see
    tests/test_opponent_renegades.py), and the first round begins."""
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
        opened = fake.slash(ANN, "game new", ruleset="renegades", computer="easy", draft=True)
        await fake.dispatch(opened)
        thread = thread_of(fake)
        game_id = (await fake.bot.service.in_channel(fake.channels[thread]["parent_id"], thread)).id
        for code in ("VESK", "TALLO", "RHEE", "MOTT", "GRUND"):
            _, commands = await fake.bot.service.legal_commands(game_id, 1)
            await choose(fake, ANN, await open_panel(fake, ANN, thread), commands, commands.index(f"draft {code}"))
        view = await fake.bot.service.view(game_id)
        warden = view["ships"]["WARDEN"]["stations"]
        assert not view.get("draft") and len(set(warden.values())) == 5  # drafted at once, every station manned
        kestrel = view["ships"]["KESTREL"]["stations"]
        assert sorted(kestrel.values()) == sorted(["VESK", "TALLO", "RHEE", "MOTT", "GRUND"])
