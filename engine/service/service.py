"""The async table: lobby, commands, turns and reminders for every game, over one database.

Discord cogs and the local console both talk to `GameService`; neither touches rules
or SQL. Every operation on a game runs under that game's lock, so commands for one
game are applied one at a time while other games proceed. An accepted command is
committed (state, log entry, waits) before the call returns; a refused one writes
nothing and leaves the cached game as it was.
"""
from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import json
import logging
import os
import secrets
import socket
import time
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Callable, Optional

from db import (BUSY_TIMEOUT_MS, AwaitedGame, Database, DueReminder, GameRow, GameWrite, LogEntry, PlaceTaken,
                Reminder, SeatRow, StaleWrite, Wait, is_busy)
from engine.errors import PackError, RuleError
from engine.service import reactions, reads, rules_version, team_calls, text
from engine.service.errors import (BUSY, DamagedGame, GameOver, IllegalCommand, InvalidId, LobbyError, MalformedCommand,
                                   NotAllowed, NotAPlayer, NotYourDecision, ServiceError, StaleVersion,
                                   StorageBusy, UnknownGame)
from engine.service.replay import TAKE_BACK, before_last, carried_forward, taken_back
from engine.service.rulesets import RULESETS, Ruleset
from engine.service.seating import COMPUTER_USER_BASE, is_computer

MAX_COMMAND_LENGTH = 1000
DEFAULT_REMIND_AFTER = 24 * 3600.0
CATCH_UP_AFTER = 15 * 60.0  # a player back after this long sees what happened since their last action
TEAM_SIZE = 2  # seats per side in a team game
PASS = "pass"
COMPUTER_GRACE = 60.0  # seconds a computer's move may take before a sweep plays it instead (P60)
RECENT_CHOICES = 100  # log entries looked back for a team's previous choice (a tie's tie-break, P51; set-up, P64)
MAX_STANDING_PASSES = 50  # windows passed by preference after one command (a round has far fewer)
log = logging.getLogger("ready_room.service")


def why_key(game_id: int) -> str:
    """The guild setting holding what the computer weighed for its last searched move."""
    return f"why:{game_id}"


@dataclass(frozen=True)
class Seat:
    """A player at the table."""

    seat: str
    user_id: int
    name: str


@dataclass(frozen=True)
class Turn:
    """A seat the game waits on, since when and until when (None: no deadline)."""

    seat: str
    user_id: int
    name: str
    since: float
    deadline: Optional[float]


@dataclass(frozen=True)
class GameInfo:
    """Where a game is, who plays it, and whose move it is."""

    id: int
    ruleset: str
    status: str  # lobby | active | over | aborted
    version: int
    guild_id: Optional[int]
    channel_id: Optional[int]
    thread_id: Optional[int]
    created_by: Optional[int]
    seats: list[Seat]
    awaited: list[Turn]
    result: Optional[dict]


@dataclass(frozen=True)
class Update:
    """What to tell the table after an accepted action.

    `public` lines and `images` (e.g. ["board", "dice"]) are for the channel;
    `private` maps a seat to lines only its player may see; `players` maps seats to
    user ids so a front end can deliver them; `events` are the action's events with
    their private parts removed (what the pictures highlight).
    """

    game_id: int
    version: int
    status: str
    public: list[str]
    images: list[str]
    private: dict[str, list[str]]
    awaited: list[Turn]
    players: dict[str, int]
    result: Optional[dict] = None
    events: list[dict] = field(default_factory=list)
    said: str = ""  # the accepted command as a person reads it (card names, not codes)
    can_take_back: bool = False  # the actor may ask to take this action back (nothing rolled or revealed)
    turn: Optional[str] = None  # the seat whose turn it is now (ruleset.turn_of), if one
    called: Optional[list[str]] = None  # the awaited seats to call (None: all; a team decision: P51, P52)


@dataclass(frozen=True)
class Panel:
    """What one player's private panel shows: the decision as a question, the legal
    commands (by index) with readable labels, the exact odds of those that roll dice,
    and the player's hand by name."""

    version: int
    seat: str
    question: str
    commands: list[str]
    labels: list[str]
    odds: dict[int, str]
    hand: Optional[list[str]]
    names: dict[str, str]  # card codes and seats -> what people call them
    standing: list[tuple[str, str]] = field(default_factory=list)  # (label, command) offered beside the decision
    window: Optional[str] = None  # the reaction window asked, if the decision is one
    teammates: dict[str, list[str]] = field(default_factory=dict)  # a teammate's name -> their hand (R53)


@dataclass(frozen=True)
class Moment:
    """One accepted command as anyone may read it."""

    seq: int
    seat: Optional[str]
    at: float
    lines: list[str]


def _decision_of(view: dict, seat: str) -> Optional[dict]:
    """The pending decision of a view that is the seat's (alone or with others), if any."""
    return next((d for d in view.get("pending", []) if d["player"] == seat or seat in d.get("also", [])), None)


def game_key(game_id: Any) -> int:
    """A game id as the one int every cache, lock and query uses: 12 and "12" are the
    same game; anything that cannot be a stored id is an unknown game."""
    if isinstance(game_id, str) and game_id.isascii() and game_id.isdigit():
        game_id = int(game_id)
    if type(game_id) is not int or not 0 < game_id < 2 ** 63:
        shown = str(game_id)[:30]
        raise UnknownGame(f"There is no game #{shown}.")
    return game_id


def check_ids(**ids: Optional[int]) -> None:
    """Refuse ids that SQLite cannot store as the 64-bit integers Discord ids are."""
    for what, value in ids.items():
        if value is not None and (type(value) is not int or not 0 <= value < 2 ** 63):
            raise InvalidId(f"{str(value)[:30]} cannot be a {what.replace('_', ' ')}.")


LOG_TAIL = 16  # log entries a game in memory keeps (a re-roll's picture looks back to its roll)


@dataclass
class _Hot:
    """A game held in memory between commands.

    Between operations the state is kept only as its stored JSON text (`row.state`): a
    thousand hot games then cost the garbage collector nothing, where a thousand live
    state trees made its full collections hold the event loop for over 100 ms. The live
    state is decoded on first use inside an operation (about 50 us) and let go after it.
    """

    row: GameRow
    ruleset: Ruleset
    seats: list[SeatRow]
    waits: dict[str, Wait]
    last_used: float
    config: dict = field(default_factory=dict)
    _live: Any = field(default=None, repr=False)
    loaded: bool = True  # read from the database by the operation under way (not kept from an earlier one)
    # the events (JSON text) of the newest log entries this process wrote since loading the game
    tail: collections.deque = field(default_factory=lambda: collections.deque(maxlen=LOG_TAIL))

    @property
    def state(self) -> Any:
        """The game state (None in the lobby), decoded from the stored text when first asked."""
        if self._live is None and self.row.state is not None:
            self._live = self.ruleset.from_json(self.row.state)
        return self._live

    @state.setter
    def state(self, value: Any) -> None:
        self._live = value

    def let_go(self) -> None:
        """Drop the live state at the end of an operation; `row.state` holds it."""
        self._live = None

    def seat_of(self, user_id: int) -> Optional[str]:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def names(self) -> dict[str, str]:
        """Seats -> player names, and whatever else the ruleset names (cards)."""
        names = self.ruleset.display_names(self.state) if self.state is not None else {}
        return {**names, **{s.seat: s.name for s in self.seats}}


class _Behind(StaleVersion):
    """The copy of a game kept in memory was found behind the stored game: the database
    refused its write, or a player acted on a newer version than it holds."""


def useful_answers(ruleset: Any, state: Any, seat: str) -> list[str]:
    """The seat's legal commands now that could change something for it: a re-roll that
    cannot help is left out (ruling P59), so a window with nothing else is a pass-only one."""
    return [c for c in ruleset.legal_commands(state, seat) if not ruleset.futile(state, seat, c)]


class GameService:
    """All games of one database. Create with `await GameService.open(path)`."""

    def __init__(self, database: Database, *, clock: Callable[[], float] = time.time,
                 idle_after: float = 900.0, rulesets: Optional[dict[str, Ruleset]] = None):
        self.db = database
        self._clock = clock
        self._idle_after = idle_after
        self._rulesets = rulesets or RULESETS
        self._hot: dict[int, _Hot] = {}
        self._locks: dict[int, list] = {}  # game id -> [lock, users]
        self._next_sweep = clock() + idle_after
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{os.urandom(4).hex()}"  # names this service in leases

    @classmethod
    async def open(cls, path: str, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS, **options) -> "GameService":
        """Open the database at `path` (migrating it) and serve its games."""
        return cls(await Database.open(path, busy_timeout_ms=busy_timeout_ms), **options)

    async def close(self) -> None:
        """Let go of this service's clock leases, so a process started in its place runs the
        clocks at once (P66), and close the database; games are already stored."""
        try:
            await self.db.release_leases(self.holder)
        except Exception:  # a busy or lost database: the leases run out by themselves
            log.warning("clock leases not released at close; they run out by themselves", exc_info=True)
        await self.db.close()

    @property
    def hot_games(self) -> set[int]:
        """Ids of the games currently held in memory."""
        return set(self._hot)

    def hot_guilds(self) -> list[Optional[int]]:
        """The guild of each game held in memory (one entry per game), for the operators' metrics."""
        return [hot.row.guild_id for hot in self._hot.values()]

    # ---- locking and the cache -------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _game(self, game_id: Any) -> AsyncIterator[_Hot]:
        game_id = game_key(game_id)
        entry = self._locks.setdefault(game_id, [asyncio.Lock(), 0])
        entry[1] += 1
        try:
            async with entry[0]:
                hot = await self._load(game_id)
                try:
                    yield hot
                finally:
                    hot.let_go()
                    hot.loaded = False
        except Exception as error:
            if is_busy(error):
                self._forget(game_id)
                raise StorageBusy(BUSY) from error
            raise
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                del self._locks[game_id]

    async def _load(self, game_id: int) -> _Hot:
        now = self._clock()
        if now >= self._next_sweep:
            self.evict_idle(now)
        hot = self._hot.get(game_id)
        if hot is None or hot.row.status == "lobby":  # a lobby's seats change without a version: read afresh
            row = await self.db.game(game_id)
            if row is None:
                raise UnknownGame(f"There is no game #{game_id}.")
            ruleset = self._rulesets[row.ruleset]
            seats = await self.db.seats(game_id)
            waits = {w.seat: w for w in await self.db.waits(game_id)}
            try:
                state = ruleset.from_json(row.state) if row.state is not None else None
                config = json.loads(row.config)
                if state is not None and ruleset.outdated(state):  # stored in an earlier shape (R92)
                    state = carried_forward(ruleset, state, [e.events for e in await self.db.log(game_id)])
                    row = dataclasses.replace(row, state=ruleset.to_json(state).decode())
            except ValueError as error:  # msgspec and json decode errors are ValueErrors
                raise DamagedGame(f"Game #{game_id}'s stored state cannot be read ({error}); "
                                  "it was left as it is.") from error
            hot = _Hot(row, ruleset, seats, waits, now, config, state)
            self._hot[game_id] = hot
        hot.last_used = now
        return hot

    def evict_idle(self, now: Optional[float] = None) -> list[int]:
        """Drop games idle for `idle_after` seconds from memory (they reload on demand)."""
        now = self._clock() if now is None else now
        idle = [gid for gid, hot in self._hot.items()
                if now - hot.last_used >= self._idle_after and gid not in self._locks]
        for gid in idle:
            del self._hot[gid]
        self._next_sweep = now + self._idle_after / 4
        return idle

    def _forget(self, game_id: int) -> None:
        self._hot.pop(game_id, None)

    def reload(self, game_id: int) -> None:
        """Drop the in-memory copy of a game changed outside the service (it reloads on demand)."""
        self._forget(game_id)

    # ---- lobby ------------------------------------------------------------------------

    async def create(self, *, creator: Optional[int] = None, guild_id: Optional[int] = None,
                     channel_id: Optional[int] = None, thread_id: Optional[int] = None,
                     ruleset: str = "awaymissions", options: Optional[dict] = None,
                     seed: Optional[int] = None, turn_limit: Optional[float] = None,
                     remind_after: Optional[float] = None) -> GameInfo:
        """Open a lobby. `options` go into the ruleset config (pack, layout ...).

        `turn_limit` (seconds) sets a deadline on each decision; `remind_after` when the
        awaited player is nudged. Unset values come from the guild's settings.
        """
        check_ids(user_id=creator, server_id=guild_id, channel_id=channel_id, thread_id=thread_id)
        rules = self._rulesets.get(ruleset)
        if rules is None:
            raise LobbyError(f"Unknown game type '{ruleset}'. Known: {', '.join(self._rulesets)}.")
        if guild_id is not None:
            if turn_limit is None:
                turn_limit = await self.guild_setting(guild_id, "turn_limit")
            if remind_after is None:
                remind_after = await self.guild_setting(guild_id, "remind_after")
        config = {**rules.default_options, **(options or {})}
        try:
            rules.seats_for(config)
        except (ValueError, TypeError) as error:
            raise LobbyError(str(error)) from error
        try:
            game_id = await self.db.create_game(
                ruleset=ruleset, config=json.dumps(config), at=self._clock(),
                seed=secrets.randbits(62) if seed is None else seed,
                guild_id=guild_id, channel_id=channel_id, thread_id=thread_id, created_by=creator,
                turn_limit=turn_limit,
                remind_after=DEFAULT_REMIND_AFTER if remind_after is None else remind_after)
        except PlaceTaken as error:
            raise LobbyError("There is already a game in this channel.") from error
        return await self.get(game_id)

    async def _seat_change(self, game_id: Any, change: Callable[[_Hot], Any]) -> Any:
        """Run `change(hot)`, a change to the seats, and return what it returns. If the
        database refuses it because another process changed the game meanwhile (the seat
        was just taken, the player just left, the game just started), the copy in memory is
        forgotten and the change is checked and tried once more against the game as stored."""
        for last in (False, True):
            async with self._game(game_id) as hot:
                try:
                    return await change(hot)
                except (StaleWrite, StaleVersion, *self.db.integrity_errors) as error:
                    self._forget(hot.row.id)
                    if last:
                        raise StaleVersion("The game changed while you asked; look at it again.") from error

    async def _in_play(self, game_id: Any, act: Callable[[_Hot], Any]) -> Any:
        """Run `act(hot)`, an action on a game in play, and return what it returns. A copy of
        the game kept in memory from an earlier operation misses what another process did
        since (a move, a seat handed to the computer, a deadline moved): if the action finds
        it behind (its write is refused, the player's version is newer) or finds no seat of
        the user in it, the copy is forgotten and the action checked and run once more
        against the game as stored."""
        for last in (False, True):
            async with self._game(game_id) as hot:
                kept = not hot.loaded
                try:
                    return await act(hot)
                except (_Behind, NotAPlayer):
                    if last or not kept:
                        raise
                    self._forget(hot.row.id)

    async def join(self, game_id: int, user_id: int, name: str, **options: Any) -> GameInfo:
        """Take the first free seat. `options` (affiliation, team, deck ...) go to the config."""
        check_ids(user_id=user_id)
        return await self._seat_change(game_id, lambda hot: self._take_seat(hot, user_id, name, options))

    async def add_computer(self, game_id: int, level: str, **options: Any) -> GameInfo:
        """Seat the computer opponent (engine.opponent at `level`) in the first free seat."""
        from engine import opponent
        opponent.level(level)  # ValueError for an unknown level
        name, options = f"Computer ({level.lower()})", {**options, "computer": level.lower()}
        return await self._seat_change(game_id, lambda hot: self._take_seat(hot, None, name, options))

    async def _take_seat(self, hot: _Hot, user_id: Optional[int], name: str, options: dict) -> GameInfo:
        """Seat the user (None: the computer, numbered by its seat) in the lobby's first free seat."""
        self._require_lobby(hot)
        if user_id is not None and hot.seat_of(user_id) is not None:
            raise LobbyError("You are already in this game.")
        seats = hot.ruleset.seats_for(hot.config)
        free = [s for s in seats if s not in {s.seat for s in hot.seats}]
        if not free:
            raise LobbyError("This game is full.")
        side = options.get("side")
        if side and sum(json.loads(s.options).get("side") == side for s in hot.seats) >= TEAM_SIZE:
            raise LobbyError("That team is full: both of its seats are taken.")
        if user_id is None:
            user_id = COMPUTER_USER_BASE + seats.index(free[0]) + 1
        await self.db.add_seat(hot.row.id, free[0], user_id, name, json.dumps(options), self._clock())
        hot.seats = await self.db.seats(hot.row.id)
        return self._info(hot)

    async def computer_turn(self, game_id: int) -> Optional[Update]:
        """If a computer player is awaited, its move applied and committed (see `play_for`);
        None when no computer is awaited."""
        turn = await self._computers_turn(game_id)
        return None if turn is None else await self.play_for(game_id, turn.user_id)

    async def stranded_computers(self, owns: Callable[[Optional[int]], bool] = lambda guild_id: True,
                                 grace: float = COMPUTER_GRACE) -> list[int]:
        """Active games of guilds this process `owns` (by default all) whose computer player
        has had its move to make for `grace` seconds or more, nobody leading its decision
        (R62): the process that was to play it stopped or gave up (ruling P60). Oldest first."""
        stranded: list[int] = []
        for wait in await self.db.long_waits(self._clock() - grace, COMPUTER_USER_BASE):
            if wait.game_id in stranded or not owns(wait.guild_id):
                continue
            hot = self._hot.get(wait.game_id)
            if hot is not None and (hot.row.version, hot.row.stamp) != (wait.version, wait.stamp):
                self._forget(wait.game_id)  # moved on in another process: read it afresh
            try:
                turn = await self._computers_turn(wait.game_id)
            except ServiceError as refused:  # a damaged game, a busy database: the others still go on
                log.warning("game %s left out of the computers' sweep: %s", wait.game_id, refused.message)
                continue
            if turn is not None:
                stranded.append(wait.game_id)
        return stranded

    async def _computers_turn(self, game_id: int) -> Optional[Turn]:
        """The computer player the game waits on, if any, whose decision no person leads."""
        info = await self.get(game_id)
        if info.status != "active":
            return None
        led = await self._led_by_people(game_id, info)
        return next((t for t in info.awaited if is_computer(t.user_id) and t.seat not in led), None)

    async def _led_by_people(self, game_id: int, info: GameInfo) -> set[str]:
        """Computer seats whose team decision a person may answer too: the person leads (R62)."""
        people = {s.seat for s in info.seats if not is_computer(s.user_id)}
        pending = (await self.view(game_id)).get("pending", [])
        return {seat for d in pending for seat in (d["player"], *d.get("also", []))
                if people & {d["player"], *d.get("also", [])}}

    async def play_for(self, game_id: int, user_id: int, level: Optional[str] = None) -> Update:
        """The computer's move for the user's seat (a computer player at its own level, or a
        stand-in for an absent player), chosen from that seat's view only in a worker thread,
        then submitted like any command."""
        from engine import opponent

        async def seat_view(hot: _Hot) -> tuple:
            seat = self._require_player_in_play(hot, user_id)
            options = next(json.loads(s.options) for s in hot.seats if s.user_id == user_id)
            passing = options.get("passes") and level is None and PASS in hot.ruleset.legal_commands(hot.state, seat)
            return seat, options, hot.ruleset.view_for(hot.state, seat), hot.ruleset.name, hot.state.version, passing
        seat, options, view, ruleset, version, passing = await self._in_play(game_id, seat_view)
        if passing:
            return await self.submit(game_id, user_id, PASS, version)  # a left seat passes where it may (R61)
        chosen = opponent.level(level or options.get("computer", "normal"))
        choice = await asyncio.to_thread(opponent.choose, ruleset, view, seat, chosen, game_key(game_id))
        update = await self.submit(game_id, user_id, choice.command, version)
        if choice.cut is not None:  # the safety net, not the level's budget, ended the search (R58)
            log.warning("game %s, %s at %s: %s", game_id, seat, chosen.name, opponent.cut_note(choice))
        hand = next((p.get("hand", []) for p in view.get("players", []) if p.get("seat") == seat), [])
        lines = opponent.explanation(choice, hand).splitlines()
        if lines:  # what it weighed or its rule of thumb, for the table's "Why?" (no card of its hand shown)
            info = await self.get(game_id)
            await self.set_guild_setting(info.guild_id or 0, why_key(info.id), {
                "version": update.version, "seat": seat, "level": chosen.name, "lines": lines})
        return update

    async def seat_options(self, game_id: int, user_id: int) -> tuple[dict, dict]:
        """The game's options (pack, layout ...) and the user's seat options ({} when not seated)."""
        async with self._game(game_id) as hot:
            return dict(hot.config), next((json.loads(s.options) for s in hot.seats if s.user_id == user_id), {})

    async def set_seat_options(self, game_id: int, user_id: int, **options: Any) -> dict:
        """Change the user's seat options before the start (None drops one); the seat's options."""
        async def change(hot: _Hot) -> dict:
            self._require_lobby(hot)
            row = next((s for s in hot.seats if s.user_id == user_id), None)
            if row is None:
                raise NotAPlayer("You are not in this game.")
            merged = {k: v for k, v in {**json.loads(row.options), **options}.items() if v is not None}
            await self.db.set_seat_options(hot.row.id, user_id, json.dumps(merged))
            hot.seats = await self.db.seats(hot.row.id)
            return merged
        return await self._seat_change(game_id, change)

    async def leave(self, game_id: int, user_id: int) -> GameInfo:
        """Give up a seat before the game starts."""
        async def change(hot: _Hot) -> GameInfo:
            self._require_lobby(hot)
            if hot.seat_of(user_id) is None:
                raise NotAPlayer("You are not in this game.")
            if not await self.db.remove_seat(hot.row.id, user_id):
                raise StaleWrite(f"game {hot.row.id} has no seat of {user_id} in the lobby")
            hot.seats = await self.db.seats(hot.row.id)
            return self._info(hot)
        return await self._seat_change(game_id, change)

    async def vacate(self, game_id: int, user_id: int, *, stand_in: bool = False) -> Update:
        """A player leaves a running game of three or four seats: the computer takes the
        seat over (R61). With `stand_in` it plays at normal level; otherwise the seat passes
        wherever the rules allow a pass and is played by rule of thumb (easy) elsewhere."""
        async def change(hot: _Hot) -> Update:
            seat = self._require_player_in_play(hot, user_id)
            if len(hot.seats) < 3:
                raise NotAllowed("In a game of two, leaving is conceding: use /game concede.")
            if sum(not is_computer(s.user_id) for s in hot.seats) < 2:
                raise NotAllowed("You are the last person at the table: concede or abort the game instead.")
            row = next(s for s in hot.seats if s.user_id == user_id)
            options = {**json.loads(row.options), "computer": "normal" if stand_in else "easy", "passes": not stand_in}
            name = f"{row.name} (left)"
            number = hot.ruleset.seats_for(hot.config).index(seat) + 1
            stamp = await self.db.hand_seat(hot.row.id, seat, user_id, COMPUTER_USER_BASE + number, name,
                                            json.dumps(options))
            hot.row = dataclasses.replace(hot.row, stamp=stamp)
            hot.seats = await self.db.seats(hot.row.id)
            how = "the computer stands in for the seat" if stand_in else "the seat passes where it may"
            return await self._update(hot, [f"{row.name} left the game: {how}."], [], {})
        return await self._seat_change(game_id, change)

    async def start(self, game_id: int, user_id: int) -> Update:
        """Deal the game once every seat is taken; any seated player may start it."""
        async def change(hot: _Hot) -> Update:
            self._require_lobby(hot)
            if hot.seat_of(user_id) is None and user_id != hot.row.created_by:
                raise NotAPlayer("Only a player or the game's creator can start it.")
            wanted = len(hot.ruleset.seats_for(hot.config))
            if len(hot.seats) < wanted:
                raise LobbyError(f"Waiting for players: {len(hot.seats)} of {wanted} seats taken.")
            config = {**hot.config, "players": [
                {"seat": s.seat, "name": s.name, **json.loads(s.options)} for s in hot.seats]}
            config[rules_version.KEY] = rules_version.of(hot.ruleset, config)
            try:
                state = hot.ruleset.new_game(config, hot.row.seed)
            except (RuleError, PackError, KeyError, ValueError) as error:
                raise LobbyError(f"The game cannot start: {error}") from error
            now = self._clock()
            change = GameWrite(game_id=hot.row.id, from_version=hot.row.version, from_status="lobby",
                               version=state.version, status="active",
                               state=hot.ruleset.to_json(state).decode(), at=now,
                               config=json.dumps(config))
            waits = self._rewait(hot, change, state, None, now)
            await self._commit(hot, change)
            hot.config, hot.state, hot.waits = config, state, waits
            return await self._update(hot, ["The game begins.", await self._reaction_line(hot)], ["board"], {})
        return await self._seat_change(game_id, change)

    async def abort(self, game_id: int, user_id: int, *, force: bool = False) -> GameInfo:
        """End a game without a result. Players and the creator may; `force` for moderators."""
        async def act(hot: _Hot) -> GameInfo:
            self._require_live(hot)
            if not force and hot.seat_of(user_id) is None and user_id != hot.row.created_by:
                raise NotAllowed("Only the game's players or creator can abort it.")
            change = GameWrite(game_id=hot.row.id, from_version=hot.row.version,
                               from_status=hot.row.status, version=hot.row.version, status="aborted",
                               state=hot.row.state, at=self._clock(),
                               result=json.dumps({"aborted_by": user_id}),
                               stop_waiting=list(hot.waits))
            await self._commit(hot, change)
            hot.waits = {}
            return self._info(hot)
        return await self._in_play(game_id, act)

    # ---- play -------------------------------------------------------------------------

    async def submit(self, game_id: int, user_id: int, command: str, expected_version: int) -> Update:
        """Apply `command` for the user's seat, if the game is still at `expected_version`.

        Returns once the new state and its log entry are committed.
        """
        async def act(hot: _Hot) -> Update:
            seat = self._require_player_in_play(hot, user_id)
            said = self._canonical(hot, command)
            if expected_version != hot.state.version:
                refused = _Behind if expected_version > hot.state.version else StaleVersion
                raise refused(f"The game moved on (it is now at move {hot.state.version}); "
                              "look at the table again and resend if still wanted.")
            awaited = hot.ruleset.awaited(hot.state)
            standing = hot.ruleset.standing(said)
            if seat not in awaited and not standing:
                raise NotYourDecision(f"It is not your decision; waiting for {self._who(hot, awaited)}.")
            try:
                state, events = hot.ruleset.apply(hot.state, seat, said)
            except RuleError as error:
                raise IllegalCommand(str(error), error.term) from error
            answered = not standing or (seat in awaited and hot.ruleset.legal_commands(hot.state, seat)
                                        != hot.ruleset.legal_commands(state, seat))
            now = self._clock()
            log = [LogEntry(state.version, seat, user_id, said, json.dumps(events), now)]
            passed = await self._pass_standing(hot, state, now) if answered else []
            if passed:
                state = passed[-1][0]
                log += [entry for _, entry in passed]
            every = events + [e for entry in log[1:] for e in json.loads(entry.events)]
            over = state.phase == "over"
            change = GameWrite(
                game_id=hot.row.id, from_version=hot.row.version, from_status="active",
                version=state.version, status="over" if over else "active",
                state=hot.ruleset.to_json(state).decode(), at=now,
                result=json.dumps(state.result) if over else None, log=log)
            waits = self._rewait(hot, change, state, seat if answered else None, now)  # a standing choice keeps the clock
            del state  # nothing holds a live state while the commit waits (change.state has it)
            hot.let_go()
            await self._commit(hot, change)
            hot.waits = waits
            names = hot.names()
            images = ["board"] if answered else []  # a standing choice alone changes nothing on the table
            if any(e["type"] in hot.ruleset.dice_events or e["type"] in hot.ruleset.dice_board_events for e in every):
                images.append("dice")  # the table leaves out a dice board it already shows (P56)
            lines = hot.ruleset.public_lines(every, names)
            update = await self._update(hot, lines, images,
                                  text.private_lines(every, names))
            return dataclasses.replace(update, said=text.readable(said, names),
                                       can_take_back=answered and not passed and hot.ruleset.can_take_back(events),
                                       events=text.public_events(every))
        return await self._in_play(game_id, act)

    async def _pass_standing(self, hot: _Hot, state: Any, now: float) -> list[tuple[Any, LogEntry]]:
        """The passes the players' standing reaction preferences make now, one after the
        other (a pass may open the next window): (state after it, its log entry) each.
        A window is passed only when every seat it is put to (a team's) passes it by
        preference; computer seats are left to the computer."""
        passed: list[tuple[Any, LogEntry]] = []
        users = {s.seat: s.user_id for s in hot.seats}
        chosen: dict[int, str] = {}
        for _ in range(MAX_STANDING_PASSES):
            if state.phase == "over":
                break
            asked = hot.ruleset.awaited(state)
            if not asked or any(hot.ruleset.window_asked(state, seat) is None or is_computer(users[seat])
                                for seat in asked):
                break
            for seat in asked:
                if users[seat] not in chosen:
                    chosen[users[seat]] = await self.reaction_preference(users[seat])
            if not all(reactions.passes(chosen[users[seat]], useful_answers(hot.ruleset, state, seat)) for seat in asked):
                break
            state, events = hot.ruleset.apply(state, asked[0], PASS)
            passed.append((state, LogEntry(state.version, asked[0], users[asked[0]], PASS, json.dumps(events), now)))
        return passed

    async def concede(self, game_id: int, user_id: int) -> Update:
        """The user's side gives up (in a team game, the whole team); every other seat wins."""
        async def act(hot: _Hot) -> Update:
            seat = self._require_player_in_play(hot, user_id)
            teams = {p["seat"]: p.get("team", p["seat"]) for p in hot.ruleset.view_for(hot.state, None).get("players", [])}
            side = teams.get(seat, seat)
            winners = [s.seat for s in hot.seats if s.seat != seat and teams.get(s.seat, s.seat) != side]
            result = {"winner": winners[0] if len(winners) == 1 else winners, "conceded": seat}
            change = GameWrite(game_id=hot.row.id, from_version=hot.row.version, from_status="active",
                               version=hot.row.version, status="over", state=hot.row.state,
                               at=self._clock(), result=json.dumps(result), stop_waiting=list(hot.waits))
            await self._commit(hot, change)
            hot.waits = {}
            names = hot.names()
            line = f"{names[seat]} concedes. " + ", ".join(names[w] for w in winners) + " wins."
            return await self._update(hot, [line], [], {})
        return await self._in_play(game_id, act)

    # ---- reading ------------------------------------------------------------------------

    async def get(self, game_id: int) -> GameInfo:
        """The game with this id."""
        async with self._game(game_id) as hot:
            return self._info(hot)

    async def in_channel(self, channel_id: int, thread_id: Optional[int] = None) -> GameInfo:
        """The lobby or active game in this channel (or thread)."""
        row = await self.db.live_game_in(channel_id, thread_id)
        if row is None:
            raise UnknownGame("There is no game in this channel.")
        return await self.get(row.id)

    async def last_played_in(self, channel_id: int, thread_id: Optional[int] = None) -> int:
        """The id of the game running in this channel (or thread), or else of the last one
        played there (for /game replay)."""
        game_id = await self.db.last_started_in(channel_id, thread_id)
        if game_id is None:
            raise UnknownGame("No game was played here.")
        return game_id

    async def view(self, game_id: int, user_id: Optional[int] = None) -> dict:
        """What this user may see of the game (None or a non-player: the public view)."""
        async with self._game(game_id) as hot:
            if hot.state is None:
                raise LobbyError("The game has not started yet.")
            return hot.ruleset.view_for(hot.state, hot.seat_of(user_id) if user_id is not None else None)

    @staticmethod
    def _canonical(hot: _Hot, command: Any) -> str:
        """The command's canonical text: the only form ever applied and stored."""
        if isinstance(command, str) and len(command) > MAX_COMMAND_LENGTH:
            raise MalformedCommand(f"A command is a line of 1 to {MAX_COMMAND_LENGTH} characters, like 'pass'.")
        try:
            return hot.ruleset.canonical(command)
        except RuleError as error:
            raise MalformedCommand(str(error)) from error

    async def legal_commands(self, game_id: int, user_id: int) -> tuple[int, list[str]]:
        """The version and the commands this user may send now (drives buttons)."""
        async with self._game(game_id) as hot:
            seat = self._require_player_in_play(hot, user_id)
            return hot.state.version, hot.ruleset.legal_commands(hot.state, seat)

    async def panel(self, game_id: int, user_id: int) -> Panel:
        """The user's private panel for the current decision (no commands when none is theirs)."""
        async with self._game(game_id) as hot:
            seat = self._require_player_in_play(hot, user_id)
            state, names = hot.state, hot.names()
            commands = hot.ruleset.legal_commands(state, seat)
            view = hot.ruleset.view_for(state, seat)
            odds = {}
            for index, command in enumerate(commands):
                chances = hot.ruleset.preview(state, seat, command)
                if chances is not None:
                    odds[index] = text.odds_text(chances)
            decision = _decision_of(view, seat)
            hand = next((p.get("hand") for p in view.get("players", []) if p["seat"] == seat), None)
            teammates = {names.get(p["seat"], p["seat"]): [names.get(card, card) for card in p["hand"]]
                         for p in view.get("players", []) if p["seat"] != seat and p.get("hand") is not None}
            return Panel(version=state.version, seat=seat,
                         question=text.question(decision, names) if decision else "",
                         commands=commands, labels=[text.readable(c, names) for c in commands], odds=odds,
                         hand=None if hand is None else [names.get(card, card) for card in hand], names=names,
                         standing=hot.ruleset.standing_choices(state, seat),
                         window=hot.ruleset.window_asked(state, seat), teammates=teammates)

    async def asked(self, game_id: int, user_id: int) -> str:
        """The decision the game waits on from the user, put as a question ("" when none)."""
        async with self._game(game_id) as hot:
            seat = self._require_player_in_play(hot, user_id)
            decision = _decision_of(hot.ruleset.view_for(hot.state, seat), seat)
            return text.question(decision, hot.names()) if decision else ""

    async def take_back(self, game_id: int, user_id: int, version: int) -> Update:
        """Take back the last action of the game at `version`, with the consent of `user_id`,
        another player: only an action that rolled no die and revealed or drew no hidden
        card (R42). The log keeps the action and the take-back."""
        async def act(hot: _Hot) -> Update:
            seat = self._require_player_in_play(hot, user_id)
            if version != hot.state.version:
                refused = _Behind if version > hot.state.version else StaleVersion
                raise refused("The game moved on since the request; it can no longer be taken back.")
            log = await self.db.log(hot.row.id)
            last = log[-1] if log else None
            if last is None or last.command == TAKE_BACK or last.seat is None:
                raise NotAllowed("There is no action to take back.")
            if last.seat == seat:
                raise NotAllowed("Another player must agree to take your action back.")
            if not hot.ruleset.can_take_back(json.loads(last.events)):
                raise NotAllowed("That action rolled dice or showed or drew a card: it cannot be taken back.")
            config = json.loads(hot.row.config)
            commands = [(e.seat, e.command) for e in log]
            try:
                before = await asyncio.to_thread(before_last, hot.ruleset, config, hot.row.seed, commands, hot.state)
            except RuleError as error:
                raise NotAllowed(str(error)) from error
            state = taken_back(before, hot.state.version + 1)
            names = hot.names()
            events = [{"type": "taken_back", "seat": last.seat, "command": text.readable(last.command, names),
                       "by": seat}]
            now = self._clock()
            change = GameWrite(
                game_id=hot.row.id, from_version=hot.row.version, from_status="active", version=state.version,
                status="active", state=hot.ruleset.to_json(state).decode(), at=now,
                log=[LogEntry(state.version, seat, user_id, TAKE_BACK, json.dumps(events), now)])
            waits = self._rewait(hot, change, state, None, now)
            hot.let_go()
            await self._commit(hot, change)
            hot.waits = waits
            lines = [text.public_line(e, names) for e in events]
            return dataclasses.replace(await self._update(hot, lines, ["board"], {}), events=events)
        return await self._in_play(game_id, act)

    async def history(self, game_id: int) -> list[Moment]:
        """Every accepted command as anyone may read it, oldest first (card names, player names)."""
        async with self._game(game_id) as hot:
            names = hot.names()
            entries = await self.db.log(hot.row.id)
        return [Moment(e.seq, e.seat, e.at, hot.ruleset.public_lines(json.loads(e.events), names)) for e in entries]

    async def catch_up(self, game_id: int, user_id: int, after: float = CATCH_UP_AFTER) -> list[str]:
        """What the others did since the user's last action, when that was at least `after`
        seconds ago (public lines, oldest first); [] otherwise."""
        moments = await self.history(game_id)
        async with self._game(game_id) as hot:
            seat = hot.seat_of(user_id)
        mine = [m for m in moments if m.seat == seat]
        if seat is None or not mine or self._clock() - mine[-1].at < after:
            return []
        return [line for m in moments if m.seq > mine[-1].seq for line in m.lines]

    async def log(self, game_id: int) -> list[LogEntry]:
        """The accepted commands of a game, oldest first."""
        async with self._game(game_id) as hot:
            return await self.db.log(hot.row.id)

    async def recent_events(self, game_id: int, enough: Callable[[list[str]], bool]) -> list[str]:
        """The events (JSON text, one item per log entry, oldest first) of the game's newest
        entries: from memory, the entries this process wrote since it loaded the game (at most
        LOG_TAIL), when `enough` says they reach back far enough; else the whole log's."""
        async with self._game(game_id) as hot:
            if enough(list(hot.tail)):
                return list(hot.tail)
            return [entry.events for entry in await self.db.log(hot.row.id)]

    async def awaiting(self, user_id: int) -> list[AwaitedGame]:
        """Active games in any guild waiting on this user, longest waiting first."""
        check_ids(user_id=user_id)
        return await self.db.awaited_games(user_id)

    async def due_reminders(self, now: Optional[float] = None) -> list[DueReminder]:
        """Reminders to send now (to the user, about the game and seat)."""
        return await self.db.due_reminders(self._clock() if now is None else now)

    async def claim_clocks(self, names: list[str], ttl: float) -> bool:
        """Take or renew the leases `names` for `ttl` seconds, all or none: True if this
        service now holds every one of them, so runs what they guard (a clock) and no
        other process sharing the database does."""
        now, taken = self._clock(), []
        for name in sorted(names):
            if not await self.db.claim_lease(name, self.holder, now, ttl):
                for held in taken:
                    await self.db.release_lease(held, self.holder)
                return False
            taken.append(name)
        return True

    async def reminders_sent(self, ids: list[int]) -> None:
        """Record that these reminders went out, so they are not sent again."""
        await self.db.mark_reminders_sent(ids, self._clock())

    async def reminders_failed(self, ids: list[int], reason: str, retry_after: Optional[float] = None) -> None:
        """Record that these reminders could not be delivered: dropped for good, or (with
        `retry_after` seconds) due again later."""
        now = self._clock()
        await self.db.mark_reminders_failed(ids, reason, now, None if retry_after is None else now + retry_after)

    async def reminder_attempts(self, ids: list[int]) -> dict[int, tuple[int, Optional[str], Optional[float]]]:
        """id -> (failed attempts, last failure, when it was sent or dropped) of these reminders."""
        return await self.db.reminder_attempts(ids)

    # ---- settings -------------------------------------------------------------------------

    def reading_once(self) -> contextlib.AbstractContextManager[None]:
        """The settings read within the block (one interaction) are read at most once
        (engine.service.reads)."""
        return reads.once()

    async def read_ahead(self, game_id: int, guild_keys: tuple[str, ...] = ()) -> None:
        """Within `reading_once`: the settings and vacations of the game's players and these
        settings of its guild, in one statement, for the reads that follow."""
        info = await self.get(game_id)
        try:
            await reads.read_ahead(self.db, [s.user_id for s in info.seats if not is_computer(s.user_id)],
                                   info.guild_id or 0, guild_keys)
        except Exception as error:
            if is_busy(error):
                raise StorageBusy(BUSY) from error
            raise

    async def guild_setting(self, guild_id: int, key: str, fresh: bool = False) -> Any:
        """A guild's setting, or None (`fresh`: from the database, even if this interaction read it)."""
        value = await reads.guild_setting(self.db, guild_id, key, fresh)
        return None if value is None else json.loads(value)

    async def set_guild_setting(self, guild_id: int, key: str, value: Any) -> None:
        """Set a guild's setting (None clears it)."""
        stored = None if value is None else json.dumps(value)
        await self.db.set_guild_setting(guild_id, key, stored)
        reads.wrote_guild(guild_id, key, stored)

    async def user_setting(self, user_id: int, key: str) -> Any:
        """A user's setting, or None."""
        value = await reads.user_setting(self.db, user_id, key)
        return None if value is None else json.loads(value)

    async def set_user_setting(self, user_id: int, key: str, value: Any) -> None:
        """Set a user's setting (None clears it)."""
        stored = None if value is None else json.dumps(value)
        await self.db.set_user_setting(user_id, key, stored)
        reads.wrote_user(user_id, key, stored)

    async def reaction_preference(self, user_id: int) -> str:
        """The user's standing reaction preference (engine.service.reactions; the default if unset)."""
        return reactions.preference(await self.user_setting(user_id, reactions.SETTING))

    async def reaction_line(self, game_id: int) -> str:
        """What every person at the table chose to be asked (their standing reaction preference)."""
        async with self._game(game_id) as hot:
            return await self._reaction_line(hot)

    async def _reaction_line(self, hot: _Hot) -> str:
        people = [s for s in hot.seats if not is_computer(s.user_id)]
        shown = [f"{s.name} {reactions.SHOWN[await self.reaction_preference(s.user_id)]}" for s in people]
        return "Reactions: " + "; ".join(shown) + "."

    async def set_reaction_preference(self, user_id: int, chosen: str) -> None:
        """Keep the user's standing reaction preference for every game, this one and later ones."""
        if chosen not in reactions.CHOICES:
            raise NotAllowed(f"Choose one of: {', '.join(reactions.CHOICES)}.")
        await self.set_user_setting(user_id, reactions.SETTING, None if chosen == reactions.DEFAULT else chosen)

    # ---- helpers ----------------------------------------------------------------------------

    async def _commit(self, hot: _Hot, change: GameWrite) -> None:
        change.from_stamp = hot.row.stamp
        try:
            await self.db.write(change)
        except StaleWrite as error:
            self._forget(hot.row.id)  # somebody else wrote this game: reload next time
            raise _Behind("The game moved on; look at the table again.") from error
        except BaseException:
            self._forget(hot.row.id)  # the write may or may not have landed
            raise
        hot.tail.extend(entry.events for entry in change.log)
        hot.row = dataclasses.replace(
            hot.row, version=change.version, status=change.status, state=change.state,
            result=change.result or hot.row.result, config=change.config or hot.row.config,
            updated_at=change.at)

    def _rewait(self, hot: _Hot, change: GameWrite, state: Any, actor: Optional[str], now: float) -> dict[str, Wait]:
        """Fill in who stops and starts being awaited; return the new waits."""
        awaited = [] if state.phase == "over" else hot.ruleset.awaited(state)
        change.stop_waiting = [s for s in hot.waits if s not in awaited or s == actor]
        waits = {s: w for s, w in hot.waits.items() if s not in change.stop_waiting}
        limit, remind = hot.row.turn_limit, hot.row.remind_after
        for seat in awaited:
            if seat in waits:
                continue
            wait = Wait(seat, now, now + limit if limit else None)
            waits[seat] = wait
            change.start_waiting.append(wait)
            if remind and (wait.deadline is None or now + remind < wait.deadline):
                change.reminders.append(Reminder(seat, "nudge", now + remind))
            if wait.deadline is not None:
                change.reminders.append(Reminder(seat, "deadline", wait.deadline))
        return waits

    def _require_lobby(self, hot: _Hot) -> None:
        if hot.row.status != "lobby":
            raise LobbyError("The game has already started." if hot.row.status == "active"
                             else "The game is over.")

    def _require_live(self, hot: _Hot) -> None:
        if hot.row.status in ("over", "aborted"):
            raise GameOver("The game is already over.")

    def _require_player_in_play(self, hot: _Hot, user_id: int) -> str:
        self._require_live(hot)
        seat = hot.seat_of(user_id)
        if seat is None:
            raise NotAPlayer("You are not a player in this game.")
        if hot.row.status == "lobby":
            raise LobbyError("The game has not started yet.")
        return seat

    def _who(self, hot: _Hot, seats: list[str]) -> str:
        names = hot.names()
        return ", ".join(names.get(s, s) for s in seats) or "nobody"

    def _turns(self, hot: _Hot) -> list[Turn]:
        users = {s.seat: s for s in hot.seats}
        return [Turn(w.seat, users[w.seat].user_id, users[w.seat].name, w.since, w.deadline)
                for w in sorted(hot.waits.values(), key=lambda w: w.seat)]

    def _info(self, hot: _Hot) -> GameInfo:
        r = hot.row
        return GameInfo(r.id, r.ruleset, r.status, r.version, r.guild_id, r.channel_id, r.thread_id,
                        r.created_by, [Seat(s.seat, s.user_id, s.name) for s in hot.seats],
                        self._turns(hot), json.loads(r.result) if r.result else None)

    async def _update(self, hot: _Hot, public: list[str], images: list[str],
                      private: dict[str, list[str]]) -> Update:
        r = hot.row
        live = r.status == "active" and hot.state is not None
        turn = hot.ruleset.turn_of(hot.state) if live else None
        return Update(r.id, r.version, r.status, public, images, private, self._turns(hot),
                      {s.seat: s.user_id for s in hot.seats}, json.loads(r.result) if r.result else None,
                      turn=turn, called=await self._called(hot) if live else None)

    async def _called(self, hot: _Hot) -> Optional[list[str]]:
        """The awaited seats the table calls, when a decision put to several seats calls only
        some of them (engine.service.team_calls); None: every awaited seat."""
        awaited = hot.ruleset.awaited(hot.state)
        if len(awaited) < 2:
            return None
        users = {s.seat: s.user_id for s in hot.seats}
        people = {seat for seat, user in users.items() if not is_computer(user)}
        view = hot.ruleset.view_for(hot.state, None)
        if not any(d.get("also") for d in view.get("pending", [])):  # no team decision: everyone is called
            return None
        chosen = {seat: await self.reaction_preference(users[seat]) for seat in people.intersection(awaited)}
        return team_calls.called_seats(view, people, lambda seat: useful_answers(hot.ruleset, hot.state, seat),
                                       chosen.__getitem__, await self._chose_last(hot, view))

    async def _chose_last(self, hot: _Hot, view: dict) -> Optional[str]:
        """The seat that answered the team's previous choice of the kind asked now (a
        team's choice of activation or placing, or any set-up choice for a set-up choice;
        engine.service.team_calls), if one is asked (of activation or placing: with
        teammates tied for most left), and that answer is among the game's last
        RECENT_CHOICES log entries."""
        decision = team_calls.team_choice(view)
        if decision is None:
            return None
        seats = [decision["player"], *decision["also"]]
        verbs = team_calls.SET_UP.get(decision["kind"])
        if verbs is None:
            left = [team_calls.left_for(view, decision, seat) for seat in seats]
            if left.count(max(left)) < 2:  # no tie to break: the log is not read
                return None
            verbs = team_calls.CHOICES[decision["kind"]]
        entries = await self.db.log(hot.row.id, after=max(0, hot.row.version - RECENT_CHOICES))
        return next((e.seat for e in reversed(entries) if e.seat in seats and e.command.split()[0] in verbs), None)
