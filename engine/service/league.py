"""The async league desk: loads an event, applies one league action, stores it.

Discord and the console call `LeagueService`; neither touches league rules or SQL. Each
event is changed under its own lock, on a copy: a refused action raises a ServiceError
and stores nothing. Organiser actions need the server's organiser role (or the
server's administrator permission, which the caller passes in as `Actor.admin`).
"""
from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import AsyncIterator, Callable, Optional

import msgspec

from db import Database, StaleWrite
from db.league_store import LeagueRow, LeagueStore
from db.rating_store import Season
from engine.errors import RuleError
from engine.league import event as league
from engine.league import arena_table, clock, export, results, rounds, standings
from engine.league.arena import parse_fleet
from engine.league.arena_table import battle_bonus
from engine.league.arena import Battle
from engine.league.builds import Build
from engine.league.event import Claim, Event, Game
from engine.league.profiles import PROFILES
from engine.service.errors import IllegalCommand, NotAllowed, StaleVersion, UnknownGame
from engine.service.rating_book import RatingBook, Shown

log = logging.getLogger("ready_room.league")

ORGANISER_ROLE = "league_organiser_role"
REMIND_BEFORE = 24 * 3600.0
SAVE_ATTEMPTS = 3  # loads and saves of one action when other processes keep storing the event


@dataclass(frozen=True)
class Actor:
    """Who is asking: a Discord user, their role ids in the server, and admin rights."""

    user_id: int
    name: str = ""
    roles: frozenset[int] = frozenset()
    admin: bool = False


@dataclass(frozen=True)
class LeagueUpdate:
    """What an accepted action changed: the event after it, and lines to post."""

    event_id: int
    version: int
    event: Event
    public: list[str] = field(default_factory=list)
    channel_id: Optional[int] = None
    table: Optional[int] = None  # the Arena: the table the update is about
    battle: Optional[Battle] = None  # the Arena: its state after the action
    events: list[dict] = field(default_factory=list)  # the Arena: what the action did
    completed: Optional[int] = None  # the round this action made complete (its last result came in), if one


@dataclass(frozen=True)
class Reminder:
    """A pairing whose result is still missing as its deadline nears."""

    event_id: int
    round: int
    table: int
    players: tuple[int, int]
    deadline: float
    thread_id: Optional[int]
    channel_id: Optional[int]


@dataclass(frozen=True)
class Dispute:
    """A disputed game for the organisers: both players' claims, each with its digest."""

    round: int
    table: int
    claims: tuple[tuple[int, str, str, str], ...]  # (user id, name, claim in words, claim digest)


@dataclass(frozen=True)
class Pairing:
    """A player's game in the current round, ready to be played as a bot game."""

    round: int
    table: int
    players: tuple[int, int]
    names: tuple[str, str]


class LeagueService:
    """Every league of one database."""

    def __init__(self, database: Database, *, clock: Callable[[], float] = time.time,
                 remind_before: float = REMIND_BEFORE):
        self.db = database
        self.store = LeagueStore(database)
        self.ratings = RatingBook(database, clock=clock)
        self._clock = clock
        self._remind_before = remind_before
        self._locks: dict[int, asyncio.Lock] = {}

    def now(self) -> float:
        """The desk's clock (the bot's, or a test's hand-moved one)."""
        return self._clock()

    # ---- organisers ---------------------------------------------------------------------

    async def set_organiser_role(self, guild_id: int, actor: Actor, role_id: Optional[int]) -> None:
        """Choose the server role whose members run events (administrators only)."""
        if not actor.admin:
            raise NotAllowed("Only a server administrator can choose the organiser role.")
        await self.db.set_guild_setting(guild_id, ORGANISER_ROLE, None if role_id is None else json.dumps(role_id))

    async def is_organiser(self, guild_id: int, actor: Actor) -> bool:
        """Administrators and members of the server's organiser role."""
        if actor.admin:
            return True
        role = await self.db.guild_setting(guild_id, ORGANISER_ROLE)
        return role is not None and json.loads(role) in actor.roles

    async def _require_organiser(self, guild_id: int, actor: Actor) -> None:
        if not await self.is_organiser(guild_id, actor):
            raise NotAllowed("Only the server's event organisers can do that.")

    # ---- loading and saving -------------------------------------------------------------

    async def create_event(self, guild_id: int, actor: Actor, name: str, *, channel_id: Optional[int] = None,
                           profile: str = "op", seed: Optional[int] = None, **options) -> LeagueUpdate:
        """A draft event; `options` are the engine's event settings (kind, rounds_planned ...)."""
        await self._require_organiser(guild_id, actor)
        if profile not in PROFILES:
            raise IllegalCommand(f"Unknown scoring profile '{profile}'. Known: {', '.join(PROFILES)}.")
        seed = secrets.randbits(62) if seed is None else seed
        try:
            event = league.new_event("", name, seed, profile=PROFILES[profile], **options)
        except RuleError as error:
            raise IllegalCommand(str(error)) from error
        now = self._clock()
        event_id = await self.store.create(guild_id=guild_id, channel_id=channel_id, name=name,
                                           status=event.status, state="{}", created_by=actor.user_id, at=now)
        event.id = str(event_id)
        version = await self.store.save(event_id, 0, status=event.status,
                                        state=league.to_json(event).decode(), next_due=None, at=now)
        return LeagueUpdate(event_id, version, event, [f"Event #{event_id} '{name}' created."], channel_id)

    async def get(self, event_id: int) -> tuple[LeagueRow, Event]:
        """The stored row and the event."""
        row = await self.store.get(event_id)
        if row is None:
            raise UnknownGame(f"There is no event #{event_id}.")
        return row, league.from_json(row.state)

    async def events(self, guild_id: int) -> list[LeagueRow]:
        """A server's events, newest first."""
        return await self.store.in_guild(guild_id)

    @contextlib.asynccontextmanager
    async def _locked(self, event_id: int) -> AsyncIterator[None]:
        lock = self._locks.setdefault(event_id, asyncio.Lock())
        async with lock:
            yield

    async def _apply(self, event_id: int, action: Callable[[Event, int], list[str]],
                     actor: Optional[Actor] = None) -> LeagueUpdate:
        """Run `action(event, now)` on a copy under the event's lock and store the result. If
        another process stored the event meanwhile, the action is applied again to its
        version (its checks with it); after SAVE_ATTEMPTS such conflicts it is refused."""
        async with self._locked(event_id):
            for _attempt in range(SAVE_ATTEMPTS):
                row, event = await self.get(event_id)
                if actor is not None:
                    await self._require_organiser(row.guild_id, actor)
                now = self._clock()
                complete = rounds.complete_rounds(event)
                try:
                    public = action(event, int(now))
                except RuleError as error:
                    raise IllegalCommand(str(error)) from error
                try:
                    version = await self.store.save(event_id, row.version, status=event.status,
                                                    state=league.to_json(event).decode(),
                                                    next_due=self._next_due(event, now), at=now)
                except StaleWrite:
                    log.info("event #%s changed in another process meanwhile; applying again", event_id)
                    continue
                await self._rate(event_id, row.guild_id, version, event)
                completed = min(rounds.complete_rounds(event) - complete, default=None)
                return LeagueUpdate(event_id, version, event, public, row.channel_id, completed=completed)
            raise StaleVersion("The event kept changing while this was being stored (another process is "
                               "writing it); nothing was changed. Try again in a moment.")

    async def _rate(self, event_id: int, guild_id: int, version: int, event: Event) -> None:
        """Take the event's results into the ratings; a failure here leaves it to the next
        settling (the event is stored, and its version says it was not taken in)."""
        try:
            await self.ratings.sync_event(event_id, guild_id, version, event)
        except Exception:  # noqa: BLE001 - the league action itself is stored and stands
            log.warning("event #%s: ratings not updated yet; the next settling takes it in", event_id, exc_info=True)

    def _next_due(self, event: Event, now: float) -> Optional[float]:
        """When the event next needs the clock: the reminder before a deadline, then the deadline."""
        if event.status != "running" or not event.live_rounds():
            return None
        rnd = event.live_rounds()[-1]
        if rnd.deadline is None:
            return clock.next_call(event, rnd)
        if rnd.status == "complete":
            return None
        if not any(g.status == "pending" for g in rnd.games):
            return None
        remind = rnd.deadline - self._remind_before
        return remind if now < remind else float(rnd.deadline)

    # ---- organiser actions --------------------------------------------------------------

    async def open(self, event_id: int, actor: Actor) -> LeagueUpdate:
        """Open sign-up."""
        def act(event, now):
            league.open_registration(event, str(actor.user_id), now)
            return [f"Sign-up for '{event.name}' is open."]
        return await self._apply(event_id, act, actor)

    async def start(self, event_id: int, actor: Actor) -> LeagueUpdate:
        """Close sign-up and lock every build."""
        def act(event, now):
            league.start(event, str(actor.user_id), now)
            return [f"'{event.name}' has started with {len(event.players)} players; builds are locked."]
        return await self._apply(event_id, act, actor)

    async def preview_round(self, event_id: int, actor: Actor) -> LeagueUpdate:
        """Pair the next round for the organisers to check; the explainer comes with it."""
        def act(event, now):
            rnd = rounds.pair_next_round(event, str(actor.user_id), now)
            return [f"Preview of round {rnd.number}:", *pairing_lines(event, rnd), *rnd.notes]
        return await self._apply(event_id, act, actor)

    async def publish_round(self, event_id: int, actor: Actor) -> LeagueUpdate:
        """Publish the previewed round; a one-day round's clock starts."""
        def act(event, now):
            rnd = rounds.publish_round(event, str(actor.user_id), now)
            when = f" Deadline: <t:{rnd.deadline}:f>." if rnd.deadline else ""
            end = clock.round_end(event, rnd)
            if end is not None:
                when += f" Round clock: {event.time_limit_minutes} minutes, time is called <t:{end}:R> (<t:{end}:t>)."
            return [f"Round {rnd.number} is published.{when}", *pairing_lines(event, rnd)]
        return await self._apply(event_id, act, actor)

    async def adjust_clock(self, event_id: int, actor: Actor, action: str, minutes: int = 0) -> LeagueUpdate:
        """Pause, resume or extend the current round's clock (ruling L39)."""
        def act(event, now):
            live = event.live_rounds()
            if not live:
                raise RuleError("No round has been published yet.")
            rnd = live[-1]
            if action == "pause":
                clock.pause(event, rnd, str(actor.user_id), now)
            elif action == "resume":
                clock.resume(event, rnd, str(actor.user_id), now)
            elif action == "extend":
                clock.extend(event, rnd, minutes, str(actor.user_id), now)
            else:
                raise RuleError("The clock can be paused, resumed or extended.")
            return [f"Round {rnd.number}: {clock_words(event, rnd, now)}"]
        return await self._apply(event_id, act, actor)

    async def resolve(self, event_id: int, actor: Actor, round_number: int, table: int,
                      claim: Claim, note: str = "") -> LeagueUpdate:
        """Set or fix a result; kept in the audit trail."""
        def act(event, now):
            results.resolve(event, str(actor.user_id), now, round_number, table, claim, note)
            return [f"Round {round_number} table {table}: {results.describe(event, claim)} (organiser)."]
        return await self._apply(event_id, act, actor)

    async def resolve_score(self, event_id: int, actor: Actor, round_number: int, table: int,
                            winner: Optional[int], winner_points: int, loser_points: int,
                            not_played: bool = False, note: str = "", *, forfeit: bool = False,
                            winner_bonus: int = 0, loser_bonus: int = 0) -> LeagueUpdate:
        """`resolve`, the result given in the words of a report (see `claim_from`); with
        `forfeit` the winner wins by forfeit (a no-show), without points."""
        _row, event = await self.get(event_id)
        claim = claim_from(event, game_at(event, round_number, table), winner, winner_points, loser_points,
                           not_played, forfeit=forfeit, winner_bonus=winner_bonus, loser_bonus=loser_bonus)
        return await self.resolve(event_id, actor, round_number, table, claim, note)

    async def cancel_round(self, event_id: int, actor: Actor) -> LeagueUpdate:
        """Take back a published round nobody has reported in, to pair it again."""
        def act(event, now):
            rnd = rounds.cancel_round(event, str(actor.user_id), now)
            return [f"Round {rnd.number} is cancelled; its pairings no longer stand. It will be paired again."]
        return await self._apply(event_id, act, actor)

    async def repair_round(self, event_id: int, actor: Actor) -> LeagueUpdate:
        """Pair the latest round again (a published one nobody reported in is cancelled first)."""
        def act(event, now):
            rnd = rounds.repair_round(event, str(actor.user_id), now)
            return [f"Round {rnd.number} paired again (a preview: publish it when it is right):",
                    *pairing_lines(event, rnd), *rnd.notes]
        return await self._apply(event_id, act, actor)

    async def readmit(self, event_id: int, actor: Actor, user_id: int) -> LeagueUpdate:
        """An organiser takes back a player's drop."""
        def act(event, now):
            first = league.readmit(event, str(user_id), str(actor.user_id), now)
            return [f"{event.players[str(user_id)].name} is back in the event from round {first}."]
        return await self._apply(event_id, act, actor)

    async def swap_players(self, event_id: int, actor: Actor, first: int, second: int,
                           note: str = "", confirm: bool = False) -> LeagueUpdate:
        """Swap two players between tables of the round being paired or played; a rematch or a
        second bye needs `confirm` (ruling L42)."""
        def act(event, now):
            rnd = rounds.swap_players(event, str(actor.user_id), now, str(first), str(second), note, confirm)
            status = "preview" if rnd.status == "preview" else "round"
            return [f"Round {rnd.number} {status} changed by hand:", *pairing_lines(event, rnd), *rnd.notes]
        return await self._apply(event_id, act, actor)

    async def accept_claim(self, event_id: int, actor: Actor, round_number: int, table: int, user_id: int,
                           digest: str, note: str = "") -> LeagueUpdate:
        """Settle a dispute with one player's claim, as long as it is still the claim shown (`digest`)."""
        def act(event, now):
            game = game_at(event, round_number, table)
            claim = game.claims.get(str(user_id))
            if game.status != "disputed" or claim is None:
                raise RuleError(f"Round {round_number} table {table} is not in dispute any more.")
            if claim_digest(claim) != digest:
                raise RuleError("That claim has changed since it was shown; list the disputes again.")
            results.resolve(event, str(actor.user_id), now, round_number, table, claim,
                            note or f"{event.players[str(user_id)].name}'s claim accepted")
            return [f"Round {round_number} table {table}: {results.describe(event, claim)} (organiser)."]
        return await self._apply(event_id, act, actor)

    async def disputes(self, event_id: int, actor: Actor) -> tuple[Event, list[Dispute]]:
        """The organisers' queue with both claims of each disputed game."""
        row, event = await self.get(event_id)
        await self._require_organiser(row.guild_id, actor)
        queue = []
        for rnd, game in results.disputes(event):
            queue.append(Dispute(rnd.number, game.table, tuple(
                (int(p), event.players[p].name, results.describe(event, game.claims[p]), claim_digest(game.claims[p]))
                for p in game.players)))
        return event, queue

    async def audit(self, event_id: int, actor: Actor) -> list[str]:
        """The audit trail, oldest first, for the organisers."""
        row, event = await self.get(event_id)
        await self._require_organiser(row.guild_id, actor)
        who = lambda a: f"<@{a}>" if a.isdigit() else a  # noqa: E731
        return [f"<t:{e.at}:f> {who(e.actor)} {e.action}" + (f": {e.detail}" if e.detail else "") for e in event.audit]

    async def drop_player(self, event_id: int, actor: Actor, user_id: int) -> LeagueUpdate:
        """An organiser drops a player."""
        def act(event, now):
            league.drop(event, str(user_id), str(actor.user_id), now)
            return [f"{event.players[str(user_id)].name} has dropped."]
        return await self._apply(event_id, act, actor)

    async def join_late(self, event_id: int, actor: Actor, user_id: int, name: str, build: dict) -> LeagueUpdate:
        """An organiser adds a late player with their build."""
        sheet = _build(build)

        def act(event, now):
            first = league.join_late(event, str(user_id), name, sheet, str(actor.user_id), now)
            return [f"{name} joins from round {first}."]
        return await self._apply(event_id, act, actor)

    async def close(self, event_id: int, actor: Actor) -> LeagueUpdate:
        """End the event; the final standings go out."""
        def act(event, now):
            league.close(event, str(actor.user_id), now)
            return [f"'{event.name}' is closed. Final standings:", *standing_lines(event)]
        return await self._apply(event_id, act, actor)

    # ---- player actions -----------------------------------------------------------------

    async def register(self, event_id: int, user_id: int, name: str) -> LeagueUpdate:
        """Sign up (or change the name shown)."""
        def act(event, now):
            league.register(event, str(user_id), name)
            return [f"{name} is signed up."]
        return await self._apply(event_id, act)

    async def withdraw(self, event_id: int, user_id: int) -> LeagueUpdate:
        """Leave before the event starts."""
        def act(event, now):
            name = event.players[str(user_id)].name if str(user_id) in event.players else ""
            league.withdraw(event, str(user_id))
            return [f"{name} has withdrawn."]
        return await self._apply(event_id, act)

    async def submit_build(self, event_id: int, user_id: int, build: dict) -> LeagueUpdate:
        """Register a build sheet (plain data: kind, entries, resource)."""
        sheet = _build(build)

        def act(event, now):
            league.submit_build(event, str(user_id), sheet, now)
            return [f"Build registered: {sheet.total} points, hash {sheet.digest()}."]
        return await self._apply(event_id, act)

    async def verify_build(self, event_id: int, user_id: int, sheet: str | dict) -> LeagueUpdate:
        """Sign off the opponent's locked build before this round's game: by its hash, or by
        the sheet they showed (plain data, compared with the locked hash)."""
        shown = _build(sheet) if isinstance(sheet, dict) else sheet

        def act(event, now):
            game = results.verify_build(event, str(user_id), shown, now)
            opponent = event.players[game.opponent(str(user_id))].name
            return [f"{event.players[str(user_id)].name} signed off {opponent}'s build ({game.verified[str(user_id)]})."]
        return await self._apply(event_id, act)

    async def opponent_build(self, event_id: int, user_id: int) -> tuple[str, Build, str]:
        """The opponent's name, locked build and hash, for the user to check before this round's
        game; refused if the stored sheet no longer has its locked hash (nothing stored)."""
        _row, event = await self.get(event_id)
        live = event.live_rounds()
        game = live[-1].game_of(str(user_id)) if live else None
        if game is None:
            raise IllegalCommand("You have no game in this round.")
        opponent = event.players[game.opponent(str(user_id))]
        try:
            return opponent.name, league.locked_build(event, opponent.id), opponent.build_hash
        except RuleError as error:
            raise IllegalCommand(str(error)) from error

    async def report(self, event_id: int, user_id: int, claim: Claim) -> LeagueUpdate:
        """Report this round's result; matching reports confirm it, different ones go to organisers."""
        def act(event, now):
            game = results.report(event, str(user_id), claim, now)
            line = f"Table {game.table}: {results.describe(event, claim)}"
            if game.status == "final":
                return [line + " (confirmed by both players)."]
            if game.status == "disputed":
                a, b = game.players
                return [f"Table {game.table}: the reports differ; the organisers will decide.",
                        f"{event.players[a].name}: {results.describe(event, game.claims[a])}",
                        f"{event.players[b].name}: {results.describe(event, game.claims[b])}"]
            return [line + " (waiting for the opponent's report)."]
        return await self._apply(event_id, act)

    async def report_score(self, event_id: int, user_id: int, winner: Optional[int], winner_points: int,
                           loser_points: int, not_played: bool = False, winner_bonus: int = 0,
                           loser_bonus: int = 0) -> LeagueUpdate:
        """`report`, the result given in the words of a report (see `claim_from`)."""
        _row, event = await self.get(event_id)
        live = event.live_rounds()
        game = live[-1].game_of(str(user_id)) if live else None
        named = None if winner is None else str(winner)
        elsewhere = game is not None and named is not None and live[-1].game_of(named) not in (None, game)
        if game is None or elsewhere:  # not the reporter's game: `report` refuses it and says why
            return await self.report(event_id, user_id, Claim(outcome="played", winner=named))
        return await self.report(event_id, user_id, claim_from(
            event, game, winner, winner_points, loser_points, not_played, winner_bonus=winner_bonus,
            loser_bonus=loser_bonus))

    async def drop_self(self, event_id: int, user_id: int) -> LeagueUpdate:
        """A player drops out; past games still count."""
        def act(event, now):
            league.drop(event, str(user_id), str(user_id), now)
            return [f"{event.players[str(user_id)].name} has dropped."]
        return await self._apply(event_id, act)

    # ---- the Arena's Captains' Battle ------------------------------------------------------

    async def arena_captains(self, event_id: int, user_id: int, text: str) -> LeagueUpdate:
        """Name your captains for the Arena at your table ("Kirk 8, Sulu 5")."""
        def act(event, now):
            game = arena_table.declare_captains(event, str(user_id), parse_fleet(text), now)
            lines = [f"Table {game.table}: {event.players[str(user_id)].name} names the captains "
                     + ", ".join(f"{n} (skill {s})" for n, s in game.captains[str(user_id)]) + "."]
            if game.battle is not None:
                lines += [f"The Arena begins: {event.players[game.battle.initiative].name} has initiative.",
                          *arena_lines(event, game.battle, [])]
            return lines, game, []
        return await self._arena(event_id, act)

    async def arena(self, event_id: int, user_id: int, command: str) -> LeagueUpdate:
        """One Arena command at your table (gather, lost, end, send, attack, assign)."""
        def act(event, now):
            game, events = arena_table.arena_command(event, str(user_id), command, now)
            return arena_lines(event, game.battle, events), game, events
        return await self._arena(event_id, act)

    async def _arena(self, event_id: int, act: Callable[[Event, int], tuple[list[str], Game, list[dict]]]) -> LeagueUpdate:
        """`_apply` for an Arena action, the table's battle and events added to the update."""
        found: dict = {}

        def action(event, now):
            lines, game, events = act(event, now)
            found.update(table=game.table, battle=game.battle, events=events)
            return lines
        return dataclasses.replace(await self._apply(event_id, action), **found)

    # ---- bot-run games -----------------------------------------------------------------

    async def pairing_to_play(self, event_id: int, user_id: int) -> Pairing:
        """The user's pending game this round, checked to be playable as a bot game (nothing stored)."""
        _row, event = await self.get(event_id)
        if event.profile.tiebreak != "mission_points":
            raise IllegalCommand("Bot games report mission points; this event scores Fleet Points, "
                                 "so play at the table and report with /league report.")
        try:
            rnd = rounds.current_round(event)
        except RuleError as error:
            raise IllegalCommand(str(error)) from error
        game = rnd.game_of(str(user_id))
        if game is None or game.status == "final":
            raise IllegalCommand(f"You have no game waiting for a result in round {rnd.number}.")
        if game.linked_game is not None:
            linked = await self.db.game(int(game.linked_game))
            if linked is not None and linked.status in ("lobby", "active"):
                raise IllegalCommand(f"This pairing is already being played as game #{game.linked_game}.")
        a, b = game.players
        return Pairing(rnd.number, game.table, (int(a), int(b)),
                       (event.players[a].name, event.players[b].name))

    async def link_game(self, event_id: int, round_number: int, table: int, game_id: int) -> LeagueUpdate:
        """Link a game the bot runs to a pairing; it reports itself when it ends."""
        def act(event, now):
            results.link_game(event, round_number, table, str(game_id))
            return [f"Round {round_number} table {table} is played as game #{game_id}."]
        update = await self._apply(event_id, act)
        await self.store.link_game(game_id, event_id)
        return update

    async def game_over(self, game_id: int, result: dict, players: dict[str, int]) -> Optional[LeagueUpdate]:
        """Report a linked game's end. `result` is the ruleset's (winner seat, scores per seat);
        `players` maps seats to users. None if the game is not linked. A game without a single
        winner is left pending: the players settle it with the roll-off and report it."""
        event_id = await self.store.event_of_game(game_id)
        if event_id is None:
            return None
        winner = result.get("winner")
        if not isinstance(winner, str):
            def level(event, now):
                game = next((g for r in event.live_rounds() for g in r.games
                             if g.linked_game == str(game_id) and g.status != "final"), None)
                return [] if game is None else [
                    f"Table {game.table}: game #{game_id} ended level; settle it with the roll-off "
                    "and report the winner with /league report."]
            return await self._apply(event_id, level)
        scores = result.get("scores", {})
        claim = Claim(winner=str(players[winner]),
                      mission_points={str(players[seat]): scores.get(seat, 0) for seat in players})

        def act(event, now):
            game = results.report_linked(event, str(game_id), claim, now)
            return [] if game is None else [f"Table {game.table}: {results.describe(event, claim)} (game #{game_id})."]
        return await self._apply(event_id, act)

    # ---- the clock --------------------------------------------------------------------

    async def tick(self, owns: Callable[[int], bool] = lambda guild_id: True) -> tuple[list[Reminder], list[LeagueUpdate]]:
        """Deadline reminders to send and missed-deadline results applied, for every due
        event of a guild this process `owns` (by default all)."""
        now = self._clock()
        reminders, updates = [], []
        for row in [r for r in await self.store.due(now) if owns(r.guild_id)]:
            event = league.from_json(row.state)
            rnd = event.live_rounds()[-1]
            if rnd.deadline is None:
                updates.append(await self._apply(row.id, round_clock))
                continue
            if now < rnd.deadline:
                reminders += await self._remind(row.id, rnd, now, row.channel_id)
                await self._apply(row.id, lambda e, n: [])  # moves next_due on to the deadline
                continue

            def act(event, now_):
                decided = results.apply_deadlines(event, now_)
                waiting = [g for g in event.live_rounds()[-1].games if g.status == "disputed"]
                return [f"Round {rnd.number} deadline passed."] + [
                    f"Table {g.table}: {results.describe(event, g.result)}" for g in decided] + [
                    f"Organisers: table {g.table} ({' vs '.join(event.players[p].name for p in g.players)}) "
                    "is still disputed; settle it with /league disputes." for g in waiting]
            updates.append(await self._apply(row.id, act))
        return reminders, updates

    async def _remind(self, event_id: int, rnd, now: float, channel_id: Optional[int]) -> list[Reminder]:
        threads = {t.table_no: t for t in await self.store.threads(event_id, rnd.number)}
        due = []
        for game in rnd.games:
            if game.status != "pending":
                continue
            thread = threads.get(game.table)
            due.append(Reminder(event_id, rnd.number, game.table, tuple(int(p) for p in game.players),
                                float(rnd.deadline), thread.thread_id if thread else None, channel_id))
            if thread:
                await self.store.mark_reminded(event_id, rnd.number, game.table, now)
        return due

    # ---- ratings and seasons -------------------------------------------------------------

    async def ratings_of(self, event_id: int) -> tuple[Event, dict[str, Shown]]:
        """The event and its players' server ratings as shown now, by player id."""
        row, event = await self.get(event_id)
        shown = await self.ratings.of_players(row.guild_id, [int(p) for p in event.players if p.isdigit()])
        return event, {str(user): s for user, s in shown.items()}

    async def start_season(self, guild_id: int, actor: Actor, name: str = "") -> Season:
        """Organisers begin the server's next rating season now (ruling L37)."""
        await self._require_organiser(guild_id, actor)
        return await self.ratings.start_season(guild_id, name, actor.user_id)

    # ---- reading ------------------------------------------------------------------------

    async def record_thread(self, event_id: int, round_number: int, table: int, thread_id: int) -> None:
        """Remember the Discord thread opened for a pairing (reminders go there)."""
        await self.store.set_thread(event_id, round_number, table, thread_id)

    async def exports(self, event_id: int) -> tuple[Event, dict[str, bytes]]:
        """The standings and pairings as CSV and JSON files, by file name (drawing is the caller's)."""
        _row, event = await self.get(event_id)
        files = {f"event-{event_id}-standings.csv": export.standings_csv(event),
                 f"event-{event_id}-pairings.csv": export.pairings_csv(event),
                 f"event-{event_id}.json": export.write_json(event)}
        return event, {name: text.encode() for name, text in files.items()}

    async def standings_csv(self, event_id: int) -> str:
        """The standings as CSV text."""
        _row, event = await self.get(event_id)
        return export.standings_csv(event)


def clock_words(event: Event, rnd, now: int) -> str:
    """The round clock as it stands: paused with the time left, or when time is called."""
    left = clock.left(event, rnd, now)
    if rnd.paused_at is not None:
        return f"the round clock is paused with {left // 60} min {left % 60} s left."
    end = clock.round_end(event, rnd)
    return f"time is called <t:{end}:R> (<t:{end}:t>)."


def round_clock(event: Event, now: int) -> list[str]:
    """The round clock's call that is due, in words (engine/league/clock.py)."""
    rnd = event.live_rounds()[-1]
    call = clock.make_calls(event, rnd, now)
    if call is None:
        return []
    if call != "time":
        return [f"Round {rnd.number}: {call} minutes left on the clock (time is called <t:{clock.round_end(event, rnd)}:t>)."]
    open_tables = [g for g in rnd.games if g.status != "final"]
    points = event.profile.tiebreak_label
    lines = [f"Round {rnd.number}: time! Play stops now."]
    if open_tables:
        lines += [f"Games still in progress end where they stand: the most {points} wins "
                  "(squad points left on the table count, plus the bonus of a finished Captains' Battle; "
                  "a battle not finished gives none). Level: each player rolls five attack dice, most Battle "
                  "Stations wins. Report with /league report.",
                  "Still open: " + ", ".join(f"table {g.table} ({' vs '.join(event.players[p].name for p in g.players)})"
                                             for g in open_tables)]
    return lines


def pairing_lines(event: Event, rnd) -> list[str]:
    """One line per table (and the bye), with names and build hashes to sign off."""
    name = lambda p: event.players[p].name  # noqa: E731
    lines = [f"Table {g.table}: {name(g.players[0])} vs {name(g.players[1])}" for g in rnd.games]
    if rnd.bye:
        lines.append(f"Bye: {name(rnd.bye)}")
    if rnd.advanced:
        lines.append(f"Through to the next round of the top cut: {', '.join(name(p) for p in rnd.advanced)}")
    return lines


def standing_lines(event: Event, rated: Optional[dict[str, Shown]] = None) -> list[str]:
    """The standings, one line per player; with `rated`, each player's server rating too."""
    short = event.profile.tiebreak_short
    rated = rated or {}
    return [
        f"{row.rank}. {row.title} {row.name}: {row.battle_points} BP, {row.tiebreak} {short}"
        + (" (provisional)" if row.provisional else "") + (" (tied: roll-off pending)" if row.tied else "")
        + (" (dropped)" if row.dropped else "") + (" (prize)" if row.prize else "")
        + (f" · rating {rated[row.player].ordinal:.1f}" if row.player in rated else "")
        for row in standings.standings(event)
    ]


def claim_digest(claim: Claim) -> str:
    """A short fingerprint of a claim, so a button can refuse a claim changed since it was shown."""
    return hashlib.sha256(msgspec.json.encode(claim)).hexdigest()[:12]


def game_at(event: Event, round_number: int, table: int) -> Game:
    """The game at a table of a published round."""
    rnd = next((r for r in event.live_rounds() if r.number == round_number), None)
    game = rnd and next((g for g in rnd.games if g.table == table), None)
    if game is None:
        raise IllegalCommand(f"There is no table {table} in a published round {round_number}.")
    return game


def claim_from(event: Event, game: Game, winner: Optional[int], winner_points: int, loser_points: int,
               not_played: bool = False, *, forfeit: bool = False, winner_bonus: int = 0,
               loser_bonus: int = 0) -> Claim:
    """A claim from the words of a report: the winner and the points of each side (squad
    points left, or mission points in an Away Missions event), and any bonus Fleet Points a
    scenario awards (the Arena's +15 per captain surviving the Captains' Battle)."""
    if not_played:
        return Claim(outcome="not_played")
    if winner is None or str(winner) not in game.players:
        names = " or ".join(event.players[p].name for p in game.players)
        raise IllegalCommand(f"Name the winner of table {game.table}: {names}.")
    won, lost = str(winner), game.opponent(str(winner))
    if forfeit:
        return Claim(outcome="forfeit", winner=won)
    bonus = {p: b for p, b in ((won, winner_bonus), (lost, loser_bonus)) if b}
    recorded = battle_bonus(game)
    if recorded is not None and not bonus:
        bonus = recorded  # the Captains' Battle played here gave it (L27)
    if event.profile.tiebreak == "fleet_points":
        return Claim(winner=won, surviving={won: winner_points, lost: loser_points}, bonus=bonus)
    return Claim(winner=won, mission_points={won: winner_points, lost: loser_points}, bonus=bonus)


def _build(data: dict) -> Build:
    """A build sheet from plain data; IllegalCommand when it cannot be read."""
    try:
        return msgspec.convert(data, Build)
    except msgspec.ValidationError as error:
        raise IllegalCommand(f"That build sheet is not readable: {error}") from error


def arena_lines(event: Event, battle: Battle, events: list[dict]) -> list[str]:
    """What an Arena action did, in words, then what the table waits for."""
    name = lambda p: event.players[p].name  # noqa: E731
    lines = []
    for e in events:
        kind = e["type"]
        if kind == "ended":
            other = name(battle.opponent(e["player"]))
            lines.append(f"{name(e['player'])} has ended round {e['round']}; its End Phase comes when {other} ends it too.")
        elif kind == "mission_token":
            lines.append(f"End of round {e['round']}: a mission token is removed ({e['left']} left).")
        elif kind == "away_team":
            lines.append(f"{e['captain']} ({name(e['player'])}) beams down with the away team.")
        elif kind == "rolled":
            armed = {True: " with raw materials", False: " without raw materials"}.get(e.get("armed"), "")
            what = f": {e['damage']} damage" if "damage" in e else ""
            lines.append(f"{e['captain']} rolls {len(e['faces'])} dice{armed}: {', '.join(e['faces'])}{what}.")
        elif kind == "gathered":
            lines.append(f"{e['captain']} gathers {e['tokens']} raw materials ({e['supply']} left in the pile).")
        elif kind == "damaged":
            lines.append(f"{e['captain']} takes {e['damage']} damage ({e['total']} in all).")
        elif kind == "destroyed":
            also = " but still makes this attack (simultaneous attack)" if e.get("still_attacks") else ""
            lines.append(f"{e['captain']} is destroyed{also}.")
        elif kind == "battle_begins":
            lines.append("Every captain is on the planet: the Captains' Battle begins.")
        elif kind == "pass":
            lines.append(f"Attack order, pass {e['number']}: {', '.join(e['order'])}.")
        elif kind == "battle_over":
            extra = " after a roll-off" if e["roll_off"] else ""
            kept = ", ".join(e["survivors"][e["winner"]]) or "no captain"
            lines.append(f"{name(e['winner'])} wins the Captains' Battle{extra} with {kept} standing: "
                         + ", ".join(f"{name(p)} +{b} Fleet Points" for p, b in e["bonus"].items()) + ".")
    if battle.pending:
        d = battle.pending[0]
        if d.kind == "attack":
            lines.append(f"Next: {name(d.player)} attacks with {d.options[0]}.")
        elif d.kind == "assign":
            lines.append(f"Next: {name(d.player)} puts {d.damage} damage on one captain: {', '.join(d.options)}.")
        else:
            lines.append(f"Next: {name(d.player)} chooses who beams down: {', '.join(d.options)}.")
    elif battle.phase == "space":
        lines.append(f"Round {battle.round}, {battle.mission_tokens} mission token(s) left; "
                     "gather raw materials, or end the round (both players end it).")
    return lines
