"""The standing reaction preference (ruling P23): a window where passing is a player's only
answer closes at once by default, without a ping or a post; "ask me every time" keeps it
open; an opponent sees the same whether it closed because the player could only pass or
because they chose "never ask me". Set with /settings reactions, kept across games, shown
on the table and in /game status."""
import random

from cogs import table_message
from engine.rulesets import AWAY_MISSIONS
from engine.service import reactions
from tests.discord_harness import FakeDiscord, choose, open_panel
from tests.test_discord_game import ANN, BO, PlayByPost, new_game, same_dice

SEEDS = range(1, 40)  # games searched for one whose first window put to Bo leaves him only a pass
ANN_ID, BO_ID = int(ANN["id"]), int(BO["id"])


async def play_until_bo_is_asked(fake: FakeDiscord, game_id: int, seed: int) -> tuple[list[str], bool | None]:
    """Play the game through the service (random legal commands, no re-rolls) until Bo is
    asked a reaction window or one closes for him at once: (the commands played, the last
    of them the one that opened it; whether it closed at once), None if never."""
    service, rng, played = fake.bot.service, random.Random(seed), []
    for _ in range(600):
        info = await service.get(game_id)
        if info.status != "active":
            return played, None
        user = info.awaited[0].user_id
        version, commands = await service.legal_commands(game_id, user)
        command = rng.choice([c for c in commands if not c.startswith("reroll")] or commands)
        entries = len(await service.log(game_id))
        await service.submit(game_id, user, command, version)
        log = (await service.log(game_id))[entries:]
        closed = any(e.user_id == BO_ID and e.command == "pass" for e in log[1:])
        asked = BO_ID in {t.user_id for t in (await service.get(game_id)).awaited} and \
            (await service.view(game_id, BO_ID))["pending"][0]["kind"] in ("interrupt", "reroll")
        if closed or asked:
            return played + [command], closed
        played.append(command)
    return played, None


async def first_pass_only_window(tmp_path, monkeypatch) -> list[str]:
    """Commands of a game (fixed dice) up to the one that asks Bo his first reaction window,
    a window where passing is all he can do."""
    for seed in SEEDS:
        async with FakeDiscord(monkeypatch, str(tmp_path / f"search{seed}.db"), clock=PlayByPost()) as fake:
            thread, game_id = await new_game(fake)
            played, closed = await play_until_bo_is_asked(fake, game_id, seed)
            if closed and played[-1] != "pass":
                return played
    raise AssertionError("no game in which Bo's first window leaves him only a pass")


async def window_game(fake: FakeDiscord, clock: PlayByPost, script: list[str],
                      bo_asks: str | None = None) -> tuple[int, int, int]:
    """A new game played by `script` up to its last command, which Ann then plays through
    her panel, by post (Bo's reaction preference set to `bo_asks` just before, if given):
    (thread, game id, the first request of that press)."""
    thread, game_id = await new_game(fake)
    service = fake.bot.service
    for command in script[:-1]:
        info = await service.get(game_id)
        user = info.awaited[0].user_id
        update = await service.submit(game_id, user, command, info.version)
    if bo_asks is not None:
        await service.set_reaction_preference(BO_ID, bo_asks)
    await fake.run(table_message.publish(fake.bot, update, user))  # the table as it stands before Ann's press
    clock.now += clock.between_moves
    user = (await service.get(game_id)).awaited[0].user_id
    assert user == ANN_ID, "Ann's command opens Bo's window"
    version, commands = await service.legal_commands(game_id, user)
    panel = await open_panel(fake, ANN, thread)
    since = len(fake.sent)
    await choose(fake, ANN, panel, commands, commands.index(script[-1]))
    return thread, game_id, since


async def test_a_window_bo_could_only_pass_closes_at_once_by_default_and_stays_open_if_he_asks(
        monkeypatch, tmp_path):
    same_dice(monkeypatch)
    script = await first_pass_only_window(tmp_path, monkeypatch)
    seen = {}
    for chosen in (reactions.ABLE, reactions.EVERY, reactions.NEVER):
        clock = PlayByPost()
        async with FakeDiscord(monkeypatch, str(tmp_path / f"{chosen}.db"), clock=clock) as fake:
            if chosen != reactions.DEFAULT:
                await fake.dispatch(fake.slash(BO, "settings reactions", ask=chosen))
            thread, game_id, since = await window_game(fake, clock, script)
            tally = fake.tally(since)
            service = fake.bot.service
            awaited = {t.user_id for t in (await service.get(game_id)).awaited}
            last = (await service.log(game_id))[-1]
            if chosen == reactions.EVERY:  # asked, called, and only a pass to give
                assert BO_ID in awaited and tally.pings[BO_ID] == 1
                assert (await service.legal_commands(game_id, BO_ID))[1] == ["pass"]
                panel = await open_panel(fake, BO, thread)  # the window's panel lets him change his mind
                pick = fake.component(panel, "rr:react")
                assert [o["value"] for o in pick["options"] if o.get("default")] == [reactions.EVERY]
                await fake.dispatch(fake.click(BO, int(panel["id"]), "rr:react", [reactions.NEVER]))
                assert await service.reaction_preference(BO_ID) == reactions.NEVER
                await service.set_reaction_preference(BO_ID, reactions.EVERY)
            else:  # closed at once in his name: no call, nothing posted for him
                assert BO_ID not in awaited and tally.pings[BO_ID] == 0
                assert (last.user_id, last.command) == (BO_ID, "pass")
                assert not any(f"<@{BO_ID}>" in r.content for r in fake.sent[since:] if r.posts and not r.ephemeral)
            seen[chosen] = await service.view(game_id, ANN_ID), [(e.seat, e.command) for e in await service.log(game_id)]
            shown = "\n".join(m["content"] for m in fake.in_channel(thread))
            assert f"Bo {reactions.SHOWN[chosen]}" in shown, "the table says what Bo chose"
    # the opponent cannot tell "could only pass" from "never ask me": the same view, the same log
    assert seen[reactions.ABLE] == seen[reactions.NEVER]
    assert seen[reactions.ABLE] != seen[reactions.EVERY]


async def test_the_preference_is_kept_across_games_and_shown_in_game_status(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db")) as fake:
        await fake.dispatch(fake.slash(ANN, "settings reactions", ask=reactions.NEVER))
        thread, first = await new_game(fake)
        await fake.bot.service.abort(first, ANN_ID)
        thread, second = await new_game(fake)
        assert await fake.bot.service.reaction_preference(ANN_ID) == reactions.NEVER
        status = fake.slash(BO, "game status", channel_id=thread)
        await fake.dispatch(status)
        assert f"Ann {reactions.SHOWN[reactions.NEVER]}; Bo {reactions.SHOWN[reactions.ABLE]}" \
            in fake.original(status)["content"]


def futile_reroll_window(state) -> bool:
    """Whether Bo is asked a re-roll window in which he holds cards to discard, nothing else
    to play, and dice that already give his side the best result any faces could."""
    commands = AWAY_MISSIONS.legal_commands(state, "p2")
    rerolls = [c for c in commands if c.startswith("reroll ")]
    return bool(rerolls) and all(AWAY_MISSIONS.futile(state, "p2", c) for c in rerolls) \
        and [c for c in commands if c not in rerolls] == ["pass"]


async def first_futile_reroll_window(tmp_path, monkeypatch) -> list[str]:
    """Commands of a game (fixed dice, default preferences) up to the one that asks Bo a
    re-roll window that cannot help him (futile_reroll_window), as the engine asks it."""
    for seed in SEEDS:
        async with FakeDiscord(monkeypatch, str(tmp_path / f"futile{seed}.db"), clock=PlayByPost()) as fake:
            service, rng, played = fake.bot.service, random.Random(seed), []
            thread, game_id = await new_game(fake)
            while (info := await service.get(game_id)).status == "active" and len(played) < 600:
                user = info.awaited[0].user_id
                seat = next(s.seat for s in info.seats if s.user_id == user)
                version, commands = await service.legal_commands(game_id, user)
                command = rng.choice([c for c in commands if not c.startswith("reroll")] or commands)
                state = AWAY_MISSIONS.from_json((await service.db.game(game_id)).state)
                played.append(command)
                if futile_reroll_window(AWAY_MISSIONS.apply(state, seat, command)[0]):
                    return played
                await service.submit(game_id, user, command, version)
    raise AssertionError("no game in which Bo is asked a re-roll that cannot help him")


async def test_a_re_roll_that_cannot_help_is_not_asked_by_default_but_is_under_every(monkeypatch, tmp_path):
    """P59: Bo holds cards, but his dice already give his side the best result: by default the
    window closes at once in his name, without a call; asking every time, he is asked and may
    re-roll anyway. The opponent's view and the log are the same as under "never ask me"."""
    same_dice(monkeypatch)
    script = await first_futile_reroll_window(tmp_path, monkeypatch)
    seen = {}
    for chosen in (reactions.ABLE, reactions.EVERY, reactions.NEVER):
        clock = PlayByPost()
        async with FakeDiscord(monkeypatch, str(tmp_path / f"f-{chosen}.db"), clock=clock) as fake:
            thread, game_id, since = await window_game(fake, clock, script, bo_asks=chosen)
            service, tally = fake.bot.service, fake.tally(since)
            awaited = {t.user_id for t in (await service.get(game_id)).awaited}
            if chosen == reactions.EVERY:
                assert BO_ID in awaited and tally.pings[BO_ID] == 1
                assert any(c.startswith("reroll ") for c in (await service.legal_commands(game_id, BO_ID))[1])
            else:
                last = (await service.log(game_id))[-1]
                assert BO_ID not in awaited and tally.pings[BO_ID] == 0
                assert (last.user_id, last.command) == (BO_ID, "pass")
            seen[chosen] = await service.view(game_id, ANN_ID), [(e.seat, e.command) for e in await service.log(game_id)]
    assert seen[reactions.ABLE] == seen[reactions.NEVER]
    assert seen[reactions.ABLE] != seen[reactions.EVERY]
