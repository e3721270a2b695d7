"""Per-game position evaluators for the heuristic bots.

An evaluator maps ``(state, seat)`` to a number, higher being better for ``seat``. It should
read only ``state.view(seat)``, so a bot that uses it never learns a secret. Evaluators are
registered by game name (``"maatatahay"``, not ``"maatatahay/1"``); a game without one gets
:func:`default_evaluator`.
"""

from __future__ import annotations

from collections.abc import Callable

from meeple.core import Seat, State
from meeple.games.maatatahay.evaluate import evaluate_maatatahay
from meeple.games.maiterra.evaluate import evaluate_maiterra
from meeple.games.manafields.evaluate import evaluate_manafields

Evaluator = Callable[[State, Seat], float]

_EVALUATORS: dict[str, Evaluator] = {
    "maatatahay": evaluate_maatatahay,
    "maiterra": evaluate_maiterra,
    "manafields": evaluate_manafields,
}


_SCALES: dict[str, float] = {
    # Score units that read as a clear lead: search squashes with tanh(score / scale).
    "maatatahay": 4.0,
    "maiterra": 6.0,
    "manafields": 6.0,
}


def default_evaluator(state: State, seat: Seat) -> float:
    """The seat's return once the match is over, else 0."""
    return state.returns()[seat]


def register_evaluator(
    game_name: str, evaluator: Evaluator, scale: float | None = None
) -> Evaluator:
    """Register ``evaluator`` for the game called ``game_name``.

    ``scale`` is how many of the evaluator's units make a clear lead; tree search reads a
    score as the value ``tanh(score / scale)``.
    """
    _EVALUATORS[game_name] = evaluator
    if scale is not None:
        _SCALES[game_name] = scale
    return evaluator


def evaluator_scale(game_name: str) -> float:
    """The scale registered with a game's evaluator (1.0 when none was given)."""
    return _SCALES.get(game_name.split("/", 1)[0], 1.0)


def get_evaluator(game_name: str) -> Evaluator:
    """The evaluator for a game name or ``name/version``, or :func:`default_evaluator`."""
    name = game_name.split("/", 1)[0]
    return _EVALUATORS.get(name, default_evaluator)


__all__ = [
    "Evaluator",
    "default_evaluator",
    "evaluate_maatatahay",
    "evaluate_maiterra",
    "evaluator_scale",
    "get_evaluator",
    "register_evaluator",
]
