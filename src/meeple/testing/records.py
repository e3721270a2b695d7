"""Match records: replay equivalence and refusal of malformed records."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from meeple.core import JSON, Game, InvalidRecord, MatchRecord, State
from meeple.testing.playouts import Playout, is_registered
from meeple.testing.support import Where, expect_error, fail, first_difference, guard, json_text


def _replayed(game: Game, record: MatchRecord) -> Iterator[JSON]:
    """``to_json()`` of every state of ``record``, replayed through ``game`` (checked)."""
    if record.start_state is not None:
        state = game.state_from_json(record.start_state)
    else:
        state = game.new_initial_state(record.seed if record.seed is not None else 0)
    yield state.to_json()
    for seat, action in record.actions:
        state.apply(seat, action)
        yield state.to_json()


def _compare_replay(
    game: Game, label: str, replay: Iterator[Any], expected: Sequence[JSON], where: Where
) -> None:
    count = 0
    with guard(game, "replay", where, f"replaying {label}"):
        for index, got in enumerate(replay):
            data = got.to_json() if isinstance(got, State) else got
            if index >= len(expected) or data != expected[index]:
                diff = first_difference(expected[index], data) if index < len(expected) else ""
                fail(game, "replay", f"{label} differs after {index} actions: {diff}", where)
            count += 1
    if count != len(expected):
        fail(game, "replay", f"{label} gave {count} states, not {len(expected)}", where)


def check_replay(playout: Playout) -> None:
    """The playout's record replays to an equal state at every step.

    Checked for the record itself, for ``MatchRecord.loads(record.dumps())``, and for a
    record that starts from the mid-game ``start`` state. Replays go through the game
    under test; when the registry maps its id to its class, also through
    ``MatchRecord.states()`` and ``MatchRecord.replay()``.
    """
    game, record, where = playout.game, playout.record, playout.where
    registered = is_registered(game)
    record = replace(
        record,
        actions=list(record.actions),
        players=[f"seat {seat}" for seat in range(game.seats)],
        meta={"by": "meeple.testing"},
    )
    mid = len(record.actions) // 2
    from_start = MatchRecord.for_game(game, start_state=playout.states[mid])
    from_start.actions = list(record.actions[mid:])
    for label, rec, expected in (
        ("the record", record, playout.states),
        ("the record from a mid-game start", from_start, playout.states[mid:]),
    ):
        with guard(game, "record", where, f"writing and reading {label}"):
            data = rec.to_json(with_notation=registered)
            text = json.dumps(data, allow_nan=False)
            loaded = MatchRecord.loads(text)
        if registered and data.get("notation") != [game.format_action(a) for _, a in rec.actions]:
            fail(game, "record", f"{label} has the wrong notation", where)
        if loaded.to_json(with_notation=False) != json.loads(
            json_text(rec.to_json(with_notation=False))
        ):
            fail(game, "record", f"{label} changes through MatchRecord.loads(dumps())", where)
        _compare_replay(game, label, _replayed(game, rec), expected, where)
        _compare_replay(game, f"{label} after loads()", _replayed(game, loaded), expected, where)
        if registered:
            _compare_replay(game, f"{label}.states()", loaded.states(), expected, where)
            with guard(game, "replay", where, f"{label}.replay()"):
                if loaded.replay() != playout.final:
                    fail(game, "replay", f"{label}.replay() differs from the final state", where)


def check_malformed_records(playout: Playout) -> None:
    """Malformed records are refused with :class:`InvalidRecord`.

    Format, type and field errors must be refused by ``MatchRecord.from_json`` and
    ``loads``. For a registered game, records that parse but cannot be replayed (unknown
    game or version, bad seats or options, out-of-range, illegal or late actions, a broken
    ``start``) must be refused by ``MatchRecord.replay()``.
    """
    game, record, where = playout.game, playout.record, playout.where
    check = "malformed record"
    base = json.loads(json_text(record.to_json(with_notation=False)))
    registered = is_registered(game)
    size = game.num_distinct_actions()
    for label, text in (("not JSON", "not json"), ("truncated JSON", "{"), ("a list", "[]")):
        expect_error(
            game,
            check,
            InvalidRecord,
            f"loads({label})",
            partial(MatchRecord.loads, text),
            where=where,
        )
    for label, mutated, needs_engine in _record_mutations(game, base, size):

        def load_and_replay(data: JSON = mutated, engine: bool = needs_engine) -> None:
            loaded = MatchRecord.from_json(data)
            if engine:
                loaded.replay()

        if needs_engine and not registered:
            continue
        expect_error(
            game, check, InvalidRecord, f"a record with {label}", load_and_replay, where=where
        )


def _record_mutations(game: Game, base: JSON, size: int) -> Iterator[tuple[str, JSON, bool]]:
    def edit(**changes: Any) -> JSON:
        data = json.loads(json.dumps(base))
        for key, value in changes.items():
            if value is _DROP:
                data.pop(key, None)
            else:
                data[key] = value
        return data

    yield "no object", ["meeple-record/1"], False
    yield "no format", edit(format=_DROP), False
    yield "another format", edit(format="meeple-record/999"), False
    yield "no game", edit(game=_DROP), False
    yield "a numeric game", edit(game=7), False
    for seats in (_DROP, "2", True, None, 2.0):
        yield f"seats {seats!r}", edit(seats=seats), False
    bad_options: tuple[object, ...] = ([], "x", 3)
    for options in bad_options:
        yield f"options {options!r}", edit(options=options), False
    for seed in (True, "1", 1.5, -1, 2**53):
        yield f"seed {seed!r}", edit(seed=seed), False
    yield "both seed and start", edit(seed=1, start={}), False
    yield "neither seed nor start", edit(seed=None, start=_DROP), False
    bad_actions: tuple[object, ...] = ("x", {}, 5)
    for actions in bad_actions:
        yield f"actions {actions!r}", edit(actions=actions), False
    for item in ([0], [0, 1, 2], ["0", 1], [True, 0], [0, 1.5], 5, None):
        yield f"action item {item!r}", edit(actions=[item]), False
    bad_players: tuple[object, ...] = ("x", [1], {})
    for players in bad_players:
        yield f"players {players!r}", edit(players=players), False
    yield "meta []", edit(meta=[]), False
    for outcome in ("x", {}, {"winners": "ab", "reason": "r"}, {"winners": [0]}):
        yield f"outcome {outcome!r}", edit(outcome=outcome), False
    info = game.info
    yield "an unknown game", edit(game="no_such_game/1"), True
    yield "an unknown version", edit(game=f"{info.name}/{info.version + 1000}"), True
    yield "too many seats", edit(seats=info.max_seats + 1), True
    yield "zero seats", edit(seats=0), True
    yield "an unknown option", edit(options={"no_such_option": 1}), True
    yield "a seat that does not exist", edit(actions=[[game.seats, 0]]), True
    yield "an out-of-range action", edit(actions=[[0, size]]), True
    yield "a negative action", edit(actions=[[0, -1]]), True
    yield "a broken start", edit(seed=None, start={"\x00": "not a state"}), True
    yield "a start that is a number", edit(seed=None, start=5), True
    actions = base.get("actions", [])
    if actions:
        yield "an action after the end", edit(actions=[*actions, actions[-1]]), True


_DROP = object()
