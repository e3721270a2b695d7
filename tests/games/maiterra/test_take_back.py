"""Taking back queued orders (rules version 3, docs/rules/maiterra.md, Decisions): a seat may
take back its last queued order until it ends the turn, up to ``take_backs`` a turn; only the
seat sees it; earlier versions keep their rules and their ids."""

from __future__ import annotations

import random

import pytest
from tests.games.maiterra.helpers import army, own, planning, units

import meeple.games  # noqa: F401  (registers the games)
from meeple.core import load_game
from meeple.core.errors import IllegalAction, InvalidAction, NotYourDecision
from meeple.games.maiterra import notation as ids
from meeple.games.maiterra.bots import MaiterraHeuristic
from meeple.games.maiterra.move_order import maiterra_moves
from meeple.games.maiterra.rules import MaiterraState


def _two_seats() -> MaiterraState:
    """Turn 1 planning, each seat holding a field with two soldiers on it."""
    state = planning()
    own(state, 0, "c3")
    army(state, 0, "c3", soldiers=2)
    own(state, 1, "a1")
    army(state, 1, "a1", soldiers=2)
    return state


def test_the_last_queued_order_is_taken_back_and_its_cost_returns() -> None:
    state = _two_seats()
    assert ids.TAKE_BACK not in state.legal_actions(0)  # nothing queued yet
    state.play(0, "trade food for wood")
    state.play(0, "march c3 NE")
    assert ids.TAKE_BACK in state.legal_actions(0)
    events = state.play(0, "takeback")
    assert [e.kind for e in events] == ["taken_back"]
    assert events[0].data == {"order": "march c3 NE", "queued": 1}
    assert events[0].audience == (0,)  # sealed: only the seat sees it
    assert [ids.format_action(a) for a in state.queue[0]] == ["trade food for wood"]
    # The stack may march again, elsewhere: the budget forgot the march taken back.
    state.play(0, "march c3 W")
    state.play(0, "take back")  # the spelling people type is forgiven
    state.play(0, "takeback")
    assert state.queue[0] == []
    assert state.budget(0).res[0] == 20  # the trade's food is back
    assert units(state, 0, "c3") == (2, 0)


def test_only_until_the_turn_is_ended() -> None:
    state = _two_seats()
    state.play(0, "trade food for wood")
    state.play(0, "end")
    assert state.legal_actions(0) == []
    with pytest.raises(NotYourDecision):
        state.play(0, "takeback")
    assert len(state.queue[0]) == 1


def test_at_most_take_backs_a_turn_so_a_match_stays_finite() -> None:
    state = _two_seats()
    limit = state.game.rules.take_backs
    assert limit == state.game.rules.max_orders == 6
    for _ in range(limit):
        state.play(0, "trade food for wood")
        state.play(0, "takeback")
    state.play(0, "trade food for wood")
    assert ids.TAKE_BACK not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="at most 6 orders a turn"):
        state.play(0, "takeback")
    # The next turn counts afresh.
    state.play(0, "end")
    state.play(1, "end")
    assert state.turn == 2
    state.play(0, "trade food for wood")
    assert ids.TAKE_BACK in state.legal_actions(0)


def test_a_full_queue_may_still_take_back() -> None:
    state = planning()
    for _ in range(state.game.rules.max_orders):
        state.play(0, "trade food for wood")
    assert state.legal_actions(0) == [ids.END, ids.TAKE_BACK]


def test_the_count_survives_a_round_trip_through_json() -> None:
    state = _two_seats()
    state.play(0, "trade food for wood")
    state.play(0, "takeback")
    data = state.to_json()
    assert data["seats"][0]["taken_back"] == 1
    again = state.game.state_from_json(data)
    assert again.taken_back == [1, 0]
    assert again.to_json() == data


def test_earlier_versions_have_no_take_back() -> None:
    """Version 2's matches play as they did: the same ids, the same number of them."""
    two, three = load_game("maiterra/2", 2), load_game("maiterra/3", 2)
    assert three.num_distinct_actions() == two.num_distinct_actions() + 1 == ids.NUM_ACTIONS
    assert two.max_game_length() < three.max_game_length()
    with pytest.raises(InvalidAction, match="from rules version 3 on"):
        two.parse_action("takeback")
    state = two.new_initial_state(seed=3)
    while state.phase != 2:  # plan
        seat = state.deciding_seats()[0]
        state.apply(seat, state.legal_actions(seat)[-1])
    seat = state.deciding_seats()[0]
    state.apply(seat, next(a for a in state.legal_actions(seat) if a != ids.END))
    assert ids.TAKE_BACK not in state.legal_actions(seat)
    assert "taken_back" not in state.to_json()["seats"][seat]


def test_the_bots_never_take_back() -> None:
    state = _two_seats()
    state.play(0, "trade food for wood")
    legal = state.legal_actions(0)
    assert ids.TAKE_BACK in legal
    assert ids.TAKE_BACK not in maiterra_moves(state, 0, legal)
    heuristic = MaiterraHeuristic()
    assert heuristic.order_score(state, 0, ids.TAKE_BACK) < 0
    for seed in range(20):
        assert heuristic.choose(state, 0, random.Random(seed)) != ids.TAKE_BACK
