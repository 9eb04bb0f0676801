"""Storage for ratings: each server's ordered history of rated results, every player's
rating before and after each of them, the ratings as they stand, and rating seasons.

A result is named by its `source` (unique in its server) and placed in the history by
(`at`, `source`). Adding, changing or removing results re-rates the history from the
earliest place touched, in one transaction, through a `fold` the caller gives: the store
keeps numbers and JSON and knows nothing of the rating model. It shares the game
database's connection and write lock.
"""
from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Callable, Optional

from db.backend import placeholders
from db.database import Store

# (source, at, sides, places): sides are lists of user ids, places one number per side (1 best)
Row = tuple[str, float, list[list[int]], list[int]]
# standing: (mu, sigma, season)
Standing = tuple[float, float, int]
# fold(rows in order, standing before the first of them, season starts) -> per row:
# user -> ((mu, sigma) the result was rated from, standing after)
Fold = Callable[[list[Row], dict[int, Standing], list[float]],
                list[dict[int, tuple[tuple[float, float], Standing]]]]


@dataclass(frozen=True)
class Rating:
    """A player's rating in one server as last rated, the season of that result, and how
    many rated results it comes from."""

    guild_id: int
    user_id: int
    mu: float
    sigma: float
    games: int
    season: int = 1


@dataclass(frozen=True)
class Season:
    """A rating season of a server (season 1 begins with the server's first result)."""

    number: int
    name: str
    starts: float
    started_by: Optional[int]


class RatingStore(Store):
    """Rating queries over an open `Database`."""

    # ---- bot games -------------------------------------------------------------------

    async def unrated_games(self) -> list[int]:
        """Ended games not yet looked at for ratings, in the order they ended."""
        rows = await self._conn.fetch(
            "SELECT id FROM games WHERE status IN ('over', 'aborted')"
            " AND id NOT IN (SELECT game_id FROM rated_games) ORDER BY updated_at, id")
        return [r[0] for r in rows]

    async def commands_played(self, game_id: int) -> int:
        rows = await self._conn.fetch("SELECT count(*) FROM log WHERE game_id = ?", (game_id,))
        return rows[0][0]

    async def event_of_game(self, game_id: int) -> Optional[int]:
        """The event whose pairing the game was played for, if any."""
        rows = await self._conn.fetch("SELECT event_id FROM league_games WHERE game_id = ?", (game_id,))
        return rows[0][0] if rows else None

    async def record_game(self, game_id: int, guild_id: int, rated: bool, reason: str, at: float,
                          row: Optional[Row], fold: Fold) -> bool:
        """Record a game's rating outcome once, in one transaction with its result (`row`,
        when rated) and the re-rating it causes. False (nothing written) when the game was
        already recorded."""
        async with self._transaction():
            if await self._conn.fetch("SELECT 1 FROM rated_games WHERE game_id = ?", (game_id,)):
                return False
            await self._conn.execute("INSERT INTO rated_games (game_id, rated, reason, at) VALUES (?, ?, ?, ?)",
                                     (game_id, int(rated), reason, at))
            if row is not None:
                await self._change(guild_id, [row], [], fold, at)
            return True

    # ---- events ----------------------------------------------------------------------

    async def unsynced_events(self) -> list[tuple[int, int, int, str]]:
        """(event, guild, version, state) of every running or closed event (the only ones with
        results) changed since its results were last taken into the ratings."""
        rows = await self._conn.fetch(
            "SELECT e.id, e.guild_id, e.version, e.state FROM league_events e"
            " LEFT JOIN rated_events r ON r.event_id = e.id WHERE e.status IN ('running', 'closed')"
            " AND (r.version IS NULL OR r.version <> e.version) ORDER BY e.id")
        return [tuple(r) for r in rows]

    async def sync_event(self, event_id: int, guild_id: int, version: int, prefix: str, rows: list[Row],
                         fold: Fold, at: float) -> bool:
        """Make the event's results in the history (sources starting with `prefix`) exactly
        `rows`, as of event `version`, re-rating what that changes; one transaction. An older
        version than the one taken in already changes nothing. True if ratings changed."""
        async with self._transaction():
            done = await self._conn.fetch("SELECT version FROM rated_events WHERE event_id = ?",
                                                     (event_id,))
            if done and done[0][0] >= version:
                return False
            stored = await self._conn.fetch(
                "SELECT source FROM rating_results WHERE guild_id = ? AND substr(source, 1, ?) = ?",
                (guild_id, len(prefix), prefix))
            wanted = {r[0] for r in rows}
            changed = await self._change(guild_id, rows, [s for (s,) in stored if s not in wanted], fold, at)
            await self._conn.execute(
                "INSERT INTO rated_events (event_id, version) VALUES (?, ?)"
                " ON CONFLICT (event_id) DO UPDATE SET version = excluded.version", (event_id, version))
            return changed

    # ---- the history -----------------------------------------------------------------

    async def _change(self, guild_id: int, rows: list[Row], removed: list[str], fold: Fold, at: float) -> bool:
        """Upsert `rows` and delete `removed` sources, then re-rate from the earliest place
        touched (inside the caller's transaction). False when nothing differed."""
        sources = [r[0] for r in rows] + removed
        old = {r[0]: (r[1], r[2], r[3], r[4]) for r in await self._conn.fetch(
            f"SELECT source, id, at, sides, places FROM rating_results WHERE guild_id = ?"
            f" AND source IN ({placeholders(len(sources))})", (guild_id, *sources))} if sources else {}
        places: list[tuple[float, str]] = []
        users: set[int] = set()
        for source, when, sides, ranked in rows:
            text = (json.dumps(sides), json.dumps(ranked))
            before = old.get(source)
            if before is not None and (before[1], before[2], before[3]) == (when, *text):
                continue
            places.append((when, source))
            if before is None:
                await self._conn.execute(
                    "INSERT INTO rating_results (guild_id, source, at, sides, places) VALUES (?, ?, ?, ?, ?)",
                    (guild_id, source, when, *text))
            else:
                places.append((before[1], source))
                users.update(u for side in json.loads(before[2]) for u in side)
                await self._conn.execute("UPDATE rating_results SET at = ?, sides = ?, places = ? WHERE id = ?",
                                         (when, *text, before[0]))
        for source in removed:
            before = old.get(source)
            if before is not None:
                places.append((before[1], source))
                users.update(u for side in json.loads(before[2]) for u in side)
                await self._conn.execute("DELETE FROM rating_results WHERE id = ?", (before[0],))
        if not places:
            return False
        await self._rerate(guild_id, min(places), users, fold, at)
        return True

    async def _rerate(self, guild_id: int, start: tuple[float, str], users: set[int], fold: Fold, at: float) -> None:
        """Re-rate every result from `start` on, and refresh the ratings of everyone in them
        (and of `users`, who may have lost a result)."""
        later = await self._conn.fetch(
            "SELECT id, source, at, sides, places FROM rating_results WHERE guild_id = ? AND (at, source) >= (?, ?)"
            " ORDER BY at, source", (guild_id, *start))
        history: list[Row] = [(r[1], r[2], json.loads(r[3]), json.loads(r[4])) for r in later]
        users |= {u for _s, _a, sides, _p in history for side in sides for u in side}
        before: dict[int, Standing] = {}
        for user, mu, sigma, season in await self._conn.fetch(
                f"SELECT e.user_id, e.mu_after, e.sigma_after, e.season FROM rating_entries e"
                f" JOIN rating_results r ON r.id = e.result_id WHERE r.guild_id = ? AND (r.at, r.source) < (?, ?)"
                f" AND e.user_id IN ({placeholders(len(users))}) ORDER BY r.at, r.source",
                (guild_id, *start, *sorted(users))) if users else []:
            before[user] = (mu, sigma, season)  # the latest one stays
        await self._conn.execute(  # the entries of `later`
            "DELETE FROM rating_entries WHERE result_id IN"
            " (SELECT id FROM rating_results WHERE guild_id = ? AND (at, source) >= (?, ?))", (guild_id, *start))
        seasons = [r[0] for r in await self._conn.fetch(
            "SELECT starts FROM rating_seasons WHERE guild_id = ? ORDER BY number", (guild_id,))]
        rated = await asyncio.to_thread(fold, history, before, seasons)  # a long history: off the event loop
        await self._conn.execute_many(
            "INSERT INTO rating_entries VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(r[0], user, *start_from, *after) for r, changes in zip(later, rated)
             for user, (start_from, after) in changes.items()])
        for user in sorted(users):
            latest = await self._conn.fetch(
                "SELECT e.mu_after, e.sigma_after, e.season, count(*) OVER () FROM rating_entries e"
                " JOIN rating_results r ON r.id = e.result_id WHERE r.guild_id = ? AND e.user_id = ?"
                " ORDER BY r.at DESC, r.source DESC LIMIT 1", (guild_id, user))
            if not latest:
                await self._conn.execute("DELETE FROM ratings WHERE guild_id = ? AND user_id = ?", (guild_id, user))
                continue
            mu, sigma, season, games = latest[0]
            await self._conn.execute(
                "INSERT INTO ratings (guild_id, user_id, mu, sigma, games, updated_at, season)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET mu = excluded.mu,"
                " sigma = excluded.sigma, games = excluded.games, updated_at = excluded.updated_at,"
                " season = excluded.season", (guild_id, user, mu, sigma, games, at, season))

    # ---- reading ---------------------------------------------------------------------

    async def rating(self, guild_id: int, user_id: int) -> Optional[Rating]:
        rows = await self._conn.fetch(
            "SELECT guild_id, user_id, mu, sigma, games, season FROM ratings WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id))
        return Rating(*rows[0]) if rows else None

    async def ratings(self, guild_id: int) -> list[Rating]:
        """Every rating of a server."""
        rows = await self._conn.fetch(
            "SELECT guild_id, user_id, mu, sigma, games, season FROM ratings WHERE guild_id = ?", (guild_id,))
        return [Rating(*r) for r in rows]

    async def counts(self, guild_id: int, user_id: int) -> dict[tuple[str, int], int]:
        """(kind, season) -> how many of the user's rated results: kind `game` (bot games) or `event`."""
        rows = await self._conn.fetch(
            "SELECT substr(r.source, 1, instr(r.source, ':') - 1), e.season, count(*) FROM rating_entries e"
            " JOIN rating_results r ON r.id = e.result_id WHERE r.guild_id = ? AND e.user_id = ? GROUP BY 1, 2",
            (guild_id, user_id))
        return {(r[0], r[1]): r[2] for r in rows}

    async def changes(self, guild_id: int, source: str) -> dict[int, tuple[float, float]]:
        """user -> (mu rated from, mu after) of one result ({} when it is not in the history)."""
        rows = await self._conn.fetch(
            "SELECT e.user_id, e.mu_before, e.mu_after FROM rating_entries e JOIN rating_results r"
            " ON r.id = e.result_id WHERE r.guild_id = ? AND r.source = ?", (guild_id, source))
        return {r[0]: (r[1], r[2]) for r in rows}

    # ---- seasons ---------------------------------------------------------------------

    async def seasons(self, guild_id: int) -> list[Season]:
        """The seasons a server has started (2, 3, ...), oldest first."""
        rows = await self._conn.fetch(
            "SELECT number, name, starts, started_by FROM rating_seasons WHERE guild_id = ? ORDER BY number",
            (guild_id,))
        return [Season(*r) for r in rows]

    async def start_season(self, guild_id: int, name: str, at: float, by: int) -> Season:
        """Begin the next season at `at` (named `Season N` when `name` is empty); refused
        (ValueError) unless the latest one began earlier."""
        async with self._transaction():
            rows = await self._conn.fetch(
                "SELECT number, starts FROM rating_seasons WHERE guild_id = ? ORDER BY number DESC LIMIT 1",
                (guild_id,))
            number, last = rows[0] if rows else (1, float("-inf"))
            if last >= at:
                raise ValueError("a season has just begun")
            season = Season(number + 1, name or f"Season {number + 1}", at, by)
            await self._conn.execute("INSERT INTO rating_seasons VALUES (?, ?, ?, ?, ?)",
                                     (guild_id, season.number, season.name, season.starts, season.started_by))
            return season
