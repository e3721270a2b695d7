"""Observations for learners: a seat's view, flattened into a fixed-size float vector.

Every tensor the adapters hand out -- OpenSpiel observation and information-state tensors,
PettingZoo and Gymnasium observations, exported trajectories -- comes from
:func:`encoder_for`: ``encoder.observe(state, seat)`` shows what ``state.view(seat)`` shows
and nothing else, so a learner sees what a seat may see, exactly as a person at the table does.

A game package may ship its own writer (``games/<name>/tensor.py``, reading the state's fields
straight into the vector; their tests prove the result is a function of the view alone): its
kit's ``tensor`` factory, found by :func:`tensor_factory`. Without one, the generic
:class:`ViewEncoder` encodes ``state.view(seat)`` itself: it learns the *shape* of a game's
views from the views of a few seeded random playouts (every seat, every step) and lays them
out as follows:

- a number is one float, clipped to ``±VALUE_BOUND``; ``true``/``false`` is 1/0;
- a string is a one-hot over the strings seen at that place (none if only one was seen);
- ``null`` (or a missing key) sets a flag of its own, where one was ever seen there;
- an object is its keys in sorted order; a list is padded to the longest list seen there,
  each slot with a "filled" flag.

The layout is deterministic for a game configuration (id, seats, options), so the size
stays the same from run to run until the game's views change shape. A view that outgrows
what the playouts showed (a longer list, a string never seen, a new key) is encoded as far as
the layout reaches and the rest is dropped: the encoder never fails during a match.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from meeple.core.errors import UnknownGame
from meeple.core.game import Game, State
from meeple.core.registry import kit_for
from meeple.core.tensor import VALUE_BOUND, TensorWriter, Vector
from meeple.core.types import JSON, Seat

LEARNING_PLAYOUTS = 6
"""How many seeded random playouts the generic encoder reads to learn a game's view shape."""

Encoder = TensorWriter
"""The name the adapters knew the writer Protocol by."""

EncoderFactory = Callable[[Game], TensorWriter]


def canonical_json(view: JSON) -> str:
    """The view as compact JSON with sorted keys: equal views give equal strings."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


class _Node:
    """The learned shape of one place in a view; it may be several JSON types at once."""

    __slots__ = ("boolean", "bound", "fields", "item", "nullable", "number", "vocab", "width")

    def __init__(self) -> None:
        self.nullable = False
        self.boolean = False
        self.number = False
        self.vocab: dict[str, int] = {}
        self.fields: dict[str, _Node] | None = None
        self.item: _Node | None = None
        self.bound = 0
        self.width = 0

    # -- learning -------------------------------------------------------------------

    def learn(self, value: JSON) -> None:
        if value is None:
            self.nullable = True
        elif isinstance(value, bool):
            self.boolean = True
        elif isinstance(value, int | float):
            self.number = True
        elif isinstance(value, str):
            self.vocab.setdefault(value, len(self.vocab))
        elif isinstance(value, dict):
            self._learn_object(value)
        elif isinstance(value, list | tuple):
            if self.item is None:
                self.item = _Node()
            self.bound = max(self.bound, len(value))
            for element in value:
                self.item.learn(element)

    def _learn_object(self, value: dict[str, JSON]) -> None:
        first = self.fields is None
        if self.fields is None:
            self.fields = {}
        for key, child in value.items():
            node = self.fields.get(key)
            if node is None:
                node = self.fields[key] = _Node()
                node.nullable = not first  # earlier objects lacked this key
            node.learn(child)
        for key, node in self.fields.items():
            if key not in value:
                node.nullable = True

    def freeze(self) -> int:
        """Fix the layout (sorted vocabularies and keys); returns the width."""
        self.vocab = {word: i for i, word in enumerate(sorted(self.vocab))}
        if len(self.vocab) < 2:
            self.vocab = {}
        width = int(self.nullable) + int(self.boolean) + int(self.number) + len(self.vocab)
        if self.fields is not None:
            self.fields = {key: self.fields[key] for key in sorted(self.fields)}
            width += sum(node.freeze() for node in self.fields.values())
        if self.item is not None:
            width += self.bound * (1 + self.item.freeze())
        self.width = width
        return width

    # -- encoding -------------------------------------------------------------------

    def write(self, value: JSON, out: list[float], at: int) -> None:
        """Write ``value`` into ``out[at : at + width]`` (already zeroed)."""
        if self.nullable:
            if value is None:
                out[at] = 1.0
                return
            at += 1
        if self.boolean:
            if value is True or value is False:
                out[at] = float(value)
                return
            at += 1
        if self.number:
            if isinstance(value, int | float) and not isinstance(value, bool):
                out[at] = max(-VALUE_BOUND, min(VALUE_BOUND, float(value)))
                return
            at += 1
        if self.vocab:
            if isinstance(value, str):
                index = self.vocab.get(value)
                if index is not None:
                    out[at + index] = 1.0
                return
            at += len(self.vocab)
        if self.fields is not None:
            if isinstance(value, dict):
                for key, node in self.fields.items():
                    node.write(value.get(key), out, at)
                    at += node.width
                return
            at += sum(node.width for node in self.fields.values())
        item = self.item
        if item is not None and isinstance(value, list | tuple):
            stride = 1 + item.width
            for element in value[: self.bound]:
                out[at] = 1.0
                item.write(element, out, at + 1)
                at += stride

    def bounds(self) -> Iterator[tuple[float, float]]:
        """(low, high) of every element, in layout order."""
        for _ in range(int(self.nullable) + int(self.boolean)):
            yield 0.0, 1.0
        if self.number:
            yield -VALUE_BOUND, VALUE_BOUND
        for _ in self.vocab:
            yield 0.0, 1.0
        if self.fields is not None:
            for node in self.fields.values():
                yield from node.bounds()
        if self.item is not None:
            for _ in range(self.bound):
                yield 0.0, 1.0
                yield from self.item.bounds()


class ViewEncoder:
    """The generic encoder: a layout learned from sample views (see the module docstring)."""

    def __init__(self, samples: Iterator[JSON] | list[JSON]) -> None:
        self._root = _Node()
        for view in samples:
            self._root.learn(view)
        self._size = self._root.freeze()
        if self._size == 0:
            raise ValueError("the sample views hold nothing to encode")
        pairs = list(self._root.bounds())
        self._low = np.array([p[0] for p in pairs], dtype=np.float32)
        self._high = np.array([p[1] for p in pairs], dtype=np.float32)

    @classmethod
    def learn(cls, game: Game, playouts: int = LEARNING_PLAYOUTS) -> ViewEncoder:
        """Learn the layout from every seat's view along ``playouts`` seeded random playouts."""
        return cls(sample_views(game, playouts))

    @property
    def size(self) -> int:
        return self._size

    @property
    def low(self) -> Vector:
        return self._low

    @property
    def high(self) -> Vector:
        return self._high

    def observe(self, state: State, seat: Seat) -> Vector:
        return self.encode(state.view(seat))

    def shared(self, state: State) -> None:
        """Nothing: the generic encoder reads each seat's view whole."""

    def personal(self, shared: Any, state: State, seat: Seat) -> Vector:
        return self.encode(state.view(seat))

    def encode(self, view: JSON) -> Vector:
        """A new vector for ``view``."""
        out = [0.0] * self._size
        self._root.write(view, out, 0)
        return np.array(out, dtype=np.float32)


SAMPLE_STRIDE = 8
"""After its first steps, a learning playout shows its views every this many steps."""


def sample_views(game: Game, playouts: int) -> Iterator[JSON]:
    """Every seat's view along ``playouts`` random playouts (seeds 0, 1, ...).

    The first :data:`SAMPLE_STRIDE` steps, then every :data:`SAMPLE_STRIDE`-th, and the end.
    """
    for seed in range(playouts):
        rng = random.Random(seed)
        state: State = game.new_initial_state(seed)
        step = 0
        while True:
            deciding = state.deciding_seats()
            if not deciding or step < SAMPLE_STRIDE or step % SAMPLE_STRIDE == 0:
                for seat in range(game.seats):
                    yield state.view(seat)
            if not deciding:
                break
            seat = deciding[rng.randrange(len(deciding))]
            state.apply_unchecked(seat, rng.choice(state.legal_actions(seat)))
            step += 1


_FACTORIES: dict[str, EncoderFactory] = {}
"""Writers put in place of a game's own by :func:`register_encoder` (benchmarks, tests)."""
_ENCODERS: dict[Game, TensorWriter] = {}
_LAST_ENCODER: list[tuple[Game, TensorWriter]] = []
"""The game :func:`encoder_for` was last asked about, and its encoder."""


def register_encoder(game_name: str, factory: EncoderFactory) -> None:
    """Use ``factory(game)`` instead of the game's own writer for the game called ``game_name``."""
    _FACTORIES[game_name] = factory
    for game in [g for g in _ENCODERS if g.info.name == game_name]:
        del _ENCODERS[game]
    _LAST_ENCODER.clear()


def tensor_factory(game: Game) -> EncoderFactory:
    """The one place a game's writer factory is looked up.

    One put in place by :func:`register_encoder`, else the ``tensor`` of the game's kit, else
    (a kit without one, or a game registered without a kit) the generic
    :meth:`ViewEncoder.learn`."""
    factory = _FACTORIES.get(game.info.name)
    if factory is not None:
        return factory
    try:
        kit_tensor = kit_for(game).tensor
    except UnknownGame:
        return ViewEncoder.learn
    return ViewEncoder.learn if kit_tensor is None else kit_tensor


def encoder_for(game: Game) -> TensorWriter:
    """The encoder of a configured game (built once per configuration, then cached)."""
    if _LAST_ENCODER and _LAST_ENCODER[0][0] is game:
        return _LAST_ENCODER[0][1]  # the same game object again: no hash (a dear one) needed
    encoder = _ENCODERS.get(game)
    if encoder is None:
        encoder = _ENCODERS[game] = tensor_factory(game)(game)
    _LAST_ENCODER[:] = [(game, encoder)]
    return encoder


def observation(state: State, seat: int) -> Vector:
    """The seat's observation vector in ``state``: its view, encoded."""
    return encoder_for(state.game).observe(state, seat)


def action_mask(state: State, seat: int, legal: list[int] | None = None) -> npt.NDArray[np.int8]:
    """1 for each action the seat may take now, 0 elsewhere (all 0 when it does not decide).

    ``legal``, when the caller has them already, are ``state.legal_actions(seat)``."""
    mask = np.zeros(state.game.num_distinct_actions(), dtype=np.int8)
    mask.put(state.legal_actions(seat) if legal is None else legal, 1)
    return mask
