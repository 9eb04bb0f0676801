"""Card lookup: every card and character of every content pack, found by name or code.

Each card comes with what a player asks about it: kind, timing, points, supply, its text,
and the glossary entries (with their rulings) that concern it.
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from typing import Optional

import yaml
from rapidfuzz import fuzz, process

from engine.awaymissions.content import PROJECT_ROOT, load_pack
from engine.glossary import Glossary, load_glossary, normalise

FUZZY_CUTOFF = 70


@dataclass(frozen=True)
class CardInfo:
    """One card or character card as the lookup shows it."""

    code: str
    name: str
    kind: str  # mission, event, equipment, interrupt, core, character
    pack: str
    affiliation: str
    text: str
    timing: str = ""
    points: Optional[int] = None
    supply: int = 1
    keywords: tuple[str, ...] = ()
    facts: tuple[str, ...] = ()  # ratings, attacks, specializations of a character
    entries: tuple[str, ...] = field(default=())  # glossary keys concerning it
    rulings: tuple[str, ...] = ()


def pack_folders() -> list[str]:
    """Every Away Missions content pack under content/ (a folder with a pack.yaml that names
    no other ruleset: a Renegades pack says `ruleset: renegades`)."""
    root = os.path.join(PROJECT_ROOT, "content")
    return sorted(f"content/{name}" for name in os.listdir(root)
                  if os.path.isfile(os.path.join(root, name, "pack.yaml"))
                  and _ruleset_of(os.path.join(root, name, "pack.yaml")) == "awaymissions")


def _ruleset_of(pack_file: str) -> str:
    with open(pack_file, encoding="utf-8") as handle:
        info = (yaml.safe_load(handle) or {}).get("pack") or {}
    return info.get("ruleset", "awaymissions") if isinstance(info, dict) else "awaymissions"


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


def card_infos(glossary: Glossary, folders: Optional[list[str]] = None) -> list[CardInfo]:
    """Every card and character of the packs, with the glossary entries that concern it."""
    infos = []
    for folder in folders or pack_folders():
        pack = load_pack(folder)
        for card in pack.cards.values():
            about = glossary.about_card(card.code)
            infos.append(CardInfo(
                code=card.code, name=card.name, kind=card.kind, pack=folder, affiliation=card.affiliation,
                text=card.text, timing=_timing(card), points=card.points if card.kind in ("mission", "core") else None,
                supply=card.supply, keywords=tuple(card.keywords), entries=tuple(e.key for e in about),
                rulings=tuple(dict.fromkeys(r for e in about for r in e.rulings))))
        for character in pack.characters.values():
            about = glossary.about_card(character.code)
            ratings = character.ratings.as_dict()
            facts = [" ".join(f"{k.upper()} {v}" for k, v in ratings.items())]
            facts += [f"{a.name}: {a.dice:+d} dice, DAMAGE {a.damage}" + (" (stun)" if a.stun else "")
                      + (" (melee)" if a.melee else "") for a in character.attacks]
            if character.specializations:
                facts.append(", ".join(f"{k} x{v}" for k, v in character.specializations.items()))
            infos.append(CardInfo(
                code=character.code, name=character.name, kind="character", pack=folder,
                affiliation=character.affiliation, text=character.text, keywords=tuple(character.keywords),
                facts=tuple(facts), entries=tuple(e.key for e in about),
                rulings=tuple(dict.fromkeys(r for e in about for r in e.rulings))))
    return infos


class CardIndex:
    """Cards found by code, name, plural or a close spelling."""

    def __init__(self, infos: list[CardInfo]):
        self.cards = infos
        self._names = [normalise(i.name) for i in infos] + [normalise(i.code) for i in infos]

    def find(self, query: str, limit: int = 5) -> list[CardInfo]:
        """Best matches first."""
        wanted = normalise(query)
        if not wanted:
            return []
        count = len(self.cards)
        exact = [self.cards[i % count] for i, name in enumerate(self._names) if name == wanted]
        if exact:
            return list(dict.fromkeys(exact))[:limit]
        found: list[CardInfo] = []
        for _name, _score, index in process.extract(wanted, self._names, scorer=fuzz.WRatio,
                                                    score_cutoff=FUZZY_CUTOFF, limit=limit * 3):
            info = self.cards[index % count]
            if info not in found:
                found.append(info)
        return found[:limit]

    def get(self, code: str) -> Optional[CardInfo]:
        """The card with exactly this code."""
        return next((c for c in self.cards if c.code == code), None)


@functools.lru_cache(maxsize=1)
def card_index() -> CardIndex:
    """Every pack's cards, loaded once."""
    return CardIndex(card_infos(load_glossary()))
