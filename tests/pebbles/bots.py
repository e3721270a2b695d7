"""What a bot knows of Pebbles: leave the other seat a multiple of four."""

from __future__ import annotations

import random

from meeple.core import Action, Seat, State
from meeple.core.kit import check_can_decide
from tests.pebbles.rules import MAX_TAKE, PebblesState


def evaluate(state: State, seat: Seat) -> float:
    """+1 when the seat to move (if not ``seat``) faces a multiple of four, else -1."""
    if not isinstance(state, PebblesState) or state.pile == 0:
        return state.returns()[seat]
    lost = state.pile % (MAX_TAKE + 1) == 0
    mover_good = -1.0 if lost else 1.0
    return mover_good if state.turn == seat else -mover_good


class PebblesHeuristic:
    """Take what leaves a multiple of four; where nothing does, take one at random."""

    def choose(self, state: State, seat: Seat, rng: random.Random) -> Action:
        legal = check_can_decide(state, seat)
        if isinstance(state, PebblesState):
            winning = state.pile % (MAX_TAKE + 1) - 1
            if winning in legal:
                return winning
        return rng.choice(legal)
