"""What the store raises, whichever database engine is behind it."""
from db.schema import LATEST


class StaleWrite(Exception):
    """A write was made against a version or status the game no longer has."""


class PlaceTaken(Exception):
    """The channel (or thread) already has a game in the lobby or under way."""


class SchemaTooNew(Exception):
    """The database was written by a newer release than this one."""


class DatabaseBusy(Exception):
    """Another process held the database for longer than the busy timeout."""


def refuse_newer_schema(version: int) -> int:
    """`version`, or SchemaTooNew when a newer release wrote the database."""
    if version > LATEST:
        raise SchemaTooNew(f"database schema {version} is newer than this release ({LATEST})")
    return version
