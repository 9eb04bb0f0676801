"""Refusals from the game service. Each carries a message written for the player."""
from __future__ import annotations

from typing import Optional

from db import is_busy

BUSY = "The database is held by another program; nothing was changed. Try again in a moment."


class ServiceError(Exception):
    """A request was refused and nothing changed. `message` is safe to show the player."""

    def __init__(self, message: str, term: str | None = None):
        super().__init__(message)
        self.message = message
        self.term = term  # the glossary entry of the rule that refused it ('awaymissions/move'), if any


class UnknownGame(ServiceError):
    """No such game (or none in this channel)."""


class NotAPlayer(ServiceError):
    """The user has no seat in the game."""


class NotYourDecision(ServiceError):
    """The game is waiting on somebody else."""


class MalformedCommand(ServiceError):
    """The command text cannot be a command at all (empty, too long, several lines)."""


class IllegalCommand(ServiceError):
    """The rules refused the command; the message gives the rule's reason."""


class StaleVersion(ServiceError):
    """The command was made against an earlier version of the game."""


class GameOver(ServiceError):
    """The game has ended (or was aborted)."""


class LobbyError(ServiceError):
    """Joining, leaving or starting is not possible now (full, started, already seated ...)."""


class NotAllowed(ServiceError):
    """The user may not do this to the game (e.g. abort somebody else's game)."""


class DamagedGame(ServiceError):
    """The game's stored state or configuration cannot be read; nothing was changed."""


class StorageBusy(ServiceError):
    """Another program held the database too long; nothing was changed, try again."""


class InvalidId(ServiceError):
    """A user, server or channel id that no Discord id can be (negative, or 2**63 or more)."""


def as_busy(error: BaseException) -> Optional[StorageBusy]:
    """The refusal for an action that met a database held by another program past its
    wait (StorageBusy, or the database's own error for it); None for any other error."""
    if isinstance(error, StorageBusy):
        return error
    return StorageBusy(BUSY) if is_busy(error) else None
