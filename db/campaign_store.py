"""Storage for Renegades campaigns: the campaign JSON, its players, its command log, and
the games of its missions.

It stores the campaign engine's JSON untouched and knows nothing of its rules. It shares
the game database's connection and write lock. Every change of a campaign is one
transaction: the new state and its log entry are committed together or not at all.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from db.database import StaleWrite, Store

_COLUMNS = ("id, guild_id, channel_id, thread_id, created_by, status, version, config, seed, state,"
            " created_at, updated_at")


@dataclass(frozen=True)
class CampaignRow:
    """One row of `campaigns`; `config` and `state` are JSON text."""

    id: int
    guild_id: Optional[int]
    channel_id: Optional[int]
    thread_id: Optional[int]
    created_by: Optional[int]
    status: str
    version: int
    config: str
    seed: int
    state: str
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class CampaignSeat:
    """A player of a campaign."""

    seat: str
    user_id: int
    name: str


@dataclass(frozen=True)
class CampaignEntry:
    """One accepted campaign command; `seq` is the version it produced; `game_id` the
    mission game whose end it records, if any; `events` JSON text."""

    seq: int
    seat: Optional[str]
    user_id: Optional[int]
    command: str
    game_id: Optional[int]
    events: str
    at: float


class CampaignStore(Store):
    """Campaign queries over an open `Database` (see db.database)."""

    async def create(self, *, config: str, seed: int, state: str, seats: list[CampaignSeat], at: float,
                     guild_id: Optional[int] = None, channel_id: Optional[int] = None,
                     thread_id: Optional[int] = None, created_by: Optional[int] = None) -> int:
        """Insert a campaign at version 0 with its players; its id."""
        async with self._transaction():
            campaign_id = await self._conn.insert(
                "INSERT INTO campaigns (guild_id, channel_id, thread_id, created_by, config, seed, state,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, thread_id, created_by, config, seed, state, at, at))
            await self._conn.execute_many(
                "INSERT INTO campaign_seats (campaign_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                [(campaign_id, s.seat, s.user_id, s.name) for s in seats])
        return campaign_id

    async def get(self, campaign_id: int) -> Optional[CampaignRow]:
        """The campaign with that id, if any."""
        rows = await self._conn.fetch(f"SELECT {_COLUMNS} FROM campaigns WHERE id = ?", (campaign_id,))
        return CampaignRow(*rows[0]) if rows else None

    async def live_in(self, channel_id: int, thread_id: Optional[int] = None) -> Optional[CampaignRow]:
        """The active campaign of this channel (or thread), if any."""
        rows = await self._conn.fetch(
            f"SELECT {_COLUMNS} FROM campaigns WHERE channel_id = ? AND IFNULL(thread_id, 0) = ?"
            " AND status = 'active' ORDER BY id DESC LIMIT 1", (channel_id, thread_id or 0))
        return CampaignRow(*rows[0]) if rows else None

    async def of_user(self, user_id: int) -> list[CampaignRow]:
        """The user's campaigns, newest first."""
        rows = await self._conn.fetch(
            f"SELECT {', '.join('c.' + c.strip() for c in _COLUMNS.split(','))} FROM campaigns c"
            " JOIN campaign_seats s ON s.campaign_id = c.id WHERE s.user_id = ? ORDER BY c.id DESC", (user_id,))
        return [CampaignRow(*r) for r in rows]

    async def ids(self) -> list[int]:
        """Every campaign's id, oldest first."""
        return [r[0] for r in await self._conn.fetch("SELECT id FROM campaigns ORDER BY id")]

    async def seats(self, campaign_id: int) -> list[CampaignSeat]:
        """The campaign's players, in seat order."""
        rows = await self._conn.fetch(
            "SELECT seat, user_id, name FROM campaign_seats WHERE campaign_id = ? ORDER BY seat", (campaign_id,))
        return [CampaignSeat(*r) for r in rows]

    async def log(self, campaign_id: int) -> list[CampaignEntry]:
        """The campaign's command log, oldest first."""
        rows = await self._conn.fetch(
            "SELECT seq, seat, user_id, command, game_id, events, at FROM campaign_log"
            " WHERE campaign_id = ? ORDER BY seq", (campaign_id,))
        return [CampaignEntry(*r) for r in rows]

    async def save(self, campaign_id: int, from_version: int, *, status: str, state: str,
                   entry: CampaignEntry) -> None:
        """Store the state a command produced and its log entry, if the campaign is still at
        `from_version`; StaleWrite (nothing written) otherwise."""
        async with self._transaction():
            updated = await self._conn.execute(
                "UPDATE campaigns SET status = ?, state = ?, version = ?, updated_at = ?"
                " WHERE id = ? AND version = ?",
                (status, state, entry.seq, entry.at, campaign_id, from_version))
            if updated != 1:
                raise StaleWrite(f"campaign {campaign_id} is no longer at version {from_version}")
            await self._conn.execute(
                "INSERT INTO campaign_log (campaign_id, seq, seat, user_id, command, game_id, events, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (campaign_id, entry.seq, entry.seat, entry.user_id, entry.command, entry.game_id,
                 entry.events, entry.at))

    async def link_game(self, game_id: int, campaign_id: int) -> None:
        """Mark a game as one of the campaign's missions."""
        async with self._lock:
            await self._conn.execute("UPDATE games SET campaign_id = ? WHERE id = ?", (campaign_id, game_id))

    async def games(self, campaign_id: int) -> list[int]:
        """The ids of the campaign's mission games, oldest first."""
        rows = await self._conn.fetch(
            "SELECT id FROM games WHERE campaign_id = ? ORDER BY id", (campaign_id,))
        return [r[0] for r in rows]

    async def campaign_of(self, game_id: int) -> Optional[int]:
        """The campaign a game is a mission of, if any."""
        rows = await self._conn.fetch("SELECT campaign_id FROM games WHERE id = ?", (game_id,))
        return rows[0][0] if rows else None
