"""Every meeple game as a single-agent Gymnasium environment against meeple bots.

``MeepleEnv(game_id, seat=0, opponent="greedy")``: the learner plays ``seat``, a meeple
bot called ``opponent`` (any name :func:`meeple.ai.make_bot` knows) plays every other seat.
Importing this module also registers ``meeple/<Title>-v<version>`` ids, so
``gymnasium.make("meeple/Maatatahay-v1", opponent="random")`` works.

- **Observation.** The learner's view, encoded by :func:`meeple.core.encoding.encoder_for`
  (a float32 Box). The legal actions come in ``info["action_mask"]`` and from
  :meth:`MeepleEnv.action_masks` (the name maskable learners look for).
- **Steps.** One learner decision per step; the bots play until the learner decides again
  or the match ends. With simultaneous planning the learner and the bots plan the same
  round; each only sees its own view.
- **Reward.** 0 until the end, then the learner's return (+1 win, -1 loss, 0 draw). An action
  id the mask forbids ends the episode with ``illegal_reward`` (default -1) and
  ``info["illegal_action"]``.
- **Malformed actions.** What is no integer (a float, a bool, numpy's floats, text, None) or
  lies outside the action space raises :class:`~meeple.core.InvalidAction` and changes
  nothing; numpy's integers are taken as they are.
- **Seeding.** ``reset(seed=s)`` seeds the environment's generator, which draws the match seed
  and the bots' seeds: equal seeds give equal episodes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

import meeple.games  # noqa: F401  (registers the games)
from meeple.ai import Bot, make_bot
from meeple.core import Game, GameInfo, Seat, State, load_game, mix_seed, registered
from meeple.core.encoding import action_mask, canonical_json, encoder_for
from meeple.core.tensor import Vector

SEED_BITS = 53


class MeepleEnv(gymnasium.Env[Vector, np.int64]):
    """The learner plays one seat of a meeple game against bots (see the module docstring)."""

    def __init__(
        self,
        game: str | Game,
        seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        seat: Seat = 0,
        opponent: str = "random",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        self.game = game if isinstance(game, Game) else load_game(game, seats, options)
        self.game.check_seat(seat)
        make_bot(opponent, 0)  # fail now on an unknown name
        self.metadata = {"render_modes": ["ansi"]}
        self.seat = seat
        self.opponent = opponent
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.encoder = encoder_for(self.game)
        self.observation_space = spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32)
        self._size = self.game.num_distinct_actions()
        self.action_space = spaces.Discrete(self._size)
        self.state: State = self.game.new_initial_state(0)
        self._legal_now: list[int] | None = None
        self.bots: dict[Seat, Bot] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, dict[str, Any]]:
        super().reset(seed=seed)
        match_seed = int(self.np_random.integers(1 << SEED_BITS))
        self.state = self.game.new_initial_state(match_seed)
        self._legal_now = None
        self.bots = {
            other: make_bot(self.opponent, mix_seed(match_seed, other + 1))
            for other in range(self.game.seats)
            if other != self.seat
        }
        self._bots_play()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        """One learner decision, then the bots' (see the module docstring).

        Raises:
            InvalidAction: for what is no action id of the space; nothing changes.
        """
        if type(action) is not int or not 0 <= action < self._size:
            action = self.game.coerce_action(action)
        if action not in self._legal():
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        # Checked just above: when the learner does not decide, it has no legal action.
        self.state.apply_unchecked(self.seat, action)
        self._legal_now = None
        self._bots_play()
        terminated = self.state.is_terminal()
        reward = self.state.returns()[self.seat] if terminated else 0.0
        return self._observation(), reward, terminated, False, self._info()

    def action_masks(self) -> npt.NDArray[np.int8]:
        """1 for each action the learner may take now."""
        return action_mask(self.state, self.seat, self._legal())

    def _legal(self) -> list[int]:
        """The learner's legal actions now, worked out once per position."""
        if self._legal_now is None:
            self._legal_now = self.state.legal_actions(self.seat)
        return self._legal_now

    def render(self) -> str | None:
        return canonical_json(self.state.view(None)) if self.render_mode == "ansi" else None

    def _bots_play(self) -> None:
        """Bots decide, one action at a time, until the learner decides or the match ends."""
        state = self.state
        while True:
            deciding = state.deciding_seats()
            if not deciding or self.seat in deciding:
                return
            other = deciding[0]
            # meeple's bots choose among the legal actions (as in meeple.ai.rollout): checking
            # again would work them out a second time.
            state.apply_unchecked(other, self.bots[other].select(state, other))

    def _observation(self) -> Vector:
        return self.encoder.observe(self.state, self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}


def env_id(info: GameInfo) -> str:
    """The Gymnasium id of a game: ``meeple/Maatatahay-v1``."""
    return f"meeple/{info.title.replace(' ', '')}-v{info.version}"


def register_envs() -> list[str]:
    """Register a Gymnasium id for each registered game not yet known; returns them all."""
    ids = []
    for info in registered():
        name = env_id(info)
        if name not in gymnasium.registry:
            gymnasium.register(name, entry_point=f"{__name__}:MeepleEnv", kwargs={"game": info.id})
        ids.append(name)
    return ids


register_envs()
