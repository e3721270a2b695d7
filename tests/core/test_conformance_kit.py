"""The conformance kit on the toy games: they pass, and each broken variant is caught."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import meeple.testing
from meeple.core import IllegalAction, InvalidSeat, MatchRecord, NotYourDecision, load_game
from meeple.testing import (
    ConformanceError,
    ConformanceReport,
    Where,
    check_action_notation,
    check_clone,
    check_determinism,
    check_malformed_records,
    check_malformed_states,
    check_rejections,
    check_replay,
    check_state,
    check_view_leakage,
    is_registered,
    play_random,
    run_conformance,
)
from meeple.testing.strategies import (
    action_ids,
    games,
    json_values,
    match_records,
    playout_prefixes,
)
from tests.toygames import BROKEN, ToyOrders, ToyTricks

TOY_CONFIGS = [
    ("toy_tricks", 2, {}),
    ("toy_tricks", 2, {"suits": 1, "ranks": 2, "hand": 1}),
    ("toy_tricks", 2, {"suits": 4, "ranks": 9, "hand": 6}),
    ("toy_orders", 2, {}),
    ("toy_orders", 3, {"regions": 3, "max_orders": 1, "rounds": 1}),
    ("toy_orders", 4, {"regions": 6, "max_orders": 3, "rounds": 4}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "seats", "options"), TOY_CONFIGS)
def test_toy_games_pass_the_kit(game_id, seats, options):
    game = load_game(game_id, seats, options)
    report = run_conformance(game, playouts=3, seed=11)
    assert isinstance(report, ConformanceReport)
    assert report.game_id == game.id
    assert report.playouts == 3
    assert sum(report.outcomes.values()) == 3
    assert 0 < report.longest <= game.max_game_length()
    assert report.hidden_changes > 0


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_the_kit_catches_a_broken_game(name):
    cls, phrase = BROKEN[name]
    game = cls(seats=2)
    with pytest.raises(ConformanceError) as caught:
        run_conformance(game, playouts=3)
    error = caught.value
    assert phrase in str(error)
    assert error.game_id == game.id
    assert str(error).startswith(f"{game.id} (seats 2")
    assert error.check


def test_the_kit_uses_no_assert_statements_so_it_works_under_dash_o():
    for path in Path(meeple.testing.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        asserts = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Assert)]
        assert not asserts, f"{path.name} uses assert on lines {asserts}"


def test_conformance_error_is_an_assertion_error_naming_seed_and_step():
    game = load_game("toy_tricks")
    error = ConformanceError(game, "clone", "it broke", Where(seed=3, choice_seed=4, step=5))
    assert isinstance(error, AssertionError)
    assert "game seed 3" in str(error)
    assert "choice seed 4" in str(error)
    assert "step 5" in str(error)
    assert "clone failed" in str(error)
    assert error.detail == "it broke"


def test_play_random_records_every_state_and_event():
    game = load_game("toy_orders", 3)
    playout = play_random(game, seed=5, choice_seed=6)
    assert len(playout.states) == len(playout.record.actions) + 1
    assert len(playout.events) == len(playout.record.actions)
    assert playout.final.is_terminal()
    assert playout.record.outcome == playout.final.outcome()
    assert playout.states[-1] == playout.final.to_json()
    assert MatchRecord.loads(playout.record.dumps()).replay() == playout.final


def test_simultaneous_playouts_pick_among_several_deciding_seats():
    game = load_game("toy_orders", 4)
    playout = play_random(game, seed=0, choice_seed=1)
    first_seats = {seat for seat, _ in playout.record.actions[:8]}
    assert len(first_seats) > 1


def test_play_random_is_deterministic_and_seeds_matter():
    game = load_game("toy_tricks")
    a = play_random(game, seed=1, choice_seed=2)
    b = play_random(game, seed=1, choice_seed=2)
    c = play_random(game, seed=9, choice_seed=2)
    assert a.states == b.states and a.events == b.events
    assert a.states[0] != c.states[0]
    check_determinism(game, seed=4, choice_seed=5)
    check_determinism(load_game("toy_orders"), seed=4, choice_seed=5)


def test_individual_checks_pass_on_a_mid_game_state():
    game = load_game("toy_tricks")
    playout = play_random(game, seed=3, choice_seed=3)
    state = game.state_from_json(playout.states[3])
    rng = random.Random(0)
    check_state(state)
    check_clone(state, rng)
    check_rejections(state, rng)
    check_malformed_states(state, rng)
    assert check_view_leakage(state, play_out=rng) is True
    check_action_notation(game, [0, 1, 2])
    check_replay(playout)
    check_malformed_records(playout)
    assert is_registered(game)


def test_unregistered_games_are_replayed_through_the_game_itself():
    cls, _ = BROKEN["leaky view"]
    game = cls(seats=2)
    assert not is_registered(game)
    playout = play_random(game, seed=1, choice_seed=1)
    check_replay(playout)
    check_malformed_records(playout)


def test_timer_hand_in_ends_planning_as_it_stands():
    game = load_game("toy_orders", 2)
    state = game.new_initial_state(0)
    state.apply(0, game.parse_action("b"))
    state.hand_in(0)
    assert state.deciding_seats() == (1,)
    assert state.view(0)["queue"] == [1]
    with pytest.raises(NotYourDecision):
        state.hand_in(0)
    with pytest.raises(InvalidSeat):
        state.hand_in(2)
    state.hand_in(1)
    assert state.view(None)["owners"] == [None, 0, None, None]
    tricks = load_game("toy_tricks").new_initial_state(0)
    before = tricks.to_json()
    with pytest.raises(IllegalAction):
        tricks.hand_in(0)
    assert tricks.to_json() == before


def test_sealed_orders_are_hidden_from_other_seats_and_spectators():
    game = load_game("toy_orders", 3)
    state = game.new_initial_state(0)
    state.apply(1, game.parse_action("c"))
    assert state.view(1)["queue"] == [2]
    assert state.view(0)["queue"] == []
    assert "c" not in json.dumps(state.view(None))
    assert state.view(0) == game.new_initial_state(0).view(0)


def test_toy_options_are_checked():
    with pytest.raises(ValueError, match="cannot deal"):
        ToyTricks(seats=2, options={"suits": 1, "ranks": 2, "hand": 2})
    with pytest.raises(ValueError, match="seats"):
        ToyOrders(seats=5)


@given(games(["toy_tricks", "toy_orders"]), st.data())
def test_property_prefix_states_keep_the_invariants(game, data):
    state = data.draw(playout_prefixes(game))
    check_state(state)
    check_clone(state, random.Random(0))
    action = data.draw(action_ids(game))
    assert game.parse_action(game.format_action(action)) == action


@given(games(["toy_tricks", "toy_orders"]), st.data())
def test_property_prefix_records_replay(game, data):
    record = data.draw(match_records(game, max_actions=12))
    assert len(record.actions) <= 12
    loaded = MatchRecord.loads(record.dumps())
    assert loaded.replay() == record.replay()


@given(json_values())
def test_property_garbage_json_is_refused_as_a_state(value):
    game = load_game("toy_tricks")
    try:
        state = game.state_from_json(value)
    except ValueError:
        return
    check_state(state)  # pragma: no cover - garbage never happens to be a valid state
