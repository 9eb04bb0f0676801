"""The version of the rules a game is played under: a short fingerprint of the ruleset's
engine package, the engine's shared modules and the content pack the game is dealt from.

A game records it when it starts (its config's `rules`), so a replay that no longer gives
the stored game can tell a change of rules or cards since then from tampered dice.
"""
from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

from engine.packs import resolve_pack
from engine.service.rulesets import Ruleset

ENGINE = Path(__file__).resolve().parents[1]
KEY = "rules"  # where a game's config keeps the version it started under


def of(ruleset: Ruleset, config: dict) -> str:
    """The version of `ruleset` with the pack of `config` (its default pack otherwise)."""
    pack = config.get("pack") or ruleset.default_options.get("pack") or ""
    return _fingerprint(str(package_of(ruleset)), resolve_pack(pack) if pack else "")


def package_of(ruleset: Ruleset) -> Path:
    """The ruleset's engine package (engine/<name>/, all its subfolders included), whichever
    of its modules `new_game` lives in."""
    return ENGINE / ruleset.new_game.__module__.split(".")[1]


@functools.lru_cache(maxsize=32)
def _fingerprint(package: str, pack: str) -> str:
    """12 hex digits of SHA-256 over the files, by path relative to their folder, in order."""
    digest = hashlib.sha256()
    files = [(ENGINE, p) for p in sorted(ENGINE.glob("*.py"))]
    files += [(Path(package), p) for p in sorted(Path(package).rglob("*.py"))]
    if pack and os.path.isdir(pack):
        files += [(Path(pack), p) for p in sorted(Path(pack).rglob("*")) if p.is_file()]
    for root, path in files:
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]
