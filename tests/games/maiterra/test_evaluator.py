"""The Maiterra evaluator the search bots use: read from the view, zero-sum between sides."""

from __future__ import annotations

import random
from typing import Any

import meeple.games  # noqa: F401
from meeple.core import kit_for, load_game
from meeple.core.kit import ScaledEvaluator
from meeple.games.maiterra import MaiterraState
from meeple.games.maiterra.evaluate import _threat, evaluate_maiterra


def _played(seats: int, seed: int, actions: int, teams: str = "") -> MaiterraState:
    state = load_game("maiterra", seats, {"teams": teams}).new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(actions):
        deciding = state.deciding_seats()
        if not deciding:
            break
        seat = deciding[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert isinstance(state, MaiterraState)
    return state


def test_registered_for_the_search_bots() -> None:
    evaluator = kit_for("maiterra/1").evaluator
    assert isinstance(evaluator, ScaledEvaluator)
    assert evaluator.evaluate is evaluate_maiterra
    assert evaluator.scale == 6.0


def test_two_seats_are_zero_sum_and_the_start_is_even() -> None:
    start = load_game("maiterra", 2).new_initial_state(1)
    assert evaluate_maiterra(start, 0) == 0.0
    state = _played(2, 3, 300)
    assert abs(evaluate_maiterra(state, 0) + evaluate_maiterra(state, 1)) < 1e-9


def test_a_field_more_is_better() -> None:
    state = _played(2, 5, 200)  # a match still going (seed 4's random play ends it)
    assert not state.is_terminal()
    before = evaluate_maiterra(state, 0)
    free = next(c for c in range(25) if state.is_land(c) and state.owner[c] < 0)
    state.owner[free] = 0
    assert evaluate_maiterra(state, 0) > before


def test_enemies_next_to_a_weak_field_are_a_threat_worth_up_to_its_points() -> None:
    def field(name: str, owner: int | None, armies: dict[str, list[int]], walls: int = 0) -> Any:
        buildings = {"wall": walls} if walls else {}
        return {"field": name, "owner": owner, "armies": armies, "buildings": buildings}

    sides = [0, 1]
    ours = field("c3", 0, {"0": [1, 0]})
    near = field("d3", 1, {"1": [2, 0]})  # c3's east neighbour: 4 attack against 2
    far = field("e5", 1, {"1": [9, 9]})
    fields = {f["field"]: f for f in (ours, near, far)}
    assert _threat(ours, fields, sides) == 0.25 * (4 - 2)
    near["armies"] = {"1": [9, 0]}
    assert _threat(ours, fields, sides) == 2.0  # never more than the field's points
    walled = field("c3", 0, {"0": [1, 0]}, walls=1)
    near["armies"] = {"1": [2, 0]}
    assert _threat(walled, {**fields, "c3": walled}, sides) == 0.0


def test_allies_count_as_one_side_and_a_win_dominates() -> None:
    state = _played(4, 6, 400, teams="1122")
    assert evaluate_maiterra(state, 0) == evaluate_maiterra(state, 1)
    finished = _played(2, 7, 100_000)
    assert finished.is_terminal()
    outcome = finished.outcome()
    assert outcome is not None
    for seat in range(2):
        expected = 100.0 if seat in outcome.winners else -100.0
        assert evaluate_maiterra(finished, seat) == (expected if outcome.winners else 0.0)
