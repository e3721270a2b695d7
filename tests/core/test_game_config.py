"""OptionSpec and Game configuration: defaults, checks, equality, and what is refused."""

from __future__ import annotations

import json

import pytest

from meeple.core import Game, InvalidOptions, OptionSpec
from tests.toygames import ToyOrders, ToyTricks

SWITCH = OptionSpec("switch", False, "a boolean option")
COUNT = OptionSpec("count", 3, "an integer option", low=1, high=5)
MODE = OptionSpec("mode", "a", "an enumerated option", choices=("a", "b"))
BITS = OptionSpec("bits", 0, "integer choices", choices=(0, 1))
FREE = OptionSpec("free", "x", "any value")


@pytest.mark.parametrize(
    ("spec", "value"),
    [(SWITCH, True), (COUNT, 1), (COUNT, 5), (MODE, "b"), (BITS, 1), (FREE, "y")],
)
def test_allowed_values_pass(spec, value):
    assert spec.check(value) == value


@pytest.mark.parametrize(
    ("spec", "value", "why"),
    [
        (SWITCH, 1, "true or false"),
        (SWITCH, "yes", "true or false"),
        (COUNT, 0, "lie in 1..5"),
        (COUNT, 6, "lie in 1..5"),
        (COUNT, 2.0, "integer"),
        (COUNT, True, "integer"),
        (COUNT, "3", "integer"),
        (MODE, "c", "one of"),
        (MODE, None, "one of"),
        (BITS, True, "one of"),
        (BITS, 1.0, "one of"),
    ],
)
def test_bad_values_are_refused(spec, value, why):
    with pytest.raises(InvalidOptions, match=why):
        spec.check(value)


def test_option_spec_json():
    assert COUNT.to_json() == {
        "name": "count",
        "default": 3,
        "description": "an integer option",
        "low": 1,
        "high": 5,
    }
    assert MODE.to_json()["choices"] == ["a", "b"]
    json.dumps([s.to_json() for s in (SWITCH, COUNT, MODE, BITS, FREE)])


def test_defaults_fill_unset_options_and_seats():
    game = ToyTricks()
    assert game.seats == 2
    assert game.options == {"suits": 2, "ranks": 4, "hand": 3}
    assert ToyTricks(options={"hand": 2}).option("hand") == 2


def test_options_view_is_a_copy():
    game = ToyOrders()
    options = game.options
    options["rounds"] = 99  # type: ignore[index]
    assert game.option("rounds") == 3


def test_equal_configuration_equal_game_and_hash():
    a = ToyOrders(seats=3, options={"rounds": 2})
    b = ToyOrders(seats=3, options={"rounds": 2, "regions": 4})
    assert a == b and hash(a) == hash(b)
    assert a != ToyOrders(seats=2, options={"rounds": 2})
    assert a != ToyOrders(seats=3)
    assert a != ToyTricks()
    assert "seats=3" in repr(a)
    assert a.id == "toy_orders/1"


@pytest.mark.parametrize("seats", [1, 5, 0, -1, True, 2.0, "2"])
def test_bad_seat_counts_are_refused(seats):
    with pytest.raises(InvalidOptions, match="seat"):
        ToyOrders(seats=seats)


@pytest.mark.parametrize(
    ("options", "why"),
    [
        ({"colour": "red"}, "unknown option"),
        ({"rounds": 0}, "lie in 1..4"),
        ({"rounds": "3"}, "integer"),
        ({1: 2, "x": 3}, "unknown option"),
        ([("rounds", 2)], "mapping"),
        ("rounds", "mapping"),
    ],
)
def test_bad_options_are_refused(options, why):
    with pytest.raises(InvalidOptions, match=why):
        ToyOrders(options=options)


def test_cross_option_rules_are_checked():
    with pytest.raises(InvalidOptions, match="cannot deal two hands of 3 from 2"):
        ToyTricks(options={"suits": 1, "ranks": 2})


def test_info_json_describes_the_game():
    data = ToyOrders.info.to_json()
    assert data["id"] == "toy_orders/1"
    assert (data["min_seats"], data["max_seats"], data["simultaneous"]) == (2, 4, True)
    assert [o["name"] for o in data["options"]] == ["regions", "max_orders", "rounds"]
    json.dumps(data)


def test_game_is_abstract():
    with pytest.raises(TypeError):
        Game()  # type: ignore[abstract]


def test_action_json_forms():
    game = ToyTricks()
    assert game.action_to_json(5) == {"id": 5, "text": "2h"}
    for form in (5, "2h", {"id": 5}, {"text": "2h"}, {"id": 5, "text": "2h"}):
        assert game.action_from_json(form) == 5
    for bad in ({"id": 5, "text": "1s"}, {}, [5], None, True, 8, -1, "9z"):
        with pytest.raises(ValueError, match="action"):
            game.action_from_json(bad)
