"""How a list of legal commands is laid out on a private panel, within Discord's limits.

Pure functions: no Discord objects. A panel has at most 5 rows; a row holds 5 buttons
or one select of at most 25 options. Commands are grouped by their verb and first
argument ("move REYES", "place NEXUS"); a group of one is a button, a larger group a
select. When everything does not fit, the largest groups move behind one "choose"
select that opens them on their own page. Commands are referred to by their index in
the legal list, which is the same for a given game version, so a click after a restart
still means the same command.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

MAX_ROWS = 5
PER_ROW = 5
MAX_OPTIONS = 25
LABEL = 80
DESCRIPTION = 100  # characters of a select option's description
CARD_VERBS = ("discard", "redraw")


@dataclass(frozen=True)
class Group:
    """Commands sharing a verb (and first argument when they have several)."""

    key: str
    indices: tuple[int, ...]


@dataclass
class Layout:
    """What one page of the panel shows; numbers are indices into the legal commands."""

    buttons: list[int] = field(default_factory=list)
    selects: list[tuple[str, list[int]]] = field(default_factory=list)
    drill: list[int] = field(default_factory=list)  # group numbers behind the "choose" select
    cards: tuple[str, list[str]] | None = None  # (verb, cards) for a multi-select of cards
    back: bool = False
    next_page: int | None = None

    @property
    def rows(self) -> int:
        """Rows this layout needs."""
        return (math.ceil(len(self.buttons) / PER_ROW) + len(self.selects)
                + math.ceil(len(self.drill) / MAX_OPTIONS) + (self.cards is not None)
                + (self.back or self.next_page is not None))


def group_key(command: str) -> str:
    """The group a command belongs to: its verb, plus its first argument if it has two or more."""
    words = command.split()
    return " ".join(words[:2]) if len(words) >= 3 else words[0]


def groups(commands: list[str]) -> list[Group]:
    """Commands grouped in order of first appearance; card choices (discard/redraw) left out."""
    found: dict[str, list[int]] = {}
    for index, command in enumerate(commands):
        if command.split()[0] not in CARD_VERBS:
            found.setdefault(group_key(command), []).append(index)
    return [Group(key, tuple(indices)) for key, indices in found.items()]


def label(command: str, key: str) -> str:
    """A short label for a command inside its group: what follows the group's words."""
    rest = command[len(key):].strip() if command.startswith(key) else command
    return (rest or command)[:LABEL]


def _chunks(group: Group) -> list[tuple[str, list[int]]]:
    parts = [list(group.indices[i:i + MAX_OPTIONS]) for i in range(0, len(group.indices), MAX_OPTIONS)]
    if len(parts) == 1:
        return [(f"{group.key} ...", parts[0])]
    return [(f"{group.key} ({n + 1}/{len(parts)}) ...", part) for n, part in enumerate(parts)]


def card_choice(commands: list[str]) -> tuple[str, list[str]] | None:
    """(verb, cards) when the decision chooses any set of cards from the hand, else None."""
    picks = [c.split() for c in commands if c.split()[0] in CARD_VERBS]
    if not picks:
        return None
    widest = max(picks, key=len)
    return widest[0], widest[1:]


def main_page(commands: list[str]) -> Layout:
    """The first page: as many groups inline as fit, the largest behind a "choose" select."""
    all_groups = groups(commands)
    layout = Layout(cards=card_choice(commands))
    inline = [n for n, g in enumerate(all_groups) if len(g.indices) > 1]
    layout.buttons = [all_groups[n].indices[0] for n, g in enumerate(all_groups) if len(g.indices) == 1]
    while True:
        layout.selects = [chunk for n in inline for chunk in _chunks(all_groups[n])]
        if layout.rows <= MAX_ROWS or not inline:
            return layout
        largest = max(inline, key=lambda n: len(all_groups[n].indices))
        inline.remove(largest)
        layout.drill = sorted(layout.drill + [largest])


def group_page(commands: list[str], group: int, page: int = 0) -> Layout:
    """One group's own page: its commands as selects, with Back and, when needed, More."""
    chosen = groups(commands)[group]
    chunks = _chunks(chosen)
    per_page = MAX_ROWS - 1
    start = page * per_page
    more = start + per_page < len(chunks)
    return Layout(selects=chunks[start:start + per_page], back=True, next_page=page + 1 if more else None)
