"""Storage for games: schema, migrations and queries over SQLite. Imports no rules."""
from db.database import (BUSY_TIMEOUT_MS, AwaitedGame, Database, DatabaseBusy, DueReminder, GameRow, GameWrite, LogEntry,
                         PlaceTaken, Reminder, SchemaTooNew, SeatRow, StaleWrite, Wait, integrity_problems,
                         is_busy, migrate)
from db.schema import LATEST, MIGRATIONS

__all__ = ["BUSY_TIMEOUT_MS", "AwaitedGame", "Database", "DatabaseBusy", "DueReminder", "GameRow", "GameWrite", "LogEntry", "PlaceTaken",
           "Reminder", "SchemaTooNew", "SeatRow", "StaleWrite", "Wait", "integrity_problems", "is_busy", "migrate",
           "LATEST", "MIGRATIONS"]
