"""The expectations every game's scenarios share, and how a state is compared with what a
scenario expects (docs/scenarios.md). Each ruleset's scenario module checks its own keys and
hands these to `check_shared`."""
from __future__ import annotations

from typing import Any, Optional

import msgspec

SHARED = ("awaiting", "decision", "events", "no_events", "legal")


def check_shared(key: str, wanted: Any, events: list[dict], awaited: list[str], pending: list,
                 legal) -> Optional[list[str]]:
    """The expectations every game's scenarios share (None for any other key): `awaiting`
    the seats waited for, `decision` the first pending decision, `events` and `no_events`
    against the last command's events, `legal` against `legal(seat)`."""
    if key == "awaiting":
        expected = [wanted] if isinstance(wanted, str) else wanted
        return [] if awaited == expected else [f"awaiting {awaited}, expected {wanted}"]
    if key == "decision":
        got = full(pending[0]) if pending else None
        return match("decision", got, wanted) if got else [f"no decision pending, expected {wanted}"]
    failures: list[str] = []
    if key in ("events", "no_events"):
        for event in wanted:
            seen = any(not match("", got, event) for got in events)
            if key == "events" and not seen:
                failures.append(f"no event like {event} in {events}")
            elif key == "no_events" and seen:
                failures.append(f"an event like {event} happened")
        return failures
    if key == "legal":
        for seat, sets in wanted.items():
            got = set(legal(seat))
            failures += [f"{seat} cannot '{c}'; legal: {sorted(got)[:40]}" for c in sets.get("includes", []) if c not in got]
            failures += [f"{seat} can '{c}', expected not" for c in sets.get("excludes", []) if c in got]
        return failures
    return None


def full(value: Any) -> Any:
    """Builtins of a state with every field present (defaults included)."""
    if isinstance(value, msgspec.Struct):
        return {name: full(getattr(value, name)) for name in value.__struct_fields__}
    if isinstance(value, dict):
        return {k: full(v) for k, v in value.items()}
    if isinstance(value, list):
        return [full(v) for v in value]
    return value


def match(path: str, got: Any, wanted: Any) -> list[str]:
    """What in `got` differs from `wanted` (every key `wanted` names, at any depth), one line each."""
    if isinstance(wanted, dict) and isinstance(got, dict):
        out = []
        for key, value in wanted.items():
            if key not in got:
                out.append(f"{path}.{key}: missing, expected {value!r}")
                continue
            out += match(f"{path}.{key}", got[key], value)
        return out
    if got != wanted:
        return [f"{path}: {got!r}, expected {wanted!r}"]
    return []
