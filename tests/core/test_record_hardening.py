"""Match records from untrusted files: every bad input is one short InvalidRecord.

Not UTF-8, not JSON, nested thousands deep, integers of thousands of digits, NaN, a game id
without its version, seats and options past the limits, giant lists: each is refused by
``MatchRecord.loads``/``from_json`` with :class:`InvalidRecord` (never a RecursionError, a
ValueError of Python's own or a message that echoes the input).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple.games  # noqa: F401  (registers the games)
from meeple.cli.common import MAX_RECORD_BYTES, read_record
from meeple.core import GameError, InvalidRecord, MatchRecord, load_game
from meeple.core.record import MAX_ACTIONS, MAX_INT_DIGITS
from tests.hostile_json import hostile_edit

MAX_MESSAGE = 300


@pytest.fixture(scope="module")
def base() -> dict[str, Any]:
    game = load_game("maatatahay")
    record = MatchRecord.for_game(game, seed=3)
    state = game.new_initial_state(3)
    for _ in range(6):
        (seat,) = state.deciding_seats()
        action = state.legal_actions(seat)[0]
        state.apply(seat, action)
        record.add(seat, action)
    record.players = ["ada", "bob"]
    record.outcome = None
    data: dict[str, Any] = json.loads(record.dumps())
    return data


def edit(data: dict[str, Any], **changes: Any) -> dict[str, Any]:
    edited = copy.deepcopy(data)
    edited.update(changes)
    return edited


def refused(load: Any, *args: Any) -> InvalidRecord:
    with pytest.raises(InvalidRecord) as caught:
        load(*args)
    message = str(caught.value)
    assert len(message) < MAX_MESSAGE and "\n" not in message, message
    return caught.value


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_the_base_record_loads_and_replays(base: dict[str, Any]) -> None:
    MatchRecord.from_json(base).replay()


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (b'{"format": "meeple-record/1", "game": "caf\xe9"}', "not UTF-8 text: byte 0xe9"),
        (b"\xff\xfe{}", "not UTF-8"),
        ("{nope", "not JSON"),
        (deep(100_000), "more than 32 deep"),
        ('{"meta": ' + deep(900) + "}", "more than 32 deep"),
        ('{"seed": ' + "9" * 5_000 + "}", "integer of 5000 digits"),
        ('{"seed": ' + "9" * (MAX_INT_DIGITS + 1) + "}", f"at most {MAX_INT_DIGITS}"),
        ('{"seed": NaN}', "NaN, which is not JSON"),
        ('{"seed": -Infinity}', "-Infinity, which is not JSON"),
    ],
)
def test_text_that_is_no_record_is_refused(text: str | bytes, says: str) -> None:
    error = refused(MatchRecord.loads, text)
    assert says in str(error)


def test_a_bare_game_id_names_the_versions(base: dict[str, Any]) -> None:
    error = refused(MatchRecord.from_json, edit(base, game="maiterra"))
    assert "lacks the rules version" in str(error)
    assert "'maiterra/1', 'maiterra/2' or 'maiterra/3'" in str(error)
    error = refused(MatchRecord.from_json, edit(base, game="maatatahay"))
    assert "write it as 'maatatahay/1'" in str(error)
    assert "name/version" in str(refused(MatchRecord.from_json, edit(base, game="chess")))
    assert "name/version" in str(refused(MatchRecord.from_json, edit(base, game="maiterra/x")))


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"game": "m" * 10_000}, "record.game must be a string of at most 100"),
        ({"seats": True}, "record.seats must be an integer"),
        ({"seats": 10**30}, "record.seats must be an integer in 1..64"),
        ({"options": {"x" * 100_000: 1}}, "an option name"),
        ({"options": {"teams": "1" * 100_000}}, "record.options.teams must be a string"),
        ({"options": {"teams": [1]}}, "must be text, an integer or true/false"),
        ({"options": {f"o{n}": 1 for n in range(100)}}, "more than 32 options"),
        ({"seed": 2**60}, "record.seed must be an integer in 0..9007199254740991"),
        ({"actions": [[0, 0]] * (MAX_ACTIONS + 1)}, f"at most {MAX_ACTIONS} entries"),
        ({"actions": [[-1, 0]]}, "action #0's seat must be an integer"),
        ({"actions": [[0, 2**40]]}, "action #0's action must be an integer"),
        ({"actions": [[0, True]]}, "action #0's action must be an integer"),
        ({"actions": [[0]]}, "action #0 must be [seat, action]"),
        ({"players": ["ada", "bob", "cy"]}, "record.players lists at most 2"),
        ({"players": ["x" * 10_000, "bob"]}, "record.players[0] must be a string"),
        ({"outcome": {"winners": ["x"], "reason": "r"}}, "record.outcome.winners[0]"),
        ({"outcome": {"winners": [0], "reason": "r", "scores": "ab"}}, "scores must be a list"),
        ({"outcome": {"winners": [0], "reason": "r", "scores": [True]}}, "must be a number"),
        ({"outcome": {"winners": [0]}}, "record.outcome lacks the field 'reason'"),
        ({"meta": [1] * 1_000_000}, "record.meta must be an object"),
    ],
)
def test_fields_past_the_limits_are_refused(
    base: dict[str, Any], changes: dict[str, Any], says: str
) -> None:
    error = refused(MatchRecord.from_json, edit(base, **changes))
    assert says in str(error)


def test_a_seat_out_of_range_is_refused_at_replay(base: dict[str, Any]) -> None:
    record = MatchRecord.from_json(edit(base, actions=[[7, 0]]))
    assert "no such seat" in str(refused(record.replay))


def test_a_start_state_past_the_limits_is_refused_at_replay(base: dict[str, Any]) -> None:
    start = load_game("maatatahay").new_initial_state(3).to_json()
    start["decks"][0] = [1] * 3_000_000
    record = MatchRecord.from_json(edit(base, seed=None, start=start))
    assert "state.decks[0] lists at most 12 entries" in str(refused(record.replay))


def test_read_record_names_the_file_and_refuses_what_is_no_record(tmp_path: Path) -> None:
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"game": "café"}'.encode("latin-1"))
    error = refused(read_record, latin)
    assert "latin.json" in str(error) and "not UTF-8" in str(error)
    assert "cannot read" in str(refused(read_record, tmp_path / "missing.json"))
    assert "cannot read" in str(refused(read_record, tmp_path))
    big = tmp_path / "big.json"
    with big.open("wb") as file:
        file.truncate(MAX_RECORD_BYTES + 1)
    assert "larger than a record may be" in str(refused(read_record, big))
    long_name = tmp_path / ("n" * 200)
    assert len(str(refused(read_record, long_name))) < 120


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_hostile_edits_of_a_record_load_or_are_refused(
    base: dict[str, Any], data: st.DataObject
) -> None:
    edited: Any = copy.deepcopy(base)
    for _ in range(data.draw(st.integers(1, 3))):
        _, edited = data.draw(hostile_edit(edited))
    try:
        record = MatchRecord.from_json(edited)
        record.replay()
    except InvalidRecord as error:
        assert len(str(error)) < MAX_MESSAGE and "\n" not in str(error)
    except GameError as error:  # pragma: no cover - the failure this test looks for
        pytest.fail(f"{type(error).__name__} instead of InvalidRecord: {error}")
