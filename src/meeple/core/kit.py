"""What the shared layers need to know of a game, registered once as one :class:`GameKit`.

A game package owns its game: the rules, and also its bot knowledge, its terminal drawing and
its observation tensors. ``ai/``, ``cli/``, ``adapters/`` and ``server/`` name no game; they ask
:func:`meeple.core.registry.kit_for` for the game's kit and read its parts. The parts fulfil the
Protocols below, which live in ``core`` so that ``games/`` imports only ``core``.

The shapes (``GameKit(name, games, evaluator, move_order, rollout, draw, heuristic, tensor,
events)``):

- :class:`Evaluator` -- ``evaluator(state, seat) -> float``, higher is better for ``seat``,
  reading only what ``state.view(seat)`` shows; its ``scale`` is how many of its units make a
  clear lead (tree search reads a score as ``tanh(score / scale)``). :class:`ScaledEvaluator`
  wraps a function and a scale; :data:`FINAL_RETURNS` is the seat's return once the match is
  over, else 0 (for a game with no heuristic knowledge).
- :class:`MoveOrder` -- ``move_order(state, seat, legal) -> list[Action]``: the actions a search
  considers, a non-empty subset of ``legal`` in the same order (a copy of a move that differs
  only in name, or a dominated one, dropped). :func:`keep_all` keeps them all.
- :class:`RolloutPolicy` -- ``playout_limit``: random playouts are cut after this many actions
  and judged by the evaluator (``None``: play to the end); ``finish_turn``: the seat to move at
  a search leaf first finishes its turn with the game's :class:`HeuristicPolicy`.
  :class:`Rollout` is the plain frozen value.
- :class:`Drawing` (:class:`BoardDrawing` is the plain one) -- ``board(view)``: a seat's view
  drawn for the terminal, and ``report(events, view)``: the events a transition made, told as
  sentences, or ``None`` when nothing is worth telling; ``help_text()``: the game's order forms
  with an example of each and a key to every symbol the board draws (Rich markup, shown by
  the in-game ``help``; empty for a game that has none). Both drawing methods return a *rich*
  renderable (a ``rich`` Text, Table, Panel or a plain ``str``); ``core`` does not import
  ``rich``, so the type here is ``object``, and the CLI hands it to ``Console.print``. A game
  names its drawing module with :class:`DrawingModule`, so that importing the rules never
  imports ``rich``.
- :class:`HeuristicPolicy` -- ``choose(state, seat, rng) -> Action``: the game's rules of thumb,
  the ``heuristic`` bot of that game. It draws every random choice from ``rng`` (the bot's own
  generator) and keeps no other state, so one policy object serves every bot.
- ``tensor`` -- a factory ``Callable[[Game], TensorWriter]`` of the game's observation tensor
  writer (:class:`meeple.core.tensor.TensorWriter`: its own fields read straight into a vector),
  or ``None`` for the generic writer that lays out ``state.view(seat)`` itself. A game names its
  writer's module with :class:`TensorModule` (a module defining ``writer(game)``), so that
  importing the rules never imports NumPy.
- ``events`` -- an :data:`~meeple.core.events.EventCatalogue`: every kind of event the game's
  transitions make, each with its meaning in a line and its fields' JSON types
  (:class:`~meeple.core.events.EventKind`; a game that ends with a ``game_over`` event lists
  :data:`~meeple.core.events.GAME_OVER`). The server publishes it (docs/protocol.md's event
  tables, docs/schemas/events-<game>.json) and the tests check random matches' events against
  it; a field's type must be a JSON Schema type (``integer|null`` for either, ``array?`` for a
  field not always there), or the kit does not construct.
- :class:`FromView` -- ``from_view(game, view, seat, seed) -> State``: a state consistent with
  everything ``view`` (a seat's :meth:`State.view`) shows, with what the seat cannot see
  drawn from ``seed``: how a client that holds only its seat's view lets a searching bot
  decide (:func:`meeple.core.from_view.state_from_view` is the checked way in). ``None``
  for a game that has none.

Every part is required: a kit that leaves one out does not type-check and does not construct
(only ``heuristic_aliases``, earlier names of the game's heuristic bot, defaults to none,
``from_view`` and ``tutorial`` to ``None``). A
game builds its kit in ``games/<name>/kit.py`` and its package registers it with
:func:`meeple.core.registry.register_kit`, which registers its Game classes too.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from meeple.core.events import JSON_TYPES, EventCatalogue
from meeple.core.game import Game, State
from meeple.core.outcome import Event
from meeple.core.types import JSON, Action, Seat

if TYPE_CHECKING:
    # Only for the type: the writers need NumPy, which the rules never import.
    from meeple.core.tensor import TensorWriter


class Evaluator(Protocol):
    """A position's worth to a seat, in the evaluator's own units (see :attr:`scale`)."""

    @property
    def scale(self) -> float:
        """How many units read as a clear lead: a search values a score ``tanh(score / scale)``."""
        ...

    def __call__(self, state: State, seat: Seat) -> float: ...


@dataclass(frozen=True, slots=True)
class ScaledEvaluator:
    """An evaluating function and its scale: the plain :class:`Evaluator`."""

    evaluate: Callable[[State, Seat], float]
    scale: float = 1.0

    def __post_init__(self) -> None:
        if not self.scale > 0:
            raise ValueError(f"an evaluator's scale must be positive, got {self.scale!r}")

    def __call__(self, state: State, seat: Seat) -> float:
        return self.evaluate(state, seat)


def final_returns(state: State, seat: Seat) -> float:
    """The seat's return once the match is over, else 0."""
    return state.returns()[seat]


FINAL_RETURNS = ScaledEvaluator(final_returns, 1.0)
"""The evaluator of a game without heuristic knowledge: only a finished match counts."""


class MoveOrder(Protocol):
    """The legal actions a search considers: a non-empty subset of ``legal``, in its order."""

    def __call__(self, state: State, seat: Seat, legal: list[Action]) -> list[Action]: ...


def keep_all(state: State, seat: Seat, legal: list[Action]) -> list[Action]:
    """The move order of a game that prunes nothing: every legal action."""
    return legal


def keep_best(
    legal: list[Action],
    scores: Mapping[Action, float],
    keep: int,
    always: Iterable[Action] = (),
) -> list[Action]:
    """The step every move order that prunes shares: the ``keep`` actions of ``scores`` that
    score highest (ties to the lower id), and any of ``always``, in the order of ``legal``."""
    best = set(sorted(scores, key=lambda a: (-scores[a], a))[:keep])
    best.update(always)
    return [a for a in legal if a in best]


class RolloutPolicy(Protocol):
    """How a search plays on from a leaf: how far at random, and whether a turn is finished."""

    @property
    def playout_limit(self) -> int | None:
        """Cut a random playout after this many actions and ask the evaluator (None: play on)."""
        ...

    @property
    def finish_turn(self) -> bool:
        """Whether the seat to move at a leaf first finishes its turn with the heuristic."""
        ...


@dataclass(frozen=True, slots=True)
class Rollout:
    """The plain :class:`RolloutPolicy`."""

    playout_limit: int | None = None
    finish_turn: bool = False

    def __post_init__(self) -> None:
        if self.playout_limit is not None and self.playout_limit < 0:
            raise ValueError(f"a playout limit must not be negative, got {self.playout_limit}")


class Drawing(Protocol):
    """A game's terminal drawing (see the module docstring for why it returns ``object``)."""

    def board(self, view: JSON) -> object:
        """A seat's view (what :meth:`State.view` returns) drawn for the terminal."""
        ...

    def report(self, events: Sequence[Event], view: JSON) -> object | None:
        """``events`` the viewer may see, told with the viewer's view after them, or None."""
        ...

    def help_text(self) -> str:
        """The order forms with examples and a key to the board's symbols (Rich markup)."""
        ...


def no_report(events: Sequence[Event], view: JSON) -> None:
    """The report of a game whose drawing tells no events: nothing."""
    return None


@dataclass(frozen=True, slots=True)
class BoardDrawing:
    """The plain :class:`Drawing`: a board function and a report function."""

    board: Callable[[JSON], object]
    report: Callable[[Sequence[Event], JSON], object | None] = no_report
    help: str = ""
    """The order forms and the key to the board's symbols, as Rich markup (see the module)."""

    def help_text(self) -> str:
        """:attr:`help`."""
        return self.help


@dataclass(frozen=True, slots=True)
class DrawingModule:
    """A :class:`Drawing` kept in a module that is imported when first drawn.

    A game's drawing builds ``rich`` renderables; holding it by module name means that loading
    the rules (a bot, the server, a learner) never loads the terminal library. The module must
    define ``DRAWING``, a :class:`BoardDrawing`.
    """

    module: str

    def load(self) -> BoardDrawing:
        """The module's ``DRAWING``.

        Raises:
            TypeError: when the module defines no ``DRAWING`` of the right type.
        """
        drawing = getattr(importlib.import_module(self.module), "DRAWING", None)
        if not isinstance(drawing, BoardDrawing):
            raise TypeError(f"{self.module} defines no DRAWING (a BoardDrawing): {drawing!r}")
        return drawing

    def board(self, view: JSON) -> object:
        return self.load().board(view)

    def report(self, events: Sequence[Event], view: JSON) -> object | None:
        return self.load().report(events, view)

    def help_text(self) -> str:
        return self.load().help_text()


def check_can_decide(state: State, seat: Seat) -> list[Action]:
    """The seat's legal actions, or a clear :class:`ValueError` when it has none."""
    actions = state.legal_actions(seat)
    if not actions:
        raise ValueError(
            f"seat {seat} has no legal action here (deciding: {list(state.deciding_seats())})"
        )
    return actions


class HeuristicPolicy(Protocol):
    """A game's rules of thumb: the action the ``heuristic`` bot takes for ``seat``.

    ``seat`` is one of ``state.deciding_seats()``; every random choice comes from ``rng``.
    The policy never changes ``state`` and reads only what ``state.view(seat)`` shows.
    """

    def choose(self, state: State, seat: Seat, rng: random.Random) -> Action: ...


TensorFactory = Callable[[Game], "TensorWriter"]
"""Builds a game configuration's observation tensor writer (see the module docstring)."""


@dataclass(frozen=True, slots=True)
class TensorModule:
    """A :data:`TensorFactory` kept in a module that is imported when a writer is first built.

    The writers need NumPy (the ``research`` extra); holding them by module name means that
    playing or serving a game never imports it. The module must define ``writer(game)``.
    """

    module: str

    def __call__(self, game: Game) -> TensorWriter:
        """The module's ``writer(game)``.

        Raises:
            TypeError: when the module defines no callable ``writer``.
        """
        factory = getattr(importlib.import_module(self.module), "writer", None)
        if not callable(factory):
            raise TypeError(f"{self.module} defines no writer(game): {factory!r}")
        built: TensorWriter = factory(game)
        return built


class FromView(Protocol):
    """A state a seat cannot tell apart from the one its view was taken of.

    ``view`` is what ``state.view(seat)`` gave; the result ``t`` has ``t.view(seat) == view``
    and the same legal actions and deciding seats, with every hidden thing (another seat's
    cards, sealed orders, a deck's order, the generator) drawn from ``seed``.

    Raises:
        InvalidState: for a view that is malformed or describes no possible position.
    """

    def __call__(self, game: Game, view: JSON, seat: Seat, seed: int) -> State: ...


@dataclass(frozen=True, slots=True)
class GameKit:
    """Everything the shared layers know of one game, registered once with its Game classes.

    ``name`` is the game's stable name (``GameInfo.name``); ``games`` every class (each rules
    version) registered under it. See the module docstring for each part. ``heuristic_aliases``
    are earlier names of the game's ``heuristic`` bot, still accepted so that stored records,
    tables and docs that use them stay valid: the bot they name plays this game's policy.
    """

    name: str
    games: tuple[type[Game], ...]
    evaluator: Evaluator
    move_order: MoveOrder
    rollout: RolloutPolicy
    draw: Drawing
    heuristic: HeuristicPolicy
    tensor: TensorFactory | None
    events: EventCatalogue = field(hash=False)
    """Every kind of event the game sends, with its meaning and fields (see the module)."""
    heuristic_aliases: tuple[str, ...] = ()
    from_view: FromView | None = None
    tutorial: Callable[[], JSON] | None = None
    """The game's guided first match: its steps as data (:mod:`meeple.core.tutorial` reads
    them), or ``None`` for a game that has none."""

    def __post_init__(self) -> None:
        if not self.games:
            raise ValueError(f"the kit of {self.name!r} names no game class")
        for cls in self.games:
            if cls.info.name != self.name:
                raise ValueError(
                    f"the kit of {self.name!r} holds {cls.__name__}, a game called "
                    f"{cls.info.name!r}"
                )
        for kind, (_meaning, fields) in self.events.items():
            for name, spec in fields.items():
                if not set(spec.removesuffix("?").split("|")) <= JSON_TYPES:
                    raise ValueError(
                        f"the kit of {self.name!r}: the event {kind!r} gives its field "
                        f"{name!r} the type {spec!r}, not one of {sorted(JSON_TYPES)} "
                        "(a|b for either, a trailing ? for a field not always there)"
                    )


__all__ = [
    "FINAL_RETURNS",
    "BoardDrawing",
    "Drawing",
    "DrawingModule",
    "Evaluator",
    "FromView",
    "GameKit",
    "HeuristicPolicy",
    "MoveOrder",
    "Rollout",
    "RolloutPolicy",
    "ScaledEvaluator",
    "TensorFactory",
    "TensorModule",
    "check_can_decide",
    "final_returns",
    "keep_all",
    "keep_best",
    "no_report",
]
