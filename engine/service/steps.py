"""A game watched again, step by step, rebuilt from its seed and command log on demand.

    for step in steps.walk(ruleset, config, seed, log):   # log: (seat, command, events JSON)
        step.number, step.view, step.round, step.new_activation ...

Step 0 is the deal; step n is the table after the n-th log entry (a take-back, R42, returns
to the table before the action it takes back). Each step carries the public view, the
entry's events without their private parts, and its marks: the round and the activation
under way (the ruleset's `stage` verb), and whether the step began them. Nothing is
stored per step: the replay browser, a recap or a summary rebuild what they show. A `Tape`
keeps one game's walk in memory (every KEPT-th step and the marks), so that any step is
rebuilt from the nearest kept one, and walks on as the game's log grows.
"""
from __future__ import annotations

import functools
import json
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Optional

from engine.errors import PackError, RuleError
from engine.service import text
from engine.service.replay import TAKE_BACK, taken_back
from engine.service.rulesets import Ruleset


@dataclass(frozen=True)
class Step:
    """The table after one log entry (step 0: the deal), as anyone may watch it."""

    number: int
    seat: Optional[str]  # who acted (None for the deal)
    events: list[dict]  # what happened, private parts removed
    logged: list[dict]  # what happened, private parts kept (for a replay the players agreed to reveal)
    state: Any  # the whole state: only for views (`ruleset.view_for`), never shown as it is
    round: int
    activation: Optional[str]  # a key of the activation under way, None between activations
    new_round: bool  # this step began its round (step 0 begins the first one shown)
    new_activation: bool  # this step began an activation
    view_for: Callable[[Any, Optional[str]], dict] = field(repr=False, compare=False)
    before: Any = field(default=None, repr=False, compare=False)  # the state a take-back after this step returns to

    @functools.cached_property
    def view(self) -> dict:
        """The public view (built when first asked: a walk past a step never pays for it)."""
        return self.view_for(self.state, None)


class Unwatchable(RuleError):
    """The log no longer replays under the running rules: `at` is the first entry refused."""

    def __init__(self, at: int, reason: str):
        super().__init__(f"move {at} is refused by the rules running now ({reason})")
        self.at = at


def walk(ruleset: Ruleset, config: dict, seed: int,
         log: Iterable[tuple[Optional[str], str, str]]) -> Iterator[Step]:
    """Every step of a game, from the deal on, one per (seat, command, events JSON) of its log.
    Unwatchable when an entry is refused (a game played under other rules or cards)."""
    deal = _deal(ruleset, config, seed)
    yield deal
    yield from _onwards(ruleset, deal, log)


def _deal(ruleset: Ruleset, config: dict, seed: int) -> Step:
    """Step 0; Unwatchable when the running rules or packs cannot deal the game any more."""
    try:
        return _step(ruleset, 0, None, [], ruleset.new_game(config, seed), None, None)
    except (RuleError, PackError, KeyError, ValueError) as error:
        raise Unwatchable(0, f"the deal: {error}") from error


def _onwards(ruleset: Ruleset, last: Step, entries: Iterable[tuple[Optional[str], str, str]]) -> Iterator[Step]:
    """The steps after `last`, one per log entry given (the entries that follow it)."""
    state, before = last.state, last.before
    for number, (seat, command, events) in enumerate(entries, start=last.number + 1):
        if command == TAKE_BACK:
            if before is None:
                raise Unwatchable(number, "a take-back of nothing")
            state, before = taken_back(before, state.version + 1), None
        else:
            try:
                before, (state, _) = state, ruleset.apply(state, seat, command)
            except RuleError as error:
                raise Unwatchable(number, str(error)) from error
        last = _step(ruleset, number, seat, json.loads(events), state, before, last)
        yield last


def _step(ruleset: Ruleset, number: int, seat: Optional[str], logged: list[dict], state: Any, before: Any,
          previous: Optional[Step]) -> Step:
    round_number, activation = ruleset.stage(state)
    new_round = previous is None or round_number != previous.round
    new_activation = activation is not None and (previous is None or activation != previous.activation
                                                 or new_round)
    return Step(number, seat, text.public_events(logged), logged, state, round_number, activation, new_round,
                new_activation, ruleset.view_for, before)


@dataclass(frozen=True)
class Marks:
    """Where a game's rounds and activations begin, by step number."""

    rounds: dict[int, int]  # round -> the step that began it
    activations: list[int]  # the steps that began an activation, in order
    last: int  # the last step

    def activation_number(self, step: int) -> int:
        """How many activations have begun by `step` (0 before the first)."""
        return sum(1 for s in self.activations if s <= step)

    def previous_activation(self, step: int) -> Optional[int]:
        """The start of the activation before the one `step` is in (or its own start, when
        `step` is past it); None before the first."""
        earlier = [s for s in self.activations if s < step]
        return earlier[-1] if earlier else None

    def next_activation(self, step: int) -> Optional[int]:
        """The start of the next activation after `step`, if any."""
        return next((s for s in self.activations if s > step), None)


def marks_of(walked: Iterable[Step], rounds: Optional[dict[int, int]] = None,
             activations: Optional[list[int]] = None) -> Marks:
    """The marks of every step walked (added to the `rounds` and `activations` already found)."""
    rounds = dict(rounds or {})
    activations = list(activations or [])
    last = 0
    for step in walked:
        if step.new_round:
            rounds.setdefault(step.round, step.number)
        if step.new_activation:
            activations.append(step.number)
        last = step.number
    return Marks(rounds, activations, last)


class Tape:
    """One game's steps, walked once and kept in memory (never stored): the marks, and every
    KEPT-th step, from which any step is rebuilt with fewer than KEPT moves. A longer log
    (a running game moved on) is walked on from where the tape ends; the log must be the
    same game's, which only ever grows. Safe to share between threads."""

    KEPT = 25

    def __init__(self, ruleset: Ruleset, config: dict, seed: int):
        self.ruleset, self.config, self.seed = ruleset, config, seed
        self.kept: list[Step] = []  # steps 0, KEPT, 2 * KEPT ... (dealt on the first call)
        self.end: Optional[Step] = None  # the last step walked
        self.marks = Marks({}, [], 0)
        self._lock = threading.Lock()

    def step(self, log: list[tuple[Optional[str], str, str]], number: int) -> tuple[Step, Marks]:
        """Step `number` (kept within the deal and the log's last step) and the marks of the
        whole log. Unwatchable when the deal or an entry is refused."""
        with self._lock:
            if self.end is None:
                self.end = _deal(self.ruleset, self.config, self.seed)
                self.kept, self.marks = [self.end], marks_of([self.end])
            if len(log) > self.end.number:
                self.marks = marks_of(self._walked_on(log), self.marks.rounds, self.marks.activations)
            number = min(max(number, 0), len(log))
            start = self.kept[number // self.KEPT]
            step = start
            for step in _onwards(self.ruleset, start, log[start.number:number]):
                pass
            return step, self.marks

    def _walked_on(self, log: list[tuple[Optional[str], str, str]]) -> Iterator[Step]:
        """The steps of `log` after the tape's end, kept as the tape goes."""
        for step in _onwards(self.ruleset, self.end, log[self.end.number:]):
            if step.number % self.KEPT == 0:
                self.kept.append(step)
            self.end = step
            yield step


def step_at(ruleset: Ruleset, config: dict, seed: int, log: list[tuple[Optional[str], str, str]],
            number: int) -> tuple[Step, Marks]:
    """Step `number` (kept within the deal and the last step) and the marks of the whole game."""
    return Tape(ruleset, config, seed).step(log, number)
