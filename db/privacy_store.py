"""Storage for a player's own data: everything stored under their user id, read in one
place, and forgotten in one transaction (ruling P16).

It shares the game database's connection and write lock, like the other stores. Config
and state come in and go out as JSON text: the caller decides what a forgotten name
becomes; this module knows nothing of any ruleset.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Optional

from db.database import Store


@dataclass(frozen=True)
class Seated:
    """A game or campaign seat the user holds (or, in a game, left to the computer)."""

    id: int
    kind: str  # the game's ruleset, or "campaign"
    status: str
    guild_id: Optional[int]
    seat: str
    name: str
    config: str
    state: Optional[str]


@dataclass(frozen=True)
class Held:
    """Everything stored under one user id."""

    settings: dict[str, str]  # key -> JSON value
    vacations: list[tuple[float, float]]
    ratings: list[tuple[int, float, float, int]]  # (server, mu, sigma, rated results)
    games: list[Seated]
    campaigns: list[Seated]
    events: list[tuple[int, str, str, str]]  # (event, name, status, state JSON) that may name the user


@dataclass(frozen=True)
class Renamed:
    """A seat to hand over to the stand-in id, under a neutral name, with its game's (or
    campaign's) config and state rewritten to that name."""

    id: int
    seat: str
    name: str
    config: str
    state: Optional[str]


@dataclass
class Forgetting:
    """What `forget` writes: the stand-in id and every renamed seat."""

    stand_in: int
    games: list[Renamed] = field(default_factory=list)
    campaigns: list[Renamed] = field(default_factory=list)


class PrivacyStore(Store):
    """A user's data over an open `Database`."""

    async def held(self, user_id: int) -> Held:
        """Everything stored under `user_id`."""
        settings = {r[0]: r[1] for r in await self._conn.fetch(
            "SELECT key, value FROM user_settings WHERE user_id = ? ORDER BY key", (user_id,))}
        for every, channel_id, last_call in await self._conn.fetch(
                "SELECT every, channel_id, last_call FROM calls WHERE user_id = ?", (user_id,)):
            settings["calls"] = json.dumps({"every": every, "channel": channel_id, "last_call": last_call})
        vacations = [(r[0], r[1]) for r in await self._conn.fetch(
            "SELECT starts, ends FROM vacations WHERE user_id = ? ORDER BY starts", (user_id,))]
        ratings = [tuple(r) for r in await self._conn.fetch(
            "SELECT guild_id, mu, sigma, games FROM ratings WHERE user_id = ? ORDER BY guild_id", (user_id,))]
        games = [Seated(*r) for r in await self._conn.fetch(
            "SELECT g.id, g.ruleset, g.status, g.guild_id, s.seat, s.name, g.config, g.state FROM seats s"
            " JOIN games g ON g.id = s.game_id WHERE s.user_id = ? OR s.left_by = ? ORDER BY g.id",
            (user_id, user_id))]
        campaigns = [Seated(r[0], "campaign", *r[1:]) for r in await self._conn.fetch(
            "SELECT c.id, c.status, c.guild_id, s.seat, s.name, c.config, c.state FROM campaign_seats s"
            " JOIN campaigns c ON c.id = s.campaign_id WHERE s.user_id = ? ORDER BY c.id", (user_id,))]
        events = [tuple(r) for r in await self._conn.fetch(
            "SELECT id, name, status, state FROM league_events WHERE state LIKE ? ORDER BY id",
            (f'%"{user_id}"%',))]
        return Held(settings, vacations, ratings, games, campaigns, events)

    async def forget(self, user_id: int, forgetting: Forgetting) -> None:
        """In one transaction: delete the user's settings (calls too) and vacations, hand their ratings,
        rating history, seats, log entries and creations to the stand-in id, and rename
        their seats (with each game's and campaign's config and state)."""
        other = forgetting.stand_in
        async with self._transaction():
            for table in ("user_settings", "vacations", "calls"):
                await self._conn.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
            for table, column in (("ratings", "user_id"), ("rating_entries", "user_id"), ("log", "user_id"),
                                  ("seats", "left_by"), ("games", "created_by"), ("campaign_log", "user_id"),
                                  ("campaigns", "created_by"), ("league_events", "created_by"),
                                  ("rating_seasons", "started_by")):
                await self._conn.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (other, user_id))
            for result_id, sides in await self._conn.fetch(
                    "SELECT id, sides FROM rating_results WHERE sides LIKE ?", (f"%{user_id}%",)):
                teams = json.loads(sides)
                if any(user_id in side for side in teams):
                    await self._conn.execute("UPDATE rating_results SET sides = ? WHERE id = ?", (json.dumps(
                        [[other if u == user_id else u for u in side] for side in teams]), result_id))
            for seat in forgetting.games:
                await self._conn.execute(
                    "UPDATE seats SET user_id = CASE WHEN user_id = ? THEN ? ELSE user_id END, name = ?"
                    " WHERE game_id = ? AND seat = ?", (user_id, other, seat.name, seat.id, seat.seat))
                await self._conn.execute("UPDATE games SET config = ?, state = ? WHERE id = ?",
                                         (seat.config, seat.state, seat.id))
            for seat in forgetting.campaigns:
                await self._conn.execute(
                    "UPDATE campaign_seats SET user_id = ?, name = ? WHERE campaign_id = ? AND seat = ?",
                    (other, seat.name, seat.id, seat.seat))
                await self._conn.execute("UPDATE campaigns SET config = ?, state = ? WHERE id = ?",
                                         (seat.config, seat.state, seat.id))
