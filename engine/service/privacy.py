"""A player's own data: what is stored about them, in words, and forgetting it (ruling P16).

`held` reads everything stored under a user id: settings, quiet hours, vacations,
ratings, the games and campaigns they sat in, the events that name them. `forget`
deletes their settings and vacations and hands everything else kept under their id (their
ratings, seats, moves) to a new anonymous id nobody is shown under, renaming each of their
seats "Player N" in the stored games and campaigns, config and state alike, so that every
game still rebuilds from its seed and log (`python3 -m engine.service.replay`). It
touches no Discord object.
"""
from __future__ import annotations

import json
import secrets
from datetime import datetime, timezone
from typing import Optional

from db.privacy_store import Forgetting, Held, PrivacyStore, Renamed
from engine.service.availability import Quiet
from engine.service.errors import NotAllowed
from engine.service.service import GameService

LISTED = 10  # games (and campaigns) named one by one; the rest are counted
UNDER_WAY = ("lobby", "active")


def seat_name(seat: str) -> str:
    """The neutral name a forgotten player's seat takes: 'p2' -> 'Player 2'."""
    return f"Player {seat[1:]}" if seat[:1] == "p" and seat[1:].isdigit() else "A player"


def renamed(text: Optional[str], key: str, seat: str, name: str, compact: bool) -> Optional[str]:
    """JSON `text` with the `name` of the entry of list `key` sitting in `seat` replaced;
    `compact`: written as the engines write their state (no spaces, UTF-8 kept)."""
    if text is None:
        return None
    data = json.loads(text)
    for entry in data.get(key) or []:
        if isinstance(entry, dict) and entry.get("seat") == seat:
            entry["name"] = name
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False) if compact else json.dumps(data)


def _day(at: float) -> str:
    return datetime.fromtimestamp(at, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


class PrivacyDesk:
    """A player's data over the game service's database."""

    def __init__(self, games: GameService):
        self.games = games
        self.store = PrivacyStore(games.db)

    async def _held(self, user_id: int) -> tuple[Held, list[tuple[int, str, str]]]:
        held = await self.store.held(user_id)
        events = []
        for event_id, name, status, state in held.events:
            players = json.loads(state).get("players") or {}
            if str(user_id) in players:
                events.append((event_id, name, status))
        return held, events

    async def held(self, user_id: int) -> list[str]:
        """Everything stored about the user, in words."""
        held, events = await self._held(user_id)
        lines = ["**What Ready Room stores about you**"]
        settings = dict(held.settings)
        quiet = settings.pop("quiet", None)
        calls = json.loads(settings.pop("calls", "null"))
        lines.append("Settings: " + (", ".join(f"{k} {v}" for k, v in settings.items()) or "none"))
        lines.append("Calls: " + (f"at most every {calls['every'] / 3600:g} h"
                                  + (f" in <#{calls['channel']}>" if calls["channel"] else " by DM") if calls else "none"))
        lines.append("Quiet hours: " + (Quiet.from_dict(json.loads(quiet)).words() if quiet else "none"))
        lines.append("Vacations: " + (", ".join(f"{_day(s)} to {_day(e)}" for s, e in held.vacations) or "none"))
        lines.append("Ratings: " + (", ".join(f"server {g}: mu {mu:.1f}, sigma {sigma:.2f}, {n} rated results"
                                               for g, mu, sigma, n in held.ratings) or "none"))
        for title, seated in (("Games you sat in", held.games), ("Campaigns", held.campaigns)):
            listed = [f"#{s.id} ({s.kind}, {s.status}) as {s.name}" for s in seated[-LISTED:]]
            more = f" and {len(seated) - LISTED} earlier" if len(seated) > LISTED else ""
            lines.append(f"{title} ({len(seated)}): " + ("; ".join(listed) + more if seated else "none"))
        lines.append("Your profile is made from these games and ratings.")
        if events:
            lines.append("League events that list you (kept by their organisers, not forgotten): "
                         + "; ".join(f"#{e} '{name}' ({status})" for e, name, status in events))
        return lines

    async def forget(self, user_id: int) -> int:
        """Forget the user (ruling P16); refused while they sit in a game, campaign or
        event still under way. The number of seats renamed."""
        held, events = await self._held(user_id)
        busy = [f"game #{s.id}" for s in held.games if s.status in UNDER_WAY] \
            + [f"campaign #{s.id}" for s in held.campaigns if s.status == "active"] \
            + [f"event #{e} '{name}'" for e, name, status in events if status != "closed"]
        if busy:
            raise NotAllowed(f"You still play in {', '.join(busy)}: finish, leave or abandon it first. "
                             "Nothing was forgotten.")
        forgetting = Forgetting(stand_in=-1 - secrets.randbits(52))  # negative: is_forgotten
        for s in held.games:
            name = seat_name(s.seat)
            forgetting.games.append(Renamed(s.id, s.seat, name, renamed(s.config, "players", s.seat, name, False),
                                            renamed(s.state, "players", s.seat, name, True)))
        for s in held.campaigns:
            name = seat_name(s.seat)
            forgetting.campaigns.append(Renamed(s.id, s.seat, name, renamed(s.config, "players", s.seat, name, False),
                                                renamed(s.state, "captains", s.seat, name, True)))
        await self.store.forget(user_id, forgetting)
        for s in held.games:
            self.games.reload(s.id)
        return len(held.games) + len(held.campaigns)
