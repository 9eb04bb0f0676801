"""Reading content packs, for every ruleset: where a pack lives, its YAML files read into
sections (a key given twice is refused), and each entry checked against a ruleset's schema.

Each ruleset's `content` module says which sections its packs hold and what they mean.
"""
from __future__ import annotations

import os

import msgspec
import yaml

from engine.errors import PackError

PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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
    found = _IN_PROJECT.get(path)  # looked up first: the common case, and never an absolute path
    if found is not None:
        return found
    if os.path.isabs(path):
        return path
    in_project = os.path.join(PROJECT_ROOT, path)
    if not os.path.isdir(in_project):
        return os.path.abspath(path)
    found = _IN_PROJECT[path] = os.path.abspath(in_project)
    return found


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


def convert(item, where: str, schema, problems: list[str]):
    """`item` (file name, body) read as `schema`; None, with the reason in `problems` (file and
    path of the wrong value), when it does not fit."""
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
