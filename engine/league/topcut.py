"""The top cut: single elimination of the best N players after the Swiss rounds.

The bracket is seeded from the final Swiss standings, 1 against N, 2 against N-1 and so
on, laid out so that the first two seeds can meet only in the final. When N is not a power
of two the bracket is filled up to the next one with empty places, and the top seeds
facing an empty place go through to the next round without a game. Cut games score no
Battle or Fleet Points; they decide the places of the players in the cut (ruling L30).
"""
from __future__ import annotations

from typing import Optional

from engine.errors import RuleError
from engine.league.event import Event, Game, Round


def seed_order(size: int) -> list[int]:
    """Seeds (1-based) in bracket order for a bracket of `size` places, a power of two:
    8 -> [1, 8, 4, 5, 2, 7, 3, 6]."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def first_bracket(seeds: list[str]) -> list[str]:
    """The players (best seed first) placed in bracket order, "" where a place is empty."""
    size = 1
    while size < len(seeds):
        size *= 2
    return [seeds[s - 1] if s <= len(seeds) else "" for s in seed_order(size)]


def winner_of(rnd: Round, a: str, b: str) -> Optional[str]:
    """Who comes through a place pair of a cut round: the game's winner, or the one player
    facing an empty place; None while their game has no final result."""
    if not a or not b:
        return a or b
    game = next(g for g in rnd.games if set(g.players) == {a, b})
    return game.result.winner if game.status == "final" and game.result else None


def next_bracket(rnd: Round) -> list[str]:
    """The bracket of the round after a complete cut round."""
    pairs = zip(rnd.bracket[::2], rnd.bracket[1::2])
    return [winner_of(rnd, a, b) or "" for a, b in pairs]


def cut_round(number: int, bracket: list[str]) -> Round:
    """A cut round from its bracket: a game per pair of players, the rest go through."""
    games, advanced = [], []
    for a, b in zip(bracket[::2], bracket[1::2]):
        if a and b:
            games.append(Game(table=len(games) + 1, players=(a, b), knockout=True))
        elif a or b:
            advanced.append(a or b)
    notes = [f"Top cut: {len(games)} game(s)" + (f"; through without a game: {len(advanced)}" if advanced else "")]
    return Round(number=number, games=games, notes=notes, cut=True, bracket=list(bracket), advanced=advanced)


def pair_cut(event: Event, number: int, seeds: list[str]) -> Round:
    """The next round of the top cut; `seeds` are the active players in Swiss order, used
    for the first cut round."""
    cut = [r for r in event.live_rounds() if r.cut]
    if not cut:
        chosen = seeds[:event.top_cut]
        if len(chosen) < 2:
            raise RuleError("Fewer than two players are left for the top cut.")
        return cut_round(number, first_bracket(chosen))
    bracket = next_bracket(cut[-1])
    if len(bracket) < 2:
        raise RuleError("The top cut is over: its final has been played.")
    return cut_round(number, bracket)


def cut_places(event: Event, swiss_order: list[str]) -> list[str]:
    """The players of the top cut, best first: the later a player lost, the better; players
    who went out in the same round (or are still in) keep their Swiss order."""
    cut = [r for r in event.live_rounds() if r.cut]
    if not cut:
        return []
    players = [p for p in cut[0].bracket if p]
    out_in: dict[str, int] = {}
    for index, rnd in enumerate(cut):
        for game in rnd.games:
            if game.status == "final" and game.result and game.result.winner:
                out_in[game.opponent(game.result.winner)] = index
    still_in = len(cut)
    return sorted(players, key=lambda p: (-out_in.get(p, still_in), swiss_order.index(p)))


def champion(event: Event) -> Optional[str]:
    """The winner of the top cut's final, once it is played."""
    cut = [r for r in event.live_rounds() if r.cut]
    if not cut or cut[-1].status != "complete":
        return None
    bracket = next_bracket(cut[-1])
    return bracket[0] if len(bracket) == 1 else None
