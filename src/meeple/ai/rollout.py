"""Leaf values for tree search: play on at random, then read the result or a heuristic.

A leaf policy takes a state (a determinization the search owns, changed in place) and the
search's generator, and returns one value per seat in ``[-1, 1]``. :class:`Playout` plays
uniformly random actions to the end of the match, or for at most ``max_actions`` actions
and then asks the game's evaluator, squashed by ``tanh(score / scale)`` so a clear lead
reads close to a win.

Games whose random matches run long (hundreds of actions) register a playout limit: a
random playout to the end would cost more than it tells, while a short one scored by a
heuristic keeps the search at thousands of iterations a second.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from meeple.ai.base import Bot
from meeple.ai.evaluators import Evaluator, default_evaluator, evaluator_scale, get_evaluator
from meeple.core import State

LeafPolicy = Callable[[State, random.Random], list[float]]

_PLAYOUT_LIMITS: dict[str, int] = {
    # Random Manafields matches run 120-170 actions: judge the leaf as soon as its turn is
    # finished (measured: cut after 24 more random actions, 0/4 against the heuristic bot;
    # judged at once, 3/4).
    "manafields": 0,
    # Random Maiterra matches run about 500 actions.
    "maiterra": 0,
}

_TURN_POLICIES: dict[str, str] = {
    # Manafields turns are many small actions (move, attack, ability... end): a random
    # finish of the turn ruins what the first action set up, its heuristic bot does not.
    "manafields": "heuristic",
    "maiterra": "maiterra-heuristic",
}


def register_turn_policy(game_name: str, bot_name: str) -> None:
    """Finish the leaf's current turn with the bot ``bot_name`` (from the registry)."""
    _TURN_POLICIES[game_name] = bot_name


def turn_policy(game_name: str) -> str | None:
    """The bot that finishes a leaf's turn in ``game_name``, if one is registered."""
    return _TURN_POLICIES.get(game_name.split("/", 1)[0])


def has_evaluator(game_name: str) -> bool:
    """Whether a heuristic is registered for the game (a playout limit needs one)."""
    return get_evaluator(game_name) is not default_evaluator


def register_playout_limit(game_name: str, actions: int) -> None:
    """Cut default playouts of ``game_name`` after ``actions`` actions (then evaluate)."""
    _PLAYOUT_LIMITS[game_name] = actions


def playout_limit(game_name: str) -> int | None:
    """The registered playout limit of a game (``name`` or ``name/version``), if any."""
    return _PLAYOUT_LIMITS.get(game_name.split("/", 1)[0])


class Playout:
    """Uniform random play from a leaf; optionally cut short and scored by an evaluator.

    When several seats decide at once (simultaneous planning) the first of them acts: the
    planning of each seat is sealed, so the order in which they queue does not matter.
    ``max_actions=None`` plays to the end, or to the game's registered playout limit when it
    has an evaluator to judge the cut (a game without one always plays to the end). When
    the game registers a turn policy (a bot), the seat to move at the leaf first finishes
    its turn with it (those actions are not counted); ``turn_policy=False`` turns that off.
    """

    def __init__(
        self,
        max_actions: int | None = None,
        evaluator: Evaluator | None = None,
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
        if limit is None and self._evaluator is None and has_evaluator(state.game.info.name):
            limit = playout_limit(state.game.info.name)
        played = 0
        random_index = rng.random
        self._finish_turn(state, rng)
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
        """Let the game's turn policy play out the current turn, if it has one.

        Where several seats plan at once, each finishes its own turn in seat order (sealed
        planning: what one queues does not change what the others may). A seat's turn ends
        when it no longer decides or when the turn resolves (a seat that had finished
        decides again, or nobody does).
        """
        bot = self._turn_bot(state.game.info.name, rng)
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

    def _turn_bot(self, name: str, rng: random.Random) -> Bot | None:
        if not self._use_turn_policy:
            return None
        bot = self._turn_bots.get(name)
        if bot is None:
            from meeple.ai.registry import BOT_NAMES, make_bot  # noqa: PLC0415 (import cycle)

            bot_name = turn_policy(name)
            if bot_name is None or bot_name not in BOT_NAMES:
                return None
            bot = self._turn_bots[name] = make_bot(bot_name, rng.getrandbits(32))
        return bot

    def estimate(self, state: State) -> list[float]:
        """The evaluator's judgement of an unfinished position, per seat, in ``(-1, 1)``."""
        name = state.game.info.name
        evaluator = self._evaluator or get_evaluator(name)
        scale = self._scale or evaluator_scale(name)
        return [math.tanh(evaluator(state, seat) / scale) for seat in range(state.game.seats)]

    def __repr__(self) -> str:
        if self.max_actions is None:
            return "Playout()"
        return f"Playout(max_actions={self.max_actions})"
