"""The layers hold, read from the imports themselves (ast, every import statement, those inside
functions too; imports under `if TYPE_CHECKING:` name types only and are left out):

- a ruleset never imports another ruleset (they are siblings; what both need lives below both);
- a cog never imports bot.py or db/ (it goes through the service);
- the pure engine (engine/ but engine/service) imports no storage, pictures, service or Discord;
- the glossary and the scenario runner import no ruleset: they find one in engine/rulesets.py.
"""
from __future__ import annotations

import ast
from pathlib import Path

from engine.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[1]
STORAGE = ("db", "aiosqlite", "asyncpg", "sqlite3")
PICTURES = ("images", "PIL")
IMPURE = {name: "storage" for name in STORAGE} | {name: "pictures" for name in PICTURES} | {
    "engine.service": "the service", "discord": "Discord"}
FRONT_DOOR = {"bot": "bot.py", "db": "storage"}
BY_REGISTRY = ("glossary", "scenario.py")  # engine/ parts that reach a ruleset through engine/rulesets.py


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
