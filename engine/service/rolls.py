"""The roll a dice board shows, for every front end (the Discord table, the local console).

A re-roll's own events, and a re-roll window's pass or close, lack the roll they go on
with; the dice board is drawn from that roll, found in the game's log (ruling P56 on
Discord, P65 in the console)."""
from __future__ import annotations

import json

from engine.service import text
from engine.service.service import GameService
from images.dice import ROLL_GOES_ON


async def roll_events(service: GameService, game_id: int, events: list[dict]) -> list[dict]:
    """The events the dice board needs: `events` themselves when they roll or touch no roll;
    else the public events since the roll they go on with, then `events` (from the
    service's memory of the newest log entries when they reach back to the roll)."""
    if _rolled(events) or not any(e["type"] in ROLL_GOES_ON for e in events):
        return events
    entries = await service.recent_events(game_id, lambda tail: any(_rolled(json.loads(e)) for e in tail[:-1]))
    earlier: list[dict] = []
    for entry in reversed(entries[:-1]):
        found = text.public_events(json.loads(entry))
        earlier = found + earlier
        if _rolled(found):
            break
    return earlier + events


def _rolled(events: list[dict]) -> bool:
    return any(e["type"] == "rolled" for e in events)
