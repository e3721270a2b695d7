"""A heuristic for Manafields.

Manafields hides nothing but the dice to come, so the evaluator reads the position's public
fields (exactly what ``state.view(seat)`` shows) without building the view's JSON.
"""

from __future__ import annotations

from meeple.core.game import State
from meeple.core.types import Seat
from meeple.games.manafields.data import SLOTS
from meeple.games.manafields.rules import ManafieldsState

UNIT_VALUE = (4.0, 2.5, 1.6, 1.6, 1.4, 0.6)
"""What a unit at full HP is worth, by kind: General, Hero, Infantry, Cavalry, Archers,
Zombie."""


def evaluate_manafields(state: State, seat: Seat) -> float:
    """A position's worth for ``seat`` (zero-sum): score and what the next scoring would
    bring, the armies' strength, the Generals and Morale."""
    if not isinstance(state, ManafieldsState):
        return 0.0
    other = 1 - seat
    value = float(state.score[seat] - state.score[other])
    value += 0.5 * (state.points_now(seat)["total"] - state.points_now(other)["total"])
    for slot in range(SLOTS):
        if state.hp[slot] > 0:
            worth = UNIT_VALUE[state.unit[slot].kind] * (
                0.5 + 0.5 * state.hp[slot] / state.unit[slot].hp
            )
            value += worth if state.owner[slot] == seat else -worth
    value += 0.2 * (state.morale[seat] - state.morale[other])
    return value
