"""Observation tensors: the writer Protocol, named blocks of a vector, the per-game base.

A game's observation tensor writer (:class:`TensorWriter`) turns what a seat sees of a state
into a flat float32 vector of a fixed size. A game package may ship its own in
``games/<name>/tensor.py`` (a factory ``writer(game) -> TensorWriter``, registered in its kit);
without one, :class:`meeple.core.encoding.ViewEncoder` lays out ``state.view(seat)`` itself.
NumPy is needed here: it comes with the ``research`` extra, and nothing a player runs imports
this module.

A per-game encoder lays its vector out as a sequence of named blocks (``board.tile``,
``storage``...), each a small array of a fixed shape with the same bounds throughout. The
layout is built once per game configuration from the game's data tables, so a table that
grows (a tile more, a longer stream) moves the offsets rather than breaking the encoder.
:meth:`Layout.read` cuts a block back out of a vector, for tests and for people.
"""

from __future__ import annotations

import importlib
import os
import struct
from array import array
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from meeple.core.game import Game, State
from meeple.core.types import Seat

VALUE_BOUND = 1e6
"""Numbers are clipped to ``[-VALUE_BOUND, VALUE_BOUND]`` so observation spaces are finite."""

Vector = npt.NDArray[np.float32]


class TensorWriter(Protocol):
    """Turns what a seat sees of a state into a flat float32 vector of a fixed size."""

    @property
    def size(self) -> int: ...

    @property
    def low(self) -> Vector:
        """The smallest value of each element (for observation spaces)."""
        ...

    @property
    def high(self) -> Vector:
        """The largest value of each element."""
        ...

    def observe(self, state: State, seat: Seat) -> Vector:
        """A new vector: what ``state.view(seat)`` shows, encoded."""
        ...

    def shared(self, state: State) -> Any:
        """What every seat's vector has in common, for :meth:`personal` (an adapter showing
        one position to several seats works it out once)."""
        ...

    def personal(self, shared: Any, state: State, seat: Seat) -> Vector:
        """A new vector, equal to ``observe(state, seat)``, from ``shared(state)``."""
        ...


NO_EXTENSIONS = "MEEPLE_NO_EXT"
"""Set to 1 to make the writers use their Python path even where the compiled ones are
installed (``pip install ./fast``, the ``meeple-fast`` distribution)."""

COMPILED_PACKAGE = "meeple_fast"
"""The optional distribution of compiled writers (``fast/`` in the repository)."""


def compiled_module(name: str, wanted: bool | None) -> ModuleType | None:
    """The compiled writer ``meeple_fast.<name>``, or None for the Python path.

    ``wanted`` None: the compiled one where it is installed, unless ``MEEPLE_NO_EXT=1``;
    False: never; True: the compiled one or ImportError."""
    if wanted is False or (wanted is None and os.environ.get(NO_EXTENSIONS) == "1"):
        return None
    try:
        return importlib.import_module(f"{COMPILED_PACKAGE}.{name}")
    except ImportError:
        if wanted:
            raise
        return None


@dataclass(frozen=True, slots=True)
class Block:
    """One named block: ``shape`` floats from ``offset`` on, each in ``[low, high]``."""

    name: str
    offset: int
    shape: tuple[int, ...]
    low: float
    high: float
    meaning: str

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    @property
    def end(self) -> int:
        return self.offset + self.size


class Layout:
    """The blocks of one encoder, in order; offsets are assigned as blocks are added."""

    def __init__(self) -> None:
        self.blocks: dict[str, Block] = {}
        self.size = 0

    def add(
        self,
        name: str,
        shape: tuple[int, ...] | int,
        meaning: str,
        *,
        low: float = 0.0,
        high: float = 1.0,
    ) -> int:
        """Append a block; returns its offset."""
        if name in self.blocks:
            raise ValueError(f"block {name!r} is laid out twice")
        dims = (shape,) if isinstance(shape, int) else shape
        block = Block(name, self.size, dims, low, high, meaning)
        self.blocks[name] = block
        self.size = block.end
        return block.offset

    def bounds(self) -> tuple[Vector, Vector]:
        low = np.zeros(self.size, np.float32)
        high = np.zeros(self.size, np.float32)
        for block in self.blocks.values():
            low[block.offset : block.end] = block.low
            high[block.offset : block.end] = block.high
        return low, high

    def read(self, vector: Vector, name: str) -> Vector:
        """The block called ``name`` of ``vector``, in its shape."""
        block = self.blocks[name]
        return vector[block.offset : block.end].reshape(block.shape)

    def markdown(self) -> str:
        """The layout as a Markdown table (what ``docs/research.md`` shows)."""
        lines = ["| block | offset | shape | meaning |", "|---|---:|---|---|"]
        for block in self.blocks.values():
            shape = " × ".join(str(d) for d in block.shape)
            lines.append(f"| `{block.name}` | {block.offset} | {shape} | {block.meaning} |")
        return "\n".join(lines)


class CompiledWriter(Protocol):
    """A compiled writer: the whole vector of ``seat``, or with ``seat`` -1 the shared part."""

    def observe(self, state: Any, seat: int) -> Vector: ...


class BlockEncoder:
    """The base of the per-game encoders: a layout, its bounds and a template vector.

    Subclasses lay out their blocks in ``__init__`` -- a ``seat`` one-hot, the other
    one-hot blocks, then the numbers -- call :meth:`finish`, and make each vector in two
    parts: :meth:`shared`, what every seat sees of the position, written with :meth:`write`
    from the template, which holds what never changes during a match of this configuration
    (the options); and :meth:`personalize`, which marks the seat looking and writes what
    only it sees. :meth:`observe` does both; an adapter that shows one position to several
    seats (PettingZoo's Parallel step, OpenSpiel at a simultaneous node) calls
    :meth:`shared` once and :meth:`personal` per seat.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.layout = Layout()
        self._constants: list[tuple[int, float]] = []
        self._numbers = self._seat = 0
        self.signed = False
        self._packers: dict[int, struct.Struct] = {}
        self._low = self._high = self._template = np.zeros(0, np.float32)
        self.compiled = False

    def use_writer(self, writer: CompiledWriter) -> None:
        """Let a compiled writer make every vector in place of the Python path.

        :meth:`observe` and :meth:`shared` are bound to it on the instance, so a call
        reaches the compiled code without a Python frame between (the vectors are the
        same: the tests compare both paths)."""
        self.compiled = True
        self.observe = writer.observe  # type: ignore[method-assign]
        self.shared = lambda state: writer.observe(state, -1)  # type: ignore[method-assign]

    def add_options(self) -> None:
        """A block per option the view's ``options`` carry: a one-hot over an enumerated
        option's choices, 0/1 for a switch, the number for an integer option. (Free-text
        options are left to the game's encoder, which shows what they mean.)"""
        for spec in self.game.info.options:
            value = self.game.option(spec.name)
            name = f"options.{spec.name}"
            if spec.choices is not None:
                words = ", ".join(str(choice) for choice in spec.choices)
                at = self.layout.add(name, len(spec.choices), f"one-hot: {words}")
                index = [type(c) is type(value) and c == value for c in spec.choices].index(True)
                self._constants.append((at + index, 1.0))
            elif isinstance(spec.default, bool):
                at = self.layout.add(name, 1, "1 if the switch is on")
                self._constants.append((at, float(value)))
            elif isinstance(spec.default, int):
                low = float(spec.low if spec.low is not None else -VALUE_BOUND)
                high = float(spec.high if spec.high is not None else VALUE_BOUND)
                at = self.layout.add(name, 1, "the number", low=low, high=high)
                self._constants.append((at, float(value)))

    def finish(self, numbers_from: str) -> None:
        """Fix the layout: bounds, and the template with the constant blocks written.

        The blocks from ``numbers_from`` to the end are the numbers :meth:`write` takes."""
        self._numbers = self.offset(numbers_from)
        self._seat = self.offset("seat")
        self._low, self._high = self.layout.bounds()
        self._template = np.zeros(self.layout.size, np.float32)
        for at, value in self._constants:
            self._template[at] = value

    def offset(self, name: str) -> int:
        return self.layout.blocks[name].offset

    @property
    def size(self) -> int:
        return self.layout.size

    @property
    def low(self) -> Vector:
        return self._low

    @property
    def high(self) -> Vector:
        return self._high

    @property
    def template(self) -> Vector:
        return self._template

    def write(self, ones: list[int], numbers: list[int]) -> Vector:
        """A new vector: the template, 1 at each place in ``ones``, and ``numbers`` (ints
        or bools) from the first number block on -- a few C calls, whatever the game."""
        out = self.blank(ones)
        self.put_numbers(out, self._numbers, numbers)
        return out

    def blank(self, ones: list[int]) -> Vector:
        """A new vector: the template with 1 at each place in ``ones``."""
        out = self._template.copy()
        out.put(ones, 1.0)
        return out

    def put_numbers(self, out: Vector, at: int, numbers: list[int]) -> None:
        """Write ``numbers`` (ints or bools) into ``out`` from ``at`` on.

        They go through a bytes buffer when all are in 0..255 (``bytearray`` reads a list
        of small ints several times faster than numpy or ``array`` do), else through
        ``struct`` as int16 (about as fast, and signed), else through an int64 ``array``;
        each refuses a float rather than truncate it. Encoders whose numbers are often
        negative set :attr:`signed` to skip the first try."""
        count = len(numbers)
        end = at + count
        if not self.signed:
            try:
                out[at:end] = np.frombuffer(bytearray(numbers), np.uint8)
                return
            except ValueError:  # a number outside 0..255
                pass
        packer = self._packers.get(count)
        if packer is None:
            packer = self._packers[count] = struct.Struct(f"={count}h")
        try:
            out[at:end] = np.frombuffer(packer.pack(*numbers), np.int16)
        except struct.error:  # a number outside the int16 range, or no integer
            out[at:end] = np.frombuffer(array("q", numbers), np.int64)

    def observe(self, state: State, seat: Seat) -> Vector:
        out = self.shared(state)
        self.personalize(out, state, seat)
        return out

    def personal(self, shared: Vector, state: State, seat: Seat) -> Vector:
        """A new vector for ``seat``: a copy of ``shared`` (from :meth:`shared`) personalized."""
        out = shared.copy()
        self.personalize(out, state, seat)
        return out

    def shared(self, state: State) -> Vector:
        """A new vector with every block that all seats see alike (the seat's own blank)."""
        raise NotImplementedError

    def personalize(self, out: Vector, state: State, seat: Seat) -> None:
        """Write into ``out`` (from :meth:`shared`) the seat looking and what only it sees.

        This base marks the seat; games with private blocks extend it."""
        out[self._seat + seat] = 1.0
