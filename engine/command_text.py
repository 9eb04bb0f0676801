"""Checks every ruleset makes on a command's text before reading its words.

A command is one line of plain ASCII words. Text that only looks like ASCII (a long s,
the Kelvin sign, full-width or other scripts' digits) is folded with NFKC first and then
must be ASCII; anything else, and control characters such as line breaks, is refused.
Error messages quote at most `QUOTE_LIMIT` characters of what was sent.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Any

from engine.errors import RuleError

QUOTE_LIMIT = 80
MAX_WORD = 64
_NUMBER = re.compile(r"[+-]?[0-9]+")
_LINE_BREAK = re.compile("[\r\n\v\f\x85\u2028\u2029]")
_NOT_PLAIN = re.compile(r"[^ \t!-~]")  # anything but a space, a tab and printable ASCII


def quote(text: str) -> str:
    """`text` cut to at most QUOTE_LIMIT characters, for an error message."""
    return text if len(text) <= QUOTE_LIMIT else text[:QUOTE_LIMIT - 3] + "..."


def words(command: Any) -> list[str]:
    """The command's words, or RuleError saying why the text cannot be a command."""
    if not isinstance(command, str):
        raise RuleError(f"A command is a line of text, like 'pass' (got {type(command).__name__}).")
    try:
        command.encode("utf-8")
    except UnicodeEncodeError:
        raise RuleError("The command contains characters that are not valid text; type it again.") from None
    if _LINE_BREAK.search(command):
        raise RuleError("A command is a single line; send one command at a time.")
    folded = unicodedata.normalize("NFKC", command)
    other = _NOT_PLAIN.search(folded)
    if other:
        ch = other.group()
        shown = repr(ch) if not ch.isprintable() else ch
        raise RuleError(f"Commands use plain letters, digits and punctuation only; '{shown}' is not one "
                        f"(in '{quote(command)}').")
    found = folded.split()
    if not found:
        raise RuleError("Empty command.")
    for word in found:
        if len(word) > MAX_WORD:
            raise RuleError(f"'{quote(word)}' is too long for a name or a number (at most {MAX_WORD} characters).")
    return found


def number(text: str, what: str = "a whole number") -> int:
    """A signed whole number written with ASCII digits only."""
    if not _NUMBER.fullmatch(text):
        raise RuleError(f"'{quote(text)}' is not {what}.")
    return int(text)
