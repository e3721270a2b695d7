"""Hollow games: the research frameworks' own cost per step, which no adapter can remove.

Each hollow game has a game's shape -- players, distinct actions, a fixed list of legal
actions as long as the game's average, an observation tensor of the encoder's size, a
match of a given length -- and rules that do nothing: a step moves a counter, an
observation is a buffer filled once. ``meeple bench-adapters`` runs its loops over them to
measure the floor under each loop; ``meeple adapter-floor`` prints the cost of single
OpenSpiel calls on one (see :func:`call_costs`).

Needs the research extras (OpenSpiel, PettingZoo, Gymnasium, NumPy).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pyspiel
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

NAME = "meeple_bench_hollow"
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_PARAMS = {"players": 2, "actions": 2, "legal": 1, "size": 1, "length": 1}


class Shape:
    """What a hollow game copies from a real one."""

    def __init__(self, players: int, actions: int, legal: int, size: int, length: int) -> None:
        self.players, self.actions, self.size, self.length = players, actions, size, length
        self.legal = list(range(max(1, min(legal, actions))))
        self.mask = np.zeros(actions, np.int8)
        self.mask[self.legal] = 1
        self.tensor = np.zeros(size, np.float32)

    def params(self) -> dict[str, int]:
        return {
            "players": self.players,
            "actions": self.actions,
            "legal": len(self.legal),
            "size": self.size,
            "length": self.length,
        }


_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="hollow game for benchmarks",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=1,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS,
)


class HollowSpielGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel Python game with a deal at the root, then ``length`` empty steps."""

    def __init__(self, params: Any = None) -> None:
        p = {**_PARAMS, **dict(params or {})}
        self.shape = Shape(p["players"], p["actions"], p["legal"], p["size"], p["length"])
        super().__init__(
            _TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=p["actions"],
                max_chance_outcomes=1,
                num_players=p["players"],
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=p["length"],
            ),
            params or {},
        )

    def new_initial_state(self) -> HollowSpielState:
        return HollowSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> HollowObserver:
        return HollowObserver(self.shape)


class HollowSpielState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: HollowSpielGame) -> None:
        super().__init__(game)
        self._shape = game.shape
        self._legal = game.shape.legal
        self._left = game.shape.length + 1  # steps to the end, the deal included
        self._player = _CHANCE

    def current_player(self) -> int:
        return self._player

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 1.0)]

    def _legal_actions(self, player: int) -> list[int]:
        return self._legal

    def _apply_action(self, action: int) -> None:
        self._left -= 1
        if self._left:
            players = self._shape.players
            self._player = 0 if self._player < 0 else (self._player + 1) % players
        else:
            self._player = _TERMINAL

    def is_terminal(self) -> bool:
        return not self._left

    def returns(self) -> list[float]:
        return [0.0] * self._shape.players

    def __str__(self) -> str:
        return str(self._left)


class HollowObserver:
    def __init__(self, shape: Shape) -> None:
        self.tensor = shape.tensor
        self.dict = {"observation": self.tensor}

    def set_from(self, state: HollowSpielState, player: int) -> None:
        """The tensor is already there."""

    def string_from(self, state: HollowSpielState, player: int) -> str:
        return ""


pyspiel.register_game(_TYPE, HollowSpielGame)


def spiel_game(shape: Shape) -> pyspiel.Game:
    return pyspiel.load_game(NAME, shape.params())


class HollowAEC(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment: the players take ``length`` turns, then all end."""

    def __init__(self, shape: Shape) -> None:
        super().__init__()
        self.metadata = {"name": "hollow"}
        self.shape = shape
        self.possible_agents = [f"seat_{p}" for p in range(shape.players)]
        self._observation = {"observation": shape.tensor, "action_mask": shape.mask}

    def observe(self, agent: str) -> dict[str, Any]:
        return self._observation

    def reset(self, seed: int | None = None, options: Any = None) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]
        self._step = 0

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._step += 1
        if self._step >= self.shape.length:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self._step % self.shape.players]
        self._accumulate_rewards()


class HollowParallel(ParallelEnv):  # type: ignore[misc]
    """A PettingZoo Parallel environment: ``length`` joint steps, every agent observing."""

    def __init__(self, shape: Shape) -> None:
        self.metadata = {"name": "hollow"}
        self.shape = shape
        self.possible_agents = [f"seat_{p}" for p in range(shape.players)]
        self._observation = {"observation": shape.tensor, "action_mask": shape.mask}
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: Any = None) -> tuple[dict[str, Any], ...]:
        self.agents = list(self.possible_agents)
        self._step = 0
        return {a: self._observation for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        self._step += 1
        live = self.agents
        over = self._step >= self.shape.length
        observations = {a: self._observation for a in live}
        rewards = dict.fromkeys(live, 0.0)
        terminations = dict.fromkeys(live, over)
        truncations = dict.fromkeys(live, False)
        infos: dict[str, dict[str, Any]] = {a: {} for a in live}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos


class HollowEnv(gymnasium.Env[Any, Any]):
    """A Gymnasium environment: ``length`` learner steps."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.observation_space = spaces.Box(0.0, 1.0, (shape.size,), np.float32)
        self.action_space = spaces.Discrete(shape.actions)
        self._info = {"action_mask": shape.mask}

    def reset(self, *, seed: int | None = None, options: Any = None) -> tuple[Any, ...]:
        super().reset(seed=seed)
        self._step = 0
        return self.shape.tensor, self._info

    def step(self, action: Any) -> tuple[Any, ...]:
        self._step += 1
        return self.shape.tensor, 0.0, self._step >= self.shape.length, False, self._info


def call_costs(actions: int, legal: int, size: int, seconds: float) -> dict[str, float]:
    """Microseconds per call of single pyspiel calls on a hollow two-player game with
    ``actions`` distinct actions, ``legal`` legal ones and a tensor of ``size`` floats, each
    call timed for ``seconds`` of CPU time (``time.process_time``)."""
    shape = Shape(2, actions, legal, size, 10**9)
    game = spiel_game(shape)
    observer = game.make_py_observer()
    calls: dict[str, Callable[[pyspiel.State], object]] = {
        "pyspiel apply_action": lambda s: s.apply_action(0),
        "pyspiel legal_actions": lambda s: s.legal_actions(),
        "pyspiel observation_tensor": lambda s: s.observation_tensor(0),
        "observer.set_from": lambda s: observer.set_from(s, 0),
        "pyspiel is_terminal": lambda s: s.is_terminal(),
    }
    costs: dict[str, float] = {}
    for label, call in calls.items():
        state = game.new_initial_state()
        state.apply_action(0)
        count = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            for _ in range(200):
                call(state)
            count += 200
        costs[label] = (time.process_time() - start) / count * 1e6
    return costs
