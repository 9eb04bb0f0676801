"""Content packs: characters, away teams, boards and cards as validated data.

A pack is a folder of YAML files (see docs/content-packs.md). Loading checks every
entry against the typed schema below and then checks cross references; a bad pack
is refused with every problem found, each with its file, path and reason.
"""
from __future__ import annotations

import functools
import os
from typing import Annotated, Literal, Optional

import msgspec
import yaml

from engine.awaymissions.vocabulary import Condition, Effect, Modifier, PointsPer, SkillTest
from engine.errors import PackError

RATINGS = ("attack", "defense", "skill", "move")
TERMINALS = ("command", "science", "operations", "medical")
FEATURES = TERMINALS + ("turbolift", "transporter")

Code = Annotated[str, msgspec.Meta(pattern=r"^[A-Z][A-Z0-9-]{0,15}$")]
Key = Annotated[str, msgspec.Meta(pattern=r"^[a-z][a-z0-9-]{0,31}$")]
Cell = Annotated[str, msgspec.Meta(pattern=r"^[a-z][1-9]$")]
Rating = Annotated[int, msgspec.Meta(ge=0, le=9)]
Level = Annotated[int, msgspec.Meta(ge=1, le=3)]


class _Schema(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    pass


class Ratings(_Schema):
    """The four ratings; each number is also the count of peg holes on the card."""

    attack: Rating
    defense: Rating
    skill: Rating
    move: Rating

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in RATINGS}


class AttackAction(_Schema):
    """One weapon or attack a character can use."""

    code: Key
    name: str
    dice: Annotated[int, msgspec.Meta(ge=0, le=6)] = 0
    damage: Annotated[int, msgspec.Meta(ge=0, le=6)] = 0
    melee: bool = False
    stun: bool = False
    assimilate: bool = False
    defensive: bool = False


class SpecialAction(_Schema):
    """A special action on a character or card: what must hold, and what it does."""

    code: Key
    name: str
    requires: list[Condition] = []
    effects: list[Effect] = []
    text: str = ""


class Brings(_Schema):
    """An alternative commander's change to the away team: `character` may join it in
    place of one member named in `replacing`, or, with `replacing` empty, of any one
    member who is not a mission specialist."""

    character: Code
    replacing: list[Code] = []


class Character(_Schema):
    """A character card."""

    code: Code
    name: str
    affiliation: Key
    ratings: Ratings
    keywords: list[str] = []
    specializations: dict[Key, Level] = {}
    attacks: list[AttackAction] = []
    special_actions: list[SpecialAction] = []
    escalation: Optional[Annotated[int, msgspec.Meta(ge=2, le=3)]] = None
    alternative_commander_for: Optional[Code] = None
    brings: Optional[Brings] = None
    text: str = ""


class AssimilationOverlay(_Schema):
    """What an assimilated character becomes: the overlay's ratings and attacks."""

    ratings: Ratings
    attacks: list[AttackAction] = []


class Affiliation(_Schema):
    name: str
    assimilation_overlay: Optional[AssimilationOverlay] = None


class AwayTeam(_Schema):
    """A ready-made away team: its commander and the other members."""

    code: Key
    name: str
    affiliation: Key
    commander: Code
    members: list[Code]


class Card(_Schema):
    """A support or mission card, its timing and what it does (see docs/content-packs.md)."""

    code: Key
    name: str
    kind: Literal["event", "equipment", "interrupt", "mission", "core"]
    affiliation: Key
    keywords: list[str] = []
    supply: Annotated[int, msgspec.Meta(ge=1, le=9)] = 1
    points: Annotated[int, msgspec.Meta(ge=0, le=20)] = 0
    text: str = ""
    target: Literal["none", "friendly", "hostile", "any"] = "none"
    requires: list[Condition] = []
    effects: list[Effect] = []
    trigger: Optional[Literal["attacked", "rolled", "damaged", "activated", "moved"]] = None
    play: Literal["action", "free", "table", "end"] = "action"
    bonus: dict[Literal["attack", "defense", "skill", "move"], Annotated[int, msgspec.Meta(ge=-3, le=3)]] = {}
    modifiers: list[Modifier] = []
    attacks: list[AttackAction] = []
    special_actions: list[SpecialAction] = []
    each_round: list[Effect] = []
    points_per: Optional[PointsPer] = None
    manual: bool = False


class Deck(_Schema):
    code: Key
    name: str
    affiliation: Key
    support: list[Key]
    mission: list[Key]


class Board(_Schema):
    """A board: a grid of cells ('a1' is the north-west cell) with walls, doors and features.

    Edges between neighbouring cells are open unless listed in `walls` or `doors`.
    Outer edges are walls except the doors listed per side. For mission boards the
    south side is the one that faces the Main Corridor.
    """

    code: Key
    name: str
    short: Annotated[str, msgspec.Meta(pattern=r"^[A-Z]{2,3}$")]
    kind: Literal["mission", "corridor"]
    width: Annotated[int, msgspec.Meta(ge=1, le=12)]
    height: Annotated[int, msgspec.Meta(ge=1, le=12)]
    doors_out: dict[Literal["north", "east", "south", "west"], list[int]] = {}
    walls: list[tuple[Cell, Cell]] = []
    doors: list[tuple[Cell, Cell]] = []
    features: dict[Cell, list[Literal[FEATURES]]] = {}
    side: Optional[Key] = None


class PackInfo(_Schema):
    name: str
    version: str
    description: str = ""


class Pack(msgspec.Struct):
    """A validated pack, indexed by code."""

    info: PackInfo
    affiliations: dict[str, Affiliation]
    characters: dict[str, Character]
    teams: dict[str, AwayTeam]
    boards: dict[str, Board]
    cards: dict[str, Card]
    decks: dict[str, Deck]
    specializations: list[str]
    path: str = ""


_SECTIONS = {
    "affiliations": Affiliation,
    "characters": Character,
    "teams": AwayTeam,
    "boards": Board,
    "cards": Card,
    "decks": Deck,
}


def cell_xy(cell: str) -> tuple[int, int]:
    """'b3' -> (1, 2): column from the letter, row from the digit, both from 0."""
    return ord(cell[0]) - ord("a"), int(cell[1:]) - 1


PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def pack_ref(path: str) -> str:
    """How a game names its pack: relative to the project when the pack lives inside it,
    so stored games do not depend on where the project is installed."""
    full = resolve_pack(path)
    inside = os.path.relpath(full, PROJECT_ROOT)
    return full if inside.startswith("..") else inside


_IN_PROJECT: dict[str, str] = {}  # references found under the project (every game names one, every command)


def resolve_pack(path: str) -> str:
    """The folder a pack reference points to: absolute, under the project, or under the
    current directory, in that order. A reference found under the project is remembered,
    so the filesystem is asked once, not on every command."""
    if os.path.isabs(path):
        return path
    found = _IN_PROJECT.get(path)
    if found is None:
        in_project = os.path.join(PROJECT_ROOT, path)
        if not os.path.isdir(in_project):
            return os.path.abspath(path)
        found = _IN_PROJECT[path] = os.path.abspath(in_project)
    return found


def load_pack(path: str) -> Pack:
    """Load and validate the pack in folder `path`; raise PackError listing every problem."""
    return _load_pack_cached(resolve_pack(path))


@functools.lru_cache(maxsize=16)
def _load_pack_cached(path: str) -> Pack:
    problems: list[str] = []
    raw = read_sections(path, set(_SECTIONS) | {"pack", "specializations"}, problems)
    if "pack" not in raw:
        problems.append("pack.yaml: $.pack: missing (name and version of the pack)")
    info = _convert(raw.get("pack"), "pack", PackInfo, problems)
    specs = _convert(raw.get("specializations", ("?", [])), "specializations", list[Key], problems) or []
    sections: dict[str, dict] = {}
    for section, schema in _SECTIONS.items():
        file, body = raw.get(section, ("?", []))
        entries: dict = {}
        if section == "affiliations":
            if not isinstance(body, dict):
                problems.append(f"{file}: $.{section}: expected a mapping from key to affiliation")
                body = {}
            items = list(body.items())
        else:
            if not isinstance(body, list):
                problems.append(f"{file}: $.{section}: expected a list")
                body = []
            items = [(None, entry) for entry in body]
        for index, (key, entry) in enumerate(items):
            where = f"{section}.{key}" if key is not None else f"{section}[{index}]"
            value = _convert((file, entry), where, schema, problems)
            if value is None:
                continue
            code = key if key is not None else value.code
            if code in entries:
                problems.append(f"{file}: $.{where}.code: '{code}' is used twice")
            entries[code] = value
        sections[section] = entries
    for section, what in _REQUIRED.items():
        if section in raw and not sections.get(section):
            problems.append(f"{raw[section][0]}: $.{section}: the pack has no {what}; a game needs some")
        elif section not in raw:
            problems.append(f"pack: no {section} section; a game needs {what}")
    if info is None or problems:
        raise PackError(problems or ["pack: could not be read"])
    pack = Pack(info=info, specializations=specs, path=path, **sections)
    problems.extend(_cross_check(pack, raw))
    if problems:
        raise PackError(problems)
    return pack


def read_sections(path: str, known: set[str], problems: list[str]) -> dict[str, tuple[str, object]]:
    """The top-level sections of every YAML file of the pack folder `path`: section ->
    (file name, body). Unreadable files, unknown and repeated sections go to `problems`;
    PackError when the folder does not exist."""
    raw: dict[str, tuple[str, object]] = {}
    if not os.path.isdir(path):
        raise PackError([f"{path}: no such pack folder"])
    for name in sorted(os.listdir(path)):
        if not name.endswith((".yaml", ".yml")):
            continue
        file = os.path.join(path, name)
        if not os.path.isfile(file):
            problems.append(f"{name}: not a file (a pack holds YAML files)")
            continue
        try:
            with open(file, encoding="utf-8") as handle:
                document = yaml.load(handle, Loader=UniqueKeyLoader) or {}
        except UnicodeDecodeError as exc:
            problems.append(f"{name}: not UTF-8 text (byte {exc.start}); save it as UTF-8")
            continue
        except yaml.YAMLError as exc:
            problems.append(f"{name}: not valid YAML: {exc}")
            continue
        except OSError as exc:
            problems.append(f"{name}: cannot be read: {exc.strerror}")
            continue
        if not isinstance(document, dict):
            problems.append(f"{name}: $: expected a mapping of sections")
            continue
        for section, body in document.items():
            if section in raw:
                problems.append(f"{name}: $.{section}: section already given in {raw[section][0]}")
            elif section not in known:
                problems.append(f"{name}: $.{section}: unknown section")
            else:
                raw[section] = (name, body)
    return raw


_REQUIRED = {"affiliations": "affiliations", "characters": "characters", "teams": "away teams",
             "boards": "boards", "cards": "cards", "decks": "decks"}


class UniqueKeyLoader(yaml.SafeLoader):
    """Safe YAML that refuses a key given twice in one mapping (plain YAML keeps the last)."""

    def construct_mapping(self, node, deep=False):
        seen: dict = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, (str, int, float, bool)) or key is None:
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        "while reading a mapping", node.start_mark,
                        f"the key '{key}' is given twice (also on line {seen[key] + 1})", key_node.start_mark)
                seen[key] = key_node.start_mark.line
        return super().construct_mapping(node, deep=deep)


def _convert(item, where: str, schema, problems: list[str]):
    if item is None:
        return None
    file, body = item
    try:
        return msgspec.convert(body, schema)
    except msgspec.ValidationError as exc:
        message = str(exc)
        reason, _, at = message.partition(" - at `$")
        path = f"$.{where}{at.rstrip('`')}" if at else f"$.{where}"
        problems.append(f"{file}: {path}: {reason}")
        return None


def _cross_check(pack: Pack, raw: dict) -> list[str]:
    """Problems that need more than one entry to see: unknown codes, bad boards."""
    problems: list[str] = []

    def file(section: str) -> str:
        return raw.get(section, ("?", None))[0]

    specs = set(pack.specializations)
    for code, char in pack.characters.items():
        where = f"{file('characters')}: $.characters[{code}]"
        if char.affiliation not in pack.affiliations:
            problems.append(f"{where}.affiliation: unknown affiliation '{char.affiliation}'")
        for spec in char.specializations:
            if spec not in specs:
                problems.append(f"{where}.specializations: unknown specialization '{spec}'")
        for action in char.special_actions:
            problems += [f"{where}.special_actions[{action.code}]: {p}" for p in _effect_problems(action.effects, specs)]
        target = char.alternative_commander_for
        if target and target not in pack.characters:
            problems.append(f"{where}.alternative_commander_for: unknown character '{target}'")
        if char.brings:
            for other in (char.brings.character, *char.brings.replacing):
                if other not in pack.characters:
                    problems.append(f"{where}.brings: unknown character '{other}'")
        codes = [a.code for a in char.attacks]
        if len(codes) != len(set(codes)):
            problems.append(f"{where}.attacks: attack codes must differ")
    for code, team in pack.teams.items():
        where = f"{file('teams')}: $.teams[{code}]"
        for member in [team.commander, *team.members]:
            char = pack.characters.get(member)
            if char is None:
                problems.append(f"{where}: unknown character '{member}'")
            elif char.affiliation != team.affiliation:
                problems.append(f"{where}: '{member}' is not of affiliation '{team.affiliation}'")
    for code, card in pack.cards.items():
        where = f"{file('cards')}: $.cards[{code}]"
        if card.affiliation not in pack.affiliations:
            problems.append(f"{where}.affiliation: unknown affiliation")
        effects = card.effects + card.each_round + [e for a in card.special_actions for e in a.effects]
        problems += [f"{where}: {p}" for p in _effect_problems(effects, specs)]
        problems += [f"{where}.modifiers: unknown specialization '{m.specialization}'"
                     for m in card.modifiers if m.specialization and m.specialization not in specs]
        if card.kind == "interrupt" and card.trigger is None:
            problems.append(f"{where}.trigger: an interrupt needs a trigger")
        if card.kind == "equipment" and card.target != "friendly":
            problems.append(f"{where}.target: equipment is attached to a friendly character (target: friendly)")
        if card.kind != "interrupt" and card.trigger is not None:
            problems.append(f"{where}.trigger: only interrupts have a trigger")
    for code, deck in pack.decks.items():
        where = f"{file('decks')}: $.decks[{code}]"
        for pile in ("support", "mission"):
            for index, card_code in enumerate(getattr(deck, pile)):
                if card_code not in pack.cards:
                    problems.append(f"{where}.{pile}[{index}]: unknown card '{card_code}'")
    for code, board in pack.boards.items():
        problems.extend(f"{file('boards')}: $.boards[{code}]{p}" for p in _board_problems(board))
    return problems


def _effect_problems(effects: list, specs: set[str]) -> list[str]:
    """Unknown specializations named by skill tests, however deeply nested."""
    problems = []
    for effect in effects:
        if isinstance(effect, SkillTest):
            if effect.specialization and effect.specialization not in specs:
                problems.append(f"test: unknown specialization '{effect.specialization}'")
            problems += _effect_problems(effect.success + effect.failure + effect.per_extra, specs)
    return problems


def _board_problems(board: Board) -> list[str]:
    problems = []

    def inside(cell: str) -> bool:
        x, y = cell_xy(cell)
        return 0 <= x < board.width and 0 <= y < board.height

    for name in ("walls", "doors"):
        for index, (a, b) in enumerate(getattr(board, name)):
            if not (inside(a) and inside(b)):
                problems.append(f".{name}[{index}]: cell outside the {board.width}x{board.height} board")
                continue
            (ax, ay), (bx, by) = cell_xy(a), cell_xy(b)
            if abs(ax - bx) + abs(ay - by) != 1:
                problems.append(f".{name}[{index}]: {a} and {b} are not neighbours")
    for side, positions in board.doors_out.items():
        length = board.width if side in ("north", "south") else board.height
        for position in positions:
            if not 0 <= position < length:
                problems.append(f".doors_out.{side}: position {position} is off the board")
    for cell in board.features:
        if not inside(cell):
            problems.append(f".features.{cell}: cell outside the board")
    return problems
