"""Check the glossary: every entry readable, every "see" link, ruling and card reference real.

    python -m engine.glossary.validate [GLOSSARY-FOLDER] [PACK ...]

Prints each problem with its file and term; exits 0 when there is none, 1 otherwise.
"""
from __future__ import annotations

import os
import re
import sys
from typing import Optional

from engine.errors import PackError
from engine.glossary import GLOSSARY_DIR, Glossary, load_entries
from engine.glossary.cards import card_words, packs as all_packs, ruleset_of
from engine.packs import PROJECT_ROOT

RULING_FILES = ("docs/rulings.md", "docs/leagues.md")
_RULING = re.compile(r"\*\*([A-Z]\d+)\. ")


def ruling_ids() -> set[str]:
    """Every ruling id written out in the project's docs (R1, L8 ...)."""
    ids: set[str] = set()
    for name in RULING_FILES:
        with open(os.path.join(PROJECT_ROOT, name), encoding="utf-8") as handle:
            ids.update(_RULING.findall(handle.read()))
    return ids


def glossary_problems(folder: str = GLOSSARY_DIR, packs: Optional[list[str]] = None) -> list[str]:
    """Every problem of the glossary in `folder`, against the cards of `packs` (default: every pack)."""
    packs = packs or [folder for folder, _ in all_packs()]
    try:
        entries = load_entries(folder)
    except PackError as error:
        return error.problems
    problems = []
    seen: dict[str, str] = {}
    for entry in entries:
        if entry.key in seen:
            problems.append(f"{entry.source}: {entry.term}: also in {seen[entry.key]}")
        seen[entry.key] = entry.source
    glossary = Glossary(entries)
    rulings = ruling_ids()
    cards: set[str] = set()
    for pack in packs:
        cards.update(card["code"] for card in card_words(pack, ruleset_of(pack)))
    for entry in entries:
        where = f"{entry.source}: {entry.term}"
        problems += [f"{where}: see '{link}' is no entry" for link in entry.see
                     if glossary.resolve(link, entry.ruleset) is None]
        problems += [f"{where}: ruling {r} is not in {' or '.join(RULING_FILES)}" for r in entry.rulings
                     if r not in rulings]
        problems += [f"{where}: no card or character '{c}' in {', '.join(packs)}"
                     for c in entry.cards + entry.characters if c not in cards]
        if not entry.short.strip():
            problems.append(f"{where}: needs a short meaning")
    return problems


def main(argv: list[str]) -> int:
    """`python -m engine.glossary.validate [GLOSSARY_FOLDER [PACK ...]]`: exit 1 on any problem."""
    folder = argv[0] if argv else GLOSSARY_DIR
    problems = glossary_problems(folder, list(argv[1:]) or None)
    for problem in problems:
        print(problem)
    print(f"{folder}: {'ok' if not problems else f'{len(problems)} problem(s)'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
