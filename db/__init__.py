"""Storage for games: schema, migrations and queries over SQLite. Imports no rules."""
from db.database import (AwaitedGame, Database, DueReminder, GameRow, GameWrite, LogEntry,
                         PlaceTaken, Reminder, SchemaTooNew, SeatRow, StaleWrite, Wait, migrate)
from db.schema import LATEST, MIGRATIONS

__all__ = ["AwaitedGame", "Database", "DueReminder", "GameRow", "GameWrite", "LogEntry", "PlaceTaken",
           "Reminder", "SchemaTooNew", "SeatRow", "StaleWrite", "Wait", "migrate",
           "LATEST", "MIGRATIONS"]
