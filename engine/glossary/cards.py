"""Card lookup: every card and character of every content pack, of every ruleset, found by
name or code.

Each card comes with what a player asks about it: kind, timing, points, supply, its text,
and the glossary entries (with their rulings) that concern it. The words of each ruleset's
cards come from that ruleset's package (`card_facts`).
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from typing import Optional

import yaml
from rapidfuzz import fuzz, process

from engine.glossary import Entry, Glossary, load_glossary, normalise, wanted_words
from engine.packs import PROJECT_ROOT
from engine.rulesets import ruleset as ruleset_named

FUZZY_CUTOFF = 70


@dataclass(frozen=True)
class CardInfo:
    """One card or character card as the lookup shows it."""

    code: str
    name: str
    kind: str  # mission, event, equipment, interrupt, core, character; crewmember, ship, weapon ...
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
    ruleset: str = "awaymissions"


def packs() -> list[tuple[str, str]]:
    """Every content pack under content/ (a folder with a pack.yaml) and its ruleset (a pack
    says `ruleset: renegades`; none said is Away Missions)."""
    root = os.path.join(PROJECT_ROOT, "content")
    return sorted((f"content/{name}", ruleset_of(f"content/{name}"))
                  for name in os.listdir(root) if os.path.isfile(os.path.join(root, name, "pack.yaml")))


def ruleset_of(folder: str) -> str:
    """The ruleset of the pack in `folder` (relative to the project, or absolute)."""
    with open(os.path.join(PROJECT_ROOT, folder, "pack.yaml"), encoding="utf-8") as handle:
        info = (yaml.safe_load(handle) or {}).get("pack") or {}
    return info.get("ruleset", "awaymissions") if isinstance(info, dict) else "awaymissions"


def card_words(folder: str, ruleset: str) -> list[dict]:
    """Every card of the pack in `folder` in words, as its ruleset (found by name) tells them."""
    rules = ruleset_named(ruleset)
    return rules.card_facts(rules.load_pack(folder))


def card_infos(glossary: Glossary, folders: Optional[list[tuple[str, str]]] = None) -> list[CardInfo]:
    """Every card and character of the packs ((folder, ruleset) pairs; default: every pack),
    with the glossary entries that concern it."""
    infos = []
    for folder, ruleset in folders or packs():
        for card in card_words(folder, ruleset):
            about = glossary.about_card(card["code"])
            infos.append(CardInfo(pack=folder, ruleset=ruleset, entries=tuple(e.key for e in about),
                                  rulings=tuple(dict.fromkeys(r for e in about for r in e.rulings)), **card))
    return infos


class CardIndex:
    """Cards found by code, name, plural or a close spelling."""

    def __init__(self, infos: list[CardInfo]):
        self.cards = infos
        self._names = [normalise(i.name) for i in infos] + [normalise(i.code) for i in infos]

    def find(self, query: str, limit: int = 5, prefer: Optional[str] = None) -> list[CardInfo]:
        """Best matches first: the exact name or code, else close spellings; among equally
        good matches, cards of `prefer` (the ruleset at the table) first."""
        exact = self.exact(query, prefer)
        if exact:
            return exact[:limit]
        wanted = wanted_words(query)
        if not wanted:
            return []
        count = len(self.cards)
        found = [self.cards[index % count] for _name, _score, index in process.extract(
            wanted, self._names, scorer=fuzz.WRatio, score_cutoff=FUZZY_CUTOFF, limit=limit * 3)]
        return sorted(dict.fromkeys(found), key=lambda c: c.ruleset != prefer)[:limit]

    def exact(self, query: str, prefer: Optional[str] = None) -> list[CardInfo]:
        """The cards whose name or code is `query` (case, punctuation and plurals aside)."""
        wanted = wanted_words(query)
        count = len(self.cards)
        found = [self.cards[i % count] for i, name in enumerate(self._names) if wanted and name == wanted]
        return sorted(dict.fromkeys(found), key=lambda c: c.ruleset != prefer)

    def nearest(self, query: str, prefer: Optional[str] = None, limit: int = 3) -> list[CardInfo]:
        """The cards spelled most like `query`, however unlike (suggestions when nothing matches)."""
        wanted = wanted_words(query)
        count = len(self.cards)
        scored = process.extract(wanted, self._names, scorer=fuzz.WRatio, limit=limit * 4) if wanted else []
        ranked = sorted(scored, key=lambda hit: (-round(hit[1]), self.cards[hit[2] % count].ruleset != prefer))
        return list(dict.fromkeys(self.cards[index % count] for _, _, index in ranked))[:limit]

    def get(self, code: str) -> Optional[CardInfo]:
        """The card with exactly this code."""
        return next((c for c in self.cards if c.code == code), None)


@functools.lru_cache(maxsize=1)
def card_index() -> CardIndex:
    """Every pack's cards, loaded once."""
    return CardIndex(card_infos(load_glossary()))


@dataclass(frozen=True)
class Answer:
    """What a rules lookup found: a glossary entry, or else a card named exactly; `also`,
    other close terms; `nearest`, the terms spelled most like the query when nothing matched."""

    entry: Optional[Entry] = None
    card: Optional[CardInfo] = None
    also: tuple[Entry, ...] = ()
    nearest: tuple[Entry, ...] = ()


def answer(query: str, prefer: Optional[str] = None) -> Answer:
    """`/rules QUERY` or `rules QUERY`: an entry by key, name or alias (of the table's
    ruleset `prefer`, else a card of it so named); a card by its exact name or code ("Hard
    Burn" is a card, not a term); then the closest terms; else suggestions."""
    glossary = load_glossary()
    keyed = glossary.get(query)
    if keyed is not None:
        return Answer(entry=keyed)
    found = glossary.lookup(query, prefer=prefer)
    wanted = wanted_words(query)
    named = bool(found) and wanted in {normalise(name) for name in (found[0].term, *found[0].aliases)}
    cards = card_index().exact(query, prefer)
    if cards and (not named or (prefer and found[0].ruleset != prefer and cards[0].ruleset == prefer)):
        return Answer(card=cards[0])  # at a Renegades table "drone" is its Sentry drone, not the Borg term
    if found:
        return Answer(entry=found[0], also=tuple(found[1:]))
    return Answer(nearest=tuple(glossary.nearest(query, prefer)))


def card_names(entry: Entry) -> list[str]:
    """The names of the cards and characters an entry concerns (their codes if unknown)."""
    index = card_index()
    return [getattr(index.get(code), "name", code) for code in entry.cards + entry.characters]
