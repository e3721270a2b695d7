"""A bot that plays uniformly at random among the legal actions."""

from __future__ import annotations

import random

from meeple.ai.base import check_can_decide
from meeple.core import Action, Seat, State


class RandomBot:
    """Uniform over ``state.legal_actions(seat)``, from its own ``random.Random(seed)``."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def select(self, state: State, seat: Seat) -> Action:
        return self._rng.choice(check_can_decide(state, seat))

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"
