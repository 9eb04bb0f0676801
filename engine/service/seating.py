"""Who holds a seat: a person (a Discord user id) or the computer.

Computer players sit as users COMPUTER_USER_BASE + seat number, ids no Discord user has.
"""
from __future__ import annotations

from typing import Optional

COMPUTER_USER_BASE = 2 ** 62


def is_computer(user_id: Optional[int]) -> bool:
    """Whether this user id is a computer player's."""
    return user_id is not None and user_id >= COMPUTER_USER_BASE
