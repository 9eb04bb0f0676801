"""One seeded source of randomness per game, small enough to live inside the game state.

Faces can be scripted (tests, scenarios): scripted faces are used first, in order.
Shuffles draw from the same source so a game replays exactly from its seed.
"""
from __future__ import annotations

import msgspec

_MASK = (1 << 64) - 1


class Dice(msgspec.Struct, gc=False):
    """SplitMix64 generator state plus a queue of scripted faces."""

    state: int
    scripted: list[int] = []

    @classmethod
    def seeded(cls, seed: int) -> "Dice":
        return cls(state=seed & _MASK)

    def _next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) (rejection sampling, no modulo bias)."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self._next()
            if value < limit:
                return value % n

    def roll(self, count: int = 1, sides: int = 6) -> list[int]:
        """Roll `count` dice of `sides` sides (six unless told)."""
        faces = []
        for _ in range(count):
            if self.scripted:
                faces.append(self.scripted.pop(0))
            else:
                faces.append(self.below(sides) + 1)
        return faces

    def shuffle(self, items: list) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def dice_words(count: int, signed: bool = False) -> str:
    """A number of dice in words: '1 die', '3 dice'; `signed`: '+1 die', '-2 dice', '+0 dice'."""
    number = f"{count:+d}" if signed else str(count)
    return f"{number} {'die' if abs(count) == 1 else 'dice'}"
