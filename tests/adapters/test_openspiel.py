"""The OpenSpiel adapter passes OpenSpiel's own checks for every game and seat count."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts
from open_spiel.python.observation import make_observation

from meeple.adapters import openspiel
from meeple.core import game_class
from meeple.core.encoding import canonical_json, encoder_for
from tests.adapters.conftest import CONFIGURATIONS, IDS

openspiel.register_games()  # the toy games registered after the adapter was imported


def load(name: str, seats: int, **params: object) -> pyspiel.Game:
    return pyspiel.load_game(f"meeple_{name}", {"seats": seats, **params})


def playout(state: pyspiel.State, rng: random.Random) -> pyspiel.State:
    """Random actions (and chance outcomes) until the end; returns the final state."""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.is_simultaneous_node():
            state.apply_actions(
                [rng.choice(state.legal_actions(p) or [0]) for p in range(state.num_players())]
            )
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.slow
@pytest.mark.parametrize(("name", "seats"), CONFIGURATIONS, ids=IDS)
def test_random_sim_test_with_serialization(name: str, seats: int) -> None:
    pyspiel.random_sim_test(load(name, seats), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "seats"), CONFIGURATIONS, ids=IDS)
def test_game_type_follows_the_protocol(name: str, seats: int) -> None:
    game = load(name, seats)
    info = game_class(name).info
    kind = game.get_type()
    expected = "SIMULTANEOUS" if info.simultaneous else "SEQUENTIAL"
    assert kind.dynamics == getattr(pyspiel.GameType.Dynamics, expected)
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.num_players() == seats
    assert game.num_distinct_actions() == game.meeple.num_distinct_actions()
    if info.chance:
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


@pytest.mark.parametrize(("name", "seats"), CONFIGURATIONS, ids=IDS)
def test_observations_are_the_encoded_views(name: str, seats: int) -> None:
    game = load(name, seats)
    state = playout_to_first_decision(game.new_initial_state())
    encoder = encoder_for(game.meeple)
    for player in range(seats):
        view = state.meeple.view(player)
        assert state.observation_string(player) == canonical_json(view)
        assert state.information_state_string(player) == canonical_json(view)
        tensor = encoder.observe(state.meeple, player)
        np.testing.assert_array_equal(state.observation_tensor(player), tensor)
        np.testing.assert_array_equal(state.information_state_tensor(player), tensor)
    assert game.observation_tensor_size() == encoder.size


def playout_to_first_decision(state: pyspiel.State) -> pyspiel.State:
    if state.is_chance_node():
        state.apply_action(7)
    return state


def test_the_deal_seeds_the_match_and_serialization_keeps_the_generator() -> None:
    game = load("maatatahay", 2, seed=5)
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert len(state.chance_outcomes()) == openspiel.DEALS
    state.apply_action(3)
    assert state.meeple.to_json() == game.meeple.new_initial_state(game.deal_seed(3)).to_json()
    rng = random.Random(1)
    for _ in range(9):
        state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert restored.history() == state.history()
    assert restored.meeple == state.meeple
    copy = pickle.loads(pickle.dumps(state))
    assert copy.meeple == state.meeple
    # The restored state goes on exactly as the original, random draws included.
    end = playout(state, random.Random(2))
    assert playout(restored, random.Random(2)).meeple == end.meeple


def test_parameters_reach_the_options() -> None:
    game = pyspiel.load_game("meeple_maatatahay(relic_scoring=standard,seats=2)")
    assert game.meeple.option("relic_scoring") == "standard"
    game = load("toy_orders", 3, options='{"regions": 5}', rounds=2)
    assert game.meeple.options == {"regions": 5, "max_orders": 2, "rounds": 2}
    assert game.num_players() == 3


def test_clone_is_independent() -> None:
    state = load("toy_tricks", 2).new_initial_state()
    state.apply_action(0)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.meeple != state.meeple
    assert clone.history() == [*state.history(), clone.history()[-1]]


SEQUENTIAL = [(n, s) for n, s in CONFIGURATIONS if not game_class(n).info.simultaneous]
SIMULTANEOUS = [(n, s) for n, s in CONFIGURATIONS if game_class(n).info.simultaneous]


class NoRollouts(mcts.Evaluator):  # type: ignore[misc]
    """Values every leaf at zero: MCTS without rollouts, to keep long games fast in tests."""

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        return np.zeros(state.num_players())

    def prior(self, state: pyspiel.State) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()  # type: ignore[no-any-return]
        actions = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(actions)) for action in actions]


def play_with_mcts(game: pyspiel.Game, seed: int, rollouts: bool = True) -> pyspiel.State:
    rng = np.random.RandomState(seed)
    evaluator = (
        mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng) if rollouts else NoRollouts()
    )
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=3, evaluator=evaluator, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choice(outcomes, p=probs))
        else:
            state.apply_action(bot.step(state))
    return state


@pytest.mark.parametrize(("name", "seats"), SEQUENTIAL, ids=[f"{n}-{s}" for n, s in SEQUENTIAL])
def test_mcts_bot_plays_a_sequential_game_to_the_end(name: str, seats: int) -> None:
    state = play_with_mcts(load(name, seats), seed=1, rollouts=False)
    assert state.returns() == state.meeple.returns()
    assert state.meeple.outcome() is not None


def test_mcts_bot_with_random_rollouts_plays_maatatahay() -> None:
    state = play_with_mcts(load("maatatahay", 2), seed=3)
    assert state.meeple.outcome() is not None


@pytest.mark.slow
@pytest.mark.parametrize(("name", "seats"), SIMULTANEOUS, ids=[f"{n}-{s}" for n, s in SIMULTANEOUS])
def test_simultaneous_game_through_convert_to_turn_based(name: str, seats: int) -> None:
    turn_based = pyspiel.convert_to_turn_based(load(name, seats))
    assert turn_based.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    pyspiel.random_sim_test(turn_based, num_sims=1, serialize=False, verbose=False)
    if seats == game_class(name).info.min_seats:
        state = play_with_mcts(turn_based, seed=2, rollouts=False)
        assert state.is_terminal()


@pytest.mark.parametrize(("name", "seats"), CONFIGURATIONS, ids=IDS)
def test_observer_tensors_along_a_playout_are_the_encoded_views(name: str, seats: int) -> None:
    """Whichever seat is asked first at a position (encoded whole) and after (from the
    shared part), each tensor is the encoder's for that seat."""
    game = load(name, seats)
    observer = make_observation(game)
    encoder = encoder_for(game.meeple)
    rng = random.Random(5)
    state = game.new_initial_state()
    for step in range(60):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.randrange(game.max_chance_outcomes()))
            continue
        first = step % seats
        for player in [*range(first, seats), *range(first)]:
            observer.set_from(state, player)
            assert observer.tensor.tobytes() == encoder.observe(state.meeple, player).tobytes()
        if state.is_simultaneous_node():
            players = range(seats)
            state.apply_actions([rng.choice(state.legal_actions(p) or [0]) for p in players])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
