"""Storage for games: schema, migrations and queries over SQLite or PostgreSQL. Imports no rules."""
from db.backend import is_postgres
from db.database import (BUSY_TIMEOUT_MS, AwaitedGame, Database, DueReminder, GameRow, GameWrite, LogEntry,
                         LongWait, Reminder, SeatRow, Settings, Wait, is_busy, migrate)
from db.errors import DatabaseBusy, PlaceTaken, SchemaTooNew, StaleWrite
from db.schema import LATEST, MIGRATIONS
from db.sqlite_backend import integrity_problems

__all__ = ["BUSY_TIMEOUT_MS", "AwaitedGame", "Database", "DatabaseBusy", "DueReminder", "GameRow", "GameWrite", "LogEntry", "LongWait", "PlaceTaken",
           "Reminder", "SchemaTooNew", "SeatRow", "Settings", "StaleWrite", "Wait", "integrity_problems", "is_busy", "is_postgres",
           "migrate", "LATEST", "MIGRATIONS"]
