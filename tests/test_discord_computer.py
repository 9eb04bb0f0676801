"""/game new computer:LEVEL: a game against the computer through the fake Discord.

The computer's moves are played at once after each of the player's, each shown on the
table with its pictures; the computer is never pinged, and its seat is never awaited
when the player is handed the turn.
"""
import json
import random

import pytest

from engine.service import is_computer
from engine.service.service import COMPUTER_USER_BASE
from tests.discord_harness import GUILD_ID, FakeDiscord, choose, open_panel, thread_of, user
from tests.test_discord_game import same_dice

ANN = user(1, "Ann")
COMPUTER_P2 = COMPUTER_USER_BASE + 2


async def play_against_the_computer(fake: FakeDiscord, moves: int, pick) -> tuple[int, int, object, list]:
    """Ann plays up to `moves` choices on her panel in the newest game thread (`pick(commands)`:
    the index of the one to click), checking she is never left waiting on the computer, and
    that the computer was never pinged. (thread, game id, final game info, the computer's log
    entries)."""
    thread = thread_of(fake)
    game_id = (await fake.bot.service.in_channel(fake.channels[thread]["parent_id"], thread)).id
    mine = 0
    await fake.bot.service.set_reaction_preference(1, "every")  # each of Ann's moves is a click of hers (P23)
    while (info := await fake.bot.service.get(game_id)).status == "active" and mine < moves:
        assert [t.user_id for t in info.awaited] == [1], info.awaited  # never left waiting on the computer
        version, commands = await fake.bot.service.legal_commands(game_id, 1)
        await choose(fake, ANN, await open_panel(fake, ANN, thread), commands, pick(commands))
        mine += 1
    log = await fake.bot.service.log(game_id)
    assert len([e for e in log if e.user_id == 1]) == mine
    for request in fake.sent:
        if request.json and "allowed_mentions" in request.json:
            assert not any(is_computer(int(u)) for u in request.json["allowed_mentions"].get("users", []))
    return thread, game_id, info, [e for e in log if is_computer(e.user_id)]


async def test_a_game_against_the_computer_plays_its_moves_at_once(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
        await fake.dispatch(fake.slash(ANN, "game new", computer="easy", side="borg"))
        rng = random.Random(3)
        thread, game_id, info, computer = await play_against_the_computer(
            fake, 40, lambda commands: rng.randrange(len(commands)))
        assert len(computer) > 20
        assert any(json.loads(e.events) and e.command.startswith(("attack", "move", "play")) for e in computer)
        seats = {s.seat: s.name for s in info.seats}
        assert seats == {"p1": "Ann", "p2": "Computer (easy)"}
        assert any("board.png" in [a["filename"] for a in m.get("attachments", [])] for m in fake.in_channel(thread))


async def test_a_person_and_the_computer_cannot_both_be_invited(monkeypatch, tmp_path):
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
        payload = fake.slash(ANN, "game new", computer="hard", opponent=user(2, "Bo"))
        await fake.dispatch(payload)
        assert "not both" in fake.original(payload)["content"]



@pytest.mark.parametrize("allowed", [False, True])
async def test_at_a_deadline_the_computer_stands_in_only_where_the_server_allows_it(monkeypatch, tmp_path, allowed):
    from tests.discord_harness import MANAGE_GUILD
    from tests.test_discord_game import BO, new_game
    from tests.test_discord_turns import Clock
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db"), clock=clock) as fake:
        await fake.bot.service.set_guild_setting(GUILD_ID, "turn_limit", 3600.0)
        refused = fake.slash(BO, "settings stand-in", enabled=True)
        await fake.dispatch(refused)
        assert "Manage Server" in fake.original(refused)["content"]
        if allowed:
            await fake.dispatch(fake.slash(ANN, "settings stand-in", permissions=str(MANAGE_GUILD), enabled=True))
        thread, game_id = await new_game(fake)
        late = {t.user_id for t in (await fake.bot.service.get(game_id)).awaited}
        clock.now += 3601  # the opening decision (not a reaction window) is late
        await fake.run(fake.bot.get_cog("Turns").send_due())
        log = await fake.bot.service.log(game_id)
        stood_in = any("the computer plays for" in m["content"] for m in fake.in_channel(thread))
        if allowed:
            assert log and {e.user_id for e in log} <= late and stood_in  # played as the absent players' seats
        else:
            assert log == [] and not stood_in


async def test_why_shows_the_computers_best_three_candidates_privately(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db")) as fake:
        await fake.dispatch(fake.slash(ANN, "game new", computer="normal"))
        thread = thread_of(fake)
        game_id = (await fake.bot.service.in_channel(fake.channels[thread]["parent_id"], thread)).id
        rng = random.Random(4)
        for _ in range(60):
            why = await fake.bot.service.guild_setting(GUILD_ID, f"why:{game_id}")
            if why and len(why["lines"]) == 1:  # a set-up choice: the rule of thumb it followed
                assert why["lines"][0].startswith("Rule of thumb: ")
            elif why or (await fake.bot.service.get(game_id)).status != "active":
                break
            version, commands = await fake.bot.service.legal_commands(game_id, 1)
            await choose(fake, ANN, await open_panel(fake, ANN, thread), commands, rng.randrange(len(commands)))
        assert why and len(why["lines"]) == 3
        table = fake.in_channel(thread)[-1]
        button = next(c["custom_id"] for c in fake.components(table) if c["custom_id"].startswith("rr:why:"))
        click = fake.click(ANN, int(table["id"]), button)
        await fake.dispatch(click)
        answer = fake.original(click)["content"]
        assert answer.startswith("Move ") and "the computer (normal) for Computer (normal) weighed:" in answer
        assert answer.count("estimated win rate") == 3
        hand = next(p.get("hand", []) for p in (await fake.bot.service.view(game_id, COMPUTER_P2))["players"]
                    if p["seat"] == "p2")
        assert not any(card in answer for card in hand)


async def test_when_the_computers_reply_ends_the_game_the_players_panel_says_it_is_over(monkeypatch, tmp_path):
    """Issue 29 item 5: the player's move is answered by the computer's, which ends the game;
    nothing is logged as an error (the harness fails any interaction that logs one) and the
    panel the player clicked shows the end, not the question it last asked."""
    same_dice(monkeypatch)
    for seed in range(8):  # random games until one that the computer's move ends
        async with FakeDiscord(monkeypatch, str(tmp_path / f"games{seed}.db")) as fake:
            await fake.dispatch(fake.slash(ANN, "game new", computer="easy", side="borg"))
            rng = random.Random(seed)
            thread, game_id, info, computer = await play_against_the_computer(
                fake, 1000, lambda commands: rng.randrange(len(commands)))
            last = (await fake.bot.service.log(game_id))[-1]
            if info.status == "over" and is_computer(last.user_id):
                break
    assert info.status == "over" and is_computer(last.user_id), "no game in 8 ended with the computer's move"
    clicked = fake.messages[max(fake.clicked.values())]  # the panel of Ann's last choice
    assert "The game is over. Winner: " in clicked["content"] and "Final score: " in clicked["content"]
    assert clicked["content"].startswith("Done: ") and not fake.components(clicked)
