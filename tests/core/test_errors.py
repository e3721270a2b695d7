"""Typed errors: stable codes, ValueError subclasses, messages that quote seat, action, reason."""

from __future__ import annotations

import json
import re

import pytest

from meeple.core import (
    GameError,
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidOptions,
    InvalidRecord,
    InvalidSeat,
    InvalidState,
    NotYourDecision,
    UnknownGame,
    load_game,
)
from tests.toygames import ToyTricks

CODES = {
    GameError: "game/error",
    InvalidAction: "action/invalid",
    IllegalAction: "action/illegal",
    NotYourDecision: "action/not_your_decision",
    InvalidSeat: "seat/invalid",
    GameOver: "action/game_over",
    InvalidOptions: "game/invalid_options",
    InvalidState: "state/invalid",
    InvalidRecord: "record/invalid",
    UnknownGame: "game/unknown",
}


@pytest.mark.parametrize(("error_type", "code"), CODES.items())
def test_every_error_is_a_value_error_with_a_stable_code(error_type, code):
    error = error_type("because")
    assert isinstance(error, GameError)
    assert isinstance(error, ValueError)
    assert error.code == code
    assert error.to_json() == {"code": code, "message": "because", "reason": "because"}


def test_codes_are_distinct():
    assert len(set(CODES.values())) == len(CODES)


def test_message_quotes_seat_action_and_reason():
    error = IllegalAction("'3s' is not legal now", seat=1, action=7)
    assert str(error) == "seat 1, action 7: '3s' is not legal now"
    assert (error.seat, error.action, error.reason) == (1, 7, "'3s' is not legal now")
    data = error.to_json()
    assert data["seat"] == 1 and data["action"] == 7 and data["code"] == "action/illegal"
    json.dumps(data)


def test_a_non_json_action_is_quoted_by_repr():
    error = InvalidAction("an action id must be an integer", action=1.5)
    assert "action 1.5" in str(error)
    assert error.to_json()["action"] == "1.5"
    assert InvalidAction("bad", action="zz").to_json()["action"] == "zz"


def test_seat_zero_is_quoted():
    assert str(NotYourDecision("seats [1] decide now", seat=0)).startswith("seat 0: ")


def test_engine_errors_quote_the_input():
    game = load_game("toy_tricks")
    state = game.new_initial_state(0)
    seat = state.current_seat()
    assert seat is not None
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.hands[seat])
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, illegal)
    assert caught.value.seat == seat and caught.value.action == illegal
    assert game.format_action(illegal) in str(caught.value)
    with pytest.raises(NotYourDecision, match=rf"seat {1 - seat}, action"):
        state.apply(1 - seat, state.legal_actions(seat)[0])
    with pytest.raises(
        InvalidSeat, match=re.escape("seat 5, action 0: no such seat; seats run 0..1")
    ) as seat_error:
        state.apply(5, 0)
    assert seat_error.value.seat == 5 and seat_error.value.action == 0
    with pytest.raises(InvalidSeat, match="'x' is not a seat number"):
        state.apply("x", 0)  # type: ignore[arg-type]
    with pytest.raises(InvalidAction, match=re.escape("action 99: action ids run 0..7")):
        state.apply(seat, 99)
    with pytest.raises(InvalidAction, match="a card is a rank digit"):
        game.parse_action("zz")


def test_invalid_options_name_the_option():
    with pytest.raises(InvalidOptions, match=re.escape("'hand' must lie in 1..6, got 9")):
        ToyTricks(options={"hand": 9})
