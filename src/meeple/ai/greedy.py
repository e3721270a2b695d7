"""One-ply lookahead with a per-game evaluator."""

from __future__ import annotations

import random

from meeple.ai.base import check_can_decide
from meeple.ai.evaluators import Evaluator, get_evaluator
from meeple.core import Action, Seat, State

WIN_BONUS = 1_000_000.0
"""Added per unit of the final return, so a won match outranks any heuristic score."""


FOLLOW_THROUGH = 2
"""How many more decisions in a row of the same seat one ply looks through."""


class GreedyBot:
    """Try every legal action once and keep the one whose result evaluates best.

    One ply is one *turn* of the seat: when an action leaves the same seat to decide again
    (Maatatahay places a warrior, then turns it and keeps crystals), the bot looks through
    its own follow-up decisions, up to :data:`FOLLOW_THROUGH` of them, and takes the best.
    The opponent's replies are never searched.

    The actions are tried on a determinization, ``state.resample(seat, s)``, never on the
    real state: the bot cannot see the opponent's secrets nor the state's future random
    draws (the deck order, the bag). All actions of one decision share the same
    determinization, so they are compared in the same imagined world. Ties are broken by
    the bot's own generator.
    """

    name = "greedy"

    def __init__(
        self, seed: int, evaluator: Evaluator | None = None, follow_through: int = FOLLOW_THROUGH
    ) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self._evaluator = evaluator
        self._follow_through = follow_through

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

    def value(self, state: State, seat: Seat, evaluator: Evaluator, depth: int) -> float:
        """The score, or the best over the seat's own next decision while it alone decides."""
        if depth <= 0 or state.deciding_seats() != (seat,):
            return self.score(state, seat, evaluator)
        best = float("-inf")
        for action in state.legal_actions(seat):
            child = state.clone()
            child.apply_unchecked(seat, action)
            best = max(best, self.value(child, seat, evaluator, depth - 1))
        return best

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
            value = self.value(child, seat, evaluator, self._follow_through)
            if value > best_score:
                best, best_score = [action], value
            elif value == best_score:
                best.append(action)
        return best[0] if len(best) == 1 else self._rng.choice(best)

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed})"
