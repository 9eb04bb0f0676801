"""Computer turns left unplayed are resumed (ruling P60): the database lists the long waits of
computer seats, the service keeps the games whose computer is to play (not those a person
leads, R62; not within the grace), and the clock plays them, after a restart too, through
the fake Discord. Two sweeps never play one decision twice."""
import asyncio
import random
import threading
from types import SimpleNamespace

import pytest

from engine import opponent
from engine.service import GameService, StaleVersion, StorageBusy, is_computer
from engine.service.errors import BUSY
from engine.service.service import COMPUTER_GRACE, COMPUTER_USER_BASE
from tests.discord_harness import FakeDiscord, thread_of, user
from tests.test_discord_game import same_dice
from tests.test_discord_renegades import pick as renegades_pick
from tests.test_discord_turns import Clock

FED = dict(affiliation="federation", team="federation-away-team", deck="federation-starter")
BORG = dict(affiliation="borg", team="borg-away-team", deck="borg-starter")
ANN = user(1, "Ann")


def first(commands: list[str]) -> int:
    return 0


async def computer_answers(service: GameService, game_id: int) -> None:
    """The computer's moves played at once, as after a move that went well."""
    while await service.computer_turn(game_id) is not None:
        pass


async def ann_moves_until_the_computer_is_to_play(service: GameService, game_id: int, pick=first) -> int:
    """Ann's moves committed through the service alone, with no computer reply after them (the
    process stopped right after the commit), until the game waits on the computer; its version."""
    for _ in range(200):
        info = await service.get(game_id)
        if any(is_computer(t.user_id) for t in info.awaited):
            return info.version
        assert info.status == "active", "the game ended before the computer was to play"
        version, commands = await service.legal_commands(game_id, 1)
        await service.submit(game_id, 1, commands[pick(commands)], version)
    raise AssertionError("the computer was never to play")


async def against_the_computer(service: GameService) -> int:
    """Ann against the computer (easy), started, the computer's opening answered: Ann is to play."""
    game = await service.create(creator=1, guild_id=10, channel_id=20, seed=7)
    await service.join(game.id, 1, "Ann", **FED)
    await service.add_computer(game.id, "easy", **BORG)
    await service.start(game.id, 1)
    await computer_answers(service, game.id)
    return game.id


# ---- the database and the service, on SQLite and PostgreSQL ---------------------------------------

async def test_a_computer_waited_on_past_the_grace_is_listed_and_a_person_waited_on_never(database_url):
    clock = Clock()
    service = await GameService.open(database_url, clock=clock)
    try:
        game_id = await against_the_computer(service)
        people = await service.create(creator=1, guild_id=10, channel_id=21, seed=7)
        await service.join(people.id, 1, "Ann", **FED)
        await service.join(people.id, 2, "Bo", **BORG)
        await service.start(people.id, 1)
        await ann_moves_until_the_computer_is_to_play(service, game_id)
        (wait,) = await service.db.long_waits(clock.now, COMPUTER_USER_BASE)
        assert (wait.game_id, wait.guild_id, wait.since) == (game_id, 10, clock.now)
        clock.now += COMPUTER_GRACE - 1
        assert await service.stranded_computers() == [], "within the grace the computer's move may be under way"
        clock.now += 1
        assert await service.stranded_computers() == [game_id]
        assert await service.stranded_computers(owns=lambda guild_id: guild_id != 10) == [], "another shard's"
        await computer_answers(service, game_id)
        clock.now += 30 * 24 * 3600
        assert await service.stranded_computers() == [], "games waiting on people are never the sweep's"
        assert await service.db.long_waits(clock.now, COMPUTER_USER_BASE) == []
    finally:
        await service.close()


async def test_a_computer_whose_team_decision_a_person_leads_is_not_stranded(database_url):
    """2 vs 2, Ann and three computers: while the team decision Ann may answer waits, her
    computer teammate waits on her (R62) however long, and the sweep leaves it."""
    clock = Clock()
    service = await GameService.open(database_url, clock=clock)
    try:
        game = await service.create(creator=1, guild_id=10, channel_id=20, seed=7,
                                    options={"mode": "teams", "layout": "six"})
        await service.join(game.id, 1, "Ann", **FED, side="team-a")
        for options, side in ((BORG, "team-b"), (FED, "team-a"), (BORG, "team-b")):
            await service.add_computer(game.id, "easy", **options, side=side)
        await service.start(game.id, 1)
        rng = random.Random(2)
        for _ in range(200):
            await computer_answers(service, game.id)
            pending = (await service.view(game.id))["pending"]
            if any(d.get("also") and "p1" in (d["player"], *d["also"]) for d in pending):
                break
            version, commands = await service.legal_commands(game.id, 1)
            await service.submit(game.id, 1, rng.choice(commands), version)
        else:
            raise AssertionError("no team decision of Ann's came up")
        clock.now += 3600
        led = await service.db.long_waits(clock.now, COMPUTER_USER_BASE)
        assert [w.game_id for w in led] == [game.id], "the computer teammate's seat is awaited"
        assert await service.stranded_computers() == []
        assert await service.computer_turn(game.id) is None
    finally:
        await service.close()


async def test_a_process_whose_copy_is_behind_finds_the_game_its_peer_left_stranded(database_url):
    """The second process holds the game from before Ann's move, which the first committed
    and then died: its sweep reads the game afresh and finds the computer to play."""
    clock = Clock()
    first, second = (await GameService.open(database_url, clock=clock),
                     await GameService.open(database_url, clock=clock))
    try:
        game_id = await against_the_computer(first)
        assert [t.user_id for t in (await second.get(game_id)).awaited] == [1]  # its copy: Ann to play
        version = await ann_moves_until_the_computer_is_to_play(first, game_id)
        clock.now += COMPUTER_GRACE
        assert await second.stranded_computers() == [game_id]
        update = await second.computer_turn(game_id)
        assert update.version == version + 1 and is_computer((await first.db.log(game_id))[-1].user_id)
    finally:
        await first.close()
        await second.close()


async def test_a_seat_handed_to_the_computer_by_a_process_that_then_died_is_played_by_the_other(database_url):
    """P54 and R61: a player leaves through the first process, which dies before the computer
    takes the seat's decision; the second's sweep finds the game and the computer plays it."""
    from tests.test_processes import three_player_game
    clock = Clock()
    first, second = (await GameService.open(database_url, clock=clock),
                     await GameService.open(database_url, clock=clock))
    try:
        game_id = await three_player_game(first)
        [turn] = (await second.get(game_id)).awaited[:1]  # the second's copy: the person to play
        await first.vacate(game_id, turn.user_id)
        clock.now += COMPUTER_GRACE
        assert await second.stranded_computers() == [game_id]
        update = await second.computer_turn(game_id)
        assert update.version == 1 and is_computer(update.players[turn.seat])
        assert [e.user_id for e in await first.db.log(game_id)] == [update.players[turn.seat]]
    finally:
        await first.close()
        await second.close()


def both_choose_at_once(monkeypatch) -> None:
    """The computer's first two choices wait for each other, so both sweeps choose on the same
    version of the game before either submits (later choices do not wait)."""
    barrier, choose, calls = threading.Barrier(2, timeout=30), opponent.choose, []

    def chosen(*args, **kwargs):
        calls.append(args)
        if len(calls) <= 2:
            barrier.wait()
        return choose(*args, **kwargs)
    monkeypatch.setattr(opponent, "choose", chosen)


async def test_two_processes_sweeping_at_once_play_the_computers_decision_once(database_url, monkeypatch):
    clock = Clock()
    first, second = (await GameService.open(database_url, clock=clock),
                     await GameService.open(database_url, clock=clock))
    try:
        game_id = await against_the_computer(first)
        await second.get(game_id)
        version = await ann_moves_until_the_computer_is_to_play(first, game_id)
        clock.now += COMPUTER_GRACE
        assert await first.stranded_computers() == await second.stranded_computers() == [game_id]
        both_choose_at_once(monkeypatch)
        results = await asyncio.gather(first.computer_turn(game_id), second.computer_turn(game_id),
                                       return_exceptions=True)
        assert sorted(type(r).__name__ for r in results) == ["StaleVersion", "Update"]
        assert isinstance(next(r for r in results if isinstance(r, Exception)), StaleVersion)
        log = await first.db.log(game_id)
        assert [e.seq for e in log if e.seq > version] == [version + 1]
    finally:
        await first.close()
        await second.close()


# ---- the clock, through the fake Discord -------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["awaymissions", "renegades"])
async def test_after_a_restart_the_computer_plays_the_turn_left_unplayed_and_the_table_shows_it(
        monkeypatch, tmp_path, ruleset):
    """Ann's move is committed, then the process dies before the computer answers; a new bot on
    the same database plays the computer's move within a round past the grace, with nobody
    acting, on a fresh table message after Ann's move (which the old one never showed), and it
    calls Ann although the old message named her. A passing busy database waits a round."""
    same_dice(monkeypatch)
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db"), clock=clock) as fake:
        options = {"ruleset": "renegades"} if ruleset == "renegades" else {"side": "borg"}
        await fake.dispatch(fake.slash(ANN, "game new", computer="easy", **options))
        thread = thread_of(fake)
        game_id = (await fake.bot.service.in_channel(fake.channels[thread]["parent_id"], thread)).id
        rng = random.Random(5)
        pick = (lambda commands: renegades_pick(rng, commands)) if ruleset == "renegades" else first
        before = (await fake.bot.service.get(game_id)).version
        version = await ann_moves_until_the_computer_is_to_play(fake.bot.service, game_id, pick)
        unshown = [line for m in await fake.bot.service.history(game_id) if m.seq > before for line in m.lines]
        await fake.shutdown()  # killed after the commit, before the computer's move
        await fake.boot()
        service, posted = fake.bot.service, len(fake.in_channel(thread))
        sweep = fake.bot.get_cog("ComputerTurns")
        assert await fake.run(sweep.resume()) == [[]], "within the grace"
        clock.now += COMPUTER_GRACE
        play_for = service.play_for
        monkeypatch.setattr(service, "play_for", busy_once(play_for))
        assert await fake.run(sweep.resume()) == [[game_id]]  # the database is held: logged, nothing played
        assert (await service.get(game_id)).version == version and len(fake.in_channel(thread)) == posted
        assert await fake.run(sweep.resume()) == [[game_id]]  # the next round plays it
        info = await service.get(game_id)
        log = await service.log(game_id)
        assert info.version > version and all(is_computer(e.user_id) for e in log if e.seq > version)
        assert not any(is_computer(t.user_id) for t in info.awaited) and [t.user_id for t in info.awaited] == [1]
        resumed = fake.in_channel(thread)[posted:]
        assert resumed and all(line in resumed[0]["content"] for line in unshown), "Ann's move, never shown"
        table = resumed[-1]
        assert f"**Game #{game_id}** · move {info.version}" in table["content"] and "<@1>" in table["content"]
        clock.now += 30 * 24 * 3600
        assert await fake.run(sweep.resume()) == [[]], "a game waiting on Ann is never touched"
        assert (await service.get(game_id)).version == info.version and fake.in_channel(thread)[-1] == table


def busy_once(play_for):
    """`play_for` that first meets a busy database."""
    calls = []

    async def playing(*args, **kwargs):
        calls.append(args)
        if len(calls) == 1:
            raise StorageBusy(BUSY)
        return await play_for(*args, **kwargs)
    return playing


async def test_two_sweeps_at_once_play_the_decision_once_and_post_it_once(monkeypatch, tmp_path):
    """Two rounds of the clock running at once (as two processes would): both choose on the same
    version; the second's move is refused by the version check, caught, and nothing is
    logged as an error (the harness fails on one) or posted twice."""
    same_dice(monkeypatch)
    clock = Clock()
    async with FakeDiscord(monkeypatch, str(tmp_path / "games.db"), clock=clock) as fake:
        await fake.dispatch(fake.slash(ANN, "game new", computer="easy", side="borg"))
        thread = thread_of(fake)
        service = fake.bot.service
        game_id = (await service.in_channel(fake.channels[thread]["parent_id"], thread)).id
        version = await ann_moves_until_the_computer_is_to_play(service, game_id)
        clock.now += COMPUTER_GRACE
        both_choose_at_once(monkeypatch)
        posted = len(fake.in_channel(thread))
        sweep = fake.bot.get_cog("ComputerTurns")
        await fake.run(sweep.resume(), sweep.resume())
        log = await service.log(game_id)
        assert [e.seq for e in log if e.seq > version] == [version + 1]
        assert len(fake.in_channel(thread)) == posted + 1


async def test_the_clock_runs_at_start_up():
    """The clock's first round runs as soon as the bot is ready, not a round later."""
    from cogs.computer_turns import ComputerTurns
    swept = asyncio.Event()

    async def stranded(owns):
        swept.set()
        return []

    async def ready():
        return None

    async def holds(name):
        return name == "ready-room-computers"
    bot = SimpleNamespace(config=SimpleNamespace(reminder_interval=3600.0, owns=lambda guild_id: True),
                          wait_until_ready=ready, runs_clock=holds,
                          service=SimpleNamespace(stranded_computers=stranded))
    cog = ComputerTurns(bot)
    await cog.cog_load()
    try:
        await asyncio.wait_for(swept.wait(), 5)
    finally:
        await cog.cog_unload()
