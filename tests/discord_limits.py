"""What Discord refuses in a message body, for the fake Discord of the tests.

Discord answers a message, an edit or an interaction response that breaks its limits with
400 Bad Request, error 50035 "Invalid Form Body", and lists what is wrong by path
("components.0.components.1.options"). `problems` finds the same things in a JSON body;
`refusal` makes the discord.HTTPException the real HTTP layer would raise. The limits are
Discord's documented ones (message components, embeds, message content, autocomplete).
"""
from __future__ import annotations

from typing import Any, Iterator

import discord

CONTENT = 2000  # characters of message content
ROWS = 5  # action rows in a message
ROW_ITEMS = 5  # buttons in a row (a select fills its row alone)
CUSTOM_ID = 100
BUTTON_LABEL = 80
OPTIONS = 25  # options in a select, choices in an autocomplete answer
OPTION_TEXT = 100  # option label, value and description; choice name and value
PLACEHOLDER = 150
SELECT_VALUES = 25  # min_values/max_values
EMBEDS = 10
EMBED_TITLE, EMBED_DESCRIPTION, EMBED_FIELDS = 256, 4096, 25
FIELD_NAME, FIELD_VALUE, FOOTER, AUTHOR, EMBED_TOTAL = 256, 1024, 2048, 256, 6000
BUTTON, SELECTS = 2, {3, 5, 6, 7, 8}  # component types: button; string, user, role, mentionable, channel selects
LINK = 5  # the button style that carries a url and no custom id


class _Response:
    """What discord.HTTPException reads from an HTTP response."""

    status, reason = 400, "Bad Request"


def refusal(problems: list[tuple[str, str]]) -> discord.HTTPException:
    """The exception discord.py raises for Discord's 400 answer listing `problems` (path, message)."""
    errors: dict = {}
    for path, message in problems:
        node = errors
        for key in path.split("."):
            node = node.setdefault(key, {})
        node.setdefault("_errors", []).append({"code": "INVALID", "message": message})
    return discord.HTTPException(_Response(), {"code": 50035, "message": "Invalid Form Body", "errors": errors})


def _length(value: Any, limit: int, path: str, least: int = 0) -> Iterator[tuple[str, str]]:
    if value is None:
        if least:
            yield path, "This field is required"
        return
    if not least <= len(str(value)) <= limit:
        yield path, f"Must be between {least} and {limit} in length."


def problems(body: Any) -> list[tuple[str, str]]:
    """Everything in a message body (create, edit or interaction response data) that
    Discord would refuse, as (path, message); empty when Discord takes it."""
    if not isinstance(body, dict):
        return []
    found = list(_length(body.get("content"), CONTENT, "content"))
    found += _embeds(body.get("embeds") or [])
    found += _components(body.get("components") or [])
    return found


def _components(rows: list[dict]) -> Iterator[tuple[str, str]]:
    if len(rows) > ROWS:
        yield "components", f"Must be {ROWS} or fewer in length."
    seen: set[str] = set()
    for r, row in enumerate(rows):
        items = row.get("components") or []
        where = f"components.{r}.components"
        if not items:
            yield where, "Must be between 1 and 5 in length."
        if any(c.get("type") in SELECTS for c in items) and len(items) > 1:
            yield where, "A select must be alone in its action row."
        if len(items) > ROW_ITEMS:
            yield where, f"Must be {ROW_ITEMS} or fewer in length."
        for i, item in enumerate(items):
            path = f"{where}.{i}"
            custom_id = item.get("custom_id")
            if item.get("type") == BUTTON and item.get("style") == LINK:
                if custom_id is not None:
                    yield f"{path}.custom_id", "A link button has no custom id."
            else:
                yield from _length(custom_id, CUSTOM_ID, f"{path}.custom_id", least=1)
                if custom_id in seen:
                    yield f"{path}.custom_id", "Component custom id cannot be duplicated"
                seen.add(custom_id)
            if item.get("type") == BUTTON:
                if not item.get("label") and not item.get("emoji"):
                    yield f"{path}.label", "A button needs a label or an emoji."
                yield from _length(item.get("label"), BUTTON_LABEL, f"{path}.label")
            elif item.get("type") in SELECTS:
                yield from _select(item, path)


def _select(select: dict, path: str) -> Iterator[tuple[str, str]]:
    yield from _length(select.get("placeholder"), PLACEHOLDER, f"{path}.placeholder")
    least, most = select.get("min_values", 1), select.get("max_values", 1)
    if not 0 <= least <= SELECT_VALUES or not 1 <= most <= SELECT_VALUES or least > most:
        yield f"{path}.max_values", f"min_values and max_values must be within 0-{SELECT_VALUES}, min <= max."
    if select.get("type") != 3:
        return
    options = select.get("options") or []
    if not 1 <= len(options) <= OPTIONS:
        yield f"{path}.options", f"Must be between 1 and {OPTIONS} in length."
    values: set[str] = set()
    for o, option in enumerate(options):
        where = f"{path}.options.{o}"
        yield from _length(option.get("label"), OPTION_TEXT, f"{where}.label", least=1)
        yield from _length(option.get("value"), OPTION_TEXT, f"{where}.value", least=1)
        yield from _length(option.get("description"), OPTION_TEXT, f"{where}.description")
        if option.get("value") in values:
            yield f"{where}.value", "Select component option values must be unique"
        values.add(option.get("value"))


def _embeds(embeds: list[dict]) -> Iterator[tuple[str, str]]:
    if len(embeds) > EMBEDS:
        yield "embeds", f"Must be {EMBEDS} or fewer in length."
    total = 0
    for e, embed in enumerate(embeds):
        path = f"embeds.{e}"
        texts = [(embed.get("title"), EMBED_TITLE, f"{path}.title"),
                 (embed.get("description"), EMBED_DESCRIPTION, f"{path}.description"),
                 ((embed.get("footer") or {}).get("text"), FOOTER, f"{path}.footer.text"),
                 ((embed.get("author") or {}).get("name"), AUTHOR, f"{path}.author.name")]
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS:
            yield f"{path}.fields", f"Must be {EMBED_FIELDS} or fewer in length."
        for f, field in enumerate(fields):
            texts += [(field.get("name"), FIELD_NAME, f"{path}.fields.{f}.name"),
                      (field.get("value"), FIELD_VALUE, f"{path}.fields.{f}.value")]
        for text, limit, where in texts:
            yield from _length(text, limit, where)
            total += len(text or "")
    if total > EMBED_TOTAL:
        yield "embeds", f"Embed size exceeds maximum size of {EMBED_TOTAL}"


def choice_problems(choices: list[dict]) -> list[tuple[str, str]]:
    """What Discord refuses in an autocomplete answer."""
    found = []
    if len(choices) > OPTIONS:
        found.append(("choices", f"Must be {OPTIONS} or fewer in length."))
    for c, choice in enumerate(choices):
        found += _length(choice.get("name"), OPTION_TEXT, f"choices.{c}.name", least=1)
        if isinstance(choice.get("value"), str):
            found += _length(choice["value"], OPTION_TEXT, f"choices.{c}.value")
    return found
