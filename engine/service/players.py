"""The players' desk: dice seals and their reveal, ratings, profiles, quiet hours and vacations.

Like the league desk, it sits beside the game service over the same database and is
used by Discord (and could be by any front end); it touches no Discord object. Every
operation is idempotent where a restart could repeat it: a game is sealed once, and its
rating is recorded once (the record and the new ratings are one transaction).
"""
from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from db import Database
from db.player_store import PlayerStore
from engine.service import audit, ratings, reads
from engine.service.rating_book import RatingBook, Shown
from engine.service.availability import BadTime, Quiet, held_until, shift
from engine.service.errors import LobbyError, NotAllowed, UnknownGame
from engine.service.rulesets import RULESETS, Ruleset

MAX_VACATION_DAYS = 60.0
LEADERBOARD_PAGE = 10


@dataclass(frozen=True)
class Reveal:
    """A finished game's dice seed, the salt and the seal shown at its start."""

    game_id: int
    seed: int
    salt: str
    digest: str


@dataclass
class Tally:
    """Games finished and won."""

    played: int = 0
    won: int = 0
    drawn: int = 0

    def words(self) -> str:
        draws = f", {self.drawn} drawn" if self.drawn else ""
        return f"{self.won} won of {self.played}{draws}"


@dataclass
class Profile:
    """A player's record: finished games overall, by affiliation and by mode; how fast they
    answer; their rating in the server asked about; whether they are away."""

    user_id: int
    name: Optional[str]
    total: Tally = field(default_factory=Tally)
    by_affiliation: dict[str, Tally] = field(default_factory=dict)
    by_mode: dict[str, Tally] = field(default_factory=dict)
    active: int = 0
    aborted: int = 0
    answers: int = 0
    turn_time: Optional[float] = None
    rating: Optional[Shown] = None
    away: Optional["Away"] = None


@dataclass(frozen=True)
class Away:
    """A player's quiet hours and vacation as they stand at `now`."""

    quiet: Optional[Quiet]
    quiet_until: Optional[float]  # when the quiet hours under way end (None: not quiet now)
    vacation: Optional[tuple[float, float]]  # the vacation under way or planned
    at: float = 0.0  # the time these were read

    @property
    def on_vacation(self) -> bool:
        return self.vacation is not None and self.vacation[0] <= self.at < self.vacation[1]

    @property
    def held_until(self) -> Optional[float]:
        """Until when pings and reminders to the player wait (None: reach them now)."""
        return held_until(self.at, self.quiet, self.vacation[1] if self.on_vacation else None)

    @property
    def why(self) -> str:
        """Why pings wait: 'on vacation' or 'in quiet hours'."""
        return "on vacation" if self.on_vacation else "in quiet hours"

    def words(self, name: str) -> list[str]:
        """Lines for other players: '<name> is on vacation until ...', quiet hours."""
        lines = []
        if self.vacation is not None:
            starts, ends = self.vacation
            when = "is on vacation" if self.on_vacation else f"goes on vacation <t:{int(starts)}:f>"
            lines.append(f"{name} {when} until <t:{int(ends)}:f>: their deadlines are paused.")
        if self.quiet is not None:
            now = f", quiet now until <t:{int(self.quiet_until)}:t>" if self.quiet_until else ""
            lines.append(f"{name} has quiet hours {self.quiet.words()}{now}: no pings then, reminders wait.")
        return lines


def mode_of(config: dict) -> str:
    """The game's mode as players name it ('2 players', or the config's own `mode`)."""
    return str(config.get("mode") or f"{len(config.get('players', []))} players")


class PlayerDesk:
    """Players' things over one game database."""

    def __init__(self, database: Database, *, clock: Callable[[], float] = time.time,
                 rulesets: Optional[dict[str, Ruleset]] = None):
        self.db = database
        self.store = PlayerStore(database)
        self.ratings = RatingBook(database, clock=clock)
        self._clock = clock
        self._rulesets = rulesets or RULESETS

    # ---- dice -----------------------------------------------------------------------

    async def seal(self, game_id: int) -> str:
        """The game's dice seal (made on first call, never changed): SHA-256 of salt and seed."""
        found = await self.store.seal(game_id)
        if found is None:
            row = await self.db.game(game_id)
            if row is None:
                raise UnknownGame(f"There is no game #{game_id}.")
            salt = audit.new_salt()
            await self.store.add_seal(game_id, salt, audit.seal(row.seed, salt), self._clock())
            found = await self.store.seal(game_id)
        return found.digest

    async def reveal(self, game_id: int) -> Reveal:
        """The seed, salt and seal of an ended game; refused while the game goes on."""
        row = await self.db.game(game_id)
        found = await self.store.seal(game_id)
        if row is None:
            raise UnknownGame(f"There is no game #{game_id}.")
        if row.status in ("lobby", "active"):
            raise NotAllowed("The dice seed stays secret until the game ends.")
        if found is None:
            raise LobbyError(f"Game #{game_id} was not sealed, so there is nothing to check its dice against.")
        return Reveal(game_id, row.seed, found.salt, found.digest)

    async def verify(self, game_id: int) -> audit.Verdict:
        """Replay an ended game from its revealed seed: the seal, every logged roll and event,
        and the final state (off the event loop)."""
        shown = await self.reveal(game_id)
        row = await self.db.game(game_id)
        log = [(e.seq, e.seat, e.command, e.events) for e in await self.db.log(game_id)]
        return await asyncio.to_thread(audit.verify, self._rulesets[row.ruleset], json.loads(row.config),
                                       shown.seed, log, row.state, salt=shown.salt, digest=shown.digest)

    async def unrevealed(self) -> list[int]:
        """Ended games whose seed has not been revealed in their thread yet."""
        return await self.store.unrevealed()

    async def revealed(self, game_id: int) -> None:
        """Note that the game's seed was revealed at its table."""
        await self.store.mark_revealed(game_id, self._clock())

    # ---- ratings ----------------------------------------------------------------------

    async def settle_ratings(self) -> list[int]:
        """Take every ended game and changed event not yet taken into the ratings (see
        `RatingBook.settle`); returns the games newly rated. Each counts once."""
        return await self.ratings.settle()

    async def rating_changes(self, game_id: int) -> dict[int, tuple[float, float]]:
        """user -> (mu before, mu after) of a rated game ({} when it was not rated)."""
        return await self.ratings.game_changes(game_id)

    async def leaderboard(self, guild_id: int, page: int = 1,
                          per_page: int = LEADERBOARD_PAGE) -> tuple[list[tuple[int, Shown, str]], int]:
        """One page of the server's ratings, best first: (place, rating, name), and the number of
        pages. A player who never sat at a bot game is named by a mention (event players)."""
        board = await self.ratings.board(guild_id)
        pages = max(1, -(-len(board) // per_page))
        page = min(max(page, 1), pages)
        first = (page - 1) * per_page
        return [(first + n, shown, await self.store.name(shown.user_id) or f"<@{shown.user_id}>")
                for n, shown in enumerate(board[first:first + per_page], start=1)], pages

    # ---- profiles ---------------------------------------------------------------------

    async def profile(self, user_id: int, guild_id: Optional[int]) -> Profile:
        """The user's record over every server, and their rating in `guild_id`."""
        profile = Profile(user_id, await self.store.name(user_id))
        for game in await self.store.played(user_id):
            if game.status != "over":
                profile.active += game.status == "active"
                profile.aborted += game.status == "aborted"
                continue
            me = next((p for p in game.config.get("players", []) if p.get("seat") == game.seat), {})
            won = not game.left and game.seat in ratings.winners(game.result or {})
            drawn = not game.left and not ratings.winners(game.result or {})
            for tally in (profile.total,
                          profile.by_affiliation.setdefault(str(me.get("affiliation", "?")), Tally()),
                          profile.by_mode.setdefault(mode_of(game.config), Tally())):
                tally.played += 1
                tally.won += won
                tally.drawn += drawn
        profile.answers, profile.turn_time = await self.store.turn_time(user_id)
        if guild_id is not None:
            profile.rating = await self.ratings.shown(guild_id, user_id)
        profile.away = await self.away(user_id)
        return profile

    # ---- quiet hours and vacations --------------------------------------------------------

    async def set_quiet(self, user_id: int, start: str, end: str, zone: str) -> Quiet:
        """Daily quiet hours in the user's zone; LobbyError with the reason if unreadable."""
        try:
            quiet = Quiet.parse(start, end, zone)
        except BadTime as error:
            raise LobbyError(str(error)) from error
        await self.db.set_user_setting(user_id, "quiet", json.dumps(quiet.as_dict()))
        reads.forget_user(user_id)
        return quiet

    async def clear_quiet(self, user_id: int) -> None:
        await self.db.set_user_setting(user_id, "quiet", None)
        reads.forget_user(user_id)

    async def set_vacation(self, user_id: int, days: float, starts_in_days: float = 0.0) -> tuple[float, float]:
        """A vacation of `days` (from now, or from `starts_in_days` on); deadlines move at once."""
        if not 0 < days <= MAX_VACATION_DAYS or not 0 <= starts_in_days <= MAX_VACATION_DAYS:
            raise LobbyError(f"A vacation lasts more than 0 and at most {MAX_VACATION_DAYS:g} days, "
                             f"and starts within {MAX_VACATION_DAYS:g} days.")
        now = self._clock()
        starts = now + starts_in_days * 86400
        ends = starts + days * 86400
        await self.store.set_vacation(user_id, starts, ends, now)
        reads.forget_user(user_id)
        await self.apply_vacations()
        return starts, ends

    async def end_vacation(self, user_id: int) -> bool:
        """Back early: the vacation ends now and deadlines move back by the part not taken."""
        ended = await self.store.end_vacation(user_id, self._clock())
        reads.forget_user(user_id)
        await self.apply_vacations()
        return ended

    async def apply_vacations(self) -> int:
        """Bring every deadline of a player who took a vacation to where ruling P3 puts it:
        moved by the part of their vacations after the wait began. Idempotent: a wait
        remembers how far it has been moved. Returns how many deadlines moved."""
        moves = []
        vacations: dict[int, list[tuple[float, float]]] = {}
        for game_id, seat, user_id, since, deadline, moved in await self.store.waits_of_vacationers():
            if user_id not in vacations:
                vacations[user_id] = await self.store.vacations(user_id)
            delta = shift(since, deadline - moved, vacations[user_id]) - moved
            if abs(delta) > 1e-6:
                moves.append((game_id, seat, delta))
        if moves:
            await self.store.move_deadlines(moves)
        return len(moves)

    async def away(self, user_id: int) -> Away:
        """The user's quiet hours and current (or planned) vacation."""
        now = self._clock()
        stored, vacations = await reads.quiet_and_vacations(self.db, user_id)
        quiet = Quiet.from_dict(json.loads(stored)) if stored else None
        vacation = next(((s, e) for s, e in vacations if e > now), None)
        return Away(quiet, quiet.until(now) if quiet else None, vacation, now)

    async def held_until(self, user_id: int) -> Optional[float]:
        """Until when pings and reminders to the user wait (None: reach them now)."""
        return (await self.away(user_id)).held_until

    async def postpone(self, reminder_ids: list[int], due: float) -> None:
        """Reminders that wait for the end of quiet hours or a vacation."""
        await self.store.postpone_reminders(reminder_ids, due)

    async def remind_later(self, game_id: int, seat: str, due: float) -> bool:
        """A ping held back now becomes a reminder at `due` (while the game still waits on the seat)."""
        return await self.store.add_reminder(game_id, seat, "nudge", due)
