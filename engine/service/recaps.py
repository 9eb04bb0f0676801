"""A finished game's recap (an animated GIF) and summary (a PNG), for the message that ends
it (ruling P44) and for `--local`: told from the log, drawn off the event loop.

    drawn = await recaps.pictures(desk, game_id, await desk.verify(game_id))
    # [("recap.gif", GIF), ("summary.png", PNG)]
"""
from __future__ import annotations

import asyncio
import json
import logging
from typing import Optional

from engine.glossary import RULESET_NAMES
from engine.service import audit, story
from engine.service.players import PlayerDesk
from engine.service.rulesets import RULESETS, Ruleset
from engine.service.steps import Unwatchable
from images.recap import render_recap
from images.style import team_name
from images.summary import render_summary

log = logging.getLogger("ready_room.recaps")
RECAP, SUMMARY = "recap.gif", "summary.png"


def seal_words(verdict: audit.Verdict) -> str:
    """The dice check in a line: what was replayed, or the first problem."""
    if verdict.ok:
        return (f"the seed matches the seal, and replaying its {verdict.commands} moves gives all "
                f"{verdict.rolls} dice rolls and the final table exactly")
    return verdict.rules_changed or verdict.problems[0]


def ending(ruleset: Ruleset, result: dict, names: dict[str, str]) -> str:
    """How the game ended, in words."""
    if "conceded" in result:
        return f"{names.get(result['conceded'], result['conceded'])} conceded"
    names = {**names, **{team: team_name(team) for team in result.get("teams", {})}}
    lines = ruleset.public_lines([{"type": "game_over", **result}], names)
    return lines[0] if lines else "the game is over"


def draw(ruleset: Ruleset, game_id: int, config: dict, seed: int, entries: list, names: dict[str, str],
         verdict: Optional[audit.Verdict], result: Optional[dict] = None) -> list[tuple[str, bytes]]:
    """(file name, bytes) of the recap (left out when no activation was played) and the
    summary; `result`: how the game ended, when the table ended it (a concession), not the
    rules. Unwatchable when the rules running now refuse the log."""
    told = story.tell(ruleset, config, seed, entries, names)
    result = result or told.result
    title = f"Game #{game_id} · {RULESET_NAMES.get(ruleset.name, ruleset.name)}" + (
        f" · {ending(ruleset, result, names)}" if result else "")
    summary = render_summary(title, told.tally, told.turns, names, seal_words(verdict) if verdict else "",
                             verdict.ok if verdict else None)
    drawn = [(RECAP, render_recap(told.chapters).data)] if told.chapters else []
    return drawn + [(SUMMARY, summary)]


async def pictures(desk: PlayerDesk, game_id: int, verdict: Optional[audit.Verdict]) -> list[tuple[str, bytes]]:
    """The recap and summary of an ended game, with what checking its dice found ([] when
    the game no longer replays under the running rules)."""
    row = await desk.db.game(game_id)
    entries = await desk.db.log(game_id)
    names = {s.seat: s.name for s in await desk.db.seats(game_id)}
    try:
        return await asyncio.to_thread(draw, RULESETS[row.ruleset], game_id, json.loads(row.config), row.seed,
                                       entries, names, verdict, json.loads(row.result) if row.result else None)
    except Unwatchable as refused:
        log.info("game %s: no recap (%s)", game_id, refused)
        return []
