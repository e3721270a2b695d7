"""Every typed error: raised with the seat, the action and the reason, changing nothing."""

from __future__ import annotations

import copy

import pytest

from meeple.core.errors import (
    GameError,
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidSeat,
    InvalidState,
    NotYourDecision,
)

from .builders import (
    BALAN,
    CHAMPION,
    GAME,
    HUNTER,
    SCOUT,
    WAZU,
    W,
    place,
    position,
)


def refused(state, error, seat, text):
    """Play ``text`` for ``seat``, expect ``error``; the state must not change."""
    before = state.to_json()
    view = state.view(None)
    with pytest.raises(error) as info:
        state.play(seat, text)
    assert state.to_json() == before
    assert state.view(None) == view
    assert isinstance(info.value, GameError)
    return info.value


# -- IllegalAction -------------------------------------------------------------------------


def test_placing_on_an_occupied_space_is_illegal():
    state = position({"c3": W(WAZU, SCOUT)}, to_place=(BALAN, HUNTER))
    error = refused(state, IllegalAction, BALAN, "c3")
    assert error.seat == BALAN
    assert error.action == GAME.parse_action("c3")
    assert str(error).startswith(f"seat 0, action {error.action}: 'c3' is not legal now")
    assert "c3 is taken" in error.reason
    assert error.to_json()["code"] == "action/illegal"


def test_a_relic_without_enough_spirit_crystals_is_illegal():
    state = position(to_place=(BALAN, HUNTER), relics=["c3"], storage=[(4, 0), (0, 0)])
    error = refused(state, IllegalAction, BALAN, "c3 s1")
    assert "seat 0" in str(error) and "'c3 s1'" in str(error)
    assert error.reason.endswith(
        "the relic on c3 costs 4 with at least 1 Spirit crystal; you hold 4 Energy and 0 Spirit"
    )


def test_paying_more_spirit_than_the_relic_costs_is_illegal():
    state = position(
        {"c2": W(BALAN, SCOUT), "c4": W(BALAN, CHAMPION)},
        to_place=(BALAN, HUNTER),
        relics=["c3"],
        storage=[(0, 4), (0, 0)],
    )
    error = refused(state, IllegalAction, BALAN, "c3 s3")
    assert "costs 2" in error.reason


def test_keeping_more_than_storage_holds_is_illegal():
    state = position(to_place=(BALAN, HUNTER), storage=[(1, 1), (0, 0)])
    state.play(BALAN, "c3")
    error = refused(state, IllegalAction, BALAN, "N keep 2e1s")
    assert "seat 0" in str(error) and "'N keep 2e1s'" in str(error)
    assert error.reason.endswith(
        "you cannot keep 2 Energy and 1 Spirit: storage holds 1 Energy and 1 Spirit"
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("pick 1", "pairs are picked in the pick phase; this is the place phase"),
        ("first B", "who places first is chosen in the order phase; this is the place phase"),
        ("N keep 0e0s", "a placement is finished in the finish phase; this is the place phase"),
    ],
)
def test_actions_of_another_phase_are_illegal(text, reason):
    state = position(to_place=(BALAN, HUNTER))
    error = refused(state, IllegalAction, BALAN, text)
    assert error.reason.endswith(reason)


def test_placing_again_before_finishing_is_illegal():
    state = position(to_place=(BALAN, HUNTER))
    state.play(BALAN, "c3")
    error = refused(state, IllegalAction, BALAN, "d4")
    assert "warriors are placed in the place phase; this is the finish phase" in error.reason


def test_picking_a_pair_the_stream_lacks_is_illegal():
    state = position(stream=[(HUNTER, HUNTER)])
    error = refused(state, IllegalAction, BALAN, "pick 2")
    assert "the stream holds 1 pair(s)" in error.reason


def test_a_refused_facing_is_explained_truthfully():
    """ "Place your Warrior on a free space and rotate it in any direction." -- if the engine
    refuses a facing at all, the reason must be about the facing."""
    state = position(to_place=(BALAN, CHAMPION))
    state.play(BALAN, "c3")
    before = state.to_json()
    try:
        state.play(BALAN, "E keep 0e0s")
    except IllegalAction as error:
        assert state.to_json() == before
        assert "fac" in error.reason, error.reason


# -- NotYourDecision -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phase", "seat", "text"),
    [("pick", WAZU, "pick 1"), ("place", WAZU, "c3"), ("order", WAZU, "first B")],
)
def test_a_seat_that_does_not_decide_now_is_refused(phase, seat, text):
    if phase == "pick":
        state = position(active=BALAN)
    elif phase == "place":
        state = position(to_place=(BALAN, HUNTER))
    else:
        state = position(stream=[(SCOUT, HUNTER)], active=WAZU)
        state.play(WAZU, "pick 1")  # Balan's Scout is weaker: Balan decides
    error = refused(state, NotYourDecision, seat, text)
    assert error.seat == seat
    expected = f"seat {seat}, action {GAME.parse_action(text)}: it is Balan's turn"
    assert str(error) == expected
    assert error.to_json()["code"] == "action/not_your_decision"


# -- InvalidSeat ---------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [2, -1, True, "0", None])
def test_a_seat_that_does_not_exist_is_refused(seat):
    state = position(to_place=(BALAN, HUNTER))
    error = refused(state, InvalidSeat, seat, "c3")
    assert "seats run 0..1" in error.reason
    assert error.to_json()["code"] == "seat/invalid"


def test_an_invalid_seat_error_names_the_seat_and_the_action():
    state = position(to_place=(BALAN, HUNTER))
    with pytest.raises(InvalidSeat) as info:
        state.play(2, "c3")
    assert "seat 2" in str(info.value)
    assert str(GAME.parse_action("c3")) in str(info.value) or "'c3'" in str(info.value)


def test_viewing_as_a_seat_that_does_not_exist_is_refused():
    state = position()
    with pytest.raises(InvalidSeat):
        state.view(2)


# -- GameOver ------------------------------------------------------------------------------


def test_playing_after_the_end_is_refused():
    state = position(to_place=(BALAN, SCOUT), second=True, stream=[], decks=[[], []])
    place(state, BALAN, "c3")
    for seat, text in ((BALAN, "pick 1"), (WAZU, "d4")):
        error = refused(state, GameOver, seat, text)
        assert str(error) == f"seat {seat}, action {GAME.parse_action(text)}: the match is over"
        assert error.to_json()["code"] == "action/game_over"


# -- InvalidAction -------------------------------------------------------------------------


def test_garbage_text_is_refused_with_invalid_action():
    state = position(to_place=(BALAN, HUNTER))
    error = refused(state, InvalidAction, BALAN, "place it on c3 please")
    assert "'place it on c3 please'" in str(error)
    assert "not Maatatahay notation" in error.reason


def test_invalid_text_from_a_seat_names_the_seat():
    state = position(to_place=(BALAN, HUNTER))
    with pytest.raises(InvalidAction) as info:
        state.play(WAZU, "zz")
    assert info.value.seat == WAZU
    assert "seat 1" in str(info.value)


@pytest.mark.parametrize("action", [-1, 190, 10_000, True, "c3", 2.0])
def test_ids_outside_the_action_space_are_refused(action):
    state = position(to_place=(BALAN, HUNTER))
    before = state.to_json()
    with pytest.raises(InvalidAction) as info:
        state.apply(BALAN, action)
    assert state.to_json() == before
    assert info.value.action == action


# -- InvalidState --------------------------------------------------------------------------


def good_json():
    return position({"c3": W(BALAN, HUNTER)}, to_place=(WAZU, SCOUT)).to_json()


def spoil(path, value):
    data = copy.deepcopy(good_json())
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("format",), "chess/1", "format 'maatatahay-state/1'"),
        (("phase",), "dance", "phase must be one of"),
        (("round",), 0, "state.round must be an integer in 1..12"),
        (("active",), 2, "active must be an integer in 0..1"),
        (("storage",), [[0, 0]], "state.storage must list 2 entries"),
        (("storage", 0), [1, "x"], "state.storage[0][1] must be an integer"),
        (("board",), [], "state.board must list 25 entries"),
        (("board", 12, "relic"), True, "c3 holds both a relic and a warrior"),
        (("board", 12, "warrior", "tile"), 13, "warrior.tile must be an integer in 1..12"),
        (("board", 12, "warrior", "facing"), "NE", "facing must be one of"),
        (("board", 12, "warrior", "alive"), 1, "warrior.alive must be true or false"),
        (("board", 12, "space"), "c4", "state.board[12].space must be 'c3'"),
        (("pair",), None, "phase place needs the picked pair"),
        (("hot",), "c3", "only the finish phase has a hot tile"),
        (("stream",), [[1, 1]] * 4, "state.stream lists at most 3 entries"),
        (("rng",), "x", "state.rng must be 16 lowercase hex digits"),
        (("lost",), KeyError, "state lacks the field 'lost'"),
    ],
)
def test_malformed_state_json_is_refused_with_invalid_state(path, value, message):
    with pytest.raises(InvalidState) as info:
        GAME.state_from_json(spoil(path, value))
    assert message in str(info.value)
    assert info.value.to_json()["code"] == "state/invalid"


def test_a_warrior_standing_twice_is_refused():
    data = good_json()
    data["board"][13]["warrior"] = dict(data["board"][12]["warrior"])
    with pytest.raises(InvalidState, match="in two places at once"):
        GAME.state_from_json(data)


def test_a_good_state_round_trips():
    data = good_json()
    state = GAME.state_from_json(data)
    assert state.to_json() == data
    assert GAME.state_from_json(state.to_json()) == state
