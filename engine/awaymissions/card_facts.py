"""Every card and character of an Away Missions pack in words, for the card lookup.

`card_facts(pack)` gives one plain dict per card: code, name, kind, affiliation, text,
timing, points, supply, keywords and facts (a character's ratings, attacks and
specializations).
"""
from __future__ import annotations

from engine.awaymissions.content import Pack
from engine.dice import dice_words


def _timing(card) -> str:
    if card.kind == "interrupt" and card.trigger:
        return f"interrupt when {card.trigger}"
    if card.kind == "equipment":
        return "start of one of your activations"
    if card.kind == "core":
        return "chosen at set-up, scored at the end"
    if card.kind == "mission":
        return {"action": "special action", "free": "free, in your activation", "table": "played to the table",
                "end": "end of the game"}.get(card.play, card.play or "")
    return "in your activation"


def card_facts(pack: Pack) -> list[dict]:
    """Every card and character of the pack, in words (see the module docstring)."""
    facts = []
    for card in pack.cards.values():
        facts.append({"code": card.code, "name": card.name, "kind": card.kind, "affiliation": card.affiliation,
                      "text": card.text, "timing": _timing(card), "supply": card.supply,
                      "points": card.points if card.kind in ("mission", "core") else None,
                      "keywords": tuple(card.keywords)})
    for character in pack.characters.values():
        lines = [" ".join(f"{k.upper()} {v}" for k, v in character.ratings.as_dict().items())]
        lines += [f"{a.name}: {dice_words(a.dice, signed=True)}, DAMAGE {a.damage}" + (" (stun)" if a.stun else "")
                  + (" (melee)" if a.melee else "") for a in character.attacks]
        if character.specializations:
            lines.append(", ".join(f"{k} x{v}" for k, v in character.specializations.items()))
        facts.append({"code": character.code, "name": character.name, "kind": "character",
                      "affiliation": character.affiliation, "text": character.text,
                      "keywords": tuple(character.keywords), "facts": tuple(lines)})
    return facts
