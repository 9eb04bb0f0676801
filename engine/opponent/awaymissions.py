"""What the computer opponent needs to know about Away Missions, and nothing it may not see.

- `determinise`: one full game state consistent with a seat's view. The seat's own hand
  (and its teammates') is as shown; every other hand and every deck order is drawn at
  random from the cards that seat cannot see, taken from the pack's deck list for the
  affiliation (the computer assumes each seat plays its affiliation's starter deck; see
  docs/rulings.md R-AI1). The dice get a fresh random seed, so no future roll is known.
- `evaluate`: how good a state is for a seat, as a chance of winning in [0, 1].
- `policy`: a cheap rule of thumb that answers any decision (the playouts' player and
  the easy level).
- `prior`: which candidate commands the search looks at first when there are many.
- `worth`: the commands worth weighing at all (not an action that only refunds itself).
"""
from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any, Optional

import msgspec

from engine.awaymissions import cards, effects, rules
from engine.awaymissions import vocabulary as v
from engine.awaymissions.content import Pack, SpecialAction, load_pack
from engine.awaymissions.context import Table
from engine.awaymissions.state import GameState, clone
from engine.dice import Dice
from engine.opponent.search import best_scored, wandered

TERMINALS = ("command", "science", "operations", "medical")
SETUP_KINDS = frozenset({"corridor", "board", "core", "start_area", "place"})
# decisions the rule of thumb leaves to chance, and how its explanation names them
CHANCE_KINDS = {"activate": "which character acts", "damage": "where damage goes",
                "effect_move": "where a card moves a character", "effect_place": "where a card places a character",
                "challenger": "who takes up a challenge",
                **{kind: "a set-up choice" for kind in SETUP_KINDS}}


# --- determinisation -------------------------------------------------------------------------
def deck_list(pack: Pack, affiliation: str) -> tuple[list[str], list[str]]:
    """The (support, mission) cards a seat of this affiliation is assumed to play."""
    decks = [d for d in pack.decks.values() if d.affiliation == affiliation]
    if not decks:
        return [], []
    deck = next((d for d in decks if d.code == f"{affiliation}-starter"), decks[0])
    return list(deck.support), list(deck.mission)


def _visible_cards(view: dict, pack: Pack) -> dict[str, Counter]:
    """Per seat: the cards of its deck lying face up (discards, scoring area, table, characters)."""
    seen = {p["seat"]: Counter() for p in view["players"]}
    by_affiliation: dict[str, list[str]] = {}
    for p in view["players"]:
        by_affiliation.setdefault(p["affiliation"], []).append(p["seat"])
        for pile in ("support_discard", "mission_discard", "scoring_area", "permanents", "table_missions"):
            seen[p["seat"]].update(p.get(pile, []))

    def owner_of(card: str, hint: Optional[str]) -> Optional[str]:
        if hint in seen and pack.cards[card].affiliation == _affiliation(view, hint):
            return hint
        seats = by_affiliation.get(pack.cards[card].affiliation, [])
        return seats[0] if seats else None

    for c in view["characters"].values():
        for card in c.get("equipment", []) + c.get("traits", []):
            seat = owner_of(card, c["owner"])
            if seat:
                seen[seat][card] += 1
    in_play = [(item.get("data", {}).get("card"), item.get("data", {}).get("seat")) for item in view.get("queue", [])]
    roll = view.get("roll") or {}
    then = roll.get("then") or {}
    in_play.append((then.get("card"), then.get("seat")))
    counted = set()
    for card, seat in in_play:  # a card being resolved lies face up once, whatever the queue holds for it
        if card in pack.cards and (card, seat) not in counted:
            counted.add((card, seat))
            owner = owner_of(card, seat)
            if owner:
                seen[owner][card] += 1
    return seen


def _affiliation(view: dict, seat: str) -> str:
    return next(p["affiliation"] for p in view["players"] if p["seat"] == seat)


class Determiniser:
    """Builds states consistent with one seat's view; each `sample` draws the unknowns anew."""

    def __init__(self, view: dict, seat: str):
        self.seat = seat
        pack = load_pack(view["pack"])
        self.pack = pack
        builtins = {k: val for k, val in view.items()}
        builtins["players"] = []
        seen = _visible_cards(view, pack)
        self.unknown: dict[str, tuple[list[str], list[str], int, int, int]] = {}
        for p in view["players"]:
            player = dict(p)
            counts = {k: player.pop(k, 0) for k in ("support_deck_count", "mission_deck_count", "hand_count")}
            support, mission = deck_list(pack, p["affiliation"])
            player.setdefault("interrupts", sorted({c for c in support if pack.cards[c].kind == "interrupt"}))
            pool = Counter(support + mission) - seen[p["seat"]]
            known_hand = "hand" in player
            if known_hand:
                pool -= Counter(player["hand"])
            else:
                player["hand"] = []
            cards = sorted(pool.elements())  # sorted: the pool is a function of the view only
            self.unknown[p["seat"]] = ([c for c in cards if pack.cards[c].kind != "mission"],
                                       [c for c in cards if pack.cards[c].kind == "mission"],
                                       counts["support_deck_count"], counts["mission_deck_count"],
                                       0 if known_hand else counts["hand_count"])
            player["support_deck"], player["mission_deck"] = [], []
            builtins["players"].append(player)
        for decision in builtins.get("pending", []):
            if decision["player"] != seat and "secret" not in decision.get("info", {}) and decision["kind"] == "search":
                decision["info"] = {**decision["info"], "secret": {"options": []}}
        builtins["seed"] = 0
        builtins["dice"] = {"state": 0}
        self.base = msgspec.convert(builtins, GameState)

    def sample(self, rng: random.Random) -> GameState:
        """One complete state: unknown hands and deck orders drawn at random, fresh dice."""
        state = clone(self.base)
        for player in state.players:
            support, mission, n_support, n_mission, n_hand = self.unknown[player.seat]
            support, mission = support[:], mission[:]
            rng.shuffle(support)
            rng.shuffle(mission)
            player.mission_deck = _take(mission, n_mission, rng, self.pack, player.affiliation, "mission")
            player.support_deck = _take(support, n_support, rng, self.pack, player.affiliation, "support")
            if n_hand:
                rest = support + mission
                rng.shuffle(rest)
                player.hand = _take(rest, n_hand, rng, self.pack, player.affiliation, "support")
        state.dice = Dice.seeded(rng.getrandbits(64))
        return state


def _take(pool: list[str], n: int, rng: random.Random, pack: Pack, affiliation: str, pile: str) -> list[str]:
    """n cards off the (shuffled) pool; if the pool runs short, cards of the deck list fill in."""
    taken = pool[:n]
    del pool[:n]
    if len(taken) < n:
        support, mission = deck_list(pack, affiliation)
        filler = (mission if pile == "mission" else support) or support + mission
        taken += [rng.choice(filler) for _ in range(n - len(taken))]
    return taken


# --- evaluation -----------------------------------------------------------------------------
class _Geo:
    """Per layout: where each kind of terminal is."""

    cache: dict[str, dict[str, list[tuple[int, int]]]] = {}

    @classmethod
    def terminals(cls, t: Table) -> dict[str, list[tuple[int, int]]]:
        key = t.state.pack + "|" + t.state.layout.key()
        found = cls.cache.get(key)
        if found is None:
            found = {kind: [(s.x, s.y) for s in t.geo.spaces.values() if kind in s.features] for kind in TERMINALS}
            found["any"] = [xy for kind in TERMINALS for xy in found[kind]]
            cls.cache[key] = found
        return found


def _xy(t: Table, space: str) -> tuple[int, int]:
    s = t.geo.spaces[space]
    return s.x, s.y


def points(t: Table, seat: str) -> float:
    """Points scored, plus the core mission and end-of-game missions as they stand now."""
    player = t.state.player(seat)
    total = sum(t.pack.cards[c].points for c in player.scoring_area) + player.bonus_points
    if player.core_mission:
        core = t.pack.cards[player.core_mission]
        if effects.all_hold(t, core.requires, seat, None):
            total += core.points + (core.points_per.each * effects.count(t, seat, core.points_per.what)
                                    if core.points_per else 0)
    for code in player.hand:
        card = t.pack.cards[code]
        if card.kind == "mission" and card.play == "end" and effects.all_hold(t, card.requires, seat, None):
            total += 0.7 * card.points
    return total


def _potential(t: Table, seat: str, mine: list) -> float:
    """Missions in hand that the seat's characters are placed (or nearly placed) to attempt."""
    if not mine:
        return 0.0
    total = 0.0
    terminals = None
    for code in set(t.state.player(seat).hand):
        card = t.pack.cards[code]
        if card.kind != "mission" or card.play == "end":
            continue
        where = next((c.terminal for c in card.requires if isinstance(c, v.AtTerminal)), None)
        if where is None:
            total += 0.15 * card.points
            continue
        terminals = terminals or _Geo.terminals(t)
        spots = terminals.get(where, ())
        if not spots:
            continue
        best = min(abs(x - tx) + abs(y - ty) for (x, y) in (_xy(t, c.space) for c in mine) for tx, ty in spots)
        total += card.points * (0.45 if best == 0 else 0.3 / (1 + 0.5 * best))
    return total


def _material(c) -> float:
    if not c.in_play:
        return 0.0
    value = sum(c.ratings.values()) + 3.0
    return value * (0.7 if c.stun >= 2 else 0.85 if c.stun else 1.0)


def advantage(state: GameState, seat: str) -> float:
    """The seat's lead in points, weighing characters, cards and position as partial points."""
    t = Table(state)
    team = state.player(seat).team
    late = 1.0 if state.round < 3 else 0.6
    scores: dict[str, float] = {}
    for p in state.players:
        mine = [c for c in state.characters.values() if c.in_play and c.controller == p.seat]
        value = points(t, p.seat)
        value += late * 0.12 * sum(_material(c) for c in mine)
        value += 0.12 * len(p.hand) + 0.6 * p.bonus_actions
        value += _potential(t, p.seat, mine)
        scores[p.team] = scores.get(p.team, 0.0) + value
    rivals = [value for other, value in scores.items() if other != team]
    return scores[team] - (max(rivals) if rivals else 0.0)


def evaluate(state: GameState, seat: str) -> float:
    """The seat's chance of winning, estimated: 1 or 0 (0.5 a draw) once the game is over."""
    if state.phase == "over":
        result = state.result or {}
        side = state.player(seat).team  # the seat itself, or its team in a 2 vs 2 game
        if result.get("winner") is None:  # a draw: shared by those tied (with two sides, both)
            return 0.5 if side in result.get("drawn", [side]) else 0.0
        return 1.0 if result["winner"] == side else 0.0
    return 1.0 / (1.0 + math.exp(-advantage(state, seat) / 2.5))


# --- rules of thumb --------------------------------------------------------------------------
def decision_kind(state: GameState, seat: str) -> str:
    """The kind of decision asked of `seat`: its own, or its team's (it is one of `also`)."""
    return next(d.kind for d in state.pending if d.player == seat or seat in d.also)


def prior(state: GameState, seat: str, legal: list[str]) -> list[float]:
    """A quick score for each legal command: the search tries the best-scored first."""
    t = Table(state)
    kind = decision_kind(state, seat)
    hostile = [_xy(t, c.space) for c in state.characters.values()
               if c.in_play and state.player(c.controller).team != state.player(seat).team]
    hand = state.player(seat).hand
    goals = _goal_spaces(t, seat) + hostile
    scores = []
    for command in legal:
        words = command.split()
        verb = words[0]
        if verb == "play":
            card = t.pack.cards[words[1]]
            score = 9.0 if card.kind == "mission" else 5.0
        elif verb == "special":
            score = 8.5 if words[2] in hand else 6.0
        elif verb == "attack":
            target = state.characters[words[2]]
            score = 7.0 + 0.5 / (1 + sum(target.ratings.values()))
        elif verb in ("move",) and goals:
            xy = _xy(t, words[2])
            score = 4.0 - 0.1 * min(abs(xy[0] - gx) + abs(xy[1] - gy) for gx, gy in goals)
        elif verb == "reroll":
            score = 3.0 + (0.2 if words[2] == "all" else 0.0) - 0.01 * len(words)
        elif verb in ("pass", "keep"):
            score = 4.5 if kind in ("reroll", "interrupt", "discard", "redraw") else 1.0
        elif verb == "damage":
            score = 3.0
        elif verb in ("activate", "bonus"):
            score = 3.0 if verb == "activate" else 2.5
        elif verb == "opponent":
            score = _rival_score(state, t, words[1])
        elif verb in ("cover", "recover", "draw", "cycle"):
            score = {"cover": 2.0, "recover": 5.0, "draw": 2.5, "cycle": 1.5}[verb]
        else:
            score = 2.0
        scores.append(score)
    return scores


def _rival_score(state: GameState, t: Table, seat: str) -> float:
    """Choosing the opponent a card hits (a discard at random from their hand): the rival
    with the most points, among those holding cards; an empty hand is the worst choice."""
    hand = len(state.player(seat).hand)
    return 2.0 + 0.1 * points(t, seat) + 0.01 * hand if hand else 1.0


def _goal_spaces(t: Table, seat: str) -> list[tuple[int, int]]:
    """Terminals that missions in the seat's hand need."""
    wanted = set()
    for code in t.state.player(seat).hand:
        card = t.pack.cards[code]
        if card.kind == "mission":
            wanted.update(c.terminal for c in card.requires if isinstance(c, v.AtTerminal))
    if not wanted:
        return []
    terminals = _Geo.terminals(t)
    return [xy for kind in wanted for xy in terminals.get(kind, ())]


def worth(state: GameState, seat: str, legal: list[str]) -> list[str]:
    """The commands worth weighing: all but a special action whose only effect is to give back
    the action it uses (R105); the search and the rule of thumb never weigh one."""
    return [command for command in legal if not (command.startswith("special ") and _refunds_only(state, command))]


_REFUNDS: dict[tuple[str, str, str], bool] = {}  # (pack, character card, action code) -> refunds only


def _refunds_only(state: GameState, command: str) -> bool:
    words = command.split()
    character = state.characters[words[1].upper()]
    key = (state.pack, character.card, words[2])
    found = _REFUNDS.get(key)
    if found is None:
        sources = cards.special_sources(Table(state), character)
        action = next((a for code, _, a in sources if code == words[2]), None)
        granted = _granted(action.effects) if isinstance(action, SpecialAction) else None
        found = _REFUNDS[key] = granted is not None and granted <= 1
    return found


def _granted(effect_list) -> Optional[int]:
    """The most actions these effects give the activation in any outcome; None if they do
    anything else (a test counts by its better branch; extra successes count as more)."""
    total = 0
    for e in effect_list:
        if isinstance(e, v.GrantActions):
            total += e.count
        elif isinstance(e, v.SkillTest) and not e.per_extra:
            branches = [_granted(e.success), _granted(e.failure)]
            if None in branches:
                return None
            total += max(branches)
        else:
            return None
    return total


def policy(state: GameState, seat: str, legal: list[str], rng: random.Random) -> str:
    """A fast rule-of-thumb answer: score missions, attack, head for goals; pass on re-rolls."""
    legal = worth(state, seat, legal) or legal
    if len(legal) == 1:
        return legal[0]
    kind = decision_kind(state, seat)
    if kind in CHANCE_KINDS:
        return rng.choice(legal)
    if kind in ("reroll", "discard", "redraw", "adjudicate"):
        return legal[0]  # pass / keep / done
    if kind == "interrupt":
        plays = [c for c in legal if c != "pass"]
        return plays[0] if plays and rng.random() < 0.6 else "pass"
    if kind in ("search", "simultaneous", "free_action"):
        return next((c for c in legal if c != "pass"), legal[0])
    return best_scored(legal, prior(state, seat, legal), rng)


VERB_REASONS = {
    "attack": "attack when an enemy is in reach, the one with the lowest ratings first",
    "move": "head for the terminals its missions need, or for the nearest enemy",
    "special": "use a special ability, a card from hand first",
    "recover": "recover a stunned character",
    "draw": "draw when nothing better is at hand",
    "cycle": "cycle cards when nothing better is at hand",
    "cover": "take cover when nothing better is at hand",
    "opponent": "hit the rival with the most points who still holds cards",
    "pass": "pass when nothing else is worth doing",
}


def reason(state: GameState, seat: str, command: str) -> str:
    """The rule of thumb behind a command the policy chose (the easy level's explanation).
    It names verbs only, never a card."""
    kind = decision_kind(state, seat)
    verb = command.split(" ", 1)[0]
    if kind in CHANCE_KINDS:
        return f"{CHANCE_KINDS[kind]}: left to chance"
    if kind in ("reroll", "discard", "redraw", "adjudicate"):
        return "keep what it has: no re-roll, no discard, no redraw"
    if kind == "interrupt":
        return "play an interrupt when it can, more often than not" if verb != "pass" else \
            "hold its interrupts this time"
    if kind in ("search", "simultaneous", "free_action"):
        return "take what a card offers rather than pass"
    legal = rules.legal_commands(state, seat)
    legal = worth(state, seat, legal) or legal
    if wandered(legal, prior(state, seat, legal), command):
        return "try something different now and then (a random legal command)"
    if verb == "play":
        return "score a mission as soon as it can" if _is_mission(state, command) else "play a card when it can"
    return VERB_REASONS.get(verb, f"{verb} when nothing better is at hand")


def _is_mission(state: GameState, command: str) -> bool:
    return Table(state).pack.cards[command.split()[1]].kind == "mission"


def searched(state: GameState, seat: str) -> bool:
    """Setup choices (boards, core mission, starting area, placement) are left to the policy:
    a short playout cannot tell a good placement from a bad one."""
    kind = decision_kind(state, seat)
    return kind not in SETUP_KINDS


def turn_starts(state: GameState) -> bool:
    """Whether the game waits on a fresh action or activation (what came before is resolved)."""
    return state.phase != "action" or any(d.kind in ("action", "activate") for d in state.pending)
