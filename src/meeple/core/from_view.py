"""A state from a seat's view: what a client that sees only its seat's view hands a bot.

A server sends a seat its view (:meth:`State.view`), never the state. The searching bots
need a :class:`State`; :func:`state_from_view` builds one that the seat cannot tell apart
from the real one -- the same view, the same legal actions, the same deciding seats -- with
whatever the view hides (another seat's cards and sealed orders, a house not yet shown, a
deck's order, the generator that rolls the dice to come) drawn from a seed. A bot then
redraws those each iteration with :meth:`State.resample`, as it does at the server.

Each game supplies its builder through its kit (:class:`~meeple.core.kit.FromView`); this
module is the checked way in: it refuses a game without one, a bad seat, and any view that
is malformed or that no position gives (:class:`InvalidView`, quoting the bad input).
"""

from __future__ import annotations

from typing import Any

from meeple.core.errors import GameError, InvalidState, excerpt
from meeple.core.game import Game, State
from meeple.core.registry import kit_for
from meeple.core.types import JSON, Seat
from meeple.core.validate import check_depth


class InvalidView(InvalidState):
    """A seat's view that is malformed or that no position of the game gives."""

    code = "view/invalid"


class NoStateFromView(GameError):
    """The game registers no way to build a state from a seat's view."""

    code = "game/no_state_from_view"


def state_from_view(game: Game, view: JSON, seat: Seat, seed: int) -> State:
    """A state of ``game`` whose ``view(seat)`` is ``view``, hidden things drawn from ``seed``.

    The result also has the seat's legal actions and the deciding seats of the position the
    view was taken of. The same view and seed give the same state.

    Raises:
        NoStateFromView: the game's kit has no ``from_view``.
        InvalidSeat: ``seat`` is not a seat of ``game``.
        InvalidView: ``view`` is malformed, or no position of ``game`` shows it to ``seat``.
    """
    builder = kit_for(game).from_view
    if builder is None:
        raise NoStateFromView(f"{game.info.title} cannot build a state from a seat's view")
    game.check_seat(seat)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidView(f"a seed is an integer, got {excerpt(seed)}")
    if not isinstance(view, dict):
        raise InvalidView(f"a view is a JSON object, got {excerpt(view)}")
    check_depth(view, "view", error=InvalidView)
    try:
        state = builder(game, view, seat, seed)
    except InvalidView:
        raise
    except InvalidState as problem:
        raise InvalidView(f"no position shows this view: {problem.reason}") from problem
    _check_same_view(_plain(state.view(seat)), _plain(view))
    return state


def _plain(value: Any) -> Any:
    """``value`` as JSON carries it (tuples as lists), so a view read off the wire compares
    equal to one the engine just made. Its depth was checked, so the recursion is bounded."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def _check_same_view(built: Any, given: Any, path: str = "view") -> None:
    """Refuse, naming the first field that differs, when the built state shows another view
    than the one given: the view contradicts itself (say, a score that its board does not
    make)."""
    if isinstance(built, dict) and isinstance(given, dict):
        for key in list(given) + [k for k in built if k not in given]:
            if key not in built:
                raise InvalidView(f"{path} has an unknown field {excerpt(key)}")
            if key not in given:
                raise InvalidView(f"{path} lacks the field {key!r}")
            _check_same_view(built[key], given[key], f"{path}.{key}")
        return
    if isinstance(built, list) and isinstance(given, list) and len(built) == len(given):
        for index, (a, b) in enumerate(zip(built, given, strict=True)):
            _check_same_view(a, b, f"{path}[{index}]")
        return
    if built != given or type(built) is not type(given):
        raise InvalidView(
            f"{path} is {excerpt(given)}, but the rest of the view makes it {excerpt(built)}"
        )


__all__ = ["InvalidView", "NoStateFromView", "state_from_view"]
