"""The rating book: one rating per player per server, from bot games and event results.

The league desk and the players' desk both write through it. A bot game
is taken in once when it ends (ruling P1); an event's results are taken in after every
change to the event, as the whole list of its rated results, so a correction replaces the
earlier result and the history is re-rated from its place (rulings L33-L38). A restart
loses nothing: `settle` takes in every ended game and every event version not taken in yet.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Callable, Optional

from db import Database
from db.rating_store import Rating, RatingStore, Row, Season, Standing
from engine.league import event as league
from engine.service import ratings
from engine.service.errors import IllegalCommand
from engine.service.seating import is_forgotten


@dataclass(frozen=True)
class Shown:
    """A player's rating as shown now: carried into the current season (ruling L37)."""

    user_id: int
    mu: float
    sigma: float
    games: int
    bot_games: int
    event_games: int
    season: int  # the current season
    season_games: int  # rated results this season

    @property
    def ordinal(self) -> float:
        return ratings.ordinal(self.mu, self.sigma)


def fold(history: list[Row], before: dict[int, Standing],
         starts: list[float]) -> list[dict[int, tuple[tuple[float, float], Standing]]]:
    """The store's re-rating: `ratings.replay` over plain rows."""
    matches = [ratings.Match(source, at, tuple(tuple(side) for side in sides), tuple(places))
               for source, at, sides, places in history]
    rated = ratings.replay(matches, {u: ratings.Standing(*s) for u, s in before.items()}, ratings.season_of(starts))
    return [{u: (start, (after.mu, after.sigma, after.season)) for u, (start, after) in changes.items()}
            for changes in rated]


def as_row(match: ratings.Match) -> Row:
    return match.source, match.at, [list(side) for side in match.sides], list(match.places)


class RatingBook:
    """Ratings over one game database."""

    def __init__(self, database: Database, *, clock: Callable[[], float] = time.time):
        self.db = database
        self.store = RatingStore(database)
        self._clock = clock

    # ---- taking results in -------------------------------------------------------------

    async def settle(self) -> list[int]:
        """Take in every ended game and every changed event not taken in yet (games in the
        order they ended). Returns the games newly rated. Safe to repeat, also concurrently."""
        newly = [game_id for game_id in await self.store.unrated_games() if await self.rate_game(game_id)]
        for event_id, guild_id, version, state in await self.store.unsynced_events():
            await self.sync_event(event_id, guild_id, version, league.from_json(state))
        return newly

    async def rate_game(self, game_id: int) -> bool:
        """Record one ended game (once); True if it changed ratings."""
        row = await self.db.game(game_id)
        seats = await self.db.seats(game_id)
        config = json.loads(row.config)
        result = json.loads(row.result) if row.result else None
        players = ratings.players_of(config, seats)
        rated, reason = ratings.ruling(row.status, row.guild_id, players, result,
                                       await self.store.commands_played(game_id))
        event_id = await self.store.event_of_game(game_id)
        if event_id is not None:
            rated, reason = False, f"played for event #{event_id}: its result there is rated (L34)"
        elif not rated and row.status == "aborted":
            reason = "aborted"
        match = ratings.game_match(game_id, row.updated_at, players, result) if rated else None
        recorded = await self.store.record_game(game_id, row.guild_id or 0, rated, reason, self._clock(),
                                                as_row(match) if match else None, fold)
        return recorded and rated

    async def sync_event(self, event_id: int, guild_id: int, version: int, event: league.Event) -> bool:
        """Make the ratings hold exactly this version of the event's rated results; True if
        any rating changed."""
        rows = [as_row(m) for m in ratings.event_matches(event_id, event)]
        return await self.store.sync_event(event_id, guild_id, version, ratings.event_source(event_id), rows,
                                           fold, self._clock())

    # ---- seasons -----------------------------------------------------------------------

    async def seasons(self, guild_id: int) -> list[Season]:
        """Every season of the server, season 1 included, oldest first."""
        started = await self.store.seasons(guild_id)
        return [Season(1, "Season 1", 0.0, None), *started]

    async def start_season(self, guild_id: int, name: str, by: int) -> Season:
        """Begin the next rating season now; ratings carry over, wider (ruling L37)."""
        try:
            return await self.store.start_season(guild_id, name.strip()[:80], self._clock(), by)
        except ValueError as refused:
            raise IllegalCommand("A season began a moment ago; wait before starting another.") from refused

    async def current_season(self, guild_id: int) -> int:
        return len(await self.store.seasons(guild_id)) + 1

    # ---- reading -----------------------------------------------------------------------

    async def shown(self, guild_id: int, user_id: int) -> Optional[Shown]:
        """The user's rating in the server as shown now (None: no rated result there yet)."""
        found = await self.store.rating(guild_id, user_id)
        if found is None:
            return None
        return await self._shown(found, await self.current_season(guild_id), True)

    async def _shown(self, rating: Rating, season: int, counted: bool) -> Shown:
        mu, sigma = ratings.carried(ratings.Standing(rating.mu, rating.sigma, rating.season), season)
        counts = await self.store.counts(rating.guild_id, rating.user_id) if counted else {}
        kind = lambda k: sum(n for (what, _s), n in counts.items() if what == k)  # noqa: E731
        return Shown(rating.user_id, mu, sigma, rating.games, kind("game"), kind("event"), season,
                     sum(n for (_k, s), n in counts.items() if s == season))

    async def board(self, guild_id: int) -> list[Shown]:
        """Every rating of the server as shown now, best first (rating, then games, then id)."""
        season = await self.current_season(guild_id)
        shown = [await self._shown(r, season, False) for r in await self.store.ratings(guild_id)
                 if not is_forgotten(r.user_id)]  # a forgotten player's rating is nobody's (P16)
        return sorted(shown, key=lambda s: (-s.ordinal, -s.games, s.user_id))

    async def of_players(self, guild_id: int, users: list[int]) -> dict[int, Shown]:
        """Ratings shown now of these users (those without one are left out)."""
        return {s.user_id: s for s in await self.board(guild_id) if s.user_id in set(users)}

    async def game_changes(self, game_id: int) -> dict[int, tuple[float, float]]:
        """user -> (mu rated from, mu after) of a rated bot game ({} when it was not rated)."""
        row = await self.db.game(game_id)
        if row is None or row.guild_id is None:
            return {}
        return await self.store.changes(row.guild_id, ratings.game_source(game_id))
