"""Rounds: the organiser previews a pairing, then publishes it (with a deadline in seasons)."""
from __future__ import annotations

from engine.errors import RuleError
from engine.league.event import Event, Game, Round, discard_preview, require_status, log
from engine.league.pairing import Entrant, pair_first_round, pair_round, seeded_dice
from engine.league.standings import settle_ties, standings, totals
from engine.league.topcut import pair_cut

DAY = 86400


def complete_rounds(event: Event) -> set[int]:
    """The numbers of the rounds whose every game is final."""
    return {r.number for r in event.rounds if r.status == "complete"}


def pair_next_round(event: Event, actor: str, now: int) -> Round:
    """Make (or remake) the preview of the next round; the same state always gives the same preview."""
    require_status(event, "running")
    discard_preview(event)
    if event.rounds and event.rounds[-1].status != "complete":
        raise RuleError(f"Round {event.rounds[-1].number} still has games without a final result.")
    number = len(event.rounds) + 1
    if number > event.rounds_planned:
        if not event.top_cut:
            raise RuleError(f"All {event.rounds_planned} rounds have been paired.")
        settle_ties(event, event.rounds_planned, now)
        seeds = [row.player for row in standings(event, event.rounds_planned)
                 if event.players[row.player].dropped_after is None]
        rnd = pair_cut(event, number, seeds)
        event.rounds.append(rnd)
        log(event, actor, now, "pair", f"round {number} preview (top cut)")
        return rnd
    if sum(p.active_in(number) for p in event.players.values()) < 2:
        raise RuleError("Fewer than two players are left to pair.")
    if number == 1:
        entrants = [Entrant(p.id, p.name) for p in event.players.values() if p.active_in(1)]
        pairing = pair_first_round(entrants, seeded_dice(event.seed, "round", 1))
    else:
        settle_ties(event, number - 1, now)
        table = totals(event, number - 1)
        entrants = [
            Entrant(row.player, row.name, row.battle_points, row.tiebreak,
                    table[row.player].byes, frozenset(table[row.player].opponents))
            for row in standings(event, number - 1)
            if event.players[row.player].active_in(number)
        ]
        pairing = pair_round(entrants, event.rounds[-1].bye, event.profile.tiebreak_short)
    games = [Game(table=i + 1, players=pair) for i, pair in enumerate(pairing.pairs)]
    rnd = Round(number=number, games=games, bye=pairing.bye, notes=pairing.notes)
    event.rounds.append(rnd)
    log(event, actor, now, "pair", f"round {number} preview")
    return rnd


def publish_round(event: Event, actor: str, now: int) -> Round:
    """Make the previewed round live; a season round gets its deadline now."""
    require_status(event, "running")
    if not event.rounds or event.rounds[-1].status != "preview":
        raise RuleError("There is no previewed round to publish.")
    rnd = event.rounds[-1]
    rnd.status = "published"
    rnd.published = now
    if event.kind == "season":
        rnd.deadline = now + event.round_days * DAY
    else:
        rnd.started = now  # the round clock starts (engine/league/clock.py)
    log(event, actor, now, "publish", f"round {rnd.number}")
    return rnd


def cancel_round(event: Event, actor: str, now: int) -> Round:
    """Take back the latest published round while nobody has reported a result in it (a
    wrong pairing, a no-show to drop first): it becomes unpaired, ready to pair again."""
    require_status(event, "running")
    live = event.live_rounds()
    if not live or live[-1].status != "published":
        raise RuleError("There is no published round in play to cancel.")
    rnd = live[-1]
    reported = [g.table for g in rnd.games if g.under_way()]
    if reported:
        raise RuleError(f"Round {rnd.number} cannot be cancelled: table(s) {', '.join(map(str, reported))} "
                        "already have results, a bot game or an Arena under way; fix results with /league result instead.")
    discard_preview(event)
    event.rounds.remove(rnd)
    for player in event.players.values():  # a drop during the cancelled round now counts from it (L28)
        if player.dropped_after == rnd.number:
            player.dropped_after = rnd.number - 1
    log(event, actor, now, "cancel round", f"round {rnd.number}: {_pairing_text(event, rnd)}")
    return rnd


def repair_round(event: Event, actor: str, now: int) -> Round:
    """Pair the latest round again: a published round nobody has reported in is cancelled
    first; a preview is simply remade. The new pairing is a preview, to publish again; it
    differs only if something changed (a drop, a re-add, a fixed result), because the same
    event state always pairs the same way (ruling L28)."""
    require_status(event, "running")
    live = event.live_rounds()
    if live and live[-1].status == "published":
        cancel_round(event, actor, now)
    elif not (event.rounds and event.rounds[-1].status == "preview"):
        raise RuleError("There is no round being paired or played to pair again.")
    rnd = pair_next_round(event, actor, now)
    log(event, actor, now, "re-pair", f"round {rnd.number}: {_pairing_text(event, rnd)}")
    return rnd


def swap_players(event: Event, actor: str, now: int, first: str, second: str, note: str = "",
                 confirm: bool = False) -> Round:
    """Swap two players between tables of the latest round (previewed, or published with no
    report at those tables yet); either may be the bye. A swap that makes a rematch or gives
    the bye to a player who has had one is refused with the reason unless `confirm`ed
    (ruling L42). The round's notes then say what was changed by hand; the audit trail keeps it."""
    require_status(event, "running")
    if not event.rounds or event.rounds[-1].status == "complete":
        raise RuleError("There is no round being paired or played to change.")
    rnd = event.rounds[-1]
    if rnd.cut:
        raise RuleError("The top cut follows its bracket; players cannot be swapped there.")
    seats = {}
    for player in (first, second):
        if player not in event.players:
            raise RuleError("That player is not registered for this event.")
        game = rnd.game_of(player)
        if game is None and rnd.bye != player:
            raise RuleError(f"{event.players[player].name} is not in round {rnd.number}.")
        if game is not None and game.under_way():
            raise RuleError(f"Table {game.table} already has a report, a bot game or an Arena; it cannot change.")
        seats[player] = game
    if first == second or (seats[first] is not None and seats[first] is seats[second]):
        raise RuleError("Choose two players at different tables.")
    swapped = {first: second, second: first}
    warnings = swap_warnings(event, rnd, [tuple(swapped.get(p, p) for p in g.players) for g in seats.values() if g],
                             swapped.get(rnd.bye, rnd.bye))
    if warnings and not confirm:
        raise RuleError(" ".join(warnings) + " Swap again with confirm to make it anyway.")
    before, old_bye = _pairing_text(event, rnd), rnd.bye
    for player, other in ((first, second), (second, first)):
        game = seats[player]
        if game is None:
            rnd.bye = other
        else:
            game.players = tuple(other if p == player else p for p in game.players)
            game.verified = {}
    name = lambda p: event.players[p].name  # noqa: E731
    if rnd.bye != old_bye:  # the draw's reasons for the bye no longer hold
        rnd.notes = [n for n in rnd.notes if not n.startswith("Bye:")]
        rnd.notes.insert(0, f"Bye: {name(rnd.bye)}, given by hand (the draw gave it to {name(old_bye)}).")
    rnd.notes = rnd.notes + [f"Changed by hand: {name(first)} and {name(second)} swapped places"
                             + (f" ({note})" if note else "") + "."] + warnings
    log(event, actor, now, "swap", f"round {rnd.number}: {name(first)} <-> {name(second)}; was {before}; "
        f"now {_pairing_text(event, rnd)}" + (f" ({note})" if note else "")
        + (f"; confirmed: {' '.join(warnings)}" if warnings else ""))
    return rnd


def swap_warnings(event: Event, rnd: Round, tables: list[tuple[str, str]], bye) -> list[str]:
    """What a hand-made change would break of the pairing rules: rematches at `tables`, and a
    `bye` for a player who has had one."""
    name = lambda p: event.players[p].name  # noqa: E731
    earlier = [r for r in event.live_rounds() if r.number < rnd.number and not r.cut]
    warnings = []
    for a, b in tables:
        met = [r.number for r in earlier if any(set(g.players) == {a, b} for g in r.games)]
        if met:
            warnings.append(f"Rematch: {name(a)} and {name(b)} met in round {met[-1]}.")
    had = [r.number for r in earlier if r.bye == bye]
    if bye is not None and had:
        warnings.append(f"{name(bye)} had the bye in round {had[-1]} and would have it again.")
    return warnings


def _pairing_text(event: Event, rnd: Round) -> str:
    name = lambda p: event.players[p].name  # noqa: E731
    tables = [f"T{g.table} {name(g.players[0])}-{name(g.players[1])}" for g in rnd.games]
    return ", ".join(tables + ([f"bye {name(rnd.bye)}"] if rnd.bye else []))


def current_round(event: Event) -> Round:
    """The latest live round."""
    live = event.live_rounds()
    if not live:
        raise RuleError("No round has been published yet.")
    return live[-1]


def open_game(event: Event, player: str) -> Game:
    """The player's game in the latest live round, while it has no final result."""
    rnd = current_round(event)
    game = rnd.game_of(player)
    if game is None:
        raise RuleError(f"You have no game in round {rnd.number}.")
    if game.status == "final":
        raise RuleError("That game's result is final; ask an organiser to change it.")
    return game
