"""The registry: games by name (latest version) or name/version; unknown ids refused."""

from __future__ import annotations

import pytest

from meeple.core import (
    GameInfo,
    UnknownGame,
    game_class,
    load_game,
    register,
    registered,
)
from meeple.core.registry import _GAMES
from tests.toygames import ToyOrders, ToyTricks


class ToyTricksTwo(ToyTricks):
    info = GameInfo(
        name="toy_tricks",
        version=2,
        title="Toy Tricks, second edition",
        min_seats=2,
        max_seats=2,
        simultaneous=False,
        hidden_information=True,
        chance=True,
        options=ToyTricks.info.options,
    )


@pytest.fixture
def second_edition():
    register(ToyTricksTwo)
    yield ToyTricksTwo
    del _GAMES["toy_tricks/2"]


def test_lookup_by_name_and_by_name_version():
    assert game_class("toy_tricks") is ToyTricks
    assert game_class("toy_tricks/1") is ToyTricks
    assert game_class("toy_orders/1") is ToyOrders


def test_name_alone_finds_the_latest_version(second_edition):
    assert game_class("toy_tricks") is second_edition
    assert game_class("toy_tricks/1") is ToyTricks
    assert game_class("toy_tricks/2") is second_edition


@pytest.mark.parametrize(
    "game_id", ["no_such_game", "toy_tricks/9", "toy_tricks/", "/1", "", "TOY_TRICKS", 7, None]
)
def test_unknown_ids_are_refused(game_id):
    with pytest.raises(UnknownGame):
        game_class(game_id)


def test_unknown_game_lists_what_is_known():
    with pytest.raises(UnknownGame, match="toy_orders/1"):
        load_game("nope")


def test_registering_twice_is_idempotent_but_a_clash_is_an_error():
    assert register(ToyTricks) is ToyTricks

    class Impostor(ToyTricks):
        pass

    with pytest.raises(RuntimeError, match="two games claim the id toy_tricks/1"):
        register(Impostor)
    assert game_class("toy_tricks/1") is ToyTricks


def test_load_game_configures():
    game = load_game("toy_orders", seats=3, options={"rounds": 1})
    assert isinstance(game, ToyOrders)
    assert game.seats == 3 and game.option("rounds") == 1


def test_registered_lists_infos_sorted_by_id():
    ids = [info.id for info in registered()]
    assert ids == sorted(ids)
    assert {"toy_tricks/1", "toy_orders/1"} <= set(ids)
