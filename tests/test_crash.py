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
        time.sleep(rng.uniform(0.005, 0.15))
        os.kill(player.pid, signal.SIGKILL)
        player.join()
        assert player.exitcode == -signal.SIGKILL, "the player stopped before it was killed"
        live = asyncio.run(verify(path, acks, seen))
        seen = len(acknowledged(acks))
        advanced += live != before
        before = live
    assert len(acknowledged(acks)) > 2 * KILLS  # kills landed while it played, not only at start-up
    assert advanced > KILLS // 3

    # the game goes on: a clean run continues from exactly the stored version
    live = asyncio.run(verify(path, acks))
    player = fork.Process(target=child, args=(path, acks, KILLS, 5))
    player.start()
    player.join()
    assert player.exitcode == 0
    first = acknowledged(acks)[seen]
    if live is not None:
        assert first == (live[0], live[1] + 1)
    else:  # the last game had just ended: a new one begins
        assert first[1] == 1
    asyncio.run(verify(path, acks, seen))
    print(f"{KILLS} kills, {seen} acknowledged commands, progress after {advanced} restarts")
