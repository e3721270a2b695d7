"""The sequential form of the games with simultaneous planning (``meeple_<name>_turns``):
OpenSpiel's checks pass on it, the lowest deciding seat decides first, no seat's information
state shows another's sealed decisions, resampling keeps the information state, and
OpenSpiel's ``ISMCTSBot`` and ``MCTSBot`` play it."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from meeple.adapters import openspiel
from meeple.core import NotYourDecision, game_class
from tests.adapters.conftest import CONFIGURATIONS

openspiel.register_games()  # the toy games registered after the adapter was imported

SIMULTANEOUS = [(n, s) for n, s in CONFIGURATIONS if game_class(n).info.simultaneous]
ENDS = [
    (n, s)
    for n, s in SIMULTANEOUS
    if s in (game_class(n).info.min_seats, game_class(n).info.max_seats)
]
"""Each simultaneous game at its fewest and most seats."""
ENDS_IDS = [f"{n}-{s}" for n, s in ENDS]


def load(name: str, seats: int, **params: object) -> pyspiel.Game:
    return pyspiel.load_game(f"meeple_{name}_turns", {"seats": seats, **params})


class Sampler:
    """A stand-in for pyspiel's UniformProbabilitySampler with a seeded generator."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self) -> float:
        return self.rng.random()


def decision_nodes(game: pyspiel.Game, seed: int, steps: int) -> list[pyspiel.State]:
    """Copies of the decision nodes of a random playout, the first ``steps`` of them."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    nodes: list[pyspiel.State] = []
    while not state.is_terminal() and len(nodes) < steps:
        if state.is_chance_node():
            state.apply_action(rng.randrange(game.max_chance_outcomes()))
            continue
        nodes.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return nodes


class NoRollouts(mcts.Evaluator):  # type: ignore[misc]  # OpenSpiel has no type hints
    """Values every leaf at zero, uniform priors: search without playouts, to keep it quick."""

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        return np.zeros(state.num_players())

    def prior(self, state: pyspiel.State) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()  # type: ignore[no-any-return]
        actions = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(actions)) for action in actions]


# -- the game ---------------------------------------------------------------------------


def test_each_simultaneous_game_has_a_sequential_form_and_keeps_its_own() -> None:
    names = openspiel.register_games()
    for name, seats in SIMULTANEOUS:
        info = game_class(name).info
        assert openspiel.turns_name(info) in names
        plain = pyspiel.load_game(f"meeple_{name}", {"seats": seats})
        assert plain.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
        turns = load(name, seats)
        kind = turns.get_type()
        assert kind.short_name == f"meeple_{name}_turns"
        assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert kind.chance_mode == plain.get_type().chance_mode
        assert turns.num_distinct_actions() == plain.num_distinct_actions()
        assert turns.max_game_length() == plain.max_game_length()
        assert turns.num_players() == seats
    sequential = {n for n, _ in CONFIGURATIONS} - {n for n, _ in SIMULTANEOUS}
    assert not any(f"meeple_{name}_turns" in names for name in sequential)


def test_the_simultaneous_form_still_asks_for_joint_actions() -> None:
    name, seats = SIMULTANEOUS[0]
    game = pyspiel.load_game(f"meeple_{name}", {"seats": seats})
    for state in decision_nodes(load(name, seats), seed=1, steps=40):
        if len(state.meeple.deciding_seats()) > 1:
            plain = game.new_initial_state()
            plain._held = openspiel._Held(state.meeple.clone())
            assert plain.is_simultaneous_node()
            assert plain.current_player() == pyspiel.PlayerId.SIMULTANEOUS
            return
    pytest.fail("no node where several seats decide")


@pytest.mark.slow
@pytest.mark.parametrize(("name", "seats"), ENDS, ids=ENDS_IDS)
def test_random_sim_test(name: str, seats: int) -> None:
    # Serializing at every step is most of the time at many seats: once at the fewest.
    serialize = seats == game_class(name).info.min_seats
    pyspiel.random_sim_test(load(name, seats), num_sims=1, serialize=serialize, verbose=False)


@pytest.mark.parametrize(("name", "seats"), ENDS, ids=ENDS_IDS)
def test_the_lowest_deciding_seat_decides_until_it_no_longer_does(name: str, seats: int) -> None:
    rng = random.Random(3)
    state = load(name, seats).new_initial_state()
    several = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
            continue
        deciding = state.meeple.deciding_seats()
        player = state.current_player()
        assert player == min(deciding)
        assert not state.is_simultaneous_node()
        assert state.legal_actions() == state.meeple.legal_actions(player)
        state.apply_action(rng.choice(state.legal_actions()))
        if len(deciding) > 1:
            several += 1
            after = state.meeple.deciding_seats()
            # The seat goes on, or it is done and the next of those deciding comes.
            if player in after:
                assert state.current_player() == player
            elif set(deciding) - {player} <= set(after):
                assert state.current_player() == min(set(deciding) - {player})
    assert several > 0


def test_joint_actions_are_refused_and_change_nothing() -> None:
    name, seats = SIMULTANEOUS[0]
    state = next(
        s for s in decision_nodes(load(name, seats), 2, 60) if len(s.meeple.deciding_seats()) > 1
    )
    before = state.meeple.clone()
    joint = [state.meeple.legal_actions(seat)[0] for seat in range(seats)]
    with pytest.raises(NotYourDecision, match="one action at a time"):
        state.apply_actions(joint)
    assert state.meeple == before


def test_clones_and_serialized_states_stay_in_turns() -> None:
    name, seats = SIMULTANEOUS[0]
    game = load(name, seats)
    state = next(s for s in decision_nodes(game, 2, 60) if len(s.meeple.deciding_seats()) > 1)
    for copy in (
        state.clone(),
        pickle.loads(pickle.dumps(state)),
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
    ):
        assert copy.meeple == state.meeple
        assert copy.current_player() == state.current_player() == min(state.meeple.deciding_seats())
        assert not copy.is_simultaneous_node()


# -- what each seat sees ------------------------------------------------------------------


def seen(state: pyspiel.State, player: int) -> tuple[str, str, bytes, bytes]:
    return (
        state.information_state_string(player),
        state.observation_string(player),
        np.asarray(state.information_state_tensor(player), np.float32).tobytes(),
        np.asarray(state.observation_tensor(player), np.float32).tobytes(),
    )


@pytest.mark.slow
@pytest.mark.parametrize(("name", "seats"), ENDS, ids=ENDS_IDS)
def test_sealed_decisions_never_reach_another_seats_information_state(
    name: str, seats: int
) -> None:
    """Wherever a seat queues a sealed decision while others still have to decide, what
    each of those others sees is the same before and after it. (That a seat has ended its
    part is open to all, as at the table: the view shows who has ended.)"""
    checked = 0
    rng = random.Random(8)
    for state in decision_nodes(load(name, seats), seed=4, steps=150):
        deciding = state.meeple.deciding_seats()
        if len(deciding) < 2:
            continue
        player = state.current_player()
        waiting = [seat for seat in deciding if seat != player]
        before = {seat: seen(state, seat) for seat in waiting}
        legal = state.legal_actions()
        for action in rng.sample(legal, min(len(legal), 12)):
            child = state.child(action)
            if player in child.meeple.deciding_seats():
                # A sealed decision, and the seat goes on deciding: it sees it, no other does.
                mine = child.information_state_string(player)
                assert mine != state.information_state_string(player)
                for seat in waiting:
                    assert seen(child, seat) == before[seat], (action, seat)
                checked += 1
    assert checked > 0


# -- resampling ---------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "seats"), ENDS, ids=ENDS_IDS)
def test_resample_keeps_the_information_state(name: str, seats: int) -> None:
    game = load(name, seats)
    sampler = Sampler(7)
    redrawn = 0
    for state in decision_nodes(game, seed=5, steps=120)[::3]:
        for player in range(seats):
            sample = state.resample_from_infostate(player, sampler)
            assert isinstance(sample, openspiel.MeepleState)
            assert sample.get_game() is game or sample.get_game().get_type().short_name == (
                game.get_type().short_name
            )
            assert sample.information_state_string(player) == state.information_state_string(player)
            np.testing.assert_array_equal(
                sample.information_state_tensor(player), state.information_state_tensor(player)
            )
            assert sample.current_player() == state.current_player()
            if player == state.current_player():
                assert sample.legal_actions() == state.legal_actions()
            redrawn += sample.meeple != state.meeple
    assert redrawn > 0  # something hidden was redrawn somewhere


def test_resample_with_pyspiels_own_sampler() -> None:
    name, seats = SIMULTANEOUS[0]
    state = decision_nodes(load(name, seats), seed=6, steps=30)[-1]
    player = state.current_player()
    sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.information_state_string(player) == state.information_state_string(player)
    sample.apply_action(sample.legal_actions()[0])  # it plays on


# -- OpenSpiel's search -------------------------------------------------------------------


def maiterra(seats: int) -> pyspiel.Game:
    return load("maiterra", seats)


@pytest.mark.parametrize("seats", [2, 4])
def test_ismcts_bot_plays_moves(seats: int) -> None:
    game = maiterra(seats)
    rng = np.random.RandomState(seats)
    bot = ismcts.ISMCTSBot(game, NoRollouts(), 2.0, max_simulations=12, random_state=rng)
    state = game.new_initial_state()
    state.apply_action(11)
    for _ in range(12):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert not state.is_terminal()


def test_ismcts_bot_with_random_rollouts_and_world_samples() -> None:
    game = maiterra(2)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(
        game, evaluator, 2.0, max_simulations=4, max_world_samples=2, random_state=rng
    )
    state = game.new_initial_state()
    state.apply_action(2)
    for _ in range(3):
        state.apply_action(bot.step(state))


@pytest.mark.parametrize("seats", [2, 4])
def test_mcts_bot_plays_moves(seats: int) -> None:
    game = maiterra(seats)
    rng = np.random.RandomState(seats)
    bot = mcts.MCTSBot(game, 2.0, 8, NoRollouts(), random_state=rng)
    state = game.new_initial_state()
    state.apply_action(5)
    for _ in range(12):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.slow
def test_a_short_match_ismcts_against_mcts() -> None:
    """Seat 0 ISMCTS (sees only its information state), seat 1 MCTS, to the end."""
    game = maiterra(2)
    rng = np.random.RandomState(9)
    bots = [
        ismcts.ISMCTSBot(game, NoRollouts(), 2.0, max_simulations=6, random_state=rng),
        mcts.MCTSBot(game, 2.0, 6, NoRollouts(), random_state=rng),
    ]
    state = game.new_initial_state()
    state.apply_action(0)
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert state.returns() == state.meeple.returns()
    assert state.meeple.outcome() is not None
