"""The computer opponent's search: many imagined futures from what the seat can see.

Each playout draws one determinisation (a full state consistent with the seat's view:
hidden hands, deck orders and the dice drawn anew), applies a candidate command, lets
the rule-of-thumb policy play on until the command has been resolved (re-rolls, damage,
card windows) and for `horizon` further actions or activations of either side, and
judges the position with the heuristic evaluation. Candidates share determinisations
(the same imagined hands and dice for every candidate in a round), and the budget is
spread by sequential halving: every candidate gets playouts, the worse half is dropped,
the rest get more, until one is left standing.

A level is a budget of playouts, not a time: the same view, seed and level give the same
command on an idle machine and on a loaded one. A generous wall-clock cap is only a safety
net; when it cuts a search short the choice says so (`Choice.cut`), and the service logs it.
Nothing here reads the real state: `choose` takes the seat's view.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from engine.errors import RuleError


@dataclass(frozen=True)
class Level:
    """How hard the computer thinks: playouts per decision, candidates, playout length."""

    name: str
    playouts: int  # the budget: 0 answers with the rule-of-thumb policy alone
    width: int  # at most this many candidate commands are searched (the best by the prior)
    horizon: int  # turns (new actions or activations) the policy plays on before the position is judged
    cap: float  # safety net: seconds of wall clock after which a search stops, budget spent or not


# budgets checked in processor time per decision (docs/rulings.md R100): p95 easy <= 50 ms,
# normal <= 300 ms, hard <= 1 s; the caps are many times that
LEVELS: dict[str, Level] = {
    "easy": Level("easy", playouts=0, width=1, horizon=0, cap=1.0),
    "normal": Level("normal", playouts=24, width=6, horizon=0, cap=2.0),
    "hard": Level("hard", playouts=320, width=12, horizon=1, cap=10.0),
}

clock = time.perf_counter  # the safety net's clock (a test may make it jump)


@dataclass
class Candidate:
    """One command the search weighed: how often it was tried and how it fared."""

    command: str
    playouts: int = 0
    total: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.total / self.playouts if self.playouts else 0.0


@dataclass
class Choice:
    """The command chosen, and the candidates behind it (best first)."""

    command: str
    candidates: list[Candidate] = field(default_factory=list)
    playouts: int = 0
    errors: int = 0  # playouts the engine refused part-way (judged where they stopped)
    reason: str = ""  # the rule of thumb behind a command chosen without a search
    budget: int = 0  # the playouts the level allows
    cut: Optional[float] = None  # the cap in seconds, when it stopped the search before the budget was spent

    def top(self, n: int = 3) -> list[Candidate]:
        return self.candidates[:n]


@dataclass(frozen=True)
class Game:
    """What the search needs from a ruleset (see engine/opponent/awaymissions.py)."""

    determiniser: Callable[[dict, str], Any]  # (view, seat) -> object with .sample(rng) -> state
    legal_commands: Callable[[Any, str], list[str]]
    apply: Callable[[Any, str, str], tuple[Any, list]]
    awaited: Callable[[Any], list[str]]
    is_over: Callable[[Any], bool]
    evaluate: Callable[[Any, str], float]  # the seat's winning chance in [0, 1]
    policy: Callable[[Any, str, list[str], random.Random], str]
    prior: Callable[[Any, str, list[str]], list[float]]
    searched: Callable[[Any, str], bool] = lambda state, seat: True  # False: the policy answers alone
    turn_starts: Callable[[Any], bool] = lambda state: True  # a new action or activation is asked for
    reason: Callable[[Any, str, str], str] = lambda state, seat, command: ""  # the rule of thumb behind it
    # the commands worth weighing at a decision (the playouts' policy makes its own choice)
    worth: Callable[[Any, str, list[str]], list[str]] = lambda state, seat, legal: legal


WANDER = 0.1  # how often a rule of thumb tries a random legal command instead of a best-scored one
NEAR_BEST = 0.05  # scores this close to the best count as the best


def best_scored(legal: list[str], scores: list[float], rng: random.Random) -> str:
    """A rule of thumb's pick: now and then (WANDER) any legal command, else one of the best-scored."""
    if rng.random() < WANDER:
        return rng.choice(legal)
    best = max(scores)
    return rng.choice([c for c, s in zip(legal, scores) if s >= best - NEAR_BEST])


def wandered(legal: list[str], scores: list[float], command: str) -> bool:
    """Whether `command` is not one a rule of thumb scores best (so it was a random try)."""
    return command in legal and scores[legal.index(command)] < max(scores) - NEAR_BEST


def decision_rng(view: dict, seat: str, level: Level, seed: int) -> random.Random:
    """The random source of one decision: a function of the seed, the seat, the level and the
    view's version only (a string seed is hashed with SHA-512, the same on every run)."""
    return random.Random(f"{seed}:{seat}:{level.name}:{view.get('version', 0)}")


def choose(game: Game, view: dict, seat: str, level: Level, seed: int = 0, *, timed: bool = True) -> Choice:
    """The command `seat` plays, from its view alone: a pure function of view, seat, level and
    seed, unless the level's cap (a safety net; `timed=False` turns it off) cuts it short."""
    start = clock()
    rng = decision_rng(view, seat, level, seed)
    determiniser = game.determiniser(view, seat)
    state = determiniser.sample(rng)
    legal = game.legal_commands(state, seat)
    if not legal:
        raise RuleError(f"Nothing is asked of {seat} now.")
    legal = game.worth(state, seat, legal) or legal
    if len(legal) == 1:
        return Choice(legal[0], [Candidate(legal[0])])
    if level.playouts <= 0 or not game.searched(state, seat):
        command = game.policy(state, seat, legal, rng)
        return Choice(command, [], reason=game.reason(state, seat, command))
    scores = game.prior(state, seat, legal)
    ranked = sorted(range(len(legal)), key=lambda i: (-scores[i], i))[:level.width]
    candidates = [Candidate(legal[i]) for i in ranked]
    deadline = start + level.cap if timed else None
    seeds = [rng.getrandbits(64) for _ in range(level.playouts)]
    choice = Choice(candidates[0].command, [])
    alive = list(candidates)
    rounds = max(1, math.ceil(math.log2(len(alive))))
    used, sample, late = 0, 0, False
    for r in range(rounds):
        share = max(1, (level.playouts - used) // ((rounds - r) * len(alive)))
        for _ in range(share):
            if used >= level.playouts or late:
                break
            world_seed = seeds[sample % len(seeds)]
            sample += 1
            batch = []  # every candidate in the same imagined world, or none of them
            for candidate in alive:
                late = deadline is not None and clock() > deadline
                if late:
                    break
                world = random.Random(world_seed)
                batch.append(_playout(game, determiniser.sample(world), seat, candidate.command, level, world))
            if late:
                break
            for candidate, (value, failed) in zip(alive, batch):
                candidate.playouts += 1
                candidate.total += value
                choice.errors += failed
                used += 1
        if len(alive) > 1:
            alive.sort(key=lambda c: -c.win_rate)
            alive = alive[:max(1, (len(alive) + 1) // 2)]
    choice.playouts, choice.budget = used, level.playouts
    choice.cut = level.cap if late else None
    ordered = sorted(candidates, key=lambda c: (-c.playouts, -c.win_rate))
    choice.candidates = sorted(ordered, key=lambda c: (-(c in alive), -c.win_rate))
    choice.command = choice.candidates[0].command
    return choice


def _playout(game: Game, state, seat: str, command: str, level: Level, rng: random.Random) -> tuple[float, int]:
    """(value for the seat, 1 if the engine refused something) of one imagined future."""
    try:
        state, _ = game.apply(state, seat, command)
        # a command that hands the seat its next action at once (activating, a first action)
        # is judged after that activation has been played on, not before it
        horizon = level.horizon + (2 if game.turn_starts(state) and seat in game.awaited(state)[:1] else 0)
        turns = steps = 0
        while not game.is_over(state) and steps < 40 * (horizon + 1):
            if game.turn_starts(state):
                if turns >= horizon:
                    break
                turns += 1
            turn = game.awaited(state)[0]
            legal = game.legal_commands(state, turn)
            state, _ = game.apply(state, turn, game.policy(state, turn, legal, rng))
            steps += 1
    except (RuleError, KeyError, ValueError, IndexError):
        return game.evaluate(state, seat), 1
    return game.evaluate(state, seat), 0
