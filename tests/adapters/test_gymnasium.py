"""The single-agent environments pass Gymnasium's env_checker for every game and seat count."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from meeple.adapters.gymnasium import MeepleEnv, env_id, register_envs
from meeple.core import game_class
from tests.adapters.conftest import CONFIGURATIONS, IDS


@pytest.mark.parametrize(("name", "seats"), CONFIGURATIONS, ids=IDS)
def test_check_env(name: str, seats: int) -> None:
    env = MeepleEnv(name, seats, seat=seats - 1, opponent="random")
    check_env(env, skip_render_check=True)


def play(env: MeepleEnv, seed: int) -> tuple[list[int], float]:
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions: list[int] = []
    while True:
        assert env.observation_space.contains(observation)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        actions.append(action)
        observation, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        if terminated:
            return actions, reward


def test_the_learner_plays_a_match_to_the_end_against_greedy() -> None:
    env = MeepleEnv("maatatahay", seat=1, opponent="greedy")
    actions, reward = play(env, seed=4)
    assert env.state.is_terminal()
    assert reward == env.state.returns()[1]
    assert play(env, seed=4) == (actions, reward)


def test_simultaneous_planning_against_bots() -> None:
    env = MeepleEnv("toy_orders", 3, seat=1)
    _, reward = play(env, seed=0)
    assert reward in (-1.0, 0.0, 1.0)


def test_an_illegal_action_ends_the_episode() -> None:
    env = MeepleEnv("toy_tricks")
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)


def test_registered_ids_make_the_environment() -> None:
    ids = register_envs()
    name = env_id(game_class("maatatahay").info)
    assert name in ids
    env = gymnasium.make(name, opponent="random")
    observation, _ = env.reset(seed=0)
    assert observation.shape == env.observation_space.shape
    env.close()


def test_unknown_opponent_is_refused() -> None:
    with pytest.raises(ValueError, match="no bot"):
        MeepleEnv("maatatahay", opponent="nobody")
