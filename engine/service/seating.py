"""Who holds a seat: a person (a Discord user id) or the computer.

Computer players sit as users COMPUTER_USER_BASE + seat number, ids no Discord user has;
a forgotten player's seats (ruling P16) are held by a negative id, no Discord user's either.
"""
from __future__ import annotations

from typing import Optional

COMPUTER_USER_BASE = 2 ** 62


def is_computer(user_id: Optional[int]) -> bool:
    """Whether this user id is a computer player's."""
    return user_id is not None and user_id >= COMPUTER_USER_BASE


def is_forgotten(user_id: Optional[int]) -> bool:
    """Whether this user id stands in for a player who asked to be forgotten (P16)."""
    return user_id is not None and user_id < 0
