"""A small, fast, serialisable random number generator that lives inside a State.

Rules never touch a global generator: every random draw of a match comes from the
:class:`Rng` held by its state, seeded when the game creates the initial state. The whole
generator is one 64-bit integer, so cloning a state copies it for free and a state's JSON
carries it exactly. The algorithm is SplitMix64 (Steele, Lea and Flood), which passes
BigCrush and needs no tables.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

from meeple.core.compiled import mypyc_attr

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_HEX = frozenset("0123456789abcdef")
T = TypeVar("T")


def mix_seed(*parts: int) -> int:
    """Fold several integers (a seed, a seat, a salt) into one 64-bit seed."""
    state = 0x6A09E667F3BCC909
    for part in parts:
        state = (state ^ (part & _MASK)) & _MASK
        state = _splitmix(state)[1]
    return state


def _splitmix(state: int) -> tuple[int, int]:
    state = (state + _GOLDEN) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


# Tests script dice with a plain Python subclass (which a compiled class otherwise refuses).
@mypyc_attr(allow_interpreted_subclasses=True)
class Rng:
    """SplitMix64 with unbiased bounded draws; its whole state is one integer."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next_u64(self) -> int:
        """The next raw 64-bit value."""
        self.state = s = (self.state + _GOLDEN) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, so no modulo bias)."""
        if n <= 0:
            raise ValueError(f"Rng.below needs a positive bound, got {n}")
        limit = _MASK + 1 - ((_MASK + 1) % n)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> Rng:
        return Rng(self.state)

    def to_json(self) -> str:
        """The state as 16 hex digits (a JSON number would lose bits in JavaScript)."""
        return f"{self.state:016x}"

    @classmethod
    def from_json(cls, text: str) -> Rng:
        # int(text, 16) alone would also take "0x..", signs, spaces and underscores.
        if not isinstance(text, str) or len(text) != 16 or not _HEX.issuperset(text):
            raise ValueError(f"rng state must be 16 lowercase hex digits, got {text!r}")
        return cls(int(text, 16))
