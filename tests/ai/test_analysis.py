"""analyse(): the best actions with their chances, deterministic per seed and budget."""

from __future__ import annotations

import pytest
from tests.ai.test_bots import TakeAway

import meeple.games  # noqa: F401  (registers Maatatahay)
from meeple.ai import Budget, analyse
from meeple.core import load_game


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
