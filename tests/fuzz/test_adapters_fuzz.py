"""Hostile actions at the research adapters, along random play, for every game and seat count.

What docs/research.md (Errors) promises: an integer action (numpy's included) that is legal
is applied; an id of the game that is not legal now raises ``IllegalAction`` in OpenSpiel
and ends the episode with ``illegal_reward`` in PettingZoo and Gymnasium; anything else
(floats, NaN, bools, numpy floats and bools, text, None, bytes, integers outside the ids)
raises ``InvalidAction``. A refusal leaves the match exactly as it was (the meeple state's
full JSON, generator included) and quotes at most a short excerpt of the input.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import numpy as np
import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeple.adapters import openspiel
from meeple.adapters.gymnasium import MeepleEnv
from meeple.adapters.pettingzoo import aec_env, parallel_env
from meeple.core import GameError, GameOver, IllegalAction, InvalidAction, game_class
from meeple.testing.hostile import MAX_MESSAGE_CHARS
from meeple.testing.strategies import hostile_values
from tests.adapters.conftest import CONFIGURATIONS, IDS

openspiel.register_games()  # the toy games registered after the adapter was imported

FUZZ = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
NUMPY = (
    np.int64(0),
    np.int32(1),
    np.uint8(2),
    np.float32(1.0),
    np.float64(2.0),
    np.bool_(True),
    np.array(1),
    np.float64("nan"),
)
ACTIONS = st.one_of(
    st.integers(0, 40), hostile_values(), st.sampled_from(NUMPY), st.integers(-(2**70), 2**70)
)
SIMULTANEOUS = [(n, s) for n, s in CONFIGURATIONS if game_class(n).info.simultaneous]
SIMULTANEOUS_IDS = [f"{n}-{s}" for n, s in SIMULTANEOUS]


pytestmark = pytest.mark.slow


def integer(value: Any) -> int | None:
    """The id an adapter must read ``value`` as, or None where it must raise InvalidAction."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer | np.ndarray):
        return None
    if isinstance(value, np.ndarray) and (value.ndim or value.dtype.kind not in "iu"):
        return None
    return int(value)


def expect_refusal(error: GameError) -> None:
    assert len(str(error)) <= MAX_MESSAGE_CHARS


# -- OpenSpiel ---------------------------------------------------------------------------------


@cache
def _spiel_game(name: str, seats: int) -> pyspiel.Game:
    return pyspiel.load_game(f"meeple_{name}", {"seats": seats})


def _spiel_position(name: str, seats: int, seed: int, steps: int) -> pyspiel.State:
    game = _spiel_game(name, seats)
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.randrange(game.max_chance_outcomes()))
        elif state.is_simultaneous_node():
            players = range(game.num_players())
            state.apply_actions([rng.choice(state.legal_actions(p) or [0]) for p in players])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("name", "seats"), CONFIGURATIONS, ids=IDS)
@FUZZ
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 30), actions=st.lists(ACTIONS, max_size=6))
def test_openspiel_refuses_what_is_not_a_legal_integer(
    name: str, seats: int, seed: int, steps: int, actions: list[Any]
) -> None:
    state = _spiel_position(name, seats, seed, steps)
    game = _spiel_game(name, seats)
    for action in actions:
        before, history = str(state), state.history()
        as_id = integer(action)
        legal: list[int] = []
        if state.is_chance_node():
            legal = list(range(game.max_chance_outcomes()))
        elif not state.is_terminal() and not state.is_simultaneous_node():
            legal = state.legal_actions()
        try:
            if state.is_simultaneous_node():
                joint = [
                    rng_legal[0] if (rng_legal := state.legal_actions(p)) else 0
                    for p in range(seats)
                ]
                seat = state.meeple.deciding_seats()[0]
                joint[seat] = action
                legal = state.legal_actions(seat)
                state.apply_actions(joint)
            else:
                state.apply_action(action)
        except (InvalidAction, IllegalAction, GameOver) as error:
            expect_refusal(error)
            assert str(state) == before and state.history() == history
            if as_id is None or not 0 <= as_id < 1 << 63:
                assert isinstance(error, InvalidAction)  # refused before pyspiel sees it
            elif state.is_terminal():
                assert isinstance(error, GameOver)
            elif as_id >= max(game.num_distinct_actions(), game.max_chance_outcomes()):
                assert isinstance(error, InvalidAction)
            else:
                assert as_id not in legal
            continue
        assert as_id is not None and as_id in legal, f"{action!r} was applied"
        if state.is_terminal():
            with pytest.raises(GameOver):
                state.apply_action(0)


# -- PettingZoo --------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "seats"), CONFIGURATIONS, ids=IDS)
@FUZZ
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 30), actions=st.lists(ACTIONS, max_size=6))
def test_pettingzoo_aec_refuses_what_is_no_action_id(
    name: str, seats: int, seed: int, steps: int, actions: list[Any]
) -> None:
    env = aec_env(name, seats)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if not env.agents or env.terminations[env.agent_selection]:
            return
        mask = env.last()[0]["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
    size = env.table.size
    for action in actions:
        if not env.agents or env.terminations[env.agent_selection]:
            break
        agent = env.agent_selection
        seat = env.possible_agents.index(agent)
        before = env.table.state.to_json()
        legal = env.table.state.legal_actions(seat)
        as_id = integer(action)
        try:
            env.step(action)
        except InvalidAction as error:
            expect_refusal(error)
            assert as_id is None or not 0 <= as_id < size
            assert env.table.state.to_json() == before and env.agent_selection == agent
            assert not any(env.terminations.values())
            continue
        assert as_id is not None and 0 <= as_id < size, f"{action!r} was taken"
        if as_id not in legal:  # the mask forbade it: the episode ends, the seat pays
            assert env.table.state.to_json() == before
            assert env.infos[agent] == {"illegal_action": True}
            assert all(env.terminations.values())
            break


@pytest.mark.parametrize(("name", "seats"), SIMULTANEOUS, ids=SIMULTANEOUS_IDS)
@FUZZ
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 10), action=ACTIONS, data=st.data())
def test_pettingzoo_parallel_checks_every_action_before_applying_any(
    name: str, seats: int, seed: int, steps: int, action: Any, data: st.DataObject
) -> None:
    env = parallel_env(name, seats)
    observations, _ = env.reset(seed=seed)
    rng = random.Random(seed)

    def legal_step() -> dict[str, int]:
        return {
            agent: rng.choice(np.flatnonzero(obs["action_mask"]).tolist() or [0])
            for agent, obs in observations.items()
        }

    for _ in range(steps):
        if not env.agents:
            return
        observations, *_ = env.step(legal_step())
    if not env.agents:
        return
    deciding = env.table.state.deciding_seats()
    actions: dict[str, Any] = legal_step()
    culprit = env.possible_agents[data.draw(st.sampled_from(deciding), label="culprit")]
    actions[culprit] = action
    before = env.table.state.to_json()
    as_id = integer(action)
    try:
        env.step(actions)
    except InvalidAction as error:
        expect_refusal(error)
        assert as_id is None or not 0 <= as_id < env.table.size
        assert env.table.state.to_json() == before
        return
    assert as_id is not None and 0 <= as_id < env.table.size, f"{action!r} was taken"
    deciding = env.table.state.deciding_seats()
    if env.agents and deciding:  # a seat that decides and sends nothing: refused, unchanged
        before = env.table.state.to_json()
        silent = env.possible_agents[deciding[-1]]
        with pytest.raises(InvalidAction):
            env.step({agent: 0 for agent in env.agents if agent != silent})
        assert env.table.state.to_json() == before


# -- Gymnasium ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "seats"), CONFIGURATIONS, ids=IDS)
@FUZZ
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 10), actions=st.lists(ACTIONS, max_size=6))
def test_gymnasium_refuses_what_is_no_action_id(
    name: str, seats: int, seed: int, steps: int, actions: list[Any]
) -> None:
    env = MeepleEnv(name, seats, seat=seed % seats, opponent="random")
    _, info = env.reset(seed=seed)
    rng = random.Random(seed)
    done = False
    for _ in range(steps):
        _, _, done, _, info = env.step(rng.choice(np.flatnonzero(info["action_mask"]).tolist()))
        if done:
            return
    size = env.action_space.n
    for action in actions:
        before = env.state.to_json()
        legal = env.state.legal_actions(env.seat)
        as_id = integer(action)
        try:
            _, reward, done, _, info = env.step(action)
        except InvalidAction as error:
            expect_refusal(error)
            assert as_id is None or not 0 <= as_id < size
            assert env.state.to_json() == before
            continue
        assert as_id is not None and 0 <= as_id < size, f"{action!r} was taken"
        if as_id not in legal:
            assert info.get("illegal_action") and done and reward == env.illegal_reward
            assert env.state.to_json() == before
        if done:
            return
