"""A one-ply greedy Away Missions player, the yardstick the ladder measures normal against.

At an action it scores each legal command by its immediate gain alone: the mission points a
card or special action scores, times its exact chance of passing (engine/awaymissions/odds.py);
an attack's expected damage from the exact odds, more when it may neutralize; a move by how
much nearer it brings the character to the terminals its side's missions need (or, with none,
to the nearest enemy). To activate it picks the character with the best such action. Every
other decision (re-rolls, damage, interrupts, set-up) it answers like the computer's rule of
thumb. Nothing looks beyond the one command: no playouts, no reply.
"""
from __future__ import annotations

import random
from engine.awaymissions import cards, odds, rules
from engine.awaymissions import vocabulary as v
from engine.awaymissions.context import Table
from engine.awaymissions.state import GameState
from engine.errors import RuleError
from engine.opponent.awaymissions import TERMINALS, decision_kind, policy

SMALL = {"recover": 0.3, "draw": 0.1, "cover": 0.05, "cycle": 0.05, "pass": 0.0}
NEUTRALIZE = 3.0  # a character taken out is worth this much more than the damage itself
STEP = 0.1  # a space nearer the goal


def command(state: GameState, seat: str, legal: list[str], rng: random.Random) -> str:
    """The greedy player's command for `seat`, one of `legal`."""
    if len(legal) == 1:
        return legal[0]
    kind = decision_kind(state, seat)
    if kind == "action":
        scores = [gain(state, seat, c) for c in legal]
    elif kind == "activate":
        scores = [_best_after(state, seat, c) for c in legal]
    else:
        return policy(state, seat, legal, rng)
    best = max(scores)
    return rng.choice([c for c, s in zip(legal, scores) if s >= best - 1e-9])


def gain(state: GameState, seat: str, command_text: str) -> float:
    """The immediate gain of one action: points times their chance, expected damage, progress."""
    verb, args = rules.parse(command_text)
    t = Table(state)
    if verb == "attack":
        found = odds.preview(state, seat, command_text)
        return sum(d * p for d, p in found.damage.items()) + NEUTRALIZE * found.neutralize
    if verb in ("play", "special"):
        points = _points(t, seat, verb, args)
        if not points:
            return 0.2 if verb == "play" else 0.0  # a card's worth beyond points is not immediate
        try:
            found = odds.preview(state, seat, command_text)
        except RuleError:
            found = None
        return points * (float(found.passed) if isinstance(found, odds.SkillOdds) else 1.0)
    if verb == "move":
        character = t.character(args[0])
        return STEP * (_distance(t, seat, character.space) - _distance(t, seat, args[1].upper()))
    return SMALL.get(verb, 0.0)


def _points(t: Table, seat: str, verb: str, args: list[str]) -> float:
    """The points a card played or a special action taken scores on a success."""
    if verb == "play":
        card = t.pack.cards[args[0].lower()]
        return _scored(card.effects, card.points)
    sources = {code: action for code, _, action in cards.special_sources(t, t.character(args[0]))}
    action = sources.get(args[1].lower())
    return _scored(action.effects, getattr(action, "points", 0)) if action is not None else 0.0


def _scored(effect_list, card_points: int) -> float:
    total = 0.0
    for e in effect_list:
        if isinstance(e, v.BonusPoints):
            total += e.points
        elif isinstance(e, v.Score):
            total += card_points
        elif isinstance(e, v.SkillTest):
            total += _scored(e.success, card_points)
    return total


def _distance(t: Table, seat: str, space: str) -> int:
    """Steps (as the crow flies on the grid) from `space` to the nearest goal of the seat."""
    goals = _goals(t, seat)
    if not goals:
        return 0
    here = t.geo.spaces[space]
    return min(abs(here.x - x) + abs(here.y - y) for x, y in goals)


def _goals(t: Table, seat: str) -> list[tuple[int, int]]:
    wanted = {c.terminal for code in t.state.player(seat).hand for c in t.pack.cards[code].requires
              if t.pack.cards[code].kind == "mission" and isinstance(c, v.AtTerminal)}
    if "any" in wanted:
        wanted |= set(TERMINALS)
    spots = [(s.x, s.y) for s in t.geo.spaces.values() if wanted & set(s.features)]
    if spots:
        return spots
    team = t.state.player(seat).team
    return [(t.geo.spaces[c.space].x, t.geo.spaces[c.space].y) for c in t.state.characters.values()
            if c.in_play and c.space and t.state.player(c.controller).team != team]


def _best_after(state: GameState, seat: str, activate: str) -> float:
    """The best gain the character would have as its first action (the others' interrupt
    windows on the activation passed; 0 if it gets no action)."""
    try:
        after, _ = rules.apply(state, seat, activate)
        for _ in range(4):
            decision = after.pending[0] if after.pending else None
            if decision is None or decision.kind != "interrupt" or decision.player == seat:
                break
            after, _ = rules.apply(after, decision.player, "pass")
    except RuleError:
        return 0.0
    if not after.pending or after.pending[0].kind != "action" or after.pending[0].player != seat:
        return 0.0
    return max((gain(after, seat, c) for c in rules.legal_commands(after, seat)), default=0.0)
