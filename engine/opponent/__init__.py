"""The computer opponent: plays a seat from that seat's view, at three levels.

    from engine.opponent import choose, LEVELS
    choice = choose("awaymissions", view, "p2", LEVELS["normal"], seed=7)
    choice.command, choice.top(3)   # the command, and the best candidates with win rates

`decide(ruleset, state, seat, ...)` is the same from a whole state: it passes only
`view_for(state, seat)` on, so what the seat cannot see cannot change the answer.
Rulesets: "awaymissions" (any seat of a table of two to four, teams too) and "renegades"
(a computer crew flying a player's ship; awaymissions.py and renegades.py are the adapters).
Pure: no Discord, SQL, asyncio or images.
"""
from __future__ import annotations

from typing import Any, Sequence

from engine import rulesets
from engine.opponent import awaymissions as _am
from engine.opponent import renegades as _rg
from engine.opponent.search import LEVELS, Candidate, Choice, Game, Level, choose as _choose

__all__ = ["LEVELS", "Level", "Choice", "Candidate", "Game", "GAMES", "choose", "decide", "level", "explanation",
           "cut_note"]

AWAY_MISSIONS = Game(
    determiniser=_am.Determiniser,
    legal_commands=rulesets.AWAY_MISSIONS.legal_commands,
    apply=rulesets.AWAY_MISSIONS.apply,
    awaited=rulesets.AWAY_MISSIONS.awaited,
    is_over=lambda state: state.phase == "over",
    evaluate=_am.evaluate,
    policy=_am.policy,
    prior=_am.prior,
    searched=_am.searched,
    turn_starts=_am.turn_starts,
    reason=_am.reason,
    worth=_am.worth,
)

RENEGADES = Game(
    determiniser=_rg.Determiniser,
    legal_commands=rulesets.RENEGADES.legal_commands,
    apply=rulesets.RENEGADES.apply,
    awaited=rulesets.RENEGADES.awaited,
    is_over=lambda state: state.phase == "over",
    evaluate=_rg.evaluate,
    policy=_rg.policy,
    prior=_rg.prior,
    searched=_rg.searched,
    turn_starts=_rg.turn_starts,
    worth=_rg.worth,
    reason=_rg.reason,
)

GAMES: dict[str, Game] = {"awaymissions": AWAY_MISSIONS, "renegades": RENEGADES}


def level(name: str) -> Level:
    """The level called `name` (easy, normal, hard), or ValueError."""
    try:
        return LEVELS[name.lower()]
    except KeyError:
        raise ValueError(f"Unknown level '{name}' (choose from {', '.join(LEVELS)}).") from None


def choose(ruleset: str, view: dict, seat: str, level: Level, seed: int = 0, *, timed: bool = True) -> Choice:
    """The command the computer plays for `seat`, seeing only `view` (that seat's view)."""
    return _choose(GAMES[ruleset], view, seat, level, seed, timed=timed)


def decide(ruleset: str, state: Any, seat: str, view_for, level: Level, seed: int = 0, *,
           timed: bool = True) -> Choice:
    """`choose` from a whole state: only `view_for(state, seat)` reaches the search."""
    return choose(ruleset, view_for(state, seat), seat, level, seed, timed=timed)


def explanation(choice: Choice, hidden: Sequence[str] = ()) -> str:
    """The best 3 candidates with their estimated win rates, one line each; cards the computer
    holds (`hidden`) read 'a card', so an explanation shows no hand. A choice made without a
    search (the easy level, set-up choices) names its rule of thumb; a forced one says nothing.
    A search the time cap cut short says so on a last line (`cut_note`)."""
    def masked(command: str) -> str:
        return " ".join("a card" if word in hidden else word for word in command.split())
    if not any(c.playouts for c in choice.candidates):
        lines = [f"Rule of thumb: {choice.reason}."] if choice.reason else []
    else:
        lines = [f"{n}. {masked(c.command)}: {c.win_rate:.0%} estimated win rate ({c.playouts} playouts)"
                 for n, c in enumerate(choice.top(3), 1)]
    return "\n".join(lines + ([cut_note(choice)] if choice.cut is not None else []))


def cut_note(choice: Choice) -> str:
    """The line saying that the time cap, not the budget, ended a search."""
    return (f"Out of time: the {choice.cut:g} s safety cap stopped the search after {choice.playouts} "
            f"of its {choice.budget} playouts.")
