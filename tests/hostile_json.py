"""Hostile edits of real state JSON, and the property every ``state_from_json`` must keep.

A state JSON from a random playout is edited the way a broken client, a hand-edited save or
an attacker would: a field's type changed, booleans and integers swapped, integers pushed out
of range or made huge, lists doubled, emptied or made giant, JSON nested thousands deep,
keys dropped or added. Loading the result must give either a state that passes the
conformance checks or :class:`InvalidState` with a short message -- never another exception.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import strategies as st

from meeple.core import JSON, Game, InvalidState, State
from meeple.testing import check_state
from meeple.testing.strategies import playout_prefixes

MAX_MESSAGE = 300


def _deep(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


HUGE_INT = 10**5000
GIANT_LIST = [0] * 200_000
LONG_TEXT = "c3 " * 100_000

REPLACEMENTS: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    -1,
    1,
    2,
    13,
    10**30,
    HUGE_INT,
    -HUGE_INT,
    1.0,
    1.5,
    float("inf"),
    "",
    "x",
    LONG_TEXT,
    [],
    {},
    [None],
    {"x": 1},
    GIANT_LIST,
    _deep(5_000),
)


def _fresh(value: Any) -> Any:
    """A copy of a replacement, so that later edits in place never change the constants."""
    if value is REPLACEMENTS[-1]:
        return _deep(5_000)
    return copy.deepcopy(value)


def _paths(data: Any) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``data`` (the root excluded), not descending into what
    an earlier edit made giant or deep."""
    found: list[tuple[Any, ...]] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while stack:
        node, path = stack.pop()
        if len(path) > 12 or (isinstance(node, list | dict) and len(node) > 1_000):
            continue
        steps: list[Any] = (
            list(node)
            if isinstance(node, dict)
            else list(range(len(node)))
            if isinstance(node, list)
            else []
        )
        for step in steps:
            child = (*path, step)
            found.append(child)
            stack.append((node[step], child))
    return found


def _parent(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path[:-1]:
        data = data[step]
    return data


def _swap(value: Any) -> Any:
    """A boolean for an integer and back, a number for its text and back."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value in (1,) if value in (0, 1) else str(value)
    if isinstance(value, str):
        return 1 if value else 0
    return [value]


@st.composite
def hostile_edit(draw: st.DrawFn, data: JSON) -> tuple[str, JSON]:
    """One hostile edit of ``data``, in place, and a label saying what it was."""
    edited = data
    paths = _paths(edited)
    path = draw(st.sampled_from(paths))
    parent, step = _parent(edited, path), path[-1]
    value = parent[step]
    how = draw(
        st.sampled_from(["replace", "swap", "nudge", "drop", "add", "grow", "shrink", "nest"])
    )
    label = f"{how} at {path!r}"
    if how == "replace":
        parent[step] = _fresh(draw(st.sampled_from(REPLACEMENTS)))
    elif how == "swap":
        parent[step] = _swap(value)
    elif how == "nudge" and isinstance(value, int) and not isinstance(value, bool):
        parent[step] = value + draw(st.sampled_from([-1, 1, 2, -100, 1000, 2**31, 2**63]))
    elif how == "drop":
        del parent[step]
    elif how == "add" and isinstance(parent, dict):
        parent[draw(st.sampled_from(["extra", "\x00", "x" * 300]))] = value
    elif how == "grow" and isinstance(value, list):
        parent[step] = value + (value[:1] or [0]) * draw(st.sampled_from([1, 2, 50, 100_000]))
    elif how == "shrink" and isinstance(value, list | dict) and value:
        if isinstance(value, list):
            value.pop()
        else:
            value.pop(next(iter(value)))
    elif how == "nest":
        parent[step] = _deep(draw(st.sampled_from([2, 50, 5_000]))) if value is None else [value]
    else:
        parent[step] = _fresh(draw(st.sampled_from(REPLACEMENTS)))
        label = f"replace at {path!r}"
    return label, edited


@st.composite
def hostile_states(draw: st.DrawFn, game: Game, *, max_actions: int = 80) -> tuple[str, JSON]:
    """The JSON of a random position of ``game`` after one to three hostile edits."""
    state = draw(playout_prefixes(game, max_actions=max_actions))
    data: JSON = copy.deepcopy(state.to_json())
    labels = []
    for _ in range(draw(st.integers(1, 3))):
        label, data = draw(hostile_edit(data))
        labels.append(label)
    return "; ".join(labels), data


def load_or_refuse(game: Game, data: JSON, label: str = "") -> State | InvalidState:
    """Load ``data``: a state that passes the conformance checks and plays on for a while,
    or a short InvalidState.

    Any other exception (or a long message) fails the calling test.
    """
    try:
        state = game.state_from_json(data)
    except InvalidState as error:
        message = str(error)
        assert len(message) < MAX_MESSAGE, f"{label}: a {len(message)}-character message"
        assert "\n" not in message, f"{label}: a message of several lines"
        return error
    check_state(state, deep=False)
    _play_on(state.clone(), label)
    return state


def _play_on(state: State, label: str, steps: int = 20) -> None:
    """An accepted position neither crashes nor deadlocks in the next ``steps`` actions."""
    choose = random.Random(label)
    for _ in range(steps):
        deciding = state.deciding_seats()
        if not deciding:
            return
        seat = choose.choice(deciding)
        state.apply(seat, choose.choice(state.legal_actions(seat)))
        check_state(state, deep=False)


def refused(data: Any, says: str, *, game: Game) -> None:
    """``game`` refuses ``data`` with a short :class:`InvalidState` that says ``says``."""
    with pytest.raises(InvalidState) as caught:
        game.state_from_json(data)
    message = str(caught.value)
    assert says in message
    assert len(message) < MAX_MESSAGE


def edited(data: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A deep copy of ``data`` with ``changes`` made at its top level."""
    copied = copy.deepcopy(data)
    copied.update(changes)
    return copied
