"""Copy a whole game database to another one, then check the copy with the replay tool.

    python -m db.migrate --from sqlite:///ready_room.db --to postgresql://user@host/ready_room

Every game (seats, log, waits, reminders), league, setting, dice seal, rating (its
history and seasons), vacation, calls setting and campaign is copied, with its ids, in one transaction
on the target: a failure leaves the target as it was. The target must be empty (a new
database). Then every table's row count is compared, and every started game and every
campaign in the copy must equal the original and replay to its stored state. Either side
may be SQLite or PostgreSQL. Stop the bot first.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
from typing import Optional

from db.backend import is_postgres, sqlite_path
from db.campaign_store import CampaignStore
from db.database import Database
from db.errors import DatabaseBusy, SchemaTooNew
from engine.service import replay

# every table with what players made, parents before children (a campaign's mission games
# name their campaign; its log names them); leases are left out (they belong to the
# processes running at the time)
COPIED_TABLES = ("campaigns", "campaign_seats", "games", "seats", "log", "campaign_log", "guild_settings",
                 "user_settings", "awaited", "reminders", "league_events", "league_games", "league_threads",
                 "dice_seals", "rated_games", "ratings", "rating_results", "rating_entries", "rating_seasons",
                 "rated_events", "vacations", "calls")
_BATCH = 2000


class TargetNotEmpty(Exception):
    """The target database already holds games or leagues."""


class CannotOpen(Exception):
    """A database could not be opened (busy, from a newer release, unreachable)."""


async def _opened(stack: contextlib.AsyncExitStack, url: str, role: str) -> Database:
    """The open database at `url`, closed when `stack` closes."""
    try:
        database = await Database.open(url)
    except (SchemaTooNew, DatabaseBusy, OSError) as error:
        raise CannotOpen(f"cannot open the {role} {url}: {error}") from error
    stack.push_async_callback(database.close)
    return database


async def copy(source: Database, target: Database) -> dict[str, int]:
    """Copy every table from `source` to `target` in one transaction; rows per table."""
    src, dst = source._conn, target._conn
    held = [t for t in ("games", "league_events", "guild_settings", "user_settings", "campaigns")
            if (await dst.fetch(f"SELECT count(*) FROM {t}"))[0][0]]
    if held:
        raise TargetNotEmpty(f"the target already has rows in {', '.join(held)}; migrate into a new, empty database")
    copied = {}
    async with target._write_lock, dst.transaction():
        for table in COPIED_TABLES:
            columns = [c for c in await src.columns(table) if c in set(await dst.columns(table))]
            names = ", ".join(columns)
            rows = await src.fetch(f"SELECT {names} FROM {table}")
            insert = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(columns))})"
            for start in range(0, len(rows), _BATCH):
                await dst.execute_many(insert, rows[start:start + _BATCH])
            if "id" in columns:
                await dst.ids_follow_copied_rows(table)
            copied[table] = len(rows)
    return copied


async def verify(source: Database, target: Database) -> list[str]:
    """What differs between the two databases, or fails to replay in the copy (empty: none)."""
    problems = []
    for table in COPIED_TABLES:
        counts = [(await db._conn.fetch(f"SELECT count(*) FROM {table}"))[0][0] for db in (source, target)]
        if counts[0] != counts[1]:
            problems.append(f"{table}: {counts[0]} rows in the source, {counts[1]} in the copy")
    for game_id in await source.started_game_ids():
        row, copied = await source.game(game_id), await target.game(game_id)
        log, copied_log = await source.log(game_id), await target.log(game_id)
        if copied != row or copied_log != log or await target.seats(game_id) != await source.seats(game_id):
            problems.append(f"game #{game_id}: the copy differs from the original")
            continue
        outcome = replay.check(copied, copied_log)
        if not outcome.ok:
            problems.append(f"game #{game_id}: the copy does not replay: {outcome.problem}")
    originals, copies = CampaignStore(source), CampaignStore(target)
    for campaign_id in await originals.ids():
        if any([await copies.get(campaign_id) != await originals.get(campaign_id),
                await copies.log(campaign_id) != await originals.log(campaign_id),
                await copies.seats(campaign_id) != await originals.seats(campaign_id)]):
            problems.append(f"campaign #{campaign_id}: the copy differs from the original")
            continue
        outcome = await replay.check_campaign(target, campaign_id)
        if not outcome.ok:
            problems.append(f"campaign #{campaign_id}: the copy does not replay: {outcome.problem}")
    return problems


async def run(source_url: str, target_url: str) -> int:
    """Copy, verify and report; the exit status."""
    if not is_postgres(source_url) and not os.path.isfile(sqlite_path(source_url)):
        print(f"{source_url}: no such database file", file=sys.stderr)
        return 2
    try:
        async with contextlib.AsyncExitStack() as stack:
            source = await _opened(stack, source_url, "source")
            target = await _opened(stack, target_url, "target")
            copied = await copy(source, target)
            print("copied " + ", ".join(f"{n} {table}" for table, n in copied.items()))
            problems = await verify(source, target)
    except (CannotOpen, TargetNotEmpty) as error:
        print(f"nothing copied: {error}", file=sys.stderr)
        return 2
    if problems:
        print("VERIFICATION FAILED:\n" + "\n".join(f"  {p}" for p in problems), file=sys.stderr)
        return 1
    games, campaigns = copied["games"], copied["campaigns"]
    print(f"verified: every table's rows match, and all started games of {games} and all {campaigns} campaigns"
          " replay to their stored state")
    return 0


def main(argv: Optional[list[str]] = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m db.migrate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--from", dest="source", required=True,
                        help="the database to copy: a file path, sqlite:///path or postgresql://...")
    parser.add_argument("--to", dest="target", required=True, help="the new, empty database to copy into")
    args = parser.parse_args(argv)
    return asyncio.run(run(args.source, args.target))


if __name__ == "__main__":
    sys.exit(main())
