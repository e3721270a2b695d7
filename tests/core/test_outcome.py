"""Outcome and Event: results for people and for search, and their JSON."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meeple.core import Event, Outcome


def test_win_returns_and_json():
    outcome = Outcome((1,), "six_lost", (2.0, 5.0), {"tie_break": None})
    assert not outcome.is_draw
    assert outcome.returns(3) == [-1.0, 1.0, -1.0]
    data = outcome.to_json()
    assert data == {
        "winners": [1],
        "draw": False,
        "reason": "six_lost",
        "scores": [2.0, 5.0],
        "detail": {"tie_break": None},
    }
    assert Outcome.from_json(json.loads(json.dumps(data))) == outcome


def test_draw_and_teams():
    draw = Outcome((), "board_full")
    assert draw.is_draw
    assert draw.returns(2) == [0.0, 0.0]
    assert draw.to_json()["draw"] is True and draw.to_json()["scores"] is None
    team = Outcome((0, 2), "objective")
    assert team.returns(4) == [1.0, -1.0, 1.0, -1.0]


@given(
    st.lists(st.integers(0, 5), unique=True, max_size=6).map(tuple),
    st.text(min_size=1, max_size=12),
    st.none() | st.lists(st.integers(-50, 50), min_size=6, max_size=6).map(tuple),
)
def test_outcome_json_round_trip(winners, reason, scores):
    outcome = Outcome(winners, reason, scores)
    text = json.dumps(outcome.to_json(), allow_nan=False)
    assert Outcome.from_json(json.loads(text)) == outcome
    returns = outcome.returns(6)
    assert len(returns) == 6
    assert sum(r > 0 for r in returns) == len(winners)


@pytest.mark.parametrize(
    "bad", [{}, {"winners": [0]}, {"reason": "x"}, {"winners": 3, "reason": "x"}]
)
def test_malformed_outcome_json_raises(bad):
    with pytest.raises((KeyError, TypeError, ValueError)):
        Outcome.from_json(bad)


def test_event_json_and_audience():
    public = Event("claimed", 0, {"region": "b"})
    sealed = Event("queued", 1, {"region": "c"}, audience=(1,))
    assert public.to_json() == {"kind": "claimed", "seat": 0, "region": "b"}
    assert sealed.to_json() == {"kind": "queued", "seat": 1, "region": "c", "audience": [1]}
    assert public.visible_to(None) and public.visible_to(3)
    assert sealed.visible_to(1)
    assert not sealed.visible_to(0) and not sealed.visible_to(None)
    table = Event("round_over")
    assert table.to_json() == {"kind": "round_over", "seat": None}
    json.dumps([e.to_json() for e in (public, sealed, table)])


def test_event_data_never_overrides_kind_or_seat():
    event = Event("moved", 1, {"kind": "forged", "seat": 0, "to": "c3"})
    assert event.to_json() == {"kind": "moved", "seat": 1, "to": "c3"}


def test_events_compare_by_value():
    assert Event("x", 1, {"a": 1}) == Event("x", 1, {"a": 1})
    assert Event("x", 1, {"a": 1}) != Event("x", 1, {"a": 2})
    assert Event("x", 1, {"a": 1}) != Event("x", 1, {"a": 1}, audience=(1,))
