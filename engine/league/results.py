"""Results: build sign-off, both players report, organisers settle disputes and fix results.

Matching reports make a result final; different reports put the game in the organisers'
queue with both claims. A round is complete when all its games are final; then ties in
the standings are settled by a recorded roll-off.
"""
from __future__ import annotations

from typing import Optional, Union

from engine.errors import RuleError
from engine.league.arena_table import check_bonus
from engine.league.builds import Build
from engine.league.event import Claim, Event, Game, Round, discard_preview, locked_build, require_status, log
from engine.league.rounds import current_round, open_game
from engine.league.standings import played_tiebreak, settle_ties


def verify_build(event: Event, verifier: str, sheet: Union[Build, str], now: int = 0) -> Game:
    """Sign off the opponent's locked build before this round's game, by its hash or by
    the sheet the opponent shows (compared with the locked hash)."""
    require_status(event, "running")
    game = open_game(event, verifier)
    opponent = event.players[game.opponent(verifier)]
    locked_build(event, opponent.id)  # the stored sheet must still be the one locked
    build_hash = sheet.digest() if isinstance(sheet, Build) else sheet
    if build_hash != opponent.build_hash:
        raise RuleError(f"That is not {opponent.name}'s locked build (its hash is {opponent.build_hash}).")
    game.verified[verifier] = build_hash
    log(event, verifier, now, "sign-off",
        f"{event.players[verifier].name} signed off {opponent.name}'s build {build_hash}")
    return game


def report(event: Event, player: str, claim: Claim, now: int = 0) -> Game:
    """A player's report of this round's game; returns the game with its new status.

    The audit trail keeps every report, a correction with the claim it replaces, and the
    confirmation when both reports match."""
    require_status(event, "running")
    if claim.outcome == "forfeit":
        raise RuleError("Forfeits are decided by the deadline policy or an organiser.")
    check_reporter(event, player, claim.winner)
    game = open_game(event, player)
    check_claim(event, game, claim)
    earlier = game.claims.get(player)
    game.claims[player] = claim
    rnd = current_round(event)
    where = f"round {rnd.number} table {game.table}"
    change = f" (was: {describe(event, earlier)})" if earlier is not None else ""
    log(event, player, now, "report", f"{where}: {event.players[player].name} reports {describe(event, claim)}{change}")
    if len(game.claims) == 2:
        first, second = game.claims.values()
        if first == second:
            _finalise(event, rnd, game, first, now)
            log(event, "players", now, "confirmed", f"{where}: both reports match: {describe(event, first)}")
        else:
            game.status = "disputed"
    return game


def check_reporter(event: Event, player: str, winner: Optional[str]) -> None:
    """Refuse a report of a game the reporter does not play: only its two players report
    it (organisers enter results)."""
    rnd = current_round(event)
    own = rnd.game_of(player)
    if own is not None and (winner is None or winner in own.players):
        return
    theirs = rnd.game_of(winner) if winner is not None else None
    if theirs is not None:
        names = " and ".join(event.players[p].name for p in theirs.players)
        raise RuleError(f"Table {theirs.table} is {names}'s game: only its two players report it "
                        "(organisers enter results).")
    if own is None:
        raise RuleError(f"You have no game in round {rnd.number}: only a game's two players report it "
                        "(organisers enter results).")


def disputes(event: Event) -> list[tuple[Round, Game]]:
    """The organisers' queue: every disputed game with both claims."""
    return [(r, g) for r in event.live_rounds() for g in r.games if g.status == "disputed"]


def resolve(event: Event, actor: str, now: int, round_number: int, table: int, claim: Claim, note: str = "") -> Game:
    """An organiser sets or fixes a result (any outcome); the audit trail keeps before and after."""
    require_status(event, "running", "closed")
    rnd, game = _game_at(event, round_number, table)
    check_claim(event, game, claim)
    before = describe(event, game.result) if game.result else game.status
    _finalise(event, rnd, game, claim, now)
    detail = f"round {round_number} table {table}: {before} -> {describe(event, claim)}"
    log(event, actor, now, "result", detail + (f" ({note})" if note else ""))
    if event.rounds and event.rounds[-1].status == "preview":
        discard_preview(event)  # it was paired from the results before this change
        log(event, actor, now, "preview discarded", "a result changed; pair the next round again")
    return game


def link_game(event: Event, round_number: int, table: int, game_id: str) -> Game:
    """Tie a game the bot runs to a pairing, so it reports itself when it ends."""
    _rnd, game = _game_at(event, round_number, table)
    if game.status == "final":
        raise RuleError("That pairing already has a final result.")
    game.linked_game = game_id
    return game


def report_linked(event: Event, game_id: str, claim: Claim, now: int) -> Optional[Game]:
    """The result of a linked bot-run game, final at once; None if no pairing is linked to it."""
    for rnd in event.live_rounds():
        for game in rnd.games:
            if game.linked_game == game_id and game.status != "final":
                check_claim(event, game, claim)
                _finalise(event, rnd, game, claim, now)
                log(event, f"game:{game_id}", now, "result", f"round {rnd.number} table {game.table}: {describe(event, claim)}")
                return game
    return None


def apply_deadlines(event: Event, now: int) -> list[Game]:
    """The missed-deadline policy for season rounds past their deadline.

    A game nobody reported is not played (0-0). A game only one player reported stands as
    that report, except that a reporter's own win becomes a win by forfeit (the opponent
    never confirmed the points). Disputed games wait for an organiser.
    """
    if event.status != "running":
        return []
    decided = []
    for rnd in event.live_rounds():
        if rnd.deadline is None or rnd.deadline > now:
            continue
        for game in rnd.games:
            if game.status != "pending":
                continue
            claim = Claim(outcome="not_played")
            for reporter, lone in game.claims.items():
                claim = Claim(outcome="forfeit", winner=reporter) if lone.winner == reporter else lone
            _finalise(event, rnd, game, claim, now)
            log(event, "deadline", now, "result", f"round {rnd.number} table {game.table}: {describe(event, claim)}")
            decided.append(game)
    return decided


def check_claim(event: Event, game: Game, claim: Claim) -> None:
    """Refuse a claim that does not fit the game or the event's scoring profile."""
    players = set(game.players)
    names = {p: event.players[p].name for p in players}
    if game.knockout and claim.winner is None:
        raise RuleError("A top-cut game needs a winner (a roll-off at the table settles a level game).")
    if claim.outcome != "played":
        if claim.surviving or claim.mission_points or claim.bonus:
            raise RuleError("Only a played game carries points.")
        if claim.outcome == "not_played" and claim.winner is not None:
            raise RuleError("A game not played has no winner.")
        if claim.winner is not None and claim.winner not in players:
            raise RuleError("The winner must be one of the two players.")
        return
    if claim.winner not in players:
        raise RuleError("A played game needs a winner, one of the two players.")
    if set(claim.bonus) - players or any(v < 0 for v in claim.bonus.values()):
        raise RuleError("Bonus points go to the two players and cannot be negative.")
    check_bonus(event, game, claim.bonus)
    if event.profile.tiebreak == "fleet_points":
        if claim.mission_points or set(claim.surviving) != players:
            raise RuleError("Report the squad points left in each player's surviving fleet.")
        for p in players:
            left, sheet = claim.surviving[p], locked_build(event, p)
            if not 0 <= left <= sheet.fleet_cost:
                raise RuleError(f"{names[p]}'s surviving fleet must be between 0 and {sheet.fleet_cost} squad points "
                                "(the resource is no part of it).")
            if not sheet.can_survive(left):
                costs = ", ".join(str(e.points) for e in sheet.entries)
                raise RuleError(f"{names[p]}'s surviving fleet cannot be {left} squad points: it must be the cost of "
                                f"some of the build's entries ({costs}).")
        winner, loser = claim.winner, game.opponent(claim.winner)
        if claim.surviving[loser] == 0:
            return  # the loser was eliminated: the game ended there, whatever the points
        if claim.surviving[winner] == 0:
            raise RuleError(f"{names[winner]}'s fleet was destroyed while {names[loser]}'s survived: "
                            f"{names[loser]} won.")
        # both fleets survived: the time limit ended it, and the most Fleet Points (bonus included) wins
        mine, theirs = played_tiebreak(event, claim, winner, loser), played_tiebreak(event, claim, loser, winner)
        if mine < theirs:
            raise RuleError(f"At time the most Fleet Points win: {names[winner]} has {mine}, "
                            f"{names[loser]} {theirs} (bonus included).")
    else:
        if claim.surviving or set(claim.mission_points) != players:
            raise RuleError("Report the mission points each player scored.")
        if any(v < 0 for v in claim.mission_points.values()):
            raise RuleError("Mission points cannot be negative.")


def describe(event: Event, claim: Claim) -> str:
    """A claim in one line of plain words."""
    name = lambda p: event.players[p].name  # noqa: E731
    if claim.outcome == "not_played":
        return "not played (0-0)"
    if claim.outcome == "forfeit":
        return f"{name(claim.winner)} wins by forfeit" if claim.winner else "both forfeit"
    if event.profile.tiebreak == "fleet_points":
        detail = ", ".join(f"{name(p)} {sp} SP left" for p, sp in sorted(claim.surviving.items()))
    else:
        detail = ", ".join(f"{name(p)} {mp} MP" for p, mp in sorted(claim.mission_points.items()))
    bonus = "".join(f", {name(p)} +{b} bonus" for p, b in sorted(claim.bonus.items()) if b)
    return f"{name(claim.winner)} wins ({detail}{bonus})"


def round_results(event: Event, number: int) -> list[str]:
    """Round `number`'s results, a line per table in table order, then its bye and the
    players through to the next round of the top cut without a game."""
    rnd = next(r for r in event.rounds if r.number == number)
    name = lambda p: event.players[p].name  # noqa: E731
    lines = [f"Table {g.table}: {name(g.players[0])} vs {name(g.players[1])}: "
             + (describe(event, g.result) if g.result else "no result yet") for g in rnd.games]
    lines += [f"Bye: {name(rnd.bye)}"] if rnd.bye else []
    lines += [f"Through without a game: {name(p)}" for p in rnd.advanced]
    return lines


def _game_at(event: Event, round_number: int, table: int) -> tuple[Round, Game]:
    for rnd in event.live_rounds():
        if rnd.number == round_number:
            for game in rnd.games:
                if game.table == table:
                    return rnd, game
    raise RuleError(f"There is no table {table} in a published round {round_number}.")


def _finalise(event: Event, rnd: Round, game: Game, claim: Claim, now: int) -> None:
    game.result = claim
    game.status = "final"
    if rnd.status == "published" and all(g.status == "final" for g in rnd.games):
        rnd.status = "complete"
    if rnd.status == "complete":
        for later in event.live_rounds():
            if later.number >= rnd.number and later.status == "complete" and not later.cut:
                settle_ties(event, later.number, now)
