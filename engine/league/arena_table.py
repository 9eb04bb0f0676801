"""The Arena at a league table: both players name their captains, then play the scenario's
Captains' Battle (engine/league/arena.py) inside the event, and its Fleet Point bonus
flows into the table's result (ruling L27).

    declare_captains(event, "u1", [("Kirk", 8), ("Sulu", 5)], now)
    declare_captains(event, "u2", [("Kor", 7)], now)      # both named: the Arena is set up
    game, events = arena_command(event, "u1", "end", now)
"""
from __future__ import annotations

from typing import Optional

from engine.errors import RuleError
from engine.league import arena
from engine.league.clock import time_up
from engine.league.event import Event, Game, locked_build, log, require_status
from engine.league.pairing import seeded_dice
from engine.league.rounds import current_round, open_game


def arena_game(event: Event, player: str) -> Game:
    """The player's table in the current round, if the event plays the Arena and the table is open."""
    require_status(event, "running")
    if event.scenario != "arena":
        raise RuleError("This event does not play the Arena scenario.")
    return open_game(event, player)


def initiative(event: Event, game: Game) -> tuple[str, str]:
    """Who has initiative at the table, and why: the smaller locked build; equal builds
    roll a die from the event's seed (ruling L26)."""
    a, b = game.players
    totals = {p: locked_build(event, p).total for p in (a, b)}
    if totals[a] != totals[b]:
        first = min((a, b), key=lambda p: totals[p])
        return first, f"the smaller fleet ({totals[first]} against {totals[game.opponent(first)]} squad points)"
    rnd = current_round(event)
    first = (a, b)[seeded_dice(event.seed, "initiative", rnd.number, game.table).below(2)]
    return first, f"equal fleets ({totals[a]} squad points): won on a die roll"


def declare_captains(event: Event, player: str, fleet: list[tuple[str, int]], now: int) -> Game:
    """Name your captains and their skills; once both have, the Arena is set up at the table.
    They can be named again until the Arena starts."""
    game = arena_game(event, player)
    if game.battle is not None:
        raise RuleError("The Arena has started at your table; the captains are set.")
    if time_up(event, current_round(event), now):
        raise RuleError("Time is up in this round: the Arena cannot begin.")
    game.captains = {**game.captains, player: [(name, skill) for name, skill in fleet]}
    names = ", ".join(f"{n} {s}" for n, s in fleet)
    log(event, player, now, "arena captains", f"{event.players[player].name}: {names}")
    if len(game.captains) == 2:
        first, why = initiative(event, game)
        game.battle = arena.new_battle({p: game.captains[p] for p in game.players}, first,
                                       seeded_dice(event.seed, "arena", current_round(event).number,
                                                   game.table).state)
        log(event, "dice", now, "arena", f"table {game.table}: {event.players[first].name} has initiative, {why}")
    return game


def arena_command(event: Event, player: str, command: str, now: int) -> tuple[Game, list[dict]]:
    """One command of the Arena at the player's table (see engine/league/arena.py)."""
    game = arena_game(event, player)
    if game.battle is None:
        waiting = [event.players[p].name for p in game.players if p not in game.captains]
        raise RuleError(f"The Arena starts once both players have named their captains (waiting: {', '.join(waiting)}).")
    if time_up(event, current_round(event), now):
        raise RuleError("Time is up in this round: the Arena stops where it is.")
    if game.battle.phase == "over":
        raise RuleError("The Captains' Battle is over at your table; play on in space and report the result.")
    game.battle, events = arena.apply(game.battle, player, command)
    result = game.battle.result
    if result is not None:
        name = lambda p: event.players[p].name  # noqa: E731
        kept = "; ".join(f"{name(p)} {', '.join(s) or 'none'}" for p, s in result.survivors.items())
        log(event, player, now, "captains' battle",
            f"table {game.table}: {name(result.winner)} wins; survivors: {kept}; bonus "
            + ", ".join(f"{name(p)} +{b}" for p, b in result.bonus.items()))
    return game, events


def check_bonus(event: Event, game: Game, bonus: dict[str, int]) -> None:
    """Refuse a result's bonus the Captains' Battle cannot have given (ruling L40): the
    battle recorded here gave exactly its bonus; without one (an Arena played at the table)
    only one player, the battle's winner, scores 15 per surviving captain, at most one per
    captain the fleet has; an event without the Arena has no bonus."""
    name = lambda p: event.players[p].name  # noqa: E731
    recorded = battle_bonus(game)
    if recorded is not None:
        if bonus != recorded:
            given = ", ".join(f"{name(p)} +{b}" for p, b in sorted(recorded.items()))
            if not given:
                raise RuleError("The Captains' Battle at this table gave no bonus (it did not finish), "
                                "so none is reported.")
            raise RuleError(f"The Captains' Battle at this table gave {given}; the result carries that bonus.")
        return
    scoring = {p: b for p, b in bonus.items() if b}
    if not scoring:
        return
    if event.scenario != "arena":
        raise RuleError("This event plays no scenario that gives bonus Fleet Points: report without a bonus.")
    if len(scoring) > 1:
        raise RuleError("Only the winner of the Captains' Battle scores its bonus: give a bonus to one player.")
    [(player, points)] = scoring.items()
    most = arena.BONUS_PER_SURVIVOR * captains_at_most(event, game, player)
    if points % arena.BONUS_PER_SURVIVOR or points > most:
        raise RuleError(f"{name(player)}'s bonus is {arena.BONUS_PER_SURVIVOR} per captain surviving the "
                        f"Captains' Battle: a multiple of {arena.BONUS_PER_SURVIVOR} up to {most}.")


def captains_at_most(event: Event, game: Game, player: str) -> int:
    """How many captains can survive the Captains' Battle for `player`: those named at the
    table; else the sheet's entries of kind "captain", when its entries say their kind;
    else one per entry (a sheet typed as NAME POINTS lines does not say which are captains)."""
    named = game.captains.get(player)
    if named:
        return len(named)
    entries = locked_build(event, player).entries
    if any(e.kind for e in entries):
        return sum(e.kind == "captain" for e in entries)
    return len(entries)


def battle_bonus(game: Game) -> Optional[dict[str, int]]:
    """The Fleet Point bonus the Captains' Battle played at this table gives each player: its
    survivors' bonus once over, none while it is unfinished (L32); None if no battle is played here."""
    if game.battle is None:
        return None
    if game.battle.result is None:
        return {}
    return {p: b for p, b in game.battle.result.bonus.items() if b}
