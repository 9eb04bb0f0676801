"""Rounds: the organiser previews a pairing, then publishes it (with a deadline in seasons)."""
from __future__ import annotations

from engine.errors import RuleError
from engine.league.event import Event, Game, Round, discard_preview, require_status, log
from engine.league.pairing import Entrant, pair_first_round, pair_round, seeded_dice
from engine.league.standings import settle_ties, standings, totals

DAY = 86400


def pair_next_round(event: Event, actor: str, now: int) -> Round:
    """Make (or remake) the preview of the next round; the same state always gives the same preview."""
    require_status(event, "running")
    discard_preview(event)
    if event.rounds and event.rounds[-1].status != "complete":
        raise RuleError(f"Round {event.rounds[-1].number} still has games without a final result.")
    number = len(event.rounds) + 1
    if number > event.rounds_planned:
        raise RuleError(f"All {event.rounds_planned} rounds have been paired.")
    if sum(p.active_in(number) for p in event.players.values()) < 2:
        raise RuleError("Fewer than two players are left to pair.")
    if number == 1:
        entrants = [Entrant(p.id, p.name) for p in event.players.values() if p.active_in(1)]
        pairing = pair_first_round(entrants, seeded_dice(event.seed, "round", 1))
    else:
        settle_ties(event, number - 1)
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
    if event.kind == "season":
        rnd.deadline = now + event.round_days * DAY
    log(event, actor, now, "publish", f"round {rnd.number}")
    return rnd


def current_round(event: Event) -> Round:
    """The latest live round."""
    live = event.live_rounds()
    if not live:
        raise RuleError("No round has been published yet.")
    return live[-1]
