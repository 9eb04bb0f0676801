"""The rules glossary: game terms in our own words, looked up by name, typo or plural.

    glossary = load_glossary()                 # content/glossary/*.yaml, validated
    glossary.lookup("stunned")                 # best matches first
    glossary.letter("D")                       # every term starting with D

Entries are data (content/glossary); `engine.glossary.validate` checks every link.
"""
from __future__ import annotations

import functools
import os
import re
from typing import Optional

import msgspec
import yaml
from rapidfuzz import fuzz, process

from engine.errors import PackError
from engine.packs import PROJECT_ROOT, UniqueKeyLoader

GLOSSARY_DIR = os.path.join(PROJECT_ROOT, "content", "glossary")
RULESET_NAMES = {"awaymissions": "Away Missions", "renegades": "Renegades", "leagues": "Organised play"}
FUZZY_CUTOFF = 72
MAX_QUERY = 100  # characters of a query matched: longer than any name, and a long line costs no more


class Entry(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """One term: a short meaning, the rule in our words, rulings, links and cards."""

    term: str
    short: str
    rule: str = ""
    rulings: list[str] = []
    see: list[str] = []
    cards: list[str] = []
    characters: list[str] = []
    aliases: list[str] = []
    ruleset: str = ""
    source: str = ""

    @property
    def id(self) -> str:
        """The entry's stable id: its term in lower case, words joined by '-'."""
        return slug(self.term)

    @property
    def key(self) -> str:
        """Unique across rulesets: 'awaymissions/stun'."""
        return f"{self.ruleset}/{self.id}"


class _File(msgspec.Struct, forbid_unknown_fields=True):
    ruleset: str
    entries: list[Entry]


def slug(text: str) -> str:
    """'Take cover' -> 'take-cover'."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def normalise(text: str) -> str:
    """A query or term reduced for matching: lower case, plain words, plurals made singular."""
    words = re.findall(r"[a-z0-9']+", text.lower())
    return " ".join(_singular(w) for w in words)


def wanted_words(query: str) -> str:
    """A query as matched: its first MAX_QUERY characters, normalised."""
    return normalise(query[:MAX_QUERY])


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


class Glossary:
    """Every entry, indexed for exact, plural and fuzzy lookup and for browsing A-Z."""

    def __init__(self, entries: list[Entry]):
        self.entries = sorted(entries, key=lambda e: (e.term.lower(), e.ruleset))
        self.by_key = {e.key: e for e in self.entries}
        self._names: list[str] = []
        self._owners: list[Entry] = []
        for entry in self.entries:
            for name in (entry.term, *entry.aliases):
                self._names.append(normalise(name))
                self._owners.append(entry)
        self._words = [frozenset(name.split()) for name in self._names]
        self._exact: dict[str, list[Entry]] = {}
        for name, entry in zip(self._names, self._owners):
            self._exact.setdefault(name, []).append(entry)

    def lookup(self, query: str, ruleset: Optional[str] = None, limit: int = 5,
               prefer: Optional[str] = None) -> list[Entry]:
        """Entries matching `query`, best first: the exact name or an alias (plural or
        singular; a name before an alias); failing that, names holding every word typed, then
        close spellings. Among equally good matches, entries of `prefer` (the ruleset at the
        table) come first."""
        wanted = wanted_words(query)
        if not wanted:
            return []
        exact = [e for e in self._exact.get(wanted, []) if ruleset in (None, e.ruleset)]
        if exact:
            return _distinct(sorted(exact, key=lambda e: (e.ruleset != prefer, normalise(e.term) != wanted)))[:limit]
        words = set(wanted.split())
        found = [(0, e) for names, e in zip(self._words, self._owners) if words <= names]
        for _name, _score, index in process.extract(wanted, self._names, scorer=fuzz.WRatio,
                                                    score_cutoff=FUZZY_CUTOFF, limit=limit * 3):
            found.append((1, self._owners[index]))
        ranked = sorted(((tier, e.ruleset != prefer, n), e) for n, (tier, e) in enumerate(found)
                        if ruleset in (None, e.ruleset))
        return _distinct(e for _, e in ranked)[:limit]

    def nearest(self, query: str, prefer: Optional[str] = None, limit: int = 3) -> list[Entry]:
        """The terms spelled most like `query`, however unlike (suggestions when nothing
        matches), those of `prefer` first among equals."""
        wanted = wanted_words(query)
        scored = process.extract(wanted, self._names, scorer=fuzz.WRatio, limit=limit * 4) if wanted else []
        ranked = sorted(scored, key=lambda hit: (-round(hit[1]), self._owners[hit[2]].ruleset != prefer))
        return _distinct(self._owners[index] for _, _, index in ranked)[:limit]

    def get(self, key: str) -> Optional[Entry]:
        """The entry with this key ('awaymissions/stun'), or None."""
        return self.by_key.get(key)

    def resolve(self, link: str, ruleset: str) -> Optional[Entry]:
        """A "see" link from an entry of `ruleset`: its own ruleset first, then any other."""
        return self.by_key.get(f"{ruleset}/{link}") or next(
            (e for e in self.entries if e.id == link), None)

    def letters(self) -> list[str]:
        """The initial letters that have terms, A to Z."""
        return sorted({e.term[0].upper() for e in self.entries})

    def letter(self, letter: str) -> list[Entry]:
        """Every term starting with `letter`, A-Z."""
        return [e for e in self.entries if e.term[0].upper() == letter.upper()]

    def rulesets_of(self, entry: Entry) -> list[str]:
        """The rulesets in which a term of the same name exists."""
        return sorted({e.ruleset for e in self._exact.get(normalise(entry.term), [])})

    def about_card(self, code: str) -> list[Entry]:
        """Entries that name this card or character."""
        return [e for e in self.entries if code in e.cards or code in e.characters]


def _distinct(entries) -> list[Entry]:
    """Each entry once, in order."""
    seen: dict[str, Entry] = {}
    for entry in entries:
        seen.setdefault(entry.key, entry)
    return list(seen.values())


def plain_text(entry: Entry, cards: tuple[str, ...] = ()) -> str:
    """An entry as plain lines for a terminal: its "see" links by their terms, and the
    names of the `cards` it concerns."""
    glossary = load_glossary()
    lines = [f"{entry.term} ({RULESET_NAMES.get(entry.ruleset, entry.ruleset)}): {entry.short}"]
    if entry.rule:
        lines.append(entry.rule.strip())
    if entry.rulings:
        lines.append("Rulings: " + ", ".join(entry.rulings))
    if cards:
        lines.append("Cards: " + ", ".join(cards))
    if entry.see:
        lines.append("See: " + ", ".join(getattr(glossary.resolve(link, entry.ruleset), "term", link)
                                         for link in entry.see))
    return "\n".join(lines)


def load_entries(folder: str = GLOSSARY_DIR) -> list[Entry]:
    """Every entry of the YAML files in `folder`; PackError lists each problem with its file."""
    problems: list[str] = []
    entries: list[Entry] = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith((".yaml", ".yml")):
            continue
        path = os.path.join(folder, name)
        try:
            with open(path, encoding="utf-8") as handle:
                data = msgspec.convert(yaml.load(handle, Loader=UniqueKeyLoader), _File)
        except (yaml.YAMLError, msgspec.ValidationError, UnicodeDecodeError, OSError) as error:
            problems.append(f"{name}: {error}")
            continue
        entries += [msgspec.structs.replace(e, ruleset=data.ruleset, source=name) for e in data.entries]
    if problems:
        raise PackError(problems)
    return entries


@functools.lru_cache(maxsize=4)
def load_glossary(folder: str = GLOSSARY_DIR) -> Glossary:
    """The glossary of `folder` (cached: it is data that does not change while running)."""
    return Glossary(load_entries(folder))
