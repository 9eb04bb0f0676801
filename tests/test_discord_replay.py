"""/game replay through the fake Discord: browsing a game step by step (Back, Next, the
activation and round before and after, a round to jump to), buttons that work after a
restart, hidden cards never shown (a running game always; a finished one unless every
player pressed the reveal button at its end), who may watch (rulings P39-P41), both rulesets."""
import json
import random
import sqlite3

import pytest

from engine.service import GameService, NotAllowed, steps, text
from engine.service.privacy import PrivacyDesk
from engine.service.replays import ReplayDesk
from engine.service.rulesets import RULESETS
from tests.discord_harness import CHANNEL_ID, EPHEMERAL, GUILD_ID, FakeDiscord, user

ANN, BO, CY, DI = user(1, "Ann"), user(2, "Bo"), user(3, "Cy"), user(4, "Di")
FED = dict(affiliation="federation", team="federation-away-team", deck="federation-starter")
BORG = dict(affiliation="borg", team="borg-away-team", deck="borg-starter")
SEATS = {"awaymissions": [(1, "Ann", FED), (2, "Bo", BORG)], "renegades": [(1, "Ann", {}), (2, "Bo", {"faction": "coalition"})]}
TEAMS = [(1, "Ann", FED), (2, "Bo", BORG), (3, "Cy", FED), (4, "Di", BORG)]


async def started(fake: FakeDiscord, moves: int, ruleset: str = "awaymissions", seed: int = 5,
                  options=None, seats=None) -> tuple[int, int]:
    """A game in a thread of the server, `moves` random legal moves in: (game id, thread id)."""
    service = fake.bot.service
    thread = fake.add_channel(GUILD_ID, parent_id=CHANNEL_ID)
    info = await service.create(creator=1, guild_id=GUILD_ID, channel_id=CHANNEL_ID, thread_id=thread, seed=seed,
                                ruleset=ruleset, options=options)
    for user_id, name, side in seats or SEATS[ruleset]:
        await service.join(info.id, user_id, name, **side)
    await fake.bot.get_cog("Players").desk.seal(info.id)  # as Start does: the game's end message needs it
    update = await service.start(info.id, 1)
    rng = random.Random(seed)
    while update.status == "active" and (await service.get(info.id)).version < moves:
        who = update.awaited[0].user_id
        version, commands = await service.legal_commands(info.id, who)
        update = await service.submit(info.id, who, rng.choice(commands), version)
    return info.id, thread


def buttons(message: dict) -> dict[str, dict]:
    """The browser's buttons by kind (deal, back, next, latest, aback, anext, rback, rnext)."""
    return {c["custom_id"].split(":")[3]: c for c in FakeDiscord.components(message) if c["type"] == 2}


async def press(fake: FakeDiscord, member: dict, message: dict, kind: str) -> dict:
    await fake.dispatch(fake.click(member, int(message["id"]), buttons(message)[kind]["custom_id"]))
    return fake.messages[int(message["id"])]


async def replay(fake: FakeDiscord, member: dict, channel: int = CHANNEL_ID, **options) -> dict:
    opened = fake.slash(member, "game replay", channel, **options)
    await fake.dispatch(opened)
    return fake.original(opened)


def step_of(message: dict) -> int:
    return int(message["content"].split("· step ")[1].split(" ")[0])


async def hidden_names(fake: FakeDiscord, game_id: int) -> list[set[str]]:
    """Per step, the names of the cards in a hand then that no public line had named by then."""
    row = await fake.bot.service.db.game(game_id)
    log = [(e.seat, e.command, e.events) for e in await fake.bot.service.db.log(game_id)]
    ruleset, named, hidden = RULESETS[row.ruleset], "", []
    for step in steps.walk(ruleset, json.loads(row.config), row.seed, log):
        names = ruleset.display_names(step.state)
        named += "\n".join(ruleset.public_lines(step.events, names))
        held = {names.get(c, c) for seat in step.state.seats for p in ruleset.view_for(step.state, seat)["players"]
                if p["seat"] == seat for c in p.get("hand", [])}
        hidden.append({name for name in held if name not in named})
    return hidden


async def test_a_running_game_is_browsed_step_by_step_and_the_buttons_work_after_a_restart(monkeypatch, database_url):
    async with FakeDiscord(monkeypatch, database_url) as fake:
        game_id, thread = await started(fake, moves=80)
        history = {m.seq: m.lines for m in await fake.bot.service.history(game_id)}
        shown = await replay(fake, CY, thread, game=game_id)  # a member of the server who did not play
        assert shown["flags"] & EPHEMERAL and fake.in_channel(thread) == []
        assert step_of(shown) == 80 and "step 80 of 80" in shown["content"] and "running" in shown["content"]
        assert [a["filename"] for a in shown["attachments"]] == ["board.png"]
        assert buttons(shown)["next"]["disabled"] and buttons(shown)["latest"]["disabled"]
        assert all(f"• {line}" in shown["content"] for line in history[80])
        shown = await press(fake, CY, shown, "back")
        assert step_of(shown) == 79 and all(f"• {line}" in shown["content"] for line in history[79])
        shown = await press(fake, CY, shown, "deal")
        assert step_of(shown) == 0 and "The deal." in shown["content"] and buttons(shown)["back"]["disabled"]
        await fake.shutdown()  # a restart: the ephemeral message and its buttons outlive the process
        await fake.boot()
        shown = await press(fake, CY, shown, "next")
        assert step_of(shown) == 1 and all(f"• {line}" in shown["content"] for line in history[1])
        marks = steps.marks_of(steps.walk(RULESETS["awaymissions"], *await _record(fake, game_id)))
        shown = await press(fake, CY, shown, "anext")
        assert step_of(shown) == marks.activations[0] and "activation 1" in shown["content"]
        shown = await press(fake, CY, shown, "anext")
        assert step_of(shown) == marks.activations[1] and "activation 2" in shown["content"]
        shown = await press(fake, CY, shown, "aback")
        assert step_of(shown) == marks.activations[0]
        rounds = sorted(marks.rounds.items())
        shown = await press(fake, CY, shown, "rnext")
        assert step_of(shown) == next(s for _, s in rounds if s > marks.activations[0])
        select = next(c for c in fake.components(shown) if c["type"] == 3)
        assert [o["value"] for o in select["options"]] == [str(s) for _, s in rounds]
        await fake.dispatch(fake.click(CY, int(shown["id"]), select["custom_id"], [str(rounds[1][1])]))
        shown = fake.messages[int(shown["id"])]
        assert step_of(shown) == rounds[1][1] and f"Round {rounds[1][0]}" in shown["content"]
        await fake.dispatch(fake.click(CY, int(shown["id"]), select["custom_id"], ["-1"]))  # a forged value
        assert step_of(fake.messages[int(shown["id"])]) == rounds[1][1]
        jump = next(c for c in fake.components(shown) if c["custom_id"] == f"rr:replay:{game_id}:activation")
        ends = next((s for _, s in rounds if s > rounds[1][1]), 81)
        begun = [s for s in marks.activations if rounds[1][1] <= s < ends]  # this round's activations
        assert [o["value"] for o in jump["options"]] == [str(s) for s in begun]
        assert all(o["label"].endswith(" activates") for o in jump["options"])
        await fake.dispatch(fake.click(CY, int(shown["id"]), jump["custom_id"], [str(begun[2])]))
        shown = fake.messages[int(shown["id"])]
        assert step_of(shown) == begun[2] and f"activation {marks.activations.index(begun[2]) + 1}" in shown["content"]
        shown = await press(fake, CY, shown, "latest")
        assert step_of(shown) == 80


async def _record(fake: FakeDiscord, game_id: int):
    row = await fake.bot.service.db.game(game_id)
    return json.loads(row.config), row.seed, [(e.seat, e.command, e.events) for e in await fake.bot.service.db.log(game_id)]


async def test_a_running_game_never_shows_a_hidden_card_even_to_its_players(monkeypatch, database_url):
    async with FakeDiscord(monkeypatch, database_url) as fake:
        game_id, thread = await started(fake, moves=25, seed=8)
        hidden = await hidden_names(fake, game_id)
        assert sum(map(bool, hidden)) >= 10 and len(hidden) == 26, [len(h) for h in hidden]
        shown = await replay(fake, ANN, thread, game=game_id, step=0)
        for number in range(26):
            assert step_of(shown) == number
            assert not any(name in shown["content"] for name in hidden[number]), (number, hidden[number])
            assert "You drew" not in shown["content"] and "hand:" not in shown["content"]
            if number < 25:
                shown = await press(fake, ANN, shown, "next")


async def test_a_finished_game_shows_hidden_cards_only_once_every_player_agreed(monkeypatch, database_url):
    async with FakeDiscord(monkeypatch, database_url) as fake:
        game_id, thread = await started(fake, moves=30, seed=8)
        await fake.dispatch(fake.slash(BO, "game concede", thread))
        assert await fake.run(fake.bot.get_cog("Players").settle()) == [1]  # the end message, on the clock
        offer = fake.in_channel(thread)[-1]
        reveal = f"rr:reveal:{game_id}"
        assert "its dice can be checked" in offer["content"] and f"/game replay game:{game_id}" in offer["content"]
        assert fake.component(offer, reveal) and fake.component(offer, f"rr:dice:{game_id}")
        hidden = await hidden_names(fake, game_id)
        rich = next(n for n, names in enumerate(hidden) if len(names) >= 5)  # a step with cards in hand
        shown = await replay(fake, ANN, thread, game=game_id, step=rich)
        assert "hand:" not in shown["content"] and not any(name in shown["content"] for name in hidden[rich])
        shown = await replay(fake, ANN, thread, game=game_id)  # an ended game opens at the deal
        assert step_of(shown) == 0 and "step 0 of 30" in shown["content"] and "running" not in shown["content"]
        for member, said in [(CY, "Only the players"), (ANN, "Agreed so far: Ann. Hidden cards stay hidden until "
                                                             "every player has; waiting for Bo."), (ANN, "waiting for Bo")]:
            pressed = fake.click(member, int(offer["id"]), reveal)
            await fake.dispatch(pressed)
            assert said in fake.original(pressed)["content"]
        shown = await press(fake, ANN, shown, "next")
        assert "Hidden cards" not in shown["content"] and "hand:" not in shown["content"]
        await fake.shutdown()
        await fake.boot()
        pressed = fake.click(BO, int(offer["id"]), reveal)
        await fake.dispatch(pressed)
        assert "Every player agreed" in fake.original(pressed)["content"]
        offer = fake.messages[int(offer["id"])]
        assert offer["content"].endswith(f"Every player agreed: replays of game #{game_id} show its hidden cards.")
        assert "Seed `" in offer["content"] and fake.component(offer, f"rr:dice:{game_id}")  # the rest kept
        shown = await press(fake, CY, shown, "deal")  # anyone who may watch it now sees every hand
        assert "Hidden cards" in shown["content"] and "Ann: hand: " in shown["content"] and "Bo: hand: " in shown["content"]
        shown = await replay(fake, CY, thread, game=game_id, step=rich)
        assert all(name in shown["content"] for name in hidden[rich])
        drew = [n for n in range(1, len(hidden)) if "You drew" in await _private_line(fake, game_id, n)]
        shown = await replay(fake, CY, thread, game=game_id, step=drew[0])
        assert "You drew" in shown["content"]


async def _private_line(fake: FakeDiscord, game_id: int, number: int) -> str:
    entry = (await fake.bot.service.db.log(game_id))[number - 1]
    return " ".join(line for lines in text.private_lines(json.loads(entry.events)).values() for line in lines)


async def test_who_may_watch_a_game_and_what_cannot_be_watched(monkeypatch, database_url):
    async with FakeDiscord(monkeypatch, database_url) as fake:
        game_id, thread = await started(fake, moves=3)
        elsewhere = fake.add_channel(GUILD_ID + 1)
        refused = await replay(fake, CY, elsewhere, game=game_id)  # another server, not a player
        assert "by its players, or from the server it was played in" in refused["content"]
        assert not refused.get("attachments") and not fake.components(refused)
        assert step_of(await replay(fake, BO, elsewhere, game=game_id)) == 3  # a player, from anywhere
        assert step_of(await replay(fake, CY, thread)) == 3  # the game running in this thread
        assert "There is no game #999" in (await replay(fake, CY, thread, game=999))["content"]
        assert "No game was played here" in (await replay(fake, CY, CHANNEL_ID))["content"]
        lobby = await fake.bot.service.create(creator=1, guild_id=GUILD_ID, channel_id=CHANNEL_ID)
        assert "has not started" in (await replay(fake, CY, CHANNEL_ID, game=lobby.id))["content"]
        assert step_of(await replay(fake, CY, thread, game=game_id, step=10**6)) == 3  # past the end: the latest
        await fake.dispatch(fake.slash(ANN, "game abort", thread))  # P41: an aborted game is not revealed
        assert await fake.run(fake.bot.get_cog("Players").settle()) == [1]
        ended = fake.in_channel(thread)[-1]
        assert f"/game replay game:{game_id}" in ended["content"] and "hidden" not in ended["content"]
        assert [c["custom_id"] for c in fake.components(ended)] == [f"rr:dice:{game_id}"]
        assert step_of(await replay(fake, CY, thread, game=game_id)) == 0  # an aborted game opens at the deal
        assert step_of(await replay(fake, CY, thread)) == 0  # with no number: the last game played in this thread


async def test_renegades_and_a_team_game_are_browsed_alike(monkeypatch, database_url):
    """Ruleset-blind: the orbit board at every step, the planet surface beside it once a party
    is down; a team game of four keeps every hand hidden while it runs."""
    async with FakeDiscord(monkeypatch, database_url) as fake:
        game_id, thread = await started(fake, moves=30, ruleset="renegades", seed=3)
        shown = await replay(fake, ANN, thread, game=game_id, step=0)
        assert step_of(shown) == 0 and "Round 1 · activation 1" in shown["content"]  # the first ship's turn
        assert [a["filename"] for a in shown["attachments"]] == ["board.png"]
        shown = await press(fake, ANN, shown, "anext")
        assert "activation 2" in shown["content"] and "'s turn" in shown["content"]
        shown = await press(fake, ANN, shown, "rnext")
        assert "Round 2" in shown["content"]
        teams, team_thread = await started(fake, moves=30, options={"mode": "teams", "layout": "six"}, seats=TEAMS)
        hidden = await hidden_names(fake, teams)
        shown = await replay(fake, CY, team_thread, game=teams, step=30)
        assert step_of(shown) == 30 and "step 30 of 30" in shown["content"]
        assert hidden[30] and not any(name in shown["content"] for name in hidden[30])


async def test_the_computer_agrees_to_reveal_and_an_aborted_game_is_watched_as_far_as_it_went(tmp_path):
    """P41: only people are asked; P39: an aborted game that was dealt can be watched, publicly."""
    service = await GameService.open(str(tmp_path / "games.db"))
    try:
        desk = ReplayDesk(service)
        game = await service.create(creator=1, guild_id=GUILD_ID, channel_id=CHANNEL_ID, seed=4)
        await service.join(game.id, 1, "Ann", **FED)
        await service.add_computer(game.id, "easy", **BORG)
        await service.start(game.id, 1)
        with pytest.raises(NotAllowed, match="not over"):
            await desk.agree_to_reveal(game.id, 1)
        await service.concede(game.id, 1)
        assert (await desk.agree_to_reveal(game.id, 1)).complete
        assert (await desk.step(game.id, 3, GUILD_ID, 0)).hidden  # revealed to anyone who may watch
        await PrivacyDesk(service).forget(1)  # P16: the agreement keeps seats, not users, and stands
        assert await service.guild_setting(GUILD_ID, f"reveal:{game.id}") == ["p1"]
        assert (await desk.step(game.id, 3, GUILD_ID, 0)).hidden
        aborted = await service.create(creator=1, guild_id=GUILD_ID, channel_id=CHANNEL_ID, seed=4)
        for user_id, name, side in SEATS["awaymissions"]:
            await service.join(aborted.id, user_id, name, **side)
        await service.start(aborted.id, 1)
        await service.abort(aborted.id, 1)
        shown = await desk.step(aborted.id, 3, GUILD_ID, None)
        assert shown.status == "aborted" and shown.step.number == 0 and not shown.hidden
    finally:
        await service.close()


async def test_a_game_whose_log_no_longer_replays_is_refused_with_a_reason(tmp_path):
    path = str(tmp_path / "games.db")
    service = await GameService.open(path)
    try:
        game = await service.create(creator=1, guild_id=GUILD_ID, channel_id=CHANNEL_ID, seed=4)
        for user_id, name, side in SEATS["awaymissions"]:
            await service.join(game.id, user_id, name, **side)
        update = await service.start(game.id, 1)
        for _ in range(3):
            version, commands = await service.legal_commands(game.id, update.awaited[0].user_id)
            update = await service.submit(game.id, update.awaited[0].user_id, commands[0], version)
        with sqlite3.connect(path) as conn:  # a command the running rules refuse, as after a rules change
            conn.execute("UPDATE log SET command = 'nonsense' WHERE seq = 2")
        with pytest.raises(NotAllowed, match="cannot be watched again: its move 2 is refused"):
            await ReplayDesk(service).step(game.id, 1, GUILD_ID, None)
    finally:
        await service.close()
