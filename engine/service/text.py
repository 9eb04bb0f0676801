"""Readable lines from engine events, for the channel, the private notes and the log.

Events are dicts with a "type". A "private" entry ({seat: [items]}) is secret to those
seats: it never reaches a public line and becomes that seat's private line instead.
"""
from __future__ import annotations

from typing import Any, Optional

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
    "card_played": "{seat} plays {name}",
    "manual_card": "{card} is adjudicated by hand: {text}",
    "adjusted": "{seat} adjusts {character} {what}: {value}",
    "adjudicated": "{seat} has finished adjusting for {card}",
    "equipped": "{character} takes {card}",
    "trait": "{character} gains {card}",
    "permanent": "{card} stays in play for {seat}",
    "scored": "{seat} scores {card} ({points} points)",
    "scored_at_end": "{seat} scores {cards} at the end of the game",
    "mission_failed": "{card} fails and goes to the mission discard pile",
    "mission_on_table": "{seat} puts {card} on the table",
    "bonus_points": "{seat} takes {points} bonus point(s)",
    "special": "{character} takes a special action: {action}",
    "dice_changed": "{card} changes the dice: {count} for the {side}",
    "boost": "{card} readies a boost for {character}",
    "ratings_changed": "{character} ratings change: {changes} (until {until})",
    "restored": "{character} restores {restored}",
    "token": "{character}: {token} {count}",
    "prevented": "{amount} damage to {character} is prevented",
    "cancelled": "The {what} is cancelled",
    "searched": "{seat} searches for a card",
    "actions_granted": "{card} grants {count} more action(s)",
    "test_impossible": "The test for {card} cannot be taken",
    "round_effect": "{seat} resolves {card}",
    "passed_effects": "{seat} resolves no more start-of-round effects",
    "mute": "{seat} will not be stopped for {windows}",
    "unmute": "{seat} will be stopped again for {windows}",
    "resolved": "{kind} result: {successes} success(es)",
}

# events that need no public line (a reaction moment nobody used)
_SILENT = {"declined"}

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
    if event["type"] in _SILENT:
        return ""
    fields = {k: _show(v, names) for k, v in event.items() if k not in ("type", "private")}
    template = _PUBLIC.get(event["type"])
    if template is not None:
        try:
            return template.format(**fields)
        except KeyError:
            pass
    details = ", ".join(f"{k}={v}" for k, v in fields.items())
    return f"{event['type'].replace('_', ' ')}" + (f" ({details})" if details else "")


def private_lines(events: list[dict], names: Optional[dict[str, str]] = None) -> dict[str, list[str]]:
    """Per seat, the lines only that seat may read (cards drawn and the like)."""
    lines: dict[str, list[str]] = {}
    for event in events:
        for seat, items in (event.get("private") or {}).items():
            template = _PRIVATE.get(event["type"], event["type"].replace("_", " ") + ": {items}")
            names = names or {}
            shown = ", ".join(names.get(i, str(i)) for i in items) if isinstance(items, list) else str(items)
            lines.setdefault(seat, []).append(template.format(items=shown))
    return lines
