"""Checks that bad input is refused: actions, seats, hand-ins and state JSON.

Each refusal must be the right typed error and leave the state exactly as it was.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from functools import partial
from typing import Any

from meeple.core import (
    JSON,
    GameError,
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidSeat,
    InvalidState,
    NotYourDecision,
    Seat,
    State,
)
from meeple.testing.checks import check_state
from meeple.testing.support import (
    ConformanceError,
    Where,
    expect_error,
    fail,
    guard,
    json_text,
    snapshot,
)


def check_rejections(state: State, rng: random.Random, *, where: Where | None = None) -> None:
    """Illegal and malformed input is refused with the right error, leaving the state as it was.

    Nonexistent seats give :class:`InvalidSeat`; after the end every seat gets
    :class:`GameOver`; a seat that does not decide gets :class:`NotYourDecision`; a
    deciding seat gets :class:`InvalidAction` for out-of-range ids, booleans, floats,
    strings and None, and :class:`IllegalAction` (quoting seat and action) for an id of
    the game that is not legal now.
    """
    game, check = state.game, "rejection"
    before = snapshot(state)
    deciding = state.deciding_seats()
    size = game.num_distinct_actions()
    some_action = state.legal_actions(deciding[0])[0] if deciding else 0

    def refuse(error_type: type[GameError], seat: Any, action: Any) -> GameError:
        doing = f"apply(seat {seat!r}, action {action!r})"
        error = expect_error(
            game, check, error_type, doing, lambda: state.apply(seat, action), where=where
        )
        if snapshot(state) != before:
            fail(game, check, f"the refused {doing} changed the state", where)
        return error

    for bad_seat in (game.seats, -1, True, None, "0", 0.0):
        refuse(InvalidSeat, bad_seat, some_action)
    if not deciding:
        for seat in range(game.seats):
            refuse(GameOver, seat, some_action)
        return
    for seat in range(game.seats):
        if seat not in deciding:
            refuse(NotYourDecision, seat, some_action)
    seat = rng.choice(deciding)
    legal = state.legal_actions(seat)
    for bad_action in (-1, size, size + 1, True, False, float(legal[0]), str(legal[0]), None):
        refuse(InvalidAction, seat, bad_action)
    legal_set = set(legal)
    for _ in range(3):
        candidates = [rng.randrange(size) for _ in range(20)]
        illegal = next((a for a in candidates if a not in legal_set), None)
        if illegal is None:
            break
        error = refuse(IllegalAction, seat, illegal)
        if error.seat != seat or error.action != illegal:
            fail(game, check, f"IllegalAction does not name seat {seat} and {illegal}", where)
    with guard(game, check, where, "play() with garbage text"):
        expect_error(
            game,
            check,
            InvalidAction,
            f"play({seat}, '\\x00')",
            lambda: state.play(seat, "\x00"),
            where=where,
        )
    if snapshot(state) != before:
        fail(game, check, "a refused play() changed the state", where)


def check_hand_in(
    state: State, *, where: Where | None = None, seats: Sequence[Seat] | None = None
) -> None:
    """``hand_in`` (the turn timer's hook) is refused like ``apply`` or is one legal action.

    Nonexistent seats get :class:`InvalidSeat`, seats after the end :class:`GameOver`,
    seats that do not decide :class:`NotYourDecision`, all leaving the state unchanged. For
    a deciding seat, a game without timed planning refuses with :class:`IllegalAction`;
    otherwise the result must equal applying one of the seat's legal actions, because a
    match record holds only ``[seat, action]`` pairs. ``seats`` limits the deciding seats
    tried this way (default: all of them).
    """
    game, check = state.game, "hand_in"
    before = snapshot(state)

    def refuse(error_type: type[GameError], seat: Any) -> None:
        doing = f"hand_in({seat!r})"
        expect_error(game, check, error_type, doing, partial(state.hand_in, seat), where=where)
        if snapshot(state) != before:
            fail(game, check, f"the refused {doing} changed the state", where)

    for bad_seat in (game.seats, -1, True, None):
        refuse(InvalidSeat, bad_seat)
    deciding = state.deciding_seats()
    for seat in range(game.seats):
        if not deciding:
            refuse(GameOver, seat)
        elif seat not in deciding:
            refuse(NotYourDecision, seat)
    for seat in deciding if seats is None else [s for s in seats if s in deciding]:
        with guard(game, check, where, f"hand_in_action({seat})"):
            try:
                named = state.hand_in_action(seat)
            except IllegalAction:
                named = None
            if named is not None and named not in state.legal_actions(seat):
                fail(game, check, f"hand_in_action({seat}) = {named!r} is not legal", where)
        handed = state.clone()
        with guard(game, check, where, f"hand_in({seat})"):
            try:
                handed.hand_in(seat)
            except IllegalAction:
                if snapshot(handed) != before:
                    fail(game, check, f"a refused hand_in({seat}) changed the state", where)
                continue
        check_state(handed, where=where, deep=False)
        with guard(game, check, where, f"matching hand_in({seat}) to an action"):
            for action in state.legal_actions(seat):
                if state.child(seat, action) == handed:
                    break
            else:
                fail(
                    game,
                    check,
                    f"hand_in({seat}) is no legal action of the seat, so no record can hold it",
                    where,
                )


def check_malformed_states(
    state: State, rng: random.Random, *, where: Where | None = None, mutations: int = 12
) -> None:
    """``state_from_json`` refuses malformed JSON with :class:`InvalidState`.

    Values of another JSON type than ``to_json()`` and empty containers must be refused.
    For mutations of the real JSON (a top-level key dropped, a value swapped for garbage,
    ``mutations`` random deep replacements) the game may refuse with InvalidState or accept,
    but what it accepts must pass :func:`check_state`; any other exception fails.
    """
    game, check = state.game, "malformed state"
    data = state.to_json()
    not_states: tuple[object, ...] = (None, 0, "", [], {}, True, "garbage", 1.5)
    for garbage in not_states:
        if type(garbage) is type(data) and garbage:
            continue
        expect_error(
            game,
            check,
            InvalidState,
            f"state_from_json({garbage!r})",
            partial(game.state_from_json, garbage),
            where=where,
        )
    for label, mutated in _mutations(data, rng, mutations):
        try:
            accepted = game.state_from_json(mutated)
        except InvalidState:
            continue
        except Exception as error:
            fail(
                game,
                check,
                f"state_from_json with {label} raised {type(error).__name__}: {error},"
                " not InvalidState",
                where,
            )
        try:
            check_state(accepted, where=where, deep=False)
        except ConformanceError as error:
            fail(game, check, f"state_from_json accepted {label}, then: {error.detail}", where)


_GARBAGE: tuple[Any, ...] = (None, "\x00", -1, 10**30, 1.5, [], {}, True, [None], {"\x00": 0})


def _mutations(data: JSON, rng: random.Random, count: int) -> Iterator[tuple[str, JSON]]:
    if isinstance(data, dict):
        for key in data:
            mutated = json.loads(json_text(data))
            del mutated[key]
            yield f"key {key!r} dropped", mutated
            for garbage in _GARBAGE:
                mutated = json.loads(json_text(data))
                mutated[key] = garbage
                yield f"{key!r} set to {garbage!r}", mutated
    for _ in range(count):
        mutated = json.loads(json_text(data))
        path = _random_path(mutated, rng)
        if not path:
            continue
        parent = mutated
        for step in path[:-1]:
            parent = parent[step]
        garbage = rng.choice(_GARBAGE)
        parent[path[-1]] = garbage
        yield f"{_path_text(path)} set to {garbage!r}", mutated


def _random_path(data: JSON, rng: random.Random) -> list[Any]:
    path: list[Any] = []
    node = data
    while isinstance(node, dict | list) and node:
        step: Any = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        path.append(step)
        node = node[step]
        if rng.random() < 0.3:
            break
    return path


def _path_text(path: list[Any]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
