"""One-ply lookahead with the game's evaluator (its kit's ``evaluator``)."""

from __future__ import annotations

import random

from meeple.ai.base import check_can_decide
from meeple.core import Action, Seat, State, kit_for
from meeple.core.lookahead import FOLLOW_THROUGH, Evaluate, greedy_action


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
    the bot's own generator (see :func:`meeple.core.lookahead.greedy_action`).
    """

    name = "greedy"

    def __init__(
        self, seed: int, evaluator: Evaluate | None = None, follow_through: int = FOLLOW_THROUGH
    ) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self._evaluator = evaluator
        self._follow_through = follow_through

    def evaluator_for(self, state: State) -> Evaluate:
        if self._evaluator is not None:
            return self._evaluator
        return kit_for(state).evaluator

    def select(self, state: State, seat: Seat) -> Action:
        actions = check_can_decide(state, seat)
        if len(actions) == 1:
            return actions[0]
        evaluate = self.evaluator_for(state)
        return greedy_action(
            state, seat, actions, evaluate, self._rng, follow_through=self._follow_through
        )

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed})"
