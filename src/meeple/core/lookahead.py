"""One-ply lookahead: try every legal action on one determinization, keep the best evaluated.

The generic ``greedy`` bot is this with the game's evaluator; a game without rules of thumb of
its own may use :class:`GreedyHeuristic` as its :class:`~meeple.core.kit.HeuristicPolicy`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from meeple.core.game import State
from meeple.core.kit import check_can_decide
from meeple.core.types import Action, Seat

Evaluate = Callable[[State, Seat], float]
"""A position's worth to a seat, higher being better."""

WIN_BONUS = 1_000_000.0
"""Added per unit of the final return, so a won match outranks any heuristic score."""

FOLLOW_THROUGH = 2
"""How many more decisions in a row of the same seat one ply looks through."""


def score(state: State, seat: Seat, evaluate: Evaluate) -> float:
    """The evaluator's score, with a decided match counting for more than any heuristic."""
    value = evaluate(state, seat)
    if state.is_terminal():
        value += WIN_BONUS * state.returns()[seat]
    return value


def value(state: State, seat: Seat, evaluate: Evaluate, depth: int) -> float:
    """The score, or the best over the seat's own next decision while it alone decides."""
    if depth <= 0 or state.deciding_seats() != (seat,):
        return score(state, seat, evaluate)
    best = float("-inf")
    for action in state.legal_actions(seat):
        child = state.clone()
        child.apply_unchecked(seat, action)
        best = max(best, value(child, seat, evaluate, depth - 1))
    return best


def greedy_action(
    state: State,
    seat: Seat,
    actions: list[Action],
    evaluate: Evaluate,
    rng: random.Random,
    *,
    follow_through: int = FOLLOW_THROUGH,
) -> Action:
    """The action of ``actions`` (``seat``'s legal ones) whose result evaluates best.

    One ply is one *turn* of the seat: when an action leaves the same seat to decide again,
    its own follow-up decisions are looked through, up to ``follow_through`` of them. The
    actions are tried on a determinization, ``state.resample(seat, s)`` with ``s`` drawn from
    ``rng``, never on the real state, so the opponent's secrets and the future random draws
    stay unseen; all of them in the same imagined world. Ties are broken by ``rng``.
    """
    if len(actions) == 1:
        return actions[0]
    world = state.resample(seat, rng.getrandbits(64))
    best: list[Action] = []
    best_score = float("-inf")
    for action in actions:
        child = world.clone()
        child.apply_unchecked(seat, action)
        result = value(child, seat, evaluate, follow_through)
        if result > best_score:
            best, best_score = [action], result
        elif result == best_score:
            best.append(action)
    return best[0] if len(best) == 1 else rng.choice(best)


@dataclass(frozen=True, slots=True)
class GreedyHeuristic:
    """A :class:`~meeple.core.kit.HeuristicPolicy` that looks one turn ahead with ``evaluate``."""

    evaluate: Evaluate
    follow_through: int = FOLLOW_THROUGH

    def choose(self, state: State, seat: Seat, rng: random.Random) -> Action:
        actions = check_can_decide(state, seat)
        return greedy_action(
            state, seat, actions, self.evaluate, rng, follow_through=self.follow_through
        )
