"""JSON storage and cheap deep copies of a ruleset's game state (a msgspec Struct).

The states leave out a field whose value is its default (`omit_defaults`), but msgspec
recognises a default by identity: an equal value made elsewhere (a string decoded from
JSON, a direction upper-cased from a command) was written out while the default object
itself was left out, so one state could give two texts. `StateCodec` first makes every
such value the default object itself, so the text depends on the values alone.
"""
from __future__ import annotations

from typing import Any, Callable, Generic, Optional, TypeVar

import msgspec
import msgspec.inspect as mi

State = TypeVar("State")
Visit = Callable[[Any], None]


def _shared(default: Any) -> bool:
    """Whether every value equal to `default` is that very object: None, True, False and
    the small integers, which Python keeps one of each."""
    return default is None or isinstance(default, bool) or (type(default) is int and -5 <= default <= 256)


class _Canon:
    """Walks a state's type once, then visits only the structs with such defaults."""

    def __init__(self, kind: type):
        self._visits: dict[type, Optional[Visit]] = {}
        self.visit: Visit = self._visitor(mi.type_info(kind)) or (lambda value: None)

    def _visitor(self, info: mi.Type) -> Optional[Visit]:
        if isinstance(info, mi.StructType):
            return self._struct(info)
        if isinstance(info, (mi.ListType, mi.VarTupleType, mi.SetType, mi.FrozenSetType)):
            return self._each(self._visitor(info.item_type), (list, tuple, set, frozenset), lambda v: v)
        if isinstance(info, mi.DictType):
            return self._each(self._visitor(info.value_type), (dict,), dict.values)
        if isinstance(info, mi.UnionType):
            parts = [v for v in map(self._visitor, info.types) if v is not None]
            if not parts:
                return None

            def union(value: Any) -> None:
                for part in parts:
                    part(value)
            return union
        return None

    @staticmethod
    def _each(item: Optional[Visit], kinds: tuple, values: Callable) -> Optional[Visit]:
        if item is None:
            return None

        def each(value: Any) -> None:
            if isinstance(value, kinds):
                for v in values(value):
                    item(v)
        return each

    def _struct(self, info: mi.StructType) -> Optional[Visit]:
        cls = info.cls
        if cls in self._visits:  # known, or being built (a type inside itself is not visited again)
            return self._visits[cls]
        self._visits[cls] = None
        defaults = [(f.name, f.default) for f in info.fields if f.default is not mi.NODEFAULT and not _shared(f.default)]
        children = [(f.name, v) for f in info.fields if (v := self._visitor(f.type)) is not None]
        if not defaults and not children:
            return None

        def visit(value: Any) -> None:
            if not isinstance(value, cls):
                return
            for name, default in defaults:
                current = getattr(value, name)
                if current is not default and type(current) is type(default) and current == default:
                    msgspec.structs.force_setattr(value, name, default)
            for name, child in children:
                child(getattr(value, name))
        self._visits[cls] = visit
        return visit


class StateCodec(Generic[State]):
    """The conversions every ruleset's state needs, for one state type."""

    def __init__(self, kind: type[State]):
        self._json = msgspec.json.Encoder()
        self._from_json = msgspec.json.Decoder(kind)
        self._msgpack = msgspec.msgpack.Encoder()
        self._from_msgpack = msgspec.msgpack.Decoder(kind)
        self._canon = _Canon(kind)

    def canonical(self, state: State) -> State:
        """The state with each value equal to its field's default made that default object
        (in place: nothing a reader can see changes), so it encodes by its values alone."""
        self._canon.visit(state)
        return state

    def to_json(self, state: State) -> bytes:
        """Serialise a state to JSON bytes: stable key order, the same bytes for equal states."""
        return self._json.encode(self.canonical(state))

    def to_builtins(self, state: State) -> Any:
        """The state as dicts and lists (a view's start), the same for equal states."""
        return msgspec.to_builtins(self.canonical(state))

    def from_json(self, data: bytes | str) -> State:
        """Rebuild a state from `to_json` output."""
        return self._from_json.decode(data)

    def clone(self, state: State) -> State:
        """A deep copy, cheap enough to take before every command."""
        return self._from_msgpack.decode(self._msgpack.encode(state))
