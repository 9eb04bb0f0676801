"""Readable lines from engine events, for the channel, the private notes and the log.

Events are dicts with a "type". A "private" entry ({seat: [items]}) is secret to those
seats: it never reaches a public line and becomes that seat's private line instead.
"""
from __future__ import annotations

from typing import Any, Optional

from engine.dice import dice_words

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
    "opponent_chosen": "{seat} names {opponent} as the opponent of {card}",
    "actions_granted": "{card} grants {count} more action(s)",
    "test_impossible": "The test for {card} cannot be taken",
    "round_effect": "{seat} resolves {card}",
    "passed_effects": "{seat} resolves no more start-of-round effects",
    "resolved": "{kind} result: {successes} success(es)",
    "taken_back": "{seat} takes back '{command}' ({by} agreed)",
}

# events that need no public line (a reaction moment nobody used)
_SILENT = {"declined", "mute", "unmute"}  # pre-passes are private (R41)

_PRIVATE = {
    "drew": "You drew: {items}",
    "cycled": "You drew: {items}",
    "mute": "You pass in advance: {items}",
    "unmute": "You will be asked again: {items}",
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
    if event["type"] == "round_over" and "standing" in event:
        return f"Round {event['number']} is over · " + " · ".join(
            f"{names.get(seat, seat)} {mark['points']} point(s), {mark['in_play']} in play"
            for seat, mark in event["standing"].items())
    fields = {k: _show(v, names) for k, v in event.items() if k not in ("type", "private")}
    template = _PUBLIC.get(event["type"])
    if template is not None:
        try:
            return template.format(**fields)
        except KeyError:
            pass
    details = ", ".join(f"{k}={v}" for k, v in fields.items())
    return f"{event['type'].replace('_', ' ')}" + (f" ({details})" if details else "")


def public_events(events: list[dict]) -> list[dict]:
    """The events without their private parts: what anyone may see of them."""
    return [{k: v for k, v in e.items() if k != "private"} for e in events]


def public_lines(events: list[dict], names: dict[str, str]) -> list[str]:
    """A line per event that has one (see public_line)."""
    return [line for line in (public_line(e, names) for e in events) if line]


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


# --- what a player reads on their panel --------------------------------------------------

_QUESTIONS = {
    "activate": "Which character activates next (or which bonus action token do you use)?",
    "action": "What does {character} do next? ({left} action(s) left)",
    "reroll": "Re-roll any of the {roll} dice, play an interrupt, or keep them?",
    "damage": "How does {character} take {amount} damage?",
    "corridor": "Which way does the Main Corridor lie?",
    "board": "Which board goes where?",
    "core": "Which core mission do you play?",
    "start_area": "Where does your away team beam down?",
    "place": "Where do you place your next character ({why})?",
    "place_drone": "Where does the new drone {character} appear?",
    "discard": "Discard any cards from your opening hand?",
    "redraw": "Return cards and draw again?",
    "effect_move": "Move {character} up to {steps} space(s) ({card})?",
    "effect_place": "Where is {character} placed ({card})?",
    "free_action": "Take the free {action} with {character} ({card})?",
    "search": "Take one of the cards found ({card})?",
    "challenger": "Who challenges {character}'s {specialization} test?",
    "opponent": "Which opponent does {card} affect?",
    "adjudicate": "Adjust the game as {card} says, then choose done.",
    "simultaneous": "Resolve a start-of-round effect?",
    "ship": "What does the {ship} do next? ({left} action(s) left)",
    "deploy": "Which crew of the {ship} go down to the planet as its landing party?",
    "party": "What does the {ship}'s landing party do next?",
    "bonus": "Which dice do {attacker}'s attack bonuses raise? (rolled against {target}: {dice})",
    "draft": "Which crewmember joins the {ship}? (pick {pick} of 5)",
    "creature": "One {creature} already hunts: does its mate join it, or is another world card drawn instead?",
}

_MOMENTS = {
    "attacked": "before the attack on {subject} is rolled",
    "rolled": "on {subject}'s roll",
    "damaged": "before {subject} takes the damage",
    "activated": "as {subject} activates",
    "moved": "after {subject} moved",
}


def question(decision: dict, names: dict[str, str]) -> str:
    """A pending decision (as in a view) put as a question to its player."""
    info = {k: _show(v, names) for k, v in (decision.get("info") or {}).items() if k != "secret"}
    if decision["kind"] == "interrupt":
        moment = _MOMENTS.get(decision["info"].get("trigger"), "now ({trigger})")
        return "Play an interrupt " + moment.format_map(_Missing(info)) + "?"
    template = _QUESTIONS.get(decision["kind"])
    if template is None:
        return f"Your decision: {decision['kind'].replace('_', ' ')}"
    return template.format_map(_Missing(info))


class _Missing(dict):
    """Format fields: a field the decision lacks reads as '?' rather than failing."""

    def __missing__(self, key: str) -> str:
        return "?"


def readable(command: str, names: dict[str, str]) -> str:
    """A command with card codes replaced by card names ('play fed-sup-x REYES' -> 'play Aimed Shot REYES');
    the verb stays as it is."""
    verb, *rest = command.split()
    return " ".join([verb, *(names.get(word, word) for word in rest)])


def odds_text(odds: Any) -> str:
    """The exact chances of an attack or skill test (engine odds), in one short line."""
    if hasattr(odds, "passed"):
        against = f" vs {odds.opposing}" if odds.opposing is not None else ""
        return f"pass {_percent(odds.passed)} ({dice_words(odds.dice)}{against}, {odds.needed} needed)"
    if odds.stun:
        return f"stun {_percent(odds.stun)}, no effect {_percent(1 - odds.stun)} ({odds.dice} vs {dice_words(odds.defense)})"
    chances = sorted(odds.damage.items())
    shown = [f"{damage}: {_percent(chance)}" for damage, chance in chances[:4]]
    if len(chances) > 4:
        shown.append(f"{chances[4][0]}+: {_percent(sum(c for _, c in chances[4:]))}")
    line = "damage " + " · ".join(shown)
    if odds.neutralize:
        line += f"; neutralized {_percent(odds.neutralize)}"
    return line


def _percent(chance: Any) -> str:
    value = float(chance) * 100
    return f"{value:.0f}%" if value >= 1 or value == 0 else "<1%"


def duration(seconds: Optional[float]) -> str:
    """'3 h 20 min', '45 s', '2 d 4 h'."""
    if seconds is None:
        return "-"
    seconds = int(round(seconds))
    for unit, size, small, small_size in (("d", 86400, "h", 3600), ("h", 3600, "min", 60), ("min", 60, "s", 1)):
        if seconds >= size:
            rest = (seconds % size) // small_size
            return f"{seconds // size} {unit}" + (f" {rest} {small}" if rest else "")
    return f"{seconds} s"
