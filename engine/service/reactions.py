"""A player's standing reaction preference: which reaction windows are put to them.

Kept per user (like their other settings) and across games; shown to the other players.
A window the preference answers is passed at once by the service, in the player's name,
as their own standing choice (ruling P23).
"""
from __future__ import annotations

from typing import Optional

SETTING = "reactions"  # the user setting that holds the preference
EVERY, ABLE, NEVER = "every", "able", "never"
DEFAULT = ABLE
CHOICES = {  # preference -> how the player says it
    EVERY: "ask me at every reaction window",
    ABLE: "ask me only when I have something I could play",
    NEVER: "never ask me",
}
SHOWN = {  # preference -> how the table says it of a player
    EVERY: "asked at every reaction window",
    ABLE: "asked only when they could play",
    NEVER: "never asked: passes every reaction window",
}
PASS = "pass"


def preference(stored: Optional[str]) -> str:
    """The preference a stored setting means (the default when none or unknown)."""
    return stored if stored in CHOICES else DEFAULT


def passes(chosen: str, answers: list[str]) -> bool:
    """Whether a window is passed for a player who chose `chosen`, `answers` being their
    legal answers that could change something (a re-roll that cannot help them left out,
    ruling P59): never asked, or asked only when able and passing is all they could do."""
    return chosen == NEVER or (chosen == ABLE and answers == [PASS])
