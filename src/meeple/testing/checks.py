"""Checks on one game or one state: invariants, clones, notation, views.

Each ``check_*`` function returns quietly or raises :class:`ConformanceError` naming the
game, the check, where it ran (seeds and step) and what went wrong. None of them uses
``assert``, so they work under ``python -O``; none changes the state it is given.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from functools import partial
from itertools import pairwise
from typing import Any

from meeple.core import Action, GameError, InvalidAction, Outcome, State
from meeple.core.game import Game
from meeple.testing.support import (
    ConformanceError,
    Where,
    expect_error,
    fail,
    first_difference,
    guard,
    json_text,
    non_json_path,
    random_move,
    scramble,
    snapshot,
)

_EXHAUSTIVE_LIMIT = 20_000
"""Games with at most this many action ids get every id checked; larger ones a sample."""


# -- invariants -----------------------------------------------------------------------------


def check_state(state: State, *, where: Where | None = None, deep: bool = True) -> None:
    """The invariants every state must keep.

    Deciding seats are distinct seats of the match, empty exactly when the match is over
    (and at most one unless the game is simultaneous); a deciding seat's legal actions are
    non-empty, ascending, duplicate free and inside ``range(num_distinct_actions())``; other
    seats' lists are empty; ``returns()`` has one entry per seat, all zero before the end;
    ``outcome()`` is None exactly while the match goes on; every seat's ``view`` and
    ``view(None)`` are JSON-serialisable; ``to_json()`` is plain JSON and
    ``state_from_json`` of its text gives back an equal state.

    With ``deep``, it also checks that neither the views, nor ``to_json()``, nor the JSON
    given to ``state_from_json`` share mutable parts with a state.
    """
    game = state.game
    check = "invariants"
    with guard(game, check, where, "reading the state"):
        _check_deciding(state, where)
        _check_results(state, where)
        for seat in [*range(game.seats), None]:
            view = state.view(seat)
            try:
                json_text(view)
            except (TypeError, ValueError) as error:
                fail(game, check, f"view({seat}) is not JSON-serialisable: {error}", where)
        _check_to_json(state, where, deep=deep)
        if deep:
            before = snapshot(state)
            for seat in [*range(game.seats), None]:
                scramble(state.view(seat))
            scramble(state.to_json())
            if snapshot(state) != before:
                fail(game, "aliasing", "emptying a view or to_json() changed the state", where)


def _check_deciding(state: State, where: Where | None) -> None:
    game, check = state.game, "invariants"
    deciding = state.deciding_seats()
    if not isinstance(deciding, tuple):
        fail(game, check, f"deciding_seats() must be a tuple, got {deciding!r}", where)
    if len(set(deciding)) != len(deciding) or not all(
        isinstance(s, int) and not isinstance(s, bool) and 0 <= s < game.seats for s in deciding
    ):
        fail(game, check, f"deciding_seats() {deciding!r} are not distinct seats", where)
    if len(deciding) > 1 and not game.info.simultaneous:
        fail(game, check, f"seats {deciding} decide at once but info.simultaneous is false", where)
    if state.is_terminal() != (not deciding):
        fail(game, check, f"is_terminal() disagrees with deciding_seats() {deciding}", where)
    expected_current = deciding[0] if len(deciding) == 1 else None
    if state.current_seat() != expected_current:
        fail(game, check, f"current_seat() is {state.current_seat()!r}", where)
    size = game.num_distinct_actions()
    for seat in range(game.seats):
        legal = state.legal_actions(seat)
        if not isinstance(legal, list):
            fail(game, check, f"legal_actions({seat}) is not a list: {legal!r}", where)
        if seat not in deciding:
            if legal:
                fail(game, check, f"seat {seat} does not decide but has legal {legal[:10]}", where)
            continue
        if not legal:
            fail(game, check, f"deciding seat {seat} has no legal actions", where)
        if not all(isinstance(a, int) and not isinstance(a, bool) for a in legal):
            fail(game, check, f"legal_actions({seat}) holds non-integers: {legal[:10]}", where)
        if any(b <= a for a, b in pairwise(legal)):
            fail(game, check, f"legal_actions({seat}) is not strictly ascending: {legal}", where)
        if legal[0] < 0 or legal[-1] >= size:
            fail(game, check, f"legal_actions({seat}) leaves range({size}): {legal}", where)


def _check_results(state: State, where: Where | None) -> None:
    game, check = state.game, "invariants"
    over = state.is_terminal()
    outcome = state.outcome()
    returns = state.returns()
    if not isinstance(returns, list) or len(returns) != game.seats:
        fail(game, check, f"returns() must list {game.seats} numbers, got {returns!r}", where)
    if not all(isinstance(r, int | float) and math.isfinite(r) for r in returns):
        fail(game, check, f"returns() holds non-finite or non-numbers: {returns}", where)
    if not over:
        if outcome is not None:
            fail(game, check, f"outcome() is {outcome!r} before the end", where)
        if any(r != 0 for r in returns):
            fail(game, check, f"returns() is {returns} before the end, not all zero", where)
        return
    if not isinstance(outcome, Outcome):
        fail(game, check, f"outcome() is {outcome!r} after the end", where)
    if not all(isinstance(s, int) and 0 <= s < game.seats for s in outcome.winners):
        fail(game, check, f"outcome winners {outcome.winners} are not seats", where)
    try:
        text = json_text(outcome.to_json())
    except (TypeError, ValueError) as error:
        fail(game, check, f"outcome.to_json() is not JSON-serialisable: {error}", where)
    if Outcome.from_json(json.loads(text)) != outcome:
        fail(game, check, f"outcome {outcome!r} does not survive its JSON", where)


def _check_to_json(state: State, where: Where | None, *, deep: bool) -> None:
    game, check = state.game, "invariants"
    data = state.to_json()
    bad = non_json_path(data)
    if bad is not None:
        fail(game, check, f"to_json() is not plain JSON at {bad}", where)
    text = json_text(data)
    parsed = json.loads(text)
    try:
        restored = game.state_from_json(parsed)
    except GameError as error:
        fail(game, check, f"state_from_json(to_json()) rejects the state: {error}", where)
    if not isinstance(restored, State) or restored.game != game:
        fail(game, check, f"state_from_json gave {restored!r} for another game", where)
    if restored != state:
        diff = first_difference(restored.to_json(), data)
        fail(game, check, f"state_from_json(to_json()) differs from the state: {diff}", where)
    if deep:
        scramble(parsed)
        if snapshot(restored) != text:
            fail(game, "aliasing", "the state from state_from_json shares its input", where)


# -- clones ---------------------------------------------------------------------------------


def check_clone(state: State, rng: random.Random, *, where: Where | None = None) -> None:
    """A clone equals its original, and moving either one leaves the other as it was."""
    game, check = state.game, "clone"
    with guard(game, check, where, "cloning and applying"):
        before = snapshot(state)
        copy = state.clone()
        if copy is state or type(copy) is not type(state) or copy != state:
            fail(game, check, "clone() is not an equal, separate state of the same type", where)
        if state.is_terminal():
            return
        seat, action = random_move(copy, rng)
        copy.apply(seat, action)
        if snapshot(state) != before:
            fail(
                game, check, f"applying seat {seat} {action} to a clone changed the original", where
            )
        original = state.clone()
        second = original.clone()
        original.apply(seat, action)
        if snapshot(second) != before:
            fail(game, check, f"applying seat {seat} {action} to a state changed its clone", where)
        child = state.child(seat, action)
        if snapshot(state) != before or child != copy:
            fail(game, check, "child() changed the state or differs from clone + apply", where)
    check_clone_independence(state, where=where)


def _attributes(state: State) -> list[tuple[str, Any]]:
    """Every attribute a state holds: its slots (through the class hierarchy) and ``__dict__``."""
    names: list[str] = []
    for cls in type(state).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        names.extend([slots] if isinstance(slots, str) else slots)
    names.extend(getattr(state, "__dict__", {}))
    found = []
    for name in dict.fromkeys(names):
        if name in ("__dict__", "__weakref__"):
            continue
        try:
            found.append((name, getattr(state, name)))
        except AttributeError:
            continue
    return found


def _mess_up(value: Any) -> None:
    """Change ``value`` in place however its type allows: empty lists, dicts, sets and
    bytearrays (inside tuples too), draw from a generator."""
    if isinstance(value, tuple):
        for item in value:
            _mess_up(item)
    elif isinstance(value, list | dict):
        scramble(value)
    elif isinstance(value, set | bytearray):
        value.clear()
    elif hasattr(value, "next_u64"):
        value.next_u64()


def check_clone_independence(state: State, *, where: Where | None = None) -> None:
    """A clone shares nothing mutable with its original, in either direction.

    Every attribute of a clone (every list, dict, set and bytearray in it, and its
    generator) is changed in place; the original's ``to_json()`` must not move. Then the
    same is done to the attributes of a copy, and its own clone must not move. The game
    object is shared on purpose (it is immutable) and is left alone. Catches what a random
    move cannot: a part no action ever changes, such as a map, shared by a clone.
    """
    game, check = state.game, "clone"
    with guard(game, check, where, "changing every attribute of a clone"):
        before = snapshot(state)
        for name, value in _attributes(state.clone()):
            if name != "game":
                _mess_up(value)
        if snapshot(state) != before:
            changed = _shared_attribute(state, before)
            fail(game, check, f"changing a clone's {changed} changed the original", where)
        original = state.clone()
        copy = original.clone()
        for name, value in _attributes(original):
            if name != "game":
                _mess_up(value)
        if snapshot(copy) != before:
            fail(game, check, "changing a state's attributes changed its clone", where)


def _shared_attribute(state: State, before: str) -> str:
    """The first attribute whose change in a clone shows in its original, found on fresh
    states rebuilt from ``before`` (for the message)."""
    restore = json.loads(before)
    for name, _ in _attributes(state):
        if name == "game":
            continue
        probe = state.game.state_from_json(restore)
        for other, value in _attributes(probe.clone()):
            if other == name:
                _mess_up(value)
        if snapshot(probe) != before:
            return f"'{name}'"
    return "attributes"


# -- notation -------------------------------------------------------------------------------


def check_action_notation(
    game: Game, actions: Sequence[Action] | None = None, *, where: Where | None = None
) -> None:
    """Notation and JSON round trips for ``actions`` (default: every id, or a large sample).

    For each id ``a``: ``parse_action(format_action(a)) == a`` and
    ``action_from_json(action_to_json(a)) == a`` (also through JSON text). Out-of-range ids,
    booleans, floats and None are refused by ``format_action``, ``action_to_json`` and
    ``action_from_json`` with :class:`InvalidAction`; so is garbage text by ``parse_action``.
    """
    check = "notation"
    size = game.num_distinct_actions()
    if actions is None:
        if size <= _EXHAUSTIVE_LIMIT:
            actions = range(size)
        else:
            actions = sorted(random.Random(size).sample(range(size), _EXHAUSTIVE_LIMIT))
    for action in actions:
        with guard(game, check, where, f"round-tripping action {action}"):
            text = game.format_action(action)
            if not isinstance(text, str) or not text:
                fail(game, check, f"format_action({action}) gave {text!r}", where)
            back = game.parse_action(text)
            if back != action:
                fail(game, check, f"format_action({action}) = {text!r} parses as {back}", where)
            data = game.action_to_json(action)
            bad = non_json_path(data)
            if bad is not None:
                fail(game, check, f"action_to_json({action}) is not plain JSON at {bad}", where)
            for form in (data, json.loads(json_text(data)), action, text):
                back = game.action_from_json(form)
                if back != action:
                    fail(
                        game, check, f"action_from_json({form!r}) gives {back}, not {action}", where
                    )
    malformed: list[Any] = [-1, size, size + 7, True, False, 1.5, None]
    for bad_action in malformed:
        for name, method in (
            ("format_action", game.format_action),
            ("action_to_json", game.action_to_json),
            ("action_from_json", game.action_from_json),
        ):
            expect_error(
                game,
                check,
                InvalidAction,
                f"{name}({bad_action!r})",
                partial(method, bad_action),
                where=where,
            )
    garbage_text: tuple[object, ...] = ("", "\x00", "\x00garbage\x00", None, 17)
    for bad_text in garbage_text:
        expect_error(
            game,
            check,
            InvalidAction,
            f"parse_action({bad_text!r})",
            partial(game.parse_action, bad_text),  # type: ignore[arg-type]
            where=where,
        )


def check_state_notation(state: State, *, where: Where | None = None) -> None:
    """Every legal action round-trips through the game's and the state's notation."""
    game, check = state.game, "notation"
    for seat in state.deciding_seats():
        for action in state.legal_actions(seat):
            with guard(game, check, where, f"notation of seat {seat} action {action}"):
                text = state.action_to_string(seat, action)
                if not isinstance(text, str) or not text:
                    fail(game, check, f"action_to_string({seat}, {action}) gave {text!r}", where)
                back = state.parse_action(seat, text)
                if back != action:
                    fail(
                        game, check, f"state notation {text!r} of {action} parses as {back}", where
                    )
                if game.parse_action(game.format_action(action)) != action:
                    fail(game, check, f"format/parse_action does not round-trip {action}", where)
                if game.action_from_json(game.action_to_json(action)) != action:
                    fail(game, check, f"action JSON does not round-trip {action}", where)
                if not isinstance(state.describe_action(seat, action), str):
                    fail(game, check, f"describe_action({seat}, {action}) is not text", where)


# -- views and resampling -------------------------------------------------------------------


def check_view_leakage(
    state: State,
    *,
    seeds: Sequence[int] = (1, 2),
    where: Where | None = None,
    play_out: random.Random | None = None,
) -> bool:
    """A seat's view does not change when only what it cannot see is redrawn.

    For every seat and seed, ``state.resample(seat, seed)`` must leave ``state`` unchanged,
    show the seat the same ``view(seat)`` and the same legal actions, and be a valid state
    (:func:`check_state`); with ``play_out`` (a ``random.Random``), the first resampled
    state is also played to the end. Returns whether any resample changed the full ``to_json()``.
    """
    game = state.game
    before = snapshot(state)
    changed = played_out = False
    for seat in range(game.seats):
        own = json.loads(json_text(state.view(seat)))
        legal = state.legal_actions(seat)
        for seed in seeds:
            with guard(game, "view leakage", where, f"resample({seat}, {seed})"):
                other = state.resample(seat, seed)
            if snapshot(state) != before:
                fail(game, "resample", f"resample({seat}, {seed}) changed the state", where)
            if other is state or not isinstance(other, State) or other.game != game:
                fail(game, "resample", f"resample({seat}, {seed}) is not a new state", where)
            seen = json.loads(json_text(other.view(seat)))
            if seen != own:
                diff = first_difference(own, seen)
                fail(
                    game,
                    "view leakage",
                    f"view({seat}) changes when resample({seat}, {seed}) redraws what seat"
                    f" {seat} cannot see, so the view shows it: {diff}",
                    where,
                )
            if other.legal_actions(seat) != legal:
                fail(game, "view leakage", f"resample({seat}, {seed}) changes its legal", where)
            try:
                check_state(other, where=where, deep=False)
                if play_out is not None and not played_out:
                    play_to_end(other.clone(), play_out, where=where)
                    played_out = True
            except ConformanceError as error:
                fail(
                    game,
                    "resample",
                    f"resample({seat}, {seed}) is broken ({error.check}): {error.detail}",
                    where,
                )
            changed = changed or snapshot(other) != before
    return changed


def play_to_end(state: State, rng: random.Random, *, where: Where | None = None) -> State:
    """Apply random legal moves (checked) until the end.

    Who decides, the legal lists and the results are checked at every step, the full
    :func:`check_state` at the end.
    """
    game = state.game
    for _ in range(game.max_game_length() + 1):
        with guard(game, "invariants", where, "reading the state"):
            _check_deciding(state, where)
            _check_results(state, where)
        if state.is_terminal():
            check_state(state, where=where, deep=False)
            return state
        seat, action = random_move(state, rng)
        with guard(game, "playout", where, f"apply({seat}, {action})"):
            state.apply(seat, action)
    fail(game, "max_game_length", f"no end after max_game_length() = {game.max_game_length()}")
