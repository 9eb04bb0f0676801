"""Rebuild games from their seed and command log, check them against the stored state,
and print their log in readable form.

    python -m engine.service.replay games.db            # check every started game
    python -m engine.service.replay games.db 12 --log   # check game 12 and print its log
    python -m engine.service.replay games.db 12 --log --secrets   # ... with private lines too
    python -m engine.service.replay games.db 12 --verify  # ... and prove every roll came from the sealed seed
    python -m engine.service.replay games.db --campaign 3 --log   # a Renegades campaign and its missions

With no game named, every started game and every campaign is checked.

--verify also checks the game's dice seal (SHA-256 of salt and seed, shown in its thread
at the start) and replays the log one command at a time, comparing every logged event
(each roll's faces) with what the seed gives. Exits with status 1 if any game does not rebuild to exactly its stored state or the file
fails SQLite's integrity check (checked first, before any game is called OK), and 2 when
there is no such database file or it cannot be opened.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from dataclasses import dataclass
from typing import Any, Iterable, Optional

import msgspec

from db import Database, DatabaseBusy, GameRow, LogEntry, SchemaTooNew, integrity_problems, is_postgres
from db.backend import sqlite_path
from db.campaign_store import CampaignStore
from db.player_store import PlayerStore
from engine.errors import RuleError
from engine.renegades.campaign import campaign
from engine.service import audit, rules_version, text
from engine.service.rulesets import RULESETS, Ruleset


@dataclass(frozen=True)
class Check:
    """The outcome of rebuilding one game."""

    game_id: int
    ok: bool
    stored_version: int
    commands: int
    problem: Optional[str] = None


TAKE_BACK = "take back"  # a log entry of the service: the command before it was taken back


def rebuild(ruleset: Ruleset, config: dict, seed: int, commands: Iterable[tuple[str, str]]) -> Any:
    """The state reached by dealing `config` with `seed` and applying (seat, command) in order;
    a TAKE_BACK entry returns to the state before the command it follows."""
    state = ruleset.new_game(config, seed)
    before = None
    for seat, command in commands:
        if command == TAKE_BACK:
            if before is None:
                raise RuleError("A take-back follows no command that could be taken back.")
            state, before = taken_back(before, state.version + 1), None
            continue
        before = state
        state, _ = ruleset.apply(state, seat, command)
    return state


def before_last(ruleset: Ruleset, config: dict, seed: int, commands: list[tuple[str, str]], stored: Any) -> Any:
    """The state before the last of `commands` (not a take-back), rebuilt from the deal.
    RuleError when the rebuild does not reach `stored`: a game dealt under other rules or
    cards than the running ones, whose earlier state cannot be known exactly."""
    *earlier, (seat, command) = commands
    try:
        before = rebuild(ruleset, config, seed, earlier)
        after, _ = ruleset.apply(before, seat, command)
    except RuleError:
        after = None
    if after is None or ruleset.to_json(after) != ruleset.to_json(stored):
        raise RuleError("This game began under an earlier version of the rules or cards, so the state "
                        "before its last action cannot be rebuilt exactly: the action stands.")
    return before


def taken_back(before: Any, version: int) -> Any:
    """The state `before` an action, as the game's next version once the action is taken back."""
    return msgspec.structs.replace(before, version=version)


def carried_forward(ruleset: Ruleset, state: Any, logged: Iterable[str]) -> Any:
    """A stored `state` in the running engine's shape (R92): as it is, or carried forward
    from the game's logged events (`logged`: each log entry's events JSON, in order) when it
    was stored before a field only the log can fill."""
    if state is None or not ruleset.outdated(state):
        return state
    return ruleset.carry_forward(state, [event for events in logged for event in json.loads(events)])


def stored_json(ruleset: Ruleset, text: str, logged: Iterable[str]) -> bytes:
    """The stored state's JSON as the running engine would have stored it (R92): `text`
    itself, or the carried-forward state's JSON. Text that does not decode stays as it is."""
    try:
        state = ruleset.from_json(text)
        carried = carried_forward(ruleset, state, logged)
    except ValueError:
        return text.encode()
    return text.encode() if carried is state else ruleset.to_json(carried)


def check(row: GameRow, log: list[LogEntry]) -> Check:
    """Rebuild a stored game from its log and compare it with its stored state, byte for byte
    (a state stored in an earlier shape carried forward first, R92)."""
    ruleset, config = RULESETS[row.ruleset], json.loads(row.config)
    expected = list(range(1, len(log) + 1))
    if [e.seq for e in log] != expected:
        return Check(row.id, False, row.version, len(log), "the log has gaps or is out of order")
    try:
        state = rebuild(ruleset, config, row.seed, ((e.seat, e.command) for e in log))
    except RuleError as error:
        return Check(row.id, False, row.version, len(log), f"a logged command was refused: {error}{_since(ruleset, config)}")
    if not audit.same_state(ruleset.to_json, ruleset.from_json, state,
                            stored_json(ruleset, row.state, (e.events for e in log)).decode()):
        return Check(row.id, False, row.version, len(log),
                     f"rebuilt state (version {state.version}) differs from the stored one{_since(ruleset, config)}")
    return Check(row.id, True, row.version, len(log))


def _since(ruleset: Ruleset, config: dict) -> str:
    """A note when the game started under other rules or cards than the running ones."""
    played = config.get(rules_version.KEY)
    if played is None:
        return " (the game predates the record of its rules version; the rules or cards may have changed since)"
    if played is not None and played != rules_version.of(ruleset, config):
        return f" (played under rules version {played}, now {rules_version.of(ruleset, config)})"
    return ""


async def check_campaign(database: Database, campaign_id: int) -> Check:
    """Rebuild a stored campaign from its seed and log, each mission's end from its game
    rebuilt from that game's own log, and compare it with the stored campaign, byte for byte."""
    store = CampaignStore(database)
    row = await store.get(campaign_id)
    log = await store.log(campaign_id)
    if [e.seq for e in log] != list(range(1, len(log) + 1)):
        return Check(campaign_id, False, row.version, len(log), "the log has gaps or is out of order")
    try:
        state = campaign.new_campaign(json.loads(row.config), row.seed)
        for entry in log:
            outcome = None
            if entry.game_id is not None:
                game = await database.game(entry.game_id)
                played = check(game, await database.log(entry.game_id))
                if not played.ok:
                    return Check(campaign_id, False, row.version, len(log),
                                 f"mission game #{entry.game_id}: {played.problem}")
                outcome = campaign.outcome_of(RULESETS[game.ruleset].from_json(game.state))
            state, _ = campaign.apply(state, entry.seat or state.seats[0], entry.command, outcome)
    except RuleError as error:
        return Check(campaign_id, False, row.version, len(log), f"a logged command was refused: {error}")
    if not audit.same_state(campaign.to_json, campaign.from_json, state, row.state):
        return Check(campaign_id, False, row.version, len(log),
                     f"rebuilt campaign (version {state.version}) differs from the stored one")
    return Check(campaign_id, True, row.version, len(log))


def log_lines(log: list[LogEntry], names: dict[str, str], secrets: bool = False) -> list[str]:
    """The log as text: each command, then what happened (private lines only with `secrets`)."""
    lines = []
    for entry in log:
        who = f"{names.get(entry.seat, entry.seat)} ({entry.seat})"
        lines.append(f"{entry.seq:5d}  {who}: {entry.command}")
        events = json.loads(entry.events)
        lines += [f"         {text.public_line(e, names)}" for e in events]
        if secrets:
            for seat, private in text.private_lines(events).items():
                lines += [f"         [to {names.get(seat, seat)}] {line}" for line in private]
    return lines


async def _verify(database: Database, row: GameRow, log: list[LogEntry]) -> tuple[bool, str]:
    """(ok, line) of the dice audit of one game: its seal, every logged event, the final state."""
    sealed = await PlayerStore(database).seal(row.id)
    verdict = audit.verify(RULESETS[row.ruleset], json.loads(row.config), row.seed,
                           [(e.seq, e.seat, e.command, e.events) for e in log], row.state,
                           salt=sealed.salt if sealed else None, digest=sealed.digest if sealed else None)
    seal = "seal OK" if sealed else "no dice seal: only the rolls were checked against the stored seed"
    if verdict.ok:
        return True, f"dice VERIFIED ({seal}; {verdict.rolls} rolls in {verdict.commands} commands match the seed)"
    if verdict.rules_changed:
        return False, f"dice NOT VERIFIABLE today: {verdict.rules_changed}; the replay: " + "; ".join(verdict.problems)
    return False, "DICE VERIFICATION FAILED: " + "; ".join(verdict.problems)


async def _run(path: str, game_ids: list[int], show_log: bool, secrets: bool, verify: bool = False,
               campaign_ids: Optional[list[int]] = None) -> int:
    if not is_postgres(path):
        if not os.path.isfile(sqlite_path(path)):
            print(f"{path}: no such database file", file=sys.stderr)
            return 2
        damage = await integrity_problems(sqlite_path(path))
        if damage:
            print(f"{path}: DAMAGED, the integrity check failed; no game was replayed:", file=sys.stderr)
            print("\n".join(f"  {line}" for line in damage[:20]), file=sys.stderr)
            return 1
    try:
        database = await Database.open(path)
    except (SchemaTooNew, DatabaseBusy) as error:
        print(f"{path}: {error}", file=sys.stderr)
        return 2
    failures = 0
    try:
        if not game_ids and campaign_ids is None:
            game_ids = await database.started_game_ids()
        for game_id in game_ids:
            row = await database.game(game_id)
            if row is None or row.state is None:
                print(f"game #{game_id}: {'no such game' if row is None else 'not started'}")
                failures += row is None
                continue
            log = await database.log(game_id)
            if show_log:
                names = {s.seat: s.name for s in await database.seats(game_id)}
                print(f"game #{game_id} ({row.ruleset}, seed {row.seed}, {row.status})")
                print("\n".join(log_lines(log, names, secrets)))
                if row.result:
                    print(f"       result: {row.result}")
            outcome = check(row, log)
            status = "replay OK" if outcome.ok else f"REPLAY MISMATCH: {outcome.problem}"
            print(f"game #{game_id}: {status} (version {outcome.stored_version}, {outcome.commands} commands)")
            failures += not outcome.ok
            if verify:
                ok, line = await _verify(database, row, log)
                print(f"game #{game_id}: {line}")
                failures += not ok
        for campaign_id in campaign_ids if campaign_ids is not None else await CampaignStore(database).ids():
            failures += not await _check_campaign_line(database, campaign_id, show_log)
    finally:
        await database.close()
    return 1 if failures else 0


async def _check_campaign_line(database: Database, campaign_id: int, show_log: bool) -> bool:
    """Print one campaign's check (and its log); whether it rebuilt exactly."""
    store = CampaignStore(database)
    if await store.get(campaign_id) is None:
        print(f"campaign #{campaign_id}: no such campaign")
        return False
    if show_log:
        names = {s.seat: s.name for s in await store.seats(campaign_id)}
        for entry in await store.log(campaign_id):
            game = f" (game #{entry.game_id})" if entry.game_id else ""
            print(f"{entry.seq:5d}  {names.get(entry.seat, 'the campaign')}: {entry.command}{game}")
    outcome = await check_campaign(database, campaign_id)
    status = "replay OK" if outcome.ok else f"REPLAY MISMATCH: {outcome.problem}"
    print(f"campaign #{campaign_id}: {status} (version {outcome.stored_version}, {outcome.commands} commands)")
    return outcome.ok


def main(argv: Optional[list[str]] = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m engine.service.replay", description=__doc__.split("\n\n")[0])
    parser.add_argument("database", help="the game database: a file path, sqlite:///path or postgresql://...")
    parser.add_argument("games", nargs="*", type=int, help="game ids (default: every started game)")
    parser.add_argument("--log", action="store_true", help="print each game's log")
    parser.add_argument("--secrets", action="store_true", help="with --log, include private lines")
    parser.add_argument("--verify", action="store_true",
                        help="check the dice seal and that every logged roll comes from the seed")
    parser.add_argument("--campaign", type=int, action="append", dest="campaigns",
                        help="check this Renegades campaign and its missions (repeatable; default: every campaign"
                             " when no game is named)")
    args = parser.parse_args(argv)
    campaigns = args.campaigns if args.campaigns is not None else ([] if args.games else None)
    return asyncio.run(_run(args.database, args.games, args.log, args.secrets, args.verify, campaigns))


if __name__ == "__main__":
    sys.exit(main())
