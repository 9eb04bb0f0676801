"""Watching a game again: who may (ruling P39), what they see (P40), and the players'
agreement to show the hidden cards once the game is over (P41).

Every call rebuilds the step asked for from the game's seed and log (engine/service/steps.py)
in a worker thread; nothing is stored per step. The desk keeps the tapes of the last
TAPES games watched in memory (a kept step every 25, the marks), so a press rebuilds fewer
than 25 moves; they are let go when the desk is. The agreement is kept in the game's guild
settings under `reveal:<game id>`: the seats whose players agreed (seats, not user ids, so
forgetting a player, P16, leaves nothing of theirs there and the agreement stands).
"""
from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from dataclasses import dataclass
from typing import Optional

from db import GameRow, SeatRow
from engine.service import steps, text
from engine.service.errors import LobbyError, NotAllowed, UnknownGame
from engine.service.rulesets import RULESETS, Ruleset
from engine.service.seating import is_computer
from engine.service.service import GameService, game_key


TAPES = 32  # games whose tapes are kept in memory, the least recently watched let go first


def reveal_key(game_id: int) -> str:
    """The guild setting holding the seats whose players agreed to reveal a finished game's hidden cards."""
    return f"reveal:{game_id}"


@dataclass(frozen=True)
class Shown:
    """One step of a game as one viewer may watch it."""

    game_id: int
    ruleset: str
    status: str  # the game's status now: a running game is watched up to now
    step: steps.Step
    marks: steps.Marks
    lines: list[str]  # the step's log lines, as anyone may read them
    hidden: dict[str, list[str]]  # revealed games only: per player name, their private lines and hand
    activations: list[tuple[int, str]]  # the activations of the step's round: (the step that began it, its line)


@dataclass(frozen=True)
class Agreement:
    """Who agreed to reveal a finished game's hidden cards, and who has not yet."""

    agreed: list[str]  # player names
    waiting: list[str]

    @property
    def complete(self) -> bool:
        return not self.waiting


class ReplayDesk:
    """Replays of the games of one game service."""

    def __init__(self, games: GameService):
        self.games = games
        self._agreeing = asyncio.Lock()  # one agreement recorded at a time (read, add, write)
        self._tapes: OrderedDict[int, tuple[str, int, steps.Tape]] = OrderedDict()  # game -> (config, seed, tape)

    async def _game(self, game_id: int) -> tuple[GameRow, list[SeatRow]]:
        game_id = game_key(game_id)
        row = await self.games.db.game(game_id)
        if row is None:
            raise UnknownGame(f"There is no game #{game_id}.")
        return row, await self.games.db.seats(game_id)

    async def step(self, game_id: int, user_id: int, guild_id: Optional[int], number: Optional[int]) -> Shown:
        """Step `number` of the game as `user_id`, asking from `guild_id`, may watch it (None:
        where a replay opens, the deal of a game no longer running and the latest step of a
        running one; past the end: the latest step). NotAllowed for a game they may not
        watch, LobbyError before the deal."""
        row, seats = await self._game(game_id)
        if not may_watch(row, seats, user_id, guild_id):
            raise NotAllowed(f"Game #{row.id} can be watched again by its players, or from the server it was "
                             "played in.")
        if row.state is None:
            raise LobbyError(f"Game #{row.id} has not started: there is nothing to watch yet.")
        log = await self.games.db.log(row.id)
        revealed = row.status == "over" and not (await self._agreement(row, seats)).waiting
        entries = [(e.seat, e.command, e.events) for e in log]
        try:
            return await asyncio.to_thread(_shown, self._tape(row), row, seats, entries,
                                           start(row.status, number, len(entries)), revealed)
        except steps.Unwatchable as error:
            raise NotAllowed(f"Game #{row.id} cannot be watched again: its {error}; it was played under "
                             "an earlier version of the rules or cards.") from error

    def _tape(self, row: GameRow) -> steps.Tape:
        """The game's tape: the one kept, or a new one (its config or seed changed: P16 renames seats)."""
        kept = self._tapes.get(row.id)
        if kept is None or kept[:2] != (row.config, row.seed):
            kept = (row.config, row.seed, steps.Tape(RULESETS[row.ruleset], json.loads(row.config), row.seed))
            self._tapes[row.id] = kept
        self._tapes.move_to_end(row.id)
        while len(self._tapes) > TAPES:
            self._tapes.popitem(last=False)
        return kept[2]

    async def agree_to_reveal(self, game_id: int, user_id: int) -> Agreement:
        """Record that a player of a finished game agrees to show its hidden cards in replays."""
        async with self._agreeing:
            row, seats = await self._game(game_id)
            if row.status != "over":
                raise NotAllowed(f"Game #{row.id} was aborted: its hidden cards stay hidden." if row.status == "aborted"
                                 else f"Game #{row.id} is not over: hidden cards stay hidden while it runs.")
            mine = {s.seat for s in seats if s.user_id == user_id and not is_computer(user_id)}
            if not mine:
                raise NotAllowed(f"Only the players of game #{row.id} decide whether its hidden cards are shown.")
            agreed = set(await self.games.guild_setting(row.guild_id or 0, reveal_key(row.id)) or [])
            if not mine <= agreed:
                await self.games.set_guild_setting(row.guild_id or 0, reveal_key(row.id), sorted(agreed | mine))
            return await self._agreement(row, seats)

    async def _agreement(self, row: GameRow, seats: list[SeatRow]) -> Agreement:
        agreed = set(await self.games.guild_setting(row.guild_id or 0, reveal_key(row.id)) or [])
        people = [s for s in seats if not is_computer(s.user_id)]
        return Agreement([s.name for s in people if s.seat in agreed], [s.name for s in people if s.seat not in agreed])


def start(status: str, number: Optional[int], last: int) -> int:
    """The step to show: `number`, or where a replay opens (the deal of a game no longer
    running, the latest step of a running one)."""
    return number if number is not None else last if status == "active" else 0


def may_watch(row: GameRow, seats: list[SeatRow], user_id: int, guild_id: Optional[int]) -> bool:
    """Whether a user may watch a game again (P39): they sat in it (or left their seat to
    the computer), or they ask from the server it was played in (its threads are public)."""
    return (any(user_id in (s.user_id, s.left_by) for s in seats)
            or (row.guild_id is not None and row.guild_id == guild_id))


def _shown(tape: steps.Tape, row: GameRow, seats: list[SeatRow], log: list[tuple], number: int,
           revealed: bool) -> Shown:
    """The step rebuilt from the game's tape, in words: its public lines, and with `revealed`
    what each player alone saw (P40)."""
    step, marks = tape.step(log, number)
    ruleset = tape.ruleset
    players = {s.seat: s.name for s in seats}
    names = {**ruleset.display_names(step.state), **players}
    hidden: dict[str, list[str]] = {}
    if revealed:
        private = text.private_lines(step.logged, names)
        for seat, name in players.items():
            held = ruleset.secrets(step.state, seat)
            said = private.get(seat, []) + [f"{what}: {', '.join(names.get(c, c) for c in codes) or 'none'}"
                                            for what, codes in held.items()]
            if said:
                hidden[name] = said
    return Shown(row.id, row.ruleset, row.status, step, marks, ruleset.public_lines(step.events, names), hidden,
                 _activations(ruleset, marks, step, log, names))


def _activations(ruleset: Ruleset, marks: steps.Marks, step: steps.Step, log: list[tuple],
                 names: dict[str, str]) -> list[tuple[int, str]]:
    """The activations begun in the step's round, each with the last log line of the step
    that began it ("Picard activates", "Kestrel's turn (Ann)")."""
    begun = marks.rounds.get(step.round, 0)
    after = min((s for s in marks.rounds.values() if s > begun), default=marks.last + 1)
    found = []
    for number in (n for n in marks.activations if begun <= n < after):
        lines = ruleset.public_lines(text.public_events(json.loads(log[number - 1][2])), names) if number else []
        found.append((number, lines[-1] if lines else "the deal"))
    return found
