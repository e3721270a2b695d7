"""Leaf values for tree search: play on at random, then read the result or a heuristic.

A leaf policy takes a state (a determinization the search owns, changed in place) and the
search's generator, and returns one value per seat in ``[-1, 1]``. :class:`Playout` plays
uniformly random actions to the end of the match, or for at most ``max_actions`` actions
and then asks the game's evaluator, squashed by ``tanh(score / scale)`` so a clear lead
reads close to a win.

Games whose random matches run long (hundreds of actions) set a playout limit in their kit's
rollout policy: a random playout to the end would cost more than it tells, while a short one
scored by a heuristic keeps the search at thousands of iterations a second. Games whose turns
are many small actions let the heuristic finish the leaf's turn first (``finish_turn``).

A state may play the random part itself: a ``random_playout(rand, limit)`` method that plays
``legal[int(rand() * len(legal))]`` for the first deciding seat until the end or ``limit``
actions, exactly as the loop here, and returns the actions played. :class:`Playout` then
calls it instead of its own loop (Maatatahay's rules do, skipping the events, the seat
checks and the lists no one reads; the results are the same).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from meeple.ai.base import Bot
from meeple.ai.heuristic import HeuristicBot
from meeple.core import State, kit_for
from meeple.core.lookahead import Evaluate

LeafPolicy = Callable[[State, random.Random], list[float]]


class Playout:
    """Uniform random play from a leaf; optionally cut short and scored by an evaluator.

    When several seats decide at once (simultaneous planning) the first of them acts: the
    planning of each seat is sealed, so the order in which they queue does not matter.
    ``max_actions=None`` plays to the end, or to the playout limit of the game's rollout
    policy, judged by the game's evaluator. When the rollout policy finishes turns, the seat
    to move at the leaf first finishes its turn with the game's ``heuristic`` bot (those
    actions are not counted); ``turn_policy=False`` turns that off.
    """

    def __init__(
        self,
        max_actions: int | None = None,
        evaluator: Evaluate | None = None,
        scale: float | None = None,
        turn_policy: bool = True,
    ) -> None:
        if max_actions is not None and max_actions < 0:
            raise ValueError(f"max_actions must not be negative, got {max_actions}")
        self.max_actions = max_actions
        self._evaluator = evaluator
        self._scale = scale
        self._use_turn_policy = turn_policy
        self._turn_bots: dict[str, Bot] = {}

    def __call__(self, state: State, rng: random.Random) -> list[float]:
        limit = self.max_actions
        if limit is None and self._evaluator is None:
            limit = kit_for(state).rollout.playout_limit
        played = 0
        random_index = rng.random
        self._finish_turn(state, rng)
        fast = getattr(state, "random_playout", None)
        if fast is not None:  # the same moves and draws, played inside the rules
            fast(random_index, limit)
            if state.is_terminal():
                return state.returns()
            return self.estimate(state)
        while True:
            deciding = state.deciding_seats()
            if not deciding:
                return state.returns()
            if limit is not None and played >= limit:
                return self.estimate(state)
            seat = deciding[0]
            legal = state.legal_actions(seat)
            state.apply_unchecked(seat, legal[int(random_index() * len(legal))])
            played += 1

    def _finish_turn(self, state: State, rng: random.Random) -> None:
        """Let the game's heuristic play out the current turn, if its rollout policy says so.

        Where several seats plan at once, each finishes its own turn in seat order (sealed
        planning: what one queues does not change what the others may). A seat's turn ends
        when it no longer decides or when the turn resolves (a seat that had finished
        decides again, or nobody does).
        """
        bot = self._turn_bot(state, rng)
        if bot is None:
            return
        for seat in state.deciding_seats():
            before = state.deciding_seats()
            while seat in before:
                state.apply_unchecked(seat, bot.select(state, seat))
                after = state.deciding_seats()
                if any(other not in before for other in after):
                    return
                before = after

    def _turn_bot(self, state: State, rng: random.Random) -> Bot | None:
        """The heuristic bot that finishes turns in ``state``'s game, if its kit asks for one.

        Built once per game, seeded from the search's generator when first needed."""
        if not self._use_turn_policy:
            return None
        kit = kit_for(state)
        if not kit.rollout.finish_turn:
            return None
        bot = self._turn_bots.get(kit.name)
        if bot is None:
            bot = self._turn_bots[kit.name] = HeuristicBot(rng.getrandbits(32))
        return bot

    def estimate(self, state: State) -> list[float]:
        """The evaluator's judgement of an unfinished position, per seat, in ``(-1, 1)``."""
        kit_evaluator = kit_for(state).evaluator
        evaluator = self._evaluator or kit_evaluator
        scale = self._scale or kit_evaluator.scale
        return [math.tanh(evaluator(state, seat) / scale) for seat in range(state.game.seats)]

    def __repr__(self) -> str:
        if self.max_actions is None:
            return "Playout()"
        return f"Playout(max_actions={self.max_actions})"
