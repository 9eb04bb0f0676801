"""A game watched again, step by step, rebuilt from its seed and command log on demand.

    for step in steps.walk(ruleset, config, seed, log):   # log: (seat, command, events JSON)
        step.number, step.view, step.round, step.new_activation ...

Step 0 is the deal; step n is the table after the n-th log entry (a take-back, R42, returns
to the table before the action it takes back). Each step carries the public view, the
entry's events without their private parts, and its marks: the round and the activation
under way (the ruleset's `stage` verb), and whether the step began them. Nothing is
stored per step: the replay browser, a recap or a summary rebuild what they show.
"""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Optional

from engine.errors import RuleError
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
    state, before = ruleset.new_game(config, seed), None
    last = _step(ruleset, 0, None, [], state, None)
    yield last
    for number, (seat, command, events) in enumerate(log, start=1):
        if command == TAKE_BACK:
            if before is None:
                raise Unwatchable(number, "a take-back of nothing")
            state, before = taken_back(before, state.version + 1), None
        else:
            try:
                before, (state, _) = state, ruleset.apply(state, seat, command)
            except RuleError as error:
                raise Unwatchable(number, str(error)) from error
        last = _step(ruleset, number, seat, json.loads(events), state, last)
        yield last


def _step(ruleset: Ruleset, number: int, seat: Optional[str], logged: list[dict], state: Any,
          previous: Optional[Step]) -> Step:
    round_number, activation = ruleset.stage(state)
    new_round = previous is None or round_number != previous.round
    new_activation = activation is not None and (previous is None or activation != previous.activation
                                                 or new_round)
    return Step(number, seat, text.public_events(logged), logged, state, round_number, activation, new_round,
                new_activation, ruleset.view_for)


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


def marks_of(walked: Iterable[Step]) -> Marks:
    """The marks of every step walked."""
    rounds: dict[int, int] = {}
    activations: list[int] = []
    last = 0
    for step in walked:
        if step.new_round:
            rounds.setdefault(step.round, step.number)
        if step.new_activation:
            activations.append(step.number)
        last = step.number
    return Marks(rounds, activations, last)


def step_at(ruleset: Ruleset, config: dict, seed: int, log: list[tuple[Optional[str], str, str]],
            number: int) -> tuple[Step, Marks]:
    """Step `number` (kept within the deal and the last step) and the marks of the whole game."""
    number = min(max(number, 0), len(log))
    found: list[Step] = []

    def keeping() -> Iterator[Step]:
        for step in walk(ruleset, config, seed, log):
            if step.number == number:
                found.append(step)
            yield step
    marks = marks_of(keeping())
    return found[0], marks
