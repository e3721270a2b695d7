"""The shared field checks of state codecs and record readers (meeple.core.validate)."""

from __future__ import annotations

from typing import Any

import pytest

from meeple.core import InvalidRecord, InvalidState, Rng
from meeple.core.validate import (
    Fields,
    check_can_continue,
    check_depth,
    expect_bool,
    expect_choice,
    expect_int,
    expect_keys,
    expect_list,
    expect_rng,
    expect_str,
)
from tests.toygames import ToyTricks


def nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = {"a": [value]}
    return value


@pytest.mark.parametrize(
    "value",
    [True, False, 1.0, "1", None, [1], 10, -1, 10**5000],
    ids=["true", "false", "float", "text", "null", "list", "above", "below", "huge"],
)
def test_expect_int_takes_integers_in_range_only(value: Any) -> None:
    with pytest.raises(InvalidState, match=r"^x must be an integer in 0\.\.9, got "):
        expect_int(value, "x", 0, 9)
    assert expect_int(9, "x", 0, 9) == 9


@pytest.mark.parametrize("value", [0, 1, "true", None, [True]])
def test_expect_bool_takes_booleans_only(value: Any) -> None:
    with pytest.raises(InvalidState, match="true or false"):
        expect_bool(value, "flag")
    assert expect_bool(False, "flag") is False


def test_refusals_quote_a_short_excerpt_and_take_the_error_type() -> None:
    with pytest.raises(InvalidRecord) as caught:
        expect_str("x" * 1_000_000, "name", error=InvalidRecord)
    assert len(str(caught.value)) < 150
    with pytest.raises(InvalidState) as refused:
        expect_int(10**5000, "n", 0, 1)
    assert "about 5001 digits" in str(refused.value)
    with pytest.raises(InvalidState) as deep:
        expect_choice(nested(10_000), ("a", "b"), "pick")
    assert len(str(deep.value)) < 150


def test_lists_are_measured_before_they_are_read() -> None:
    giant = [0] * 3_000_000
    with pytest.raises(InvalidState, match="lists at most 4 entries, got 3000000"):
        expect_list(giant, "deck", max_len=4)
    with pytest.raises(InvalidState, match="must list 2 entries, got 3"):
        expect_list([1, 2, 3], "pair", length=2)
    with pytest.raises(InvalidState, match="must be a list"):
        expect_list((1, 2), "pair")


def test_keys_must_be_the_formats_own() -> None:
    expect_keys({"a": 1, "b": 2}, "obj", ("a",), ("b",))
    with pytest.raises(InvalidState, match="obj lacks the field 'a'"):
        expect_keys({"b": 1}, "obj", ("a",))
    with pytest.raises(InvalidState, match="obj has an unknown field 'c'"):
        expect_keys({"a": 1, "c": 2}, "obj", ("a",))


def test_fields_name_the_path_of_what_they_read() -> None:
    top = Fields({"seat": {"n": True}, "x": 1}, "state", required=("seat", "x"))
    with pytest.raises(InvalidState, match=r"^state\.seat\.n must be an integer"):
        top.child("seat").integer("n", 0, 3)
    assert top.flag("missing", default=True) is True
    with pytest.raises(InvalidState, match="state lacks the field 'y'"):
        top.need("y")
    assert top.integer_or_none("x", 0, 3) == 1


def test_depth_is_checked_without_recursion() -> None:
    check_depth(nested(5), "v", 32)
    with pytest.raises(InvalidState, match="more than 32 deep"):
        check_depth(nested(100_000), "v", 32)


def test_rng_is_sixteen_lowercase_hex_digits() -> None:
    assert expect_rng("00000000000000ff").state == Rng(255).state
    for bad in ("FF" * 8, "0x" + "0" * 14, " " + "0" * 15, 255, None, "0" * 10_000):
        with pytest.raises(InvalidState, match="16 lowercase hex digits"):
            expect_rng(bad)


def test_a_position_must_be_able_to_go_on() -> None:
    state = ToyTricks().new_initial_state(1)
    check_can_continue(state)
    (seat,) = state.deciding_seats()
    state.hands[seat] = []  # type: ignore[attr-defined]
    with pytest.raises(InvalidState, match=f"seat {seat} must decide but has no legal action"):
        check_can_continue(state)
    with pytest.raises(InvalidRecord, match="no legal action"):
        check_can_continue(state, error=InvalidRecord)
