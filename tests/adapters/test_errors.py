"""The adapters' errors, as docs/research.md (Errors) promises them: named cases.

tests/fuzz/test_adapters_fuzz.py throws random input at the same calls.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from meeple.adapters import openspiel
from meeple.adapters.gymnasium import MeepleEnv
from meeple.adapters.pettingzoo import aec_env, parallel_env
from meeple.core import GameOver, IllegalAction, InvalidAction

openspiel.register_games()

NOT_INTEGERS = (2.7, 2.0, True, np.float32(2.0), np.float64(2.0), np.bool_(True), "2", None)


def _dealt(name: str, **params: object) -> pyspiel.State:
    state = pyspiel.load_game(f"meeple_{name}", params).new_initial_state()
    state.apply_action(0)  # the deal
    return state


def test_openspiel_refuses_an_illegal_action_with_the_engines_error() -> None:
    state = _dealt("maatatahay")
    illegal = next(a for a in range(190) if a not in state.legal_actions())
    before, history = str(state), state.history()
    with pytest.raises(IllegalAction) as caught:
        state.apply_action(illegal)
    assert caught.value.seat == state.current_player() and caught.value.action == illegal
    assert str(state) == before and state.history() == history


@pytest.mark.parametrize("action", [*NOT_INTEGERS, -1, 10**30], ids=repr)
def test_openspiel_refuses_what_is_no_action_id(action: object) -> None:
    state = _dealt("maatatahay")
    before = str(state)
    with pytest.raises(InvalidAction):
        state.apply_action(action)
    assert str(state) == before


def test_openspiel_takes_numpy_integers() -> None:
    state = _dealt("maatatahay")
    state.apply_action(np.int64(state.legal_actions()[0]))
    assert len(state.history()) == 2


def test_openspiel_checks_a_joint_action_whole_before_applying_any() -> None:
    state = _dealt("maiterra", seats=3)
    assert state.is_simultaneous_node()
    legal = [state.legal_actions(p)[0] for p in range(3)]
    before = str(state)
    illegal = next(a for a in range(1000) if a not in state.legal_actions(2))
    for joint in ([*legal[:2], illegal], [*legal[:2], 2.5], legal[:2]):
        with pytest.raises((IllegalAction, InvalidAction)):
            state.apply_actions(joint)
        assert str(state) == before
    state.apply_actions(legal)
    assert str(state) != before


def test_openspiel_after_the_end_is_game_over() -> None:
    state = _dealt("maatatahay")
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(GameOver):
        state.apply_action(0)


@pytest.mark.parametrize("action", NOT_INTEGERS, ids=repr)
def test_pettingzoo_step_of_a_float_is_refused_not_rounded(action: object) -> None:
    """``step(2.7)`` used to play action 2."""
    env = aec_env("maatatahay")
    env.reset(seed=0)
    agent, before = env.agent_selection, env.table.state.to_json()
    with pytest.raises(InvalidAction):
        env.step(action)
    assert env.table.state.to_json() == before and env.agent_selection == agent
    assert not any(env.terminations.values())


def test_pettingzoo_an_id_the_mask_forbids_ends_the_episode() -> None:
    env = aec_env("maatatahay")
    env.reset(seed=0)
    agent = env.agent_selection
    mask = env.last()[0]["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.infos[agent] == {"illegal_action": True} and all(env.terminations.values())


def test_pettingzoo_parallel_refuses_before_applying_any() -> None:
    env = parallel_env("maiterra", seats=3)
    observations, _ = env.reset(seed=0)
    actions: dict[str, object] = {
        agent: int(np.flatnonzero(obs["action_mask"])[0]) for agent, obs in observations.items()
    }
    before = env.table.state.to_json()
    for bad in (2.7, None, -1):
        with pytest.raises(InvalidAction):
            env.step({**actions, "seat_2": bad})
        assert env.table.state.to_json() == before
    with pytest.raises(InvalidAction):
        env.step({k: v for k, v in actions.items() if k != "seat_1"})
    assert env.table.state.to_json() == before


@pytest.mark.parametrize("action", [*NOT_INTEGERS, -1, 10**30], ids=repr)
def test_gymnasium_refuses_what_is_no_action_id(action: object) -> None:
    env = MeepleEnv("maatatahay", seat=0)
    env.reset(seed=1)
    before = env.state.to_json()
    with pytest.raises(InvalidAction):
        env.step(action)
    assert env.state.to_json() == before
    env.step(np.int64(np.flatnonzero(env.action_masks())[0]))  # numpy integers are fine
