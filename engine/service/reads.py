"""Settings read once per interaction: users' settings and vacations, and guild settings.

A move reads the same few settings at several places (quiet hours and vacations for the
pings, "dm" for private lines, the reaction preference for the panel, the table record);
each read is a round trip to the database. Inside `once()` (one interaction: the task
handling it and what it awaits) the first read of a user brings all their settings and
vacations, `read_ahead` brings several users and guild settings in one statement, and
later reads are answered from memory. Writes through the service and the players' desk keep
the memory true (`wrote_user`, `wrote_guild`, `forget_user`). Tasks started inside share it
(a context variable: discord.py's listeners for the table update, say); nothing else sees
it. Outside `once()` every read goes to the database (a user's quiet hours and vacations in
one statement).
"""
from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Optional

from db import Database, Settings


@dataclass
class _Held:
    """What this interaction has read: users' settings, vacations and calls, guild settings."""

    users: dict[int, dict[str, str]] = field(default_factory=dict)
    vacations: dict[int, list[tuple[float, float]]] = field(default_factory=dict)
    calls: dict[int, tuple[float, Optional[int], Optional[float]]] = field(default_factory=dict)
    guild: dict[tuple[int, str], Optional[str]] = field(default_factory=dict)


_READS: contextvars.ContextVar[Optional[_Held]] = contextvars.ContextVar("ready_room_reads", default=None)


@contextlib.contextmanager
def once() -> Iterator[None]:
    """Within the block, each user's settings and each guild setting are read at most once."""
    token = _READS.set(_Held())
    try:
        yield
    finally:
        _READS.reset(token)


async def read_ahead(db: Database, user_ids: Iterable[int], guild_id: Optional[int] = None,
                     guild_keys: tuple[str, ...] = ()) -> None:
    """Read these users' settings and vacations and these guild settings (those not read yet
    in this interaction) in one statement; nothing outside `once()`."""
    held = _READS.get()
    if held is None:
        return
    users = [u for u in dict.fromkeys(user_ids) if u not in held.users]
    keys = tuple(k for k in guild_keys if (guild_id, k) not in held.guild)
    if not users and (guild_id is None or not keys):
        return
    found = await db.settings_of(users, guild_id, keys)
    held.users.update(found.users)
    held.vacations.update(found.vacations)
    held.calls.update(found.calls)
    held.guild.update({(guild_id, key): value for key, value in found.guild.items()})


async def user_calls(db: Database, user_id: int) -> Optional[tuple[float, Optional[int], Optional[float]]]:
    """A user's calls (every, channel id, last call), or None if they chose none (P24)."""
    held = _READS.get()
    if held is None:
        return (await db.settings_of([user_id])).calls.get(user_id)
    await read_ahead(db, [user_id])
    return held.calls.get(user_id)


async def _user(db: Database, user_id: int) -> tuple[dict[str, str], list[tuple[float, float]]]:
    """A user's settings (key -> JSON text) and vacations: held, or read now (and held within `once()`)."""
    held = _READS.get()
    if held is None:
        found: "Settings | _Held" = await db.settings_of([user_id])
    else:
        await read_ahead(db, [user_id])
        found = held
    return found.users[user_id], found.vacations[user_id]


async def user_setting(db: Database, user_id: int, key: str) -> Optional[str]:
    """A user's setting (JSON text) or None."""
    if _READS.get() is None:
        return await db.user_setting(user_id, key)
    return (await _user(db, user_id))[0].get(key)


async def quiet_and_vacations(db: Database, user_id: int) -> tuple[Optional[str], list[tuple[float, float]]]:
    """A user's quiet hours setting (JSON text or None) and vacations, in one read."""
    settings, vacations = await _user(db, user_id)
    return settings.get("quiet"), vacations


async def guild_setting(db: Database, guild_id: int, key: str, fresh: bool = False) -> Optional[str]:
    """A guild's setting (JSON text) or None; `fresh`: from the database even if read already."""
    held = _READS.get()
    if held is None:
        return await db.guild_setting(guild_id, key)
    if fresh or (guild_id, key) not in held.guild:
        held.guild[(guild_id, key)] = await db.guild_setting(guild_id, key)
    return held.guild[(guild_id, key)]


def wrote_user(user_id: int, key: str, value: Optional[str]) -> None:
    """A user's setting was written: what this interaction holds of it follows."""
    held = _READS.get()
    if held is not None and user_id in held.users:
        if value is None:
            held.users[user_id].pop(key, None)
        else:
            held.users[user_id][key] = value


def forget_user(user_id: int) -> None:
    """A user's vacations or calls changed: read them again if asked."""
    held = _READS.get()
    if held is not None:
        held.users.pop(user_id, None)
        held.vacations.pop(user_id, None)
        held.calls.pop(user_id, None)


def wrote_guild(guild_id: int, key: str, value: Optional[str]) -> None:
    """A guild's setting was written: what this interaction holds of it follows."""
    held = _READS.get()
    if held is not None:
        held.guild[(guild_id, key)] = value
