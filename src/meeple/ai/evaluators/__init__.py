"""Per-game position evaluators for the heuristic bots.

An evaluator maps ``(state, seat)`` to a number, higher being better for ``seat``. It should
read only ``state.view(seat)``, so a bot that uses it never learns a secret. Evaluators are
registered by game name (``"maatatahay"``, not ``"maatatahay/1"``); a game without one gets
:func:`default_evaluator`.
"""

from __future__ import annotations

from collections.abc import Callable

from meeple.ai.evaluators.maatatahay import evaluate_maatatahay
from meeple.core import Seat, State

Evaluator = Callable[[State, Seat], float]

_EVALUATORS: dict[str, Evaluator] = {
    "maatatahay": evaluate_maatatahay,
}


def default_evaluator(state: State, seat: Seat) -> float:
    """The seat's return once the match is over, else 0."""
    return state.returns()[seat]


def register_evaluator(game_name: str, evaluator: Evaluator) -> Evaluator:
    """Register ``evaluator`` for the game called ``game_name``."""
    _EVALUATORS[game_name] = evaluator
    return evaluator


def get_evaluator(game_name: str) -> Evaluator:
    """The evaluator for a game name or ``name/version``, or :func:`default_evaluator`."""
    name = game_name.split("/", 1)[0]
    return _EVALUATORS.get(name, default_evaluator)


__all__ = [
    "Evaluator",
    "default_evaluator",
    "evaluate_maatatahay",
    "get_evaluator",
    "register_evaluator",
]
