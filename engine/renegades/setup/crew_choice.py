"""A crew named at set-up (N220, N241): the five crewmembers a player types for a ship, by
code or card name, checked before any game is made, and what to offer while they type.

Discord's /game new and the console's --coalition-crew both read a crew with `named_crew`
and offer the next picks with `completions`.
"""
from __future__ import annotations

from typing import Optional

from engine.errors import RuleError
from engine.renegades.contents.content import Pack
from engine.renegades.setup.draft import CREW, feasible
from engine.renegades.setup.setup import default_crew

CHOICES = 25  # at most this many completions are offered (Discord's autocomplete limit)


def roster(pack: Pack, faction: str) -> str:
    """The faction's crew as a player reads them: code, name and stations."""
    return ", ".join(f"{code} ({card.name}, {'/'.join(card.stations)})"
                     for code, card in pack.crew.items() if card.faction == faction)


def standard_crew(pack: Pack, faction: str) -> list[str]:
    """The crew a ship of the faction flies when nobody chooses: the first five of the pack
    who man every station."""
    return default_crew(pack, faction, set()) or []


def _words(text: str) -> list[str]:
    """The names typed: separated by commas when there is one (card names have spaces),
    else by spaces."""
    parts = text.split(",") if "," in text else text.split()
    return [part.strip() for part in parts if part.strip()]


def _code(pack: Pack, faction: str, word: str) -> str:
    wanted = word.lower()
    found = next((code for code, card in pack.crew.items()
                  if card.faction == faction and wanted in (code.lower(), card.name.lower())), None)
    if found is None:
        raise RuleError(f"'{word}' is not {faction} crew. The {faction} crew: {roster(pack, faction)}.")
    return found


def named_crew(pack: Pack, faction: str, text: str) -> list[str]:
    """The five crew codes `text` names (codes or card names, any case), one for each
    station. RuleError saying what is wrong, with the faction's crew listed."""
    codes = [_code(pack, faction, word) for word in _words(text)]
    repeated = sorted({code for code in codes if codes.count(code) > 1})
    if repeated:
        raise RuleError(f"Named twice: {', '.join(repeated)}; name five different crewmembers.")
    if len(codes) != CREW or not feasible(pack, {"ship": codes}, []):
        wrong = (f"you named {len(codes)}: {', '.join(codes) or 'none'}" if len(codes) != CREW
                 else f"{', '.join(codes)} leave a station empty")
        raise RuleError(f"Name five crew, one for each station (commander, navigation, weapons, comms, "
                        f"engineering); {wrong}. The {faction} crew: {roster(pack, faction)}.")
    return codes


def solo(options: dict) -> bool:
    """Whether a table of `options` (mode, seats) is the one-player game."""
    return (options.get("mode"), options.get("seats")) == ("coop", 1)


def solo_note(pack: Pack, options: dict, npc_crew: Optional[list[str]], choose: str, picks: str) -> str:
    """At a solo table, who crews the NPC Coalition ship (N241): drafted (`picks` says where
    the picks are made), the crew chosen, or the standard crew (`choose` says how to choose
    another); empty at other tables."""
    if not solo(options):
        return ""
    if options.get("draft"):
        return f"You draft your crew, then the Coalition's: {picks}."
    if npc_crew:
        return f"The NPC Coalition ship flies your choice: {', '.join(npc_crew)}."
    return f"The NPC Coalition ship flies the standard crew ({', '.join(standard_crew(pack, 'coalition'))}); {choose}."


def solo_choice(pack: Pack, options: dict, coalition_crew: Optional[str]) -> Optional[list[str]]:
    """The NPC Coalition crew named (`coalition_crew`, as typed) for a table of `options`
    (mode, seats, draft), None when none is. RuleError when the choice cannot be played: a
    crew named outside the solo game or beside a draft (N241), a crew `named_crew` refuses."""
    if coalition_crew is None:
        return None
    if not solo(options):
        raise RuleError("Only the solo game names its NPC Coalition crew at the start; at a co-op table the "
                        "players draft the Coalition crews, one pick at a time.")
    if options.get("draft"):
        raise RuleError("Name the Coalition crew or draft the crews, not both.")
    return named_crew(pack, "coalition", coalition_crew)


def completions(pack: Pack, faction: str, typed: str) -> list[tuple[str, str]]:
    """(value, label) pairs to offer while a crew is typed: the crewmembers already named
    (what cannot be read is dropped) followed by each one of the faction who could still
    join them with every station manned; with nothing typed the standard crew comes first."""
    named: list[str] = []
    words = _words(typed)
    partial = words.pop().lower() if words and not typed.rstrip().endswith(",") else ""
    for word in words:
        try:
            code = _code(pack, faction, word)
        except RuleError:
            continue
        if code not in named:
            named.append(code)
    if len(named) >= CREW:
        named = named[:CREW]
        if not feasible(pack, {"ship": named}, []):
            return []
        return [(", ".join(named), "; ".join(pack.crew[c].name for c in named)[:100])]
    pool = [code for code, card in pack.crew.items() if card.faction == faction and code not in named]
    offered = []
    if not named and not partial:
        standard = standard_crew(pack, faction)
        offered.append((", ".join(standard), f"The standard crew: {', '.join(standard)}"))
    for code in pool:
        card = pack.crew[code]
        if partial and not (code.lower().startswith(partial) or partial in card.name.lower()):
            continue
        if feasible(pack, {"ship": named + [code]}, [c for c in pool if c != code]):
            value = ", ".join(named + [code])
            offered.append((value, f"{value} ({card.name}, {'/'.join(card.stations)})"))
    return [(value[:100], label[:100]) for value, label in offered[:CHOICES]]
