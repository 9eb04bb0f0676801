"""Check a content pack and its decks, printing every problem with its place.

    python -m engine.awaymissions.validate content/starter

Exits 0 when the pack is sound, 1 otherwise.
"""
from __future__ import annotations

import sys

from engine.awaymissions.cards import deck_problems
from engine.awaymissions.content import Pack, load_pack
from engine.errors import PackError


def pack_problems(path: str) -> list[str]:
    """Schema and cross-reference problems, then deck-building problems of every deck."""
    try:
        pack = load_pack(path)
    except PackError as exc:
        return exc.problems
    return deck_building_problems(pack)


def deck_building_problems(pack: Pack) -> list[str]:
    problems = []
    for code, deck in pack.decks.items():
        rosters = [[t.commander, *t.members] for t in pack.teams.values() if t.affiliation == deck.affiliation]
        for roster in rosters or [[]]:
            for problem in deck_problems(pack, deck.affiliation, deck.support, deck.mission, roster):
                line = f"decks.yaml: $.decks[{code}]: {problem}"
                if line not in problems:
                    problems.append(line)
    return problems


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip())
        return 2
    failed = False
    for path in argv:
        problems = pack_problems(path)
        for problem in problems:
            print(f"{path}/{problem}")
        print(f"{path}: {'ok' if not problems else f'{len(problems)} problem(s)'}")
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
