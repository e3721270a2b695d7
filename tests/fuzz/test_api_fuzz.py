"""Hostile input at every entry point of every shipped game, along random playouts.

For every game of ``meeple.games`` (its latest version; the conformance kit runs the same
checks on every version) at every seat count, a random
legal prefix of a match (or its end), then random calls of every entry point that takes a
seat, an action id or a notation (:func:`meeple.testing.entry_points`) with random and
hostile values: real seats, seats that do not decide, negative and huge integers, floats,
bools, None, text, bytes, containers. Each call must succeed or raise a typed
:class:`~meeple.core.GameError`; a refusal leaves ``to_json()`` (generator included) as it
was and quotes at most a short excerpt (:func:`meeple.testing.attempt` checks all three).
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple.games
from meeple.core import (
    Game,
    GameInfo,
    GameOver,
    InvalidAction,
    InvalidSeat,
    NotYourDecision,
    State,
    game_class,
    load_game,
    registered,
)
from meeple.testing import (
    HOSTILE_VALUES,
    attempt,
    check_clone_independence,
    check_hostile_inputs,
    entry_points,
    play_random,
)
from meeple.testing.strategies import hostile_values, notations

FUZZ = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


pytestmark = pytest.mark.slow


def _configs() -> list[tuple[str, int]]:
    prefix = meeple.games.__name__ + "."
    latest: dict[str, GameInfo] = {}
    for info in registered():
        if game_class(info.id).__module__.startswith(prefix) and (
            info.name not in latest or latest[info.name].version < info.version
        ):
            latest[info.name] = info
    return [
        (info.id, seats)
        for info in sorted(latest.values(), key=lambda i: i.name)
        for seats in range(info.min_seats, info.max_seats + 1)
    ]


CONFIGS = _configs()
IDS = [f"{game_id}-{seats}p" for game_id, seats in CONFIGS]
ENTRIES = entry_points()
HOSTILE = hostile_values()


@cache
def _game(game_id: str, seats: int) -> Game:
    return load_game(game_id, seats)


@cache
def _notations(game_id: str, seats: int) -> st.SearchStrategy[str]:
    return notations(_game(game_id, seats))


@cache
def _final(game_id: str, seats: int) -> State:
    """The end of one random match (kept: a long match is the dear part of an example)."""
    return play_random(_game(game_id, seats), seed=5, choice_seed=6, check=False).final


def _position(game: Game, seed: int, steps: int, over: bool) -> State:
    """The state after ``steps`` random legal actions, or the end of a match."""
    if over:
        return _final(game.id, game.seats).clone()
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        deciding = state.deciding_seats()
        if not deciding:
            break
        seat = rng.choice(deciding)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def _seats(game: Game, state: State) -> st.SearchStrategy[Any]:
    """A seat that decides, one that does not, or anything at all."""
    real = st.integers(0, game.seats - 1)
    deciding = state.deciding_seats()
    choices = [real, HOSTILE]
    if deciding:
        choices.append(st.sampled_from(deciding))
    return st.one_of(*choices)


def _values(game: Game, state: State, seat: Any) -> st.SearchStrategy[Any]:
    """An action id (legal now, in range, or not), a notation (real or damaged), anything."""
    size = game.num_distinct_actions()
    choices = [
        st.integers(0, size - 1),
        st.integers(-(2**70), 2**70),
        _notations(game.id, game.seats),
        HOSTILE,
    ]
    if type(seat) is int and 0 <= seat < game.seats:
        legal = state.legal_actions(seat)
        if legal:
            choices.append(st.sampled_from(legal))
            choices.append(st.sampled_from(legal).map(game.format_action))
    return st.one_of(*choices)


@pytest.mark.parametrize(("game_id", "seats"), CONFIGS, ids=IDS)
@FUZZ
@given(
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 40),
    over=st.booleans(),
    data=st.data(),
)
def test_every_entry_point_refuses_hostile_input_with_a_typed_error(
    game_id: str, seats: int, seed: int, steps: int, over: bool, data: st.DataObject
) -> None:
    game = _game(game_id, seats)
    state = _position(game, seed, steps, over and steps % 4 == 0)
    for _ in range(data.draw(st.integers(1, 8), label="calls")):
        entry = data.draw(st.sampled_from(ENTRIES), label="entry")
        seat = data.draw(_seats(game, state), label="seat")
        value = data.draw(_values(game, state, seat), label="value")
        attempt(state, entry, seat, value)


@pytest.mark.parametrize(("game_id", "seats"), CONFIGS, ids=IDS)
def test_the_kit_hostile_check_passes_along_a_playout(game_id: str, seats: int) -> None:
    """The kit's fixed list at the opening, a few positions in, and at the end."""
    game = _game(game_id, seats)
    rng = random.Random(game_id)
    for steps in (0, 3, 17):
        check_hostile_inputs(_position(game, 11, steps, over=False), rng)
    check_hostile_inputs(_final(game_id, seats).clone(), rng)


@pytest.mark.parametrize(("game_id", "seats"), CONFIGS, ids=IDS)
@FUZZ
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 60))
def test_a_clone_shares_nothing_mutable(game_id: str, seats: int, seed: int, steps: int) -> None:
    """Changing every list, dict and generator of a clone leaves the original's to_json()
    as it was, and the other way round (Maiterra's clones once shared the map)."""
    game = _game(game_id, seats)
    check_clone_independence(_position(game, seed, steps, over=False))
    if steps % 10 == 0:
        check_clone_independence(_final(game_id, seats).clone())


# -- named cases from the issue ---------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "seats"), CONFIGS, ids=IDS)
def test_minus_one_is_no_seat(game_id: str, seats: int) -> None:
    state = _game(game_id, seats).new_initial_state(3)
    before = state.to_json()
    for call in (
        lambda: state.legal_actions(-1),
        lambda: state.view(-1),
        lambda: state.resample(-1, 0),
        lambda: state.describe_action(-1, 0),
        lambda: state.action_to_string(-1, 0),
        lambda: state.parse_action(-1, "end"),
        lambda: state.apply(-1, 0),
        lambda: state.hand_in(-1),
        lambda: state.legal_actions(True),
        lambda: state.legal_actions(seats),
        lambda: state.view(0.0),  # type: ignore[arg-type]
    ):
        with pytest.raises(InvalidSeat):
            call()
    assert state.to_json() == before


@pytest.mark.parametrize(("game_id", "seats"), CONFIGS, ids=IDS)
def test_describe_action_raises_typed_errors(game_id: str, seats: int) -> None:
    game = _game(game_id, seats)
    state = game.new_initial_state(3)
    size = game.num_distinct_actions()
    for bad in (-1, size, 10**30, 10**5000, 1.0, True, None, "0", b"0"):
        with pytest.raises(InvalidAction):
            state.describe_action(0, bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidSeat):
        state.describe_action(seats, 0)
    for seat in range(seats):  # any real seat and id may be described, legal now or not
        for action in (0, size // 2, size - 1):
            assert isinstance(state.describe_action(seat, action), str)


@pytest.mark.parametrize(("game_id", "seats"), CONFIGS, ids=IDS)
def test_notation_never_echoes_a_megabyte(game_id: str, seats: int) -> None:
    game = _game(game_id, seats)
    for text in ("end " * 300_000, "c3" + "9" * 5000, "march " + "c" * 10_000, "é" * 500):
        for call in (game.parse_action, game.action_from_json):
            with pytest.raises(InvalidAction) as caught:
                call(text)
            assert len(str(caught.value)) < 200
        with pytest.raises(InvalidAction) as caught:
            game.action_from_json({"text": text})
        assert len(str(caught.value)) < 400
    for value in HOSTILE_VALUES:
        if not isinstance(value, str):
            for call in (game.format_action, game.action_to_json, game.parse_action):
                with pytest.raises(InvalidAction):
                    call(value)


@pytest.mark.parametrize(("game_id", "seats"), CONFIGS, ids=IDS)
def test_actions_after_the_end_are_game_over(game_id: str, seats: int) -> None:
    state = _final(game_id, seats).clone()
    before = state.to_json()
    for seat in range(seats):
        with pytest.raises(GameOver):
            state.apply(seat, 0)
        with pytest.raises(GameOver):
            state.hand_in(seat)
        assert state.legal_actions(seat) == []
    assert state.to_json() == before


@pytest.mark.parametrize(("game_id", "seats"), CONFIGS, ids=IDS)
def test_a_seat_out_of_turn_is_refused(game_id: str, seats: int) -> None:
    state = _position(_game(game_id, seats), 9, 5, over=False)
    idle = [s for s in range(seats) if s not in state.deciding_seats()]
    before = state.to_json()
    for seat in idle:
        with pytest.raises(NotYourDecision):
            state.apply(seat, 0)
    assert state.to_json() == before
