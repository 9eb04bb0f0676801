"""Readable lines from engine events, for the channel, the private notes and the log.

Events are dicts with a "type". A "private" entry ({seat: [items]}) is secret to those
seats: it never reaches a public line and becomes that seat's private line instead.
"""
from __future__ import annotations

from typing import Any

_PUBLIC = {
    "activated": "{character} activates",
    "activation_over": "{character} ends its activation",
    "moved": "{character} moves {path}",
    "attack": "{attacker} attacks {target} with {weapon}",
    "rolled": "{kind} roll: {dice}",
    "rerolled": "{seat} re-rolls with {card}: {before} -> {after}",
    "reroll_passed": "{seat} keeps the dice",
    "cover": "{character} takes cover",
    "recovered": "{character} recovers",
    "stunned": "{character} is stunned",
    "damaged": "{character} takes damage: {reduced}",
    "neutralized": "{character} is neutralized",
    "assimilated": "{character} is assimilated by {by}",
    "placed": "{character} is placed on {space}",
    "passed": "{seat} passes",
    "drew": "{seat} draws {count} card(s)",
    "cycled": "{seat} cycles {discarded}",
    "round": "Round {number} begins",
    "round_over": "Round {number} is over",
    "game_over": "The game is over. Winner: {winner}",
    "corridor": "{seat} chooses the corridor {board}",
    "board_placed": "{seat} places {board} at {slot}",
    "core_mission": "{seat} chooses a core mission",
    "start_area": "{seat} starts on {boards}",
    "kept": "{seat} keeps their hand",
    "discarded": "{seat} discards {cards}",
    "reverse_polarity": "{seat} returns {returned} card(s) and redraws",
    "bonus_actions": "{seat} gets {count} bonus action(s)",
    "decks_shuffled": "Decks are shuffled",
    "roll_off": "Roll-off for {why}: {faces}",
}

_PRIVATE = {
    "drew": "You drew: {items}",
    "cycled": "You drew: {items}",
}


def _show(value: Any, names: dict[str, str]) -> str:
    if isinstance(value, list):
        return ", ".join(_show(v, names) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{names.get(k, k)} {_show(v, names)}" for k, v in value.items())
    if value is None:
        return "none"
    return names.get(value, str(value)) if isinstance(value, str) else str(value)


def public_line(event: dict, names: dict[str, str]) -> str:
    """One line about `event` that anyone may read; seats appear as player names."""
    fields = {k: _show(v, names) for k, v in event.items() if k not in ("type", "private")}
    template = _PUBLIC.get(event["type"])
    if template is not None:
        try:
            return template.format(**fields)
        except KeyError:
            pass
    details = ", ".join(f"{k}={v}" for k, v in fields.items())
    return f"{event['type'].replace('_', ' ')}" + (f" ({details})" if details else "")


def private_lines(events: list[dict]) -> dict[str, list[str]]:
    """Per seat, the lines only that seat may read (cards drawn and the like)."""
    lines: dict[str, list[str]] = {}
    for event in events:
        for seat, items in (event.get("private") or {}).items():
            template = _PRIVATE.get(event["type"], event["type"].replace("_", " ") + ": {items}")
            shown = ", ".join(map(str, items)) if isinstance(items, list) else str(items)
            lines.setdefault(seat, []).append(template.format(items=shown))
    return lines
