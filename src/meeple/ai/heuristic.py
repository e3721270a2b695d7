"""The ``heuristic`` bot: each game's own rules of thumb, from its kit."""

from __future__ import annotations

import random

from meeple.core import Action, Seat, State, kit_for
from meeple.core.kit import HeuristicPolicy


class HeuristicBot:
    """Plays the :class:`~meeple.core.kit.HeuristicPolicy` of the game it is asked about.

    The policy draws every random choice from the bot's own generator, so the same seed and
    the same calls give the same actions. ``policy`` fixes one policy whatever the game (for
    tests and tuning); ``name`` is what records and tables call the bot.
    """

    def __init__(
        self, seed: int, name: str = "heuristic", policy: HeuristicPolicy | None = None
    ) -> None:
        self.seed = seed
        self.name = name
        self._rng = random.Random(seed)
        self._policy = policy

    def select(self, state: State, seat: Seat) -> Action:
        policy = self._policy if self._policy is not None else kit_for(state).heuristic
        return policy.choose(state, seat, self._rng)

    def __repr__(self) -> str:
        return f"HeuristicBot(seed={self.seed}, name={self.name!r})"
