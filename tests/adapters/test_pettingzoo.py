"""The PettingZoo environments pass PettingZoo's own tests for every game and seat count."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from meeple.adapters.pettingzoo import aec_env, parallel_env
from meeple.core import game_class
from meeple.core.encoding import action_mask, canonical_json, encoder_for
from tests.adapters.conftest import CONFIGURATIONS, IDS

# PettingZoo's api_test warns about dict observations (and Dict observation spaces) unless
# the environment is one of its own classic games, which it lists by name; an action mask in
# the observation is what it asks for, so these two warnings say nothing about us.
PETTINGZOO_WARNINGS = (
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
)


def pettingzoo_warnings(test: Callable[..., None]) -> Callable[..., None]:
    for rule in PETTINGZOO_WARNINGS:
        test = pytest.mark.filterwarnings(rule)(test)
    return test


SIMULTANEOUS = [(n, s) for n, s in CONFIGURATIONS if game_class(n).info.simultaneous]
SIMULTANEOUS_IDS = [f"{n}-{s}" for n, s in SIMULTANEOUS]


@pettingzoo_warnings
@pytest.mark.parametrize(("name", "seats"), CONFIGURATIONS, ids=IDS)
def test_aec_api_test(name: str, seats: int) -> None:
    api_test(aec_env(name, seats), num_cycles=40)


@pytest.mark.parametrize(("name", "seats"), CONFIGURATIONS, ids=IDS)
def test_aec_seed_test(name: str, seats: int) -> None:
    seed_test(lambda: aec_env(name, seats), num_cycles=20)


@pettingzoo_warnings
@pytest.mark.parametrize(("name", "seats"), SIMULTANEOUS, ids=SIMULTANEOUS_IDS)
def test_parallel_api_test(name: str, seats: int) -> None:
    parallel_api_test(parallel_env(name, seats), num_cycles=40)


@pytest.mark.parametrize(("name", "seats"), SIMULTANEOUS, ids=SIMULTANEOUS_IDS)
def test_parallel_seed_test(name: str, seats: int) -> None:
    parallel_seed_test(lambda: parallel_env(name, seats), num_cycles=20)


def test_aec_plays_a_match_to_the_end_with_masked_random_actions() -> None:
    env = aec_env("toy_orders", 3)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    steps = 0
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        assert seat in env.table.state.deciding_seats()
        mask = observation["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    assert env.agents == []
    assert env.table.state.is_terminal()
    assert steps <= env.table.game.max_game_length()


def test_observation_is_the_encoded_view_of_the_seat() -> None:
    env = aec_env("maatatahay")
    env.reset(seed=1)
    observation = env.observe("seat_1")
    tensor = env.table.encoder.observe(env.table.state, 1)
    np.testing.assert_array_equal(observation["observation"], tensor)
    assert env.render() is None
    env.render_mode = "ansi"
    assert env.render() == canonical_json(env.table.state.view(None))


def test_parallel_observations_are_each_seats_encoded_view() -> None:
    env = parallel_env("maiterra", seats=4)
    observations, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        table = env.table
        for seat, agent in enumerate(env.possible_agents):
            tensor = table.encoder.observe(table.state, seat)
            np.testing.assert_array_equal(observations[agent]["observation"], tensor)
            legal = table.state.legal_actions(seat)
            assert np.flatnonzero(observations[agent]["action_mask"]).tolist() == sorted(legal)
        joint = {}
        for agent, observation in observations.items():
            legal = np.flatnonzero(observation["action_mask"])
            joint[agent] = int(rng.choice(legal)) if len(legal) else 0
        observations, *_ = env.step(joint)


def test_an_illegal_action_ends_the_match_against_the_seat_that_sent_it() -> None:
    env = aec_env("toy_tricks")
    env.reset(seed=0)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1.0
    assert env.infos[agent] == {"illegal_action": True}
    assert sum(env.rewards.values()) == -1.0


def test_parallel_applies_only_the_deciding_seats_actions() -> None:
    env = parallel_env("toy_orders", 2)
    observations, _ = env.reset(seed=0)
    end = env.table.game.num_distinct_actions() - 1
    observations, *_ = env.step({"seat_0": end, "seat_1": 0})
    assert env.table.state.deciding_seats() == (1,)
    assert observations["seat_0"]["action_mask"].sum() == 0
    observations, _, terminations, *_ = env.step({"seat_0": 0, "seat_1": end})
    assert env.table.state.view(0)["round"] == 1
    assert not any(terminations.values())


@pytest.mark.parametrize(("name", "seats"), SIMULTANEOUS, ids=SIMULTANEOUS_IDS)
def test_parallel_keeps_only_legal_lists_that_are_still_right(name: str, seats: int) -> None:
    """Within a simultaneous node the others' legal actions are kept (their decisions are
    sealed); each observation's mask is still the position's, seat by seat."""
    env = parallel_env(name, seats)
    encoder = encoder_for(env.table.game)
    rng = random.Random(3)
    for seed in range(3):
        observations, _ = env.reset(seed=seed)
        while env.agents:
            state = env.table.state
            for seat, legal in env.table._legal.items():
                assert legal == state.legal_actions(seat)
            joint = {}
            for agent, observation in observations.items():
                seat = int(agent.removeprefix("seat_"))
                mask = observation["action_mask"]
                assert mask.tobytes() == action_mask(state, seat).tobytes()
                assert (
                    observation["observation"].tobytes() == encoder.observe(state, seat).tobytes()
                )
                legal = mask.view(np.bool_).nonzero()[0]
                joint[agent] = int(legal[rng.randrange(len(legal))]) if len(legal) else 0
            observations, *_ = env.step(joint)
