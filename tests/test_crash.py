"""Crash safety: a player process killed with SIGKILL at random moments loses no
acknowledged command, leaves a sound database, and its game replays and goes on.

The child plays random legal commands through the service on a database (an SQLite file,
or a PostgreSQL database) and appends "game version" to an acknowledgement file each
time `submit` has returned.
"""
import asyncio
import multiprocessing
import os
import random
import signal
import time

import pytest

from db import Database
from engine.service import replay
from engine.service import GameService, UnknownGame

KILLS = 60
CHANNEL = 1
FED = dict(affiliation="federation", team="federation-away-team", deck="federation-starter")
BORG = dict(affiliation="borg", team="borg-away-team", deck="borg-starter")
USERS = {"p1": 1, "p2": 2}


async def _play(path, acks, seed, limit):
    rng = random.Random(seed)
    service = await GameService.open(path)
    fd = os.open(acks, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    played = 0
    while limit is None or played < limit:
        try:
            game = await service.in_channel(CHANNEL)
        except UnknownGame:
            game = await service.create(creator=1, channel_id=CHANNEL, seed=rng.randrange(2**40))
        if game.status == "lobby":
            seated = {s.user_id for s in game.seats}
            if 1 not in seated:
                await service.join(game.id, 1, "Ann", **FED)
            if 2 not in seated:
                await service.join(game.id, 2, "Bo", **BORG)
            await service.start(game.id, 1)
        status = "active"
        while status == "active" and (limit is None or played < limit):
            user = USERS[(await service.get(game.id)).awaited[0].seat]
            version, commands = await service.legal_commands(game.id, user)
            update = await service.submit(game.id, user, rng.choice(commands), version)
            os.write(fd, f"{game.id} {update.version}\n".encode())
            status, played = update.status, played + 1
    os.close(fd)
    await service.close()


def child(path, acks, seed, limit=None):
    """Entry point of the player process."""
    asyncio.run(_play(path, acks, seed, limit))


def acknowledged(acks):
    """(game, version) pairs the child was told were accepted (a torn last line is ignored)."""
    with open(acks) as f:
        lines = f.read().split("\n")[:-1]
    return [tuple(map(int, line.split())) for line in lines]


async def verify(path, acks, seen=0):
    """Check the database after a crash: integrity, the acknowledgements after the first
    `seen`, and the replay of every game they touch. Returns the live game's (id, version)."""
    database = await Database.open(path)
    try:
        if database.engine == "sqlite":
            assert await database.pragma("integrity_check") == "ok"
        live = await database.live_game_in(CHANNEL)
        new = acknowledged(acks)[seen:]
        for game_id in {g for g, _ in new} | ({live.id} if live and live.state else set()):
            row = await database.game(game_id)
            log = await database.log(game_id)
            outcome = replay.check(row, log)
            assert outcome.ok, outcome.problem
            logged = {e.seq for e in log}
            for version in (v for g, v in new if g == game_id):
                assert version in logged, f"acknowledged move {version} of game {game_id} lost"
        return (live.id, live.version) if live else None
    finally:
        await database.close()


async def logged(path, game_id):
    """The game's log entries."""
    database = await Database.open(path)
    try:
        return await database.log(game_id)
    finally:
        await database.close()


def lines_in(acks) -> int:
    """How many whole lines (acknowledgements) the file holds (none before it exists)."""
    if not os.path.exists(acks):
        return 0
    with open(acks) as f:
        return f.read().count("\n")


def wait_for_acks(player, acks, count, patience=600.0):
    """Until the player has acknowledged `count` commands in all: progress, however slow the
    machine. Fails if the player ends first, or makes no progress for `patience` seconds
    (hung, not slow: a command takes milliseconds)."""
    seen, since = -1, time.monotonic()
    while (now := lines_in(acks)) < count:
        assert player.is_alive(), f"the player ended after {now} of {count} acknowledged commands"
        if now != seen:
            seen, since = now, time.monotonic()
        if time.monotonic() - since >= patience:  # a hang guard, not a timing
            pytest.fail(f"no progress in {patience} s at {now} of {count}")
        time.sleep(0.002)


def test_sigkill_at_random_moments_loses_no_acknowledged_command(tmp_path, database_url):
    path, acks = database_url, str(tmp_path / "acks")
    open(acks, "w").close()  # a child killed before it opened the file acknowledged nothing
    fork = multiprocessing.get_context("fork")
    rng = random.Random(20261122)
    advanced = seen = 0
    before = None
    for kill in range(KILLS):
        player = fork.Process(target=child, args=(path, acks, kill))
        player.start()
        try:
            if kill % 3:  # two kills in three land while it plays, after 1-5 new acknowledgements
                wait_for_acks(player, acks, seen + rng.randint(1, 5))
            time.sleep(rng.uniform(0.0, 0.05))  # and a moment later, wherever the player then is
        finally:
            os.kill(player.pid, signal.SIGKILL)
            player.join()
        assert player.exitcode == -signal.SIGKILL, "the player stopped before it was killed"
        live = asyncio.run(verify(path, acks, seen))
        seen = len(acknowledged(acks))
        advanced += live != before
        before = live
    assert advanced >= KILLS // 2  # the 40 kills after new acknowledgements each found the game moved on

    # the game goes on: a clean run continues from exactly the stored version
    live = asyncio.run(verify(path, acks))
    player = fork.Process(target=child, args=(path, acks, KILLS, 5))
    player.start()
    player.join()
    assert player.exitcode == 0
    first = acknowledged(acks)[seen]
    if live is not None:
        assert first[0] == live[0] and first[1] >= live[1] + 1  # more when a window passed by preference (P23)
        assert live[1] + 1 in {e.seq for e in asyncio.run(logged(path, live[0]))}, "the next move follows the stored one"
    else:  # the last game had just ended: a new one begins
        assert first[1] == 1
    asyncio.run(verify(path, acks, seen))
    print(f"{KILLS} kills, {seen} acknowledged commands, progress after {advanced} restarts")


# --- campaigns ------------------------------------------------------------------------------------
CAMPAIGN_KILLS = 25
CAMPAIGN_PLACE = dict(channel_id=2, thread_id=3)
CAPTAINS = [(1, "Ann", {"faction": "renegade"}), (2, "Bo", {"faction": "coalition"})]


async def _campaign(path, acks, seed, limit):
    """Play campaigns: missions mostly passed through, a random shore leave step or done."""
    from engine.service.campaign import CampaignService
    rng = random.Random(seed)
    games = await GameService.open(path)
    desk = CampaignService(games)
    fd = os.open(acks, os.O_WRONLY | os.O_APPEND | os.O_CREAT)

    def ack(kind, ident, version):
        os.write(fd, f"{kind} {ident} {version}\n".encode())

    for _ in range(limit or 10 ** 9):
        try:
            cid = (await desk.in_place(**CAMPAIGN_PLACE)).id
        except UnknownGame:
            made = await desk.create(players=CAPTAINS, title="ember", seed=rng.randrange(2 ** 40), **CAMPAIGN_PLACE)
            cid = made.campaign_id
        row, campaign = await desk.get(cid)
        if campaign.phase == "shore_leave":
            seat = rng.choice(desk_rules_awaited(campaign))
            user = 1 if seat == "p1" else 2
            cap = campaign.captain(seat)
            step = rng.choice(["done", "done"] + [f"sell {g}" for g in cap.armory[:2]]
                              + [f"buy {g}" for g in cap.gear_offer if cap.digits >= 100])
            try:
                update = await desk.command(cid, user, step)
            except Exception as error:  # a refused step (too poor) changes nothing
                assert "costs" in str(error), error
                continue
            ack("c", cid, update.version)
            continue
        update = await desk.continue_(cid, 1)
        ack("c", cid, update.version)
        if update.game_id is not None:
            info = await games.get(update.game_id)
            if info.status == "active":
                user = {"p1": 1, "p2": 2}[info.awaited[0].seat]
                version, commands = await games.legal_commands(info.id, user)
                command = "pass" if "pass" in commands and rng.random() < 0.9 else rng.choice(commands)
                moved = await games.submit(info.id, user, command, version)
                ack("g", info.id, moved.version)
    os.close(fd)
    await games.close()


def desk_rules_awaited(campaign):
    from engine.renegades.campaign import campaign as rules
    return rules.awaited(campaign)


def campaign_child(path, acks, seed, limit=None):
    """Entry point of the campaign player process."""
    asyncio.run(_campaign(path, acks, seed, limit))


async def verify_campaigns(path, acks):
    """Integrity, every acknowledged campaign step and mission move stored, every campaign
    replaying exactly (its missions' games included). (Campaign steps, missions recorded.)"""
    from db.campaign_store import CampaignStore
    database = await Database.open(path)
    try:
        if database.engine == "sqlite":
            assert await database.pragma("integrity_check") == "ok"
        store = CampaignStore(database)
        with open(acks) as f:
            lines = [line.split() for line in f.read().split("\n")[:-1]]
        for kind, ident, version in lines:
            if kind == "c":
                assert int(version) <= (await store.get(int(ident))).version, f"campaign step {version} lost"
            else:
                assert int(version) in {e.seq for e in await database.log(int(ident))}, f"mission move {version} lost"
        steps = finishes = 0
        for cid in await store.ids():
            outcome = await replay.check_campaign(database, cid)
            assert outcome.ok, outcome.problem
            steps += outcome.commands
            finishes += sum(e.command == "finish" for e in await store.log(cid))
        return steps, finishes
    finally:
        await database.close()


def test_sigkill_during_a_campaign_loses_nothing(tmp_path, database_url):
    path, acks = database_url, str(tmp_path / "acks")
    open(acks, "w").close()  # a child killed before it opened the file acknowledged nothing
    fork = multiprocessing.get_context("fork")
    rng = random.Random(20261125)
    steps = []
    for kill in range(CAMPAIGN_KILLS):
        player = fork.Process(target=campaign_child, args=(path, acks, kill))
        player.start()
        try:
            wait_for_acks(player, acks, lines_in(acks) + rng.randint(4, 16))
            time.sleep(rng.uniform(0.0, 0.05))  # and a moment later, wherever the player then is
        finally:
            os.kill(player.pid, signal.SIGKILL)
            player.join()
        assert player.exitcode == -signal.SIGKILL, "the player stopped before it was killed"
        steps.append(asyncio.run(verify_campaigns(path, acks)))
    assert steps[-1][0] > steps[0][0] > 0  # the campaign moved on across the restarts
    assert steps[-1][1] >= 2  # missions ended and were recorded between kills
    print(f"{CAMPAIGN_KILLS} kills, {steps[-1][0]} campaign steps stored, {steps[-1][1]} missions recorded")
