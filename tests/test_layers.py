"""The layers hold, read from the imports themselves (ast, every import statement, those inside
functions too; imports under `if TYPE_CHECKING:` name types only and are left out):

- a ruleset never imports another ruleset (they are siblings; what both need lives below both);
- a cog never imports bot.py or db/ (it goes through the service);
- the pure engine (engine/ but engine/service) imports no storage, pictures, service or Discord;
- the glossary and the scenario runner import no ruleset: they find one in engine/rulesets.py;
- inside a ruleset grouped by its rulebook's parts (engine/renegades), a group imports only
  groups of earlier layers (LAYERS), every group has its place in that order, and no modules
  import each other round in a circle.
"""
from __future__ import annotations

import ast
import graphlib
from pathlib import Path

from engine.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[1]
STORAGE = ("db", "aiosqlite", "asyncpg", "sqlite3")
PICTURES = ("images", "PIL")
IMPURE = {name: "storage" for name in STORAGE} | {name: "pictures" for name in PICTURES} | {
    "engine.service": "the service", "discord": "Discord"}
FRONT_DOOR = {"bot": "bot.py", "db": "storage"}
BY_REGISTRY = ("glossary", "scenario.py")  # engine/ parts that reach a ruleset through engine/rulesets.py
LAYERS = {  # a grouped ruleset's folders, lowest first; "" is the package's own modules, its public face
    "renegades": ("contents", "crew", "orbit", "surface", "play", "setup", "campaign", ""),
}


def module_name(path: Path, root: Path) -> str:
    """The dotted module a file under `root` is (a package's __init__ is the package)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, root: Path) -> list[tuple[int, str]]:
    """(line, module) of every import in the file; `from a import b` gives `a.b`, a relative
    import is made absolute; imports under `if TYPE_CHECKING:` are skipped."""
    package = module_name(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found.extend((node.lineno, module if alias.name == "*" else f"{module}.{alias.name}")
                         for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
    return found


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def forbidden(module: str, rules: dict[str, str]) -> str:
    """What `module` is by `rules` (prefix -> what it is), or "" when it is allowed."""
    return next((what for prefix, what in rules.items() if _within(module, prefix)), "")


def violations(root: Path, rulesets: list[str]) -> list[str]:
    """Every import under `root` that breaks a layer, as `file:line: imports module (why)`."""
    problems = []
    for path in sorted(root.glob("engine/**/*.py")) + sorted(root.glob("cogs/**/*.py")):
        where = path.relative_to(root).parts
        rules: dict[str, str] = {}
        if where[0] == "cogs":
            rules = dict(FRONT_DOOR)
        elif where[1] != "service":
            rules = dict(IMPURE)
            if where[1] in rulesets:
                rules |= {f"engine.{other}": f"the sibling ruleset {other}" for other in rulesets if other != where[1]}
            elif where[1] in BY_REGISTRY:
                rules |= {f"engine.{name}": "a ruleset, not through engine/rulesets.py" for name in rulesets}
        for line, module in imported(path, root):
            why = forbidden(module, rules)
            if why:
                problems.append(f"{'/'.join(where)}:{line}: imports {module} ({why})")
    return problems


def layer_problems(root: Path, ruleset: str, layers: tuple[str, ...]) -> list[str]:
    """Inside engine/<ruleset>: every import of a later layer's module, every group folder
    missing from `layers`, and an import circle (all imports count, those inside functions too)."""
    folder = root / "engine" / ruleset
    modules = {module_name(path, root): path for path in sorted(folder.rglob("*.py"))}

    def layer(path: Path) -> str:
        parts = path.relative_to(folder).parts
        return parts[0] if len(parts) > 1 else ""

    problems = sorted({f"engine/{ruleset}/{layer(path)}/: a group missing from the layers"
                       for path in modules.values() if layer(path) not in layers})
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        graph[module] = set()
        for line, name in imported(path, root):
            target = next((m for m in sorted(modules, key=len, reverse=True) if _within(name, m)), None)
            if target is None or target == module:
                continue
            graph[module].add(target)
            mine, theirs = layer(path), layer(modules[target])
            if mine in layers and theirs in layers and layers.index(theirs) > layers.index(mine):
                problems.append(f"{path.relative_to(root).as_posix()}:{line}: imports {target} "
                                f"(a later layer: {theirs or 'the public face'})")
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as circle:
        problems.append("an import circle: " + " -> ".join(circle.args[1]))
    return list(dict.fromkeys(problems))


def test_the_layers_hold():
    assert violations(ROOT, list(RULESETS)) == []


def test_each_kind_of_crossing_is_caught(tmp_path):
    """A tree with one crossing of each kind, a type-only import and allowed imports: exactly the
    crossings are reported, those inside functions and relative ones included."""
    files = {
        "engine/alpha/rules.py": "from engine.beta import content\nfrom engine.packs import read_sections\n",
        "engine/alpha/__init__.py": "",
        "engine/beta/setup.py": "def f():\n    from ..alpha import rules\n",
        "engine/beta/draw.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from engine.alpha import rules\n"
                               "    import discord\nelse:\n    import PIL.Image\n",
        "engine/league.py": "import sqlite3\nfrom engine import service\nfrom engine.alpha import rules\n",
        "engine/glossary/cards.py": "from engine.rulesets import ruleset\nfrom engine.beta import content\n",
        "engine/service/table.py": "import aiosqlite\nfrom images import board\nfrom engine.alpha import rules\n",
        "cogs/play.py": "import bot\nfrom db.errors import Busy\nfrom engine.service import Update\n",
        "cogs/panel.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot import ReadyRoom\n"
                         "def f():\n    from db import DueReminder\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert violations(tmp_path, ["alpha", "beta"]) == [
        "engine/alpha/rules.py:1: imports engine.beta.content (the sibling ruleset beta)",
        "engine/beta/draw.py:6: imports PIL.Image (pictures)",
        "engine/beta/setup.py:2: imports engine.alpha.rules (the sibling ruleset alpha)",
        "engine/glossary/cards.py:2: imports engine.beta.content (a ruleset, not through engine/rulesets.py)",
        "engine/league.py:1: imports sqlite3 (storage)",
        "engine/league.py:2: imports engine.service (the service)",
        "cogs/panel.py:5: imports db.DueReminder (storage)",
        "cogs/play.py:1: imports bot (bot.py)",
        "cogs/play.py:2: imports db.errors.Busy (storage)",
    ]


def test_each_grouped_ruleset_imports_down_its_layers_without_a_circle():
    for ruleset, layers in LAYERS.items():
        assert layer_problems(ROOT, ruleset, layers) == []


def test_a_later_layer_a_circle_and_an_unplaced_group_are_caught(tmp_path):
    """A group importing a later one (inside a function too), a module importing the public
    face, a circle inside one group and a folder left out of the order: each is reported."""
    files = {
        "engine/alpha/__init__.py": "",
        "engine/alpha/rules.py": "from engine.alpha.base import board\n",
        "engine/alpha/base/__init__.py": "",
        "engine/alpha/base/board.py": "def f():\n    from engine.alpha.top.flag import Flag\n",
        "engine/alpha/top/flag.py": "",
        "engine/alpha/top/__init__.py": "",
        "engine/alpha/top/deal.py": "from engine.alpha.base.board import Board\nfrom engine.alpha.top import turn\n",
        "engine/alpha/top/turn.py": "from engine.alpha.top import deal\nfrom engine.alpha import rules\n",
        "engine/alpha/stray/odd.py": "from engine.alpha.base import board\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    problems = layer_problems(tmp_path, "alpha", ("base", "top", ""))
    assert problems[:3] == [
        "engine/alpha/stray/: a group missing from the layers",
        "engine/alpha/base/board.py:2: imports engine.alpha.top.flag (a later layer: top)",
        "engine/alpha/top/turn.py:2: imports engine.alpha.rules (a later layer: the public face)",
    ]
    deal, turn = "engine.alpha.top.deal", "engine.alpha.top.turn"
    assert problems[3:] in ([f"an import circle: {deal} -> {turn} -> {deal}"],
                            [f"an import circle: {turn} -> {deal} -> {turn}"])
    assert layer_problems(ROOT, "renegades", LAYERS["renegades"][1:]) == [
        "engine/renegades/contents/: a group missing from the layers"]
