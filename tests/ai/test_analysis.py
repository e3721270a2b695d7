"""analyse(): the best actions with their chances, deterministic per seed and budget."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.toygames import TakeAway

import meeple.games  # noqa: F401  (registers Maatatahay)
from meeple.ai import Budget, analyse
from meeple.core import Seat, State, load_game
from meeple.games.maiterra import notation as mids
from meeple.games.maiterra.rules import PLAN


def test_analysis_ranks_the_winning_move_first() -> None:
    state = TakeAway().state_from_json({"pile": 3, "turn": 0, "rng": "0" * 16, "secret": 0})
    analysis = analyse(state, 0, 60, seed=1)
    assert analysis.best[0].notation == "take 3"
    assert analysis.win_probability == 1.0
    assert analysis.advice_for(2) is analysis.best[0]
    assert analysis.advice_for(99) is None
    assert sum(advice.share for advice in analysis.candidates) == pytest.approx(1.0)


def test_analysis_is_deterministic_and_json_ready() -> None:
    state = load_game("maatatahay").new_initial_state(12)
    seat = state.deciding_seats()[0]
    first = analyse(state, seat, Budget(40), seed=3, top=2)
    assert first == analyse(state, seat, 40, seed=3, top=2)
    data = first.to_json()
    assert len(data["best"]) == min(2, len(first.candidates))
    assert 0.0 <= data["win_probability"] <= 1.0
    assert data["best"][0]["notation"] == state.action_to_string(seat, first.best[0].action)


def test_a_forced_decision_is_still_judged() -> None:
    state = TakeAway().state_from_json({"pile": 1, "turn": 1, "rng": "0" * 16, "secret": 0})
    analysis = analyse(state, 1, 5)
    assert [advice.notation for advice in analysis.best] == ["take 1"]
    assert analysis.win_probability == 1.0


# -- what the hint may know ---------------------------------------------------------------


def _twin(state: State, seat: Seat, seed: int) -> State:
    """A state ``seat`` cannot tell from ``state`` whose hidden part was redrawn."""
    twin = state.resample(seat, seed)
    assert twin.view(seat) == state.view(seat)
    assert twin.to_json() != state.to_json()
    return twin


def _played(name: str, seats: int, plies: int, seed: int) -> State:
    state = load_game(name, seats=seats).new_initial_state(seed)
    chooser = random.Random(seed)
    for _ in range(plies):
        seat = state.deciding_seats()[0]
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
    return state


def _same_hint(one: State, other: State, seat: Seat) -> None:
    first, second = analyse(one, seat, 48, seed=9), analyse(other, seat, 48, seed=9)
    assert first == second


@pytest.mark.parametrize("plies", [0, 3, 8])
def test_the_hint_does_not_depend_on_the_deck_order_or_tiles_to_come(plies: int) -> None:
    """Maatatahay: two positions alike but for the order of the face-down decks."""
    state = _played("maatatahay", 2, plies, 4)
    seat = state.deciding_seats()[0]
    for seed in (1, 2):
        _same_hint(state, _twin(state, seat, seed), seat)


def test_the_hint_does_not_depend_on_the_dice_to_come() -> None:
    state = _played("manafields", 2, 6, 4)
    seat = state.deciding_seats()[0]
    _same_hint(state, _twin(state, seat, 5), seat)


def _maiterra_planning(seats: int, seed: int) -> State:
    """Maiterra at its third turn, the other seats' orders sealed, seat 0 still planning."""
    state: Any = load_game("maiterra", seats=seats).new_initial_state(seed)
    chooser = random.Random(seed)
    while not (state.phase == PLAN and state.turn >= 3):
        seat = state.deciding_seats()[0]
        state.apply(seat, chooser.choice(state.legal_actions(seat)))
    for other in range(1, seats):
        for _ in range(2):
            orders = [a for a in state.legal_actions(other) if a != mids.END]
            if orders:
                state.apply(other, chooser.choice(orders))
        state.apply(other, mids.END)
    assert state.deciding_seats() == (0,)
    assert any(state.queue[other] for other in range(1, seats))
    return state  # type: ignore[no-any-return]


def test_the_hint_does_not_depend_on_others_sealed_orders_hands_or_the_deck() -> None:
    state = _maiterra_planning(3, 2)
    for seed in (1, 2):
        _same_hint(state, _twin(state, 0, seed), 0)


def test_the_hint_does_not_depend_on_others_hidden_houses() -> None:
    state = load_game("maiterra", seats=3).new_initial_state(6)
    state.apply(1, state.legal_actions(1)[-1])  # seat 1 locks in a house seat 0 cannot see
    assert 0 in state.deciding_seats()
    _same_hint(state, _twin(state, 0, 3), 0)
