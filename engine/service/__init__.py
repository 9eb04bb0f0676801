"""The async game service shared by Discord and the local console."""
from engine.service.errors import (DamagedGame, GameOver, IllegalCommand, InvalidId, LobbyError,
                                   MalformedCommand, NotAllowed, NotAPlayer, NotYourDecision,
                                   ServiceError, StaleVersion, StorageBusy, UnknownGame, as_busy)
from engine.service.service import DueReminder, GameInfo, GameService, Panel, Seat, Turn, Update, is_computer

__all__ = ["GameService", "GameInfo", "Panel", "Seat", "Turn", "Update", "ServiceError", "UnknownGame",
           "NotAPlayer", "NotYourDecision", "MalformedCommand", "IllegalCommand", "StaleVersion",
           "GameOver", "LobbyError", "NotAllowed", "DamagedGame", "StorageBusy", "InvalidId", "as_busy", "is_computer",
           "DueReminder"]  # a reminder whose time has come, as GameService.due_reminders gives it
