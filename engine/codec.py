"""JSON storage and cheap deep copies of a ruleset's game state (a msgspec Struct)."""
from __future__ import annotations

from typing import Generic, TypeVar

import msgspec

State = TypeVar("State")


class StateCodec(Generic[State]):
    """The three conversions every ruleset's state needs, for one state type."""

    def __init__(self, kind: type[State]):
        self._json = msgspec.json.Encoder()
        self._from_json = msgspec.json.Decoder(kind)
        self._msgpack = msgspec.msgpack.Encoder()
        self._from_msgpack = msgspec.msgpack.Decoder(kind)

    def to_json(self, state: State) -> bytes:
        """Serialise a state to JSON bytes (stable key order)."""
        return self._json.encode(state)

    def from_json(self, data: bytes | str) -> State:
        """Rebuild a state from `to_json` output."""
        return self._from_json.decode(data)

    def clone(self, state: State) -> State:
        """A deep copy, cheap enough to take before every command."""
        return self._from_msgpack.decode(self._msgpack.encode(state))
