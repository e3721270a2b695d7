"""A small, fast, serialisable random number generator that lives inside a State.

Rules never touch a global generator: every random draw of a match comes from the
:class:`Rng` held by its state, seeded when the game creates the initial state. The whole
generator is one 64-bit integer, so cloning a state copies it for free and a state's JSON
carries it exactly. The algorithm is SplitMix64 (Steele, Lea and Flood), which passes
BigCrush and needs no tables.

The pure source steps it as one Python integer (the fewest operations for the
interpreter). The compiled build (docs/compiled.md) holds and steps its two 32-bit
halves, multiplying by 16-bit parts so that no value passes 2**62 and every operation
stays on mypyc's machine integers; the whole 64-bit integer would fall back to Python's
arbitrary-precision one at every step. Both ways give the same numbers
(``tests/core/test_rng.py`` holds them equal).
"""

from __future__ import annotations

from collections.abc import MutableSequence
from types import FunctionType
from typing import Final, TypeVar

from meeple.core.compiled import i64, mypyc_attr

_MASK = (1 << 64) - 1
_M32: Final[i64] = 0xFFFFFFFF
_M16: Final[i64] = 0xFFFF
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
# The constants' halves, and each half's 16-bit parts, for the stepping by halves.
_GOLDEN_HI: Final[i64] = 0x9E3779B9
_GOLDEN_LO: Final[i64] = 0x7F4A7C15
_MIX1_HI: Final[i64] = 0xBF58476D
_MIX1_LO: Final[i64] = 0x1CE4E5B9
_MIX2_HI: Final[i64] = 0x94D049BB
_MIX2_LO: Final[i64] = 0x133111EB
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
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return state, z ^ (z >> 31)


BY_HALVES: Final = not isinstance(mix_seed, FunctionType)
"""Whether this module is compiled, and so steps the generator by halves."""


def _times(hi: i64, lo: i64, c_hi: i64, c_lo: i64) -> tuple[i64, i64]:
    """``(hi:lo) * (c_hi:c_lo)`` modulo 2**64, as halves; every value stays under 2**50."""
    c0 = c_lo & _M16
    c1 = c_lo >> 16
    low = lo * c0
    mid = lo * c1
    low += (mid & _M16) << 16
    top = (mid >> 16) + (low >> 32)
    # hi * c_lo and lo * c_hi count only modulo 2**32.
    cross = hi * c0 + (((hi * c1) & _M16) << 16)
    cross += lo * (c_hi & _M16) + (((lo * (c_hi >> 16)) & _M16) << 16)
    return (top + cross) & _M32, low & _M32


def step_halves(hi: i64, lo: i64) -> tuple[i64, i64, i64, i64]:
    """One SplitMix64 step on the state's halves: the new state's and the value's halves."""
    lo += _GOLDEN_LO
    hi = (hi + _GOLDEN_HI + (lo >> 32)) & _M32
    lo &= _M32
    # z ^= z >> 30
    z_hi = hi ^ (hi >> 30)
    z_lo = lo ^ (((hi << 2) & _M32) | (lo >> 30))
    z_hi, z_lo = _times(z_hi, z_lo, _MIX1_HI, _MIX1_LO)
    # z ^= z >> 27
    z_lo ^= ((z_hi << 5) & _M32) | (z_lo >> 27)
    z_hi ^= z_hi >> 27
    z_hi, z_lo = _times(z_hi, z_lo, _MIX2_HI, _MIX2_LO)
    # z ^= z >> 31
    z_lo ^= ((z_hi << 1) & _M32) | (z_lo >> 31)
    z_hi ^= z_hi >> 31
    return hi, lo, z_hi, z_lo


# Tests script dice with a plain Python subclass (which a compiled class otherwise refuses).
@mypyc_attr(allow_interpreted_subclasses=True)
class Rng:
    """SplitMix64 with unbiased bounded draws; its whole state is one integer."""

    __slots__ = ("hi", "lo", "whole")
    hi: i64
    lo: i64
    whole: int

    def __init__(self, seed: int = 0) -> None:
        # The pure source keeps the whole integer, the compiled build its halves; each reads
        # only its own (an attribute the other way sets stays unset).
        if BY_HALVES:
            self.hi = i64((seed >> 32) & 0xFFFFFFFF)  # int masks: seed is no i64
            self.lo = i64(seed & 0xFFFFFFFF)
        else:
            self.whole = seed & _MASK

    @property
    def state(self) -> int:
        """The generator's whole state, a 64-bit integer (set modulo 2**64)."""
        return (int(self.hi) << 32) | int(self.lo) if BY_HALVES else self.whole

    @state.setter
    def state(self, value: int) -> None:
        if BY_HALVES:
            self.hi = i64((value >> 32) & 0xFFFFFFFF)
            self.lo = i64(value & 0xFFFFFFFF)
        else:
            self.whole = value & _MASK

    def next_u64(self) -> int:
        """The next raw 64-bit value."""
        if BY_HALVES:
            self.hi, self.lo, z_hi, z_lo = step_halves(self.hi, self.lo)
            return (int(z_hi) << 32) | int(z_lo)
        self.whole = s = (self.whole + _GOLDEN) & _MASK
        z = ((s ^ (s >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, so no modulo bias)."""
        if n <= 0:
            raise ValueError(f"Rng.below needs a positive bound, got {n}")
        if BY_HALVES and n <= 1 << 30:
            bound = i64(n)
            while True:
                self.hi, self.lo, z_hi, z_lo = step_halves(self.hi, self.lo)
                # Below 2**64 - 2**32 every value is under the limit (2**64 less
                # 2**64 % n, which is under n); the values above are checked in full.
                if z_hi != _M32 or (int(z_hi) << 32 | int(z_lo)) < _MASK + 1 - (_MASK + 1) % n:
                    return int((((z_hi % bound) << 32) + z_lo) % bound)
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
        if BY_HALVES:
            twin = Rng()
            twin.hi = self.hi
            twin.lo = self.lo
            return twin
        return Rng(self.whole)

    def to_json(self) -> str:
        """The state as 16 hex digits (a JSON number would lose bits in JavaScript)."""
        return f"{self.state:016x}"

    @classmethod
    def from_json(cls, text: str) -> Rng:
        # int(text, 16) alone would also take "0x..", signs, spaces and underscores.
        if not isinstance(text, str) or len(text) != 16 or not _HEX.issuperset(text):
            raise ValueError(f"rng state must be 16 lowercase hex digits, got {text!r}")
        return cls(int(text, 16))
