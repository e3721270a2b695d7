"""One-ply lookahead with a per-game evaluator."""

from __future__ import annotations

import random

from meeple.ai.base import check_can_decide
from meeple.ai.evaluators import Evaluator, get_evaluator
from meeple.core import Action, Seat, State

WIN_BONUS = 1_000_000.0
"""Added per unit of the final return, so a won match outranks any heuristic score."""


class GreedyBot:
    """Try every legal action once and keep the one whose result evaluates best.

    The actions are tried on a determinization, ``state.resample(seat, s)``, never on the
    real state: the bot cannot see the opponent's secrets nor the state's future random
    draws (the deck order, the bag). All actions of one decision share the same
    determinization, so they are compared in the same imagined world. Ties are broken by
    the bot's own generator.
    """

    name = "greedy"

    def __init__(self, seed: int, evaluator: Evaluator | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self._evaluator = evaluator

    def evaluator_for(self, state: State) -> Evaluator:
        if self._evaluator is not None:
            return self._evaluator
        return get_evaluator(state.game.info.name)

    def score(self, state: State, seat: Seat, evaluator: Evaluator) -> float:
        """The evaluator's score, with a decided match counting for more than any heuristic."""
        value = evaluator(state, seat)
        if state.is_terminal():
            value += WIN_BONUS * state.returns()[seat]
        return value

    def select(self, state: State, seat: Seat) -> Action:
        actions = check_can_decide(state, seat)
        if len(actions) == 1:
            return actions[0]
        evaluator = self.evaluator_for(state)
        world = state.resample(seat, self._rng.getrandbits(64))
        best: list[Action] = []
        best_score = float("-inf")
        for action in actions:
            child = world.clone()
            child.apply_unchecked(seat, action)
            value = self.score(child, seat, evaluator)
            if value > best_score:
                best, best_score = [action], value
            elif value == best_score:
                best.append(action)
        return best[0] if len(best) == 1 else self._rng.choice(best)

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed})"
