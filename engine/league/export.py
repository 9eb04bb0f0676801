"""Exports: the standings and every round's pairings as rows, written as CSV or JSON and
read back to the same rows (so a spreadsheet or another tool can take them, and we can
check nothing is lost on the way).

A standings row: rank, title, player id, name, Battle Points, tiebreak points (named after
the profile: fleet_points or mission_points), byes, dropped, prize, and one cell per
round in words. A pairings row: round, stage (swiss or top cut), table (0 for a bye or a
top-cut player through without a game), both players, the status and the result: outcome,
winner, each side's points (squad points left, or mission points) and bonus.
"""
from __future__ import annotations

import csv
import io
import json
from typing import Any

from engine.league.event import Event
from engine.league.standings import standings, totals

PAIRING_FIELDS = {"round": int, "stage": str, "table": int, "player_a": str, "name_a": str, "player_b": str,
                  "name_b": str, "status": str, "outcome": str, "winner": str, "points_a": int, "points_b": int,
                  "bonus_a": int, "bonus_b": int}


def standings_fields(event: Event) -> dict[str, type]:
    """The standings columns and their types."""
    fields = {"rank": int, "title": str, "player": str, "name": str, "battle_points": int,
              event.profile.tiebreak: int, "byes": int, "dropped": bool, "prize": bool}
    return {**fields, **{f"round_{r.number}": str for r in event.live_rounds()}}


def standings_rows(event: Event) -> list[dict[str, Any]]:
    """The standings, best first, with each round's result in words."""
    table = totals(event)
    short = event.profile.tiebreak_short
    name = lambda p: event.players[p].name  # noqa: E731
    rows = []
    for row in standings(event):
        cells = {}
        for rnd in event.live_rounds():
            cell = ""
            score = table[row.player].rounds.get(rnd.number)
            if score is not None:
                versus = f" vs {name(score.opponent)}" if score.opponent else ""
                mark = " (provisional)" if score.provisional else ""
                cell = f"{score.outcome}{versus}: {score.battle_points} BP {score.tiebreak} {short}{mark}"
            elif rnd.cut:
                cell = _cut_cell(event, rnd, row.player)
            cells[f"round_{rnd.number}"] = cell
        rows.append({"rank": row.rank, "title": row.title, "player": row.player, "name": row.name,
                     "battle_points": row.battle_points, event.profile.tiebreak: row.tiebreak,
                     "byes": table[row.player].byes, "dropped": row.dropped, "prize": row.prize, **cells})
    return rows


def _cut_cell(event: Event, rnd, player: str) -> str:
    if player in rnd.advanced:
        return "top cut: through without a game"
    game = rnd.game_of(player)
    if game is None:
        return ""
    versus = event.players[game.opponent(player)].name
    if game.status != "final" or game.result is None:
        return f"top cut vs {versus}: to play"
    return f"top cut {'win' if game.result.winner == player else 'loss'} vs {versus}"


def pairing_rows(event: Event) -> list[dict[str, Any]]:
    """Every game of every published round (and each bye), in round and table order."""
    rows = []
    points = "surviving" if event.profile.tiebreak == "fleet_points" else "mission_points"
    for rnd in event.live_rounds():
        stage = "top cut" if rnd.cut else "swiss"
        for game in rnd.games:
            a, b = game.players
            result = game.result
            scored = getattr(result, points, {}) if result else {}
            bonus = result.bonus if result else {}
            rows.append({"round": rnd.number, "stage": stage, "table": game.table,
                         "player_a": a, "name_a": event.players[a].name, "player_b": b,
                         "name_b": event.players[b].name, "status": game.status,
                         "outcome": result.outcome if result else "", "winner": (result.winner or "") if result else "",
                         "points_a": scored.get(a, 0), "points_b": scored.get(b, 0),
                         "bonus_a": bonus.get(a, 0), "bonus_b": bonus.get(b, 0)})
        for through in ([rnd.bye] if rnd.bye else []) + rnd.advanced:
            rows.append({**dict.fromkeys(PAIRING_FIELDS, ""), "round": rnd.number, "stage": stage, "table": 0,
                         "player_a": through, "name_a": event.players[through].name, "status": "bye",
                         "points_a": 0, "points_b": 0, "bonus_a": 0, "bonus_b": 0})
    return rows


def write_csv(fields: dict[str, type], rows: list[dict[str, Any]]) -> str:
    """Rows as CSV text with a header; true is written "yes", false as an empty cell."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(fields)
    for row in rows:
        writer.writerow([("yes" if row[f] else "") if kind is bool else row[f] for f, kind in fields.items()])
    return out.getvalue()


def read_csv(fields: dict[str, type], text: str) -> list[dict[str, Any]]:
    """Rows back from `write_csv`, each cell of its column's type."""
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames != list(fields):
        raise ValueError(f"Unexpected columns: {reader.fieldnames}")
    convert = {int: int, str: str, bool: lambda cell: cell == "yes"}
    return [{f: convert[kind](row[f]) for f, kind in fields.items()} for row in reader]


def write_json(event: Event) -> str:
    """The event's standings and pairings as one JSON document."""
    return json.dumps({"event": event.name, "rounds_planned": event.rounds_planned, "status": event.status,
                       "tiebreak": event.profile.tiebreak, "standings": standings_rows(event),
                       "pairings": pairing_rows(event)}, indent=1, ensure_ascii=False)


def standings_csv(event: Event) -> str:
    """The standings as CSV."""
    return write_csv(standings_fields(event), standings_rows(event))


def pairings_csv(event: Event) -> str:
    """Every round's pairings and results as CSV."""
    return write_csv(PAIRING_FIELDS, pairing_rows(event))
