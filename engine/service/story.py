"""A finished game told again from its log: a recap frame per activation (a Renegades
orbit frame per round) and the summary's numbers, all from public views and events.

    told = story.tell(ruleset, config, seed, log, names)   # log: LogEntry-like (seat, command, events, at)
    told.chapters   # what images/recap.py animates
    told.tally, told.turns   # what images/summary.py shows (with the dice verdict)

A log entry's events belong to the frame of the state its command was given in (the
activation under way), or else to the frame of the state it made (the command that began
the activation). A frame shows the table after the last entry that belongs to it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Protocol

from engine.service import steps
from engine.service.rulesets import Ruleset
from engine.story import Tally, Turns, turn_times


class Entry(Protocol):
    """What the story reads of a log entry (db.database.LogEntry)."""

    seat: Optional[str]
    command: str
    events: str
    at: float


@dataclass(frozen=True)
class Chapter:
    """One frame of the recap: the table after an activation (or a Renegades orbital round)."""

    picture: str  # board | orbit | surface
    round: int
    view: dict  # the public view
    events: list[dict]  # its public events, all of the activation's moves and attacks


@dataclass(frozen=True)
class Story:
    """A finished game's recap frames and summary numbers."""

    chapters: list[Chapter]
    tally: Tally
    turns: dict[str, Turns]  # seat -> its answer times
    result: dict  # how the game ended by its rules ({} if it did not)


def tell(ruleset: Ruleset, config: dict, seed: int, log: list[Entry], names: dict[str, str]) -> Story:
    """The story of a game from its seed and log (steps.Unwatchable when the rules running
    now refuse it)."""
    chapters: list[Chapter] = []
    key: Optional[tuple[str, str]] = None
    events: list[dict] = []
    shown: list[dict] = []
    last: Any = None
    previous_scene = None
    for step in steps.walk(ruleset, config, seed, [(e.seat, e.command, e.events) for e in log]):
        scene = ruleset.scene(step.state)
        belongs = previous_scene or scene
        previous_scene = scene
        shown += step.events
        if belongs is None:
            continue
        if belongs != key:
            if key is not None:
                chapters.append(Chapter(key[0], last.round, last.view, events))
            key, events = belongs, []
        events += step.events
        last = step
    if key is not None:
        chapters.append(Chapter(key[0], last.round, last.view, events))
    final = ruleset.view_for(step.state, None)
    return Story(chapters, ruleset.tally(final, shown, names), turn_times((e.seat, e.at) for e in log),
                 final.get("result") or {})

