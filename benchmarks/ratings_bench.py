"""What re-rating costs (ruling L38): a server's history of event results in a real
database, then the time to take in one new result at the end, an unchanged event again, and
a correction of the very first result (which re-rates the whole history).

    python benchmarks/ratings_bench.py [EVENTS] [RESULTS_PER_EVENT] [PLAYERS]

Not a test: nothing fails here.
"""
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from db import Database  # noqa: E402
from db.rating_store import RatingStore  # noqa: E402
from engine.service import ratings  # noqa: E402
from engine.service.rating_book import as_row, fold  # noqa: E402

GUILD = 1


def event_rows(event_id: int, results: int, players: int, rng: random.Random) -> list:
    """Rated results of one event: rounds of disjoint pairs, a round a day."""
    rows, per_round = [], players // 2
    for n in range(results):
        rnd, table = divmod(n, per_round)
        a, b = rng.sample(range(1, players + 1), 2)
        rows.append(as_row(ratings.Match(f"{ratings.event_source(event_id)}{rnd + 1:03d}:{table + 1:04d}",
                                         float(event_id * 10**6 + rnd * 86400), ((a,), (b,)), (1, 2))))
    return rows


async def timed(work) -> float:
    start = time.perf_counter()
    await work
    return (time.perf_counter() - start) * 1000


async def main(events: int, per_event: int, players: int) -> None:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as folder:
        database = await Database.open(os.path.join(folder, "bench.db"))
        store = RatingStore(database)
        for event_id in range(1, events + 1):
            await database._conn.execute(
                "INSERT INTO league_events (id, guild_id, name, status, state, created_at, updated_at)"
                " VALUES (?, ?, 'e', 'closed', '{}', 0, 0)", (event_id, GUILD))
        history = {e: event_rows(e, per_event, players, rng) for e in range(1, events + 1)}
        start = time.perf_counter()
        for event_id, rows in history.items():
            await store.sync_event(event_id, GUILD, 1, ratings.event_source(event_id), rows, fold, 0.0)
        print(f"{events * per_event} results, {players} players: built in {time.perf_counter() - start:.1f} s")
        version, append, same, correct = 1, [], [], []
        last = history[events]
        for _ in range(5):
            version += 1
            last.append(event_rows(events, per_event + version, players, rng)[-1])
            append.append(await timed(store.sync_event(events, GUILD, version, ratings.event_source(events),
                                                       last, fold, 0.0)))
            version += 1
            same.append(await timed(store.sync_event(events, GUILD, version, ratings.event_source(events),
                                                     last, fold, 0.0)))
            first = history[1]
            source, at, sides, places = first[0]
            first[0] = (source, at, sides[::-1], places)  # the first result of all, the other way round
            correct.append(await timed(store.sync_event(1, GUILD, version, ratings.event_source(1), first,
                                                        fold, 0.0)))
        for name, times in (("one new result at the end", append), ("an event taken in unchanged", same),
                            ("the first result corrected (whole history re-rated)", correct)):
            print(f"{name}: median {statistics.median(times):.1f} ms, longest {max(times):.1f} ms")
        await database.close()


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    asyncio.run(main(*(args + [20, 250, 200][len(args):])))
