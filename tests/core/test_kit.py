"""Each game's one registration: the kit, its parts, and the game id parsed in one place."""

from __future__ import annotations

import dataclasses
import random

import pytest

import meeple.games
from meeple.core import GameId, GameKit, UnknownGame, kit_for, load_game, register_kit
from meeple.core.events import GAME_OVER, EventKind
from meeple.core.kit import (
    FINAL_RETURNS,
    BoardDrawing,
    DrawingModule,
    Rollout,
    ScaledEvaluator,
    TensorModule,
    keep_all,
)
from meeple.core.lookahead import GreedyHeuristic
from meeple.core.registry import registered_kits
from tests.toygames import TOY_TRICKS_KIT, ToyOrders, ToyTricks

SHIPPED = [kit for kit in registered_kits() if kit.games[0].__module__.startswith("meeple.games.")]


def test_the_three_games_register_one_kit_each() -> None:
    assert [kit.name for kit in SHIPPED] == sorted(meeple.games.__all__)


@pytest.mark.parametrize("kit", SHIPPED, ids=lambda kit: kit.name)
def test_a_shipped_kits_modules_load(kit: GameKit) -> None:
    assert isinstance(kit.draw, DrawingModule)
    assert isinstance(kit.draw.load(), BoardDrawing)
    assert isinstance(kit.tensor, TensorModule)
    game = load_game(kit.name)
    writer = kit.tensor(game)
    state = game.new_initial_state(1)
    assert writer.observe(state, 0).shape == (writer.size,)
    assert kit.draw.board(state.view(0)) is not None


@pytest.mark.parametrize("kit", SHIPPED, ids=lambda kit: kit.name)
def test_a_shipped_kit_knows_every_version_and_state(kit: GameKit) -> None:
    for cls in kit.games:
        assert kit_for(cls.info.id) is kit
        assert kit_for(cls()) is kit
        assert kit_for(cls().new_initial_state(0)) is kit
        assert kit_for(GameId.parse(cls.info.id)) is kit
        assert kit_for(cls.info) is kit


@pytest.mark.parametrize(
    ("text", "parsed"),
    [("maiterra", GameId("maiterra")), ("maiterra/2", GameId("maiterra", 2))],
)
def test_a_game_id_parses_in_one_place(text: str, parsed: GameId) -> None:
    assert GameId.parse(text) == parsed
    assert str(parsed) == text


@pytest.mark.parametrize("text", ["", "/1", "maiterra/", "maiterra/0", "maiterra/x", 7, None])
def test_a_malformed_game_id_is_a_typed_error(text: object) -> None:
    with pytest.raises(UnknownGame):
        GameId.parse(text)


def test_a_game_without_a_kit_is_an_error_not_a_fallback() -> None:
    with pytest.raises(UnknownGame, match="no kit registered for the game 'nosuchgame'"):
        kit_for("nosuchgame")


def test_a_kit_holds_only_its_own_games_and_not_none() -> None:
    with pytest.raises(ValueError, match="names no game class"):
        dataclasses.replace(TOY_TRICKS_KIT, games=())
    with pytest.raises(ValueError, match="a game called 'toy_orders'"):
        dataclasses.replace(TOY_TRICKS_KIT, games=(ToyTricks, ToyOrders))


@pytest.mark.parametrize("kit", SHIPPED, ids=lambda kit: kit.name)
def test_a_shipped_kit_lists_its_events_and_the_match_ends_in_game_over(kit: GameKit) -> None:
    assert kit.events["game_over"] == GAME_OVER
    assert all(entry.fields.get("seat") for entry in kit.events.values())


def test_an_event_field_of_no_json_type_is_refused_at_construction() -> None:
    wrong = {"played": EventKind("A seat played a card.", {"seat": "integer", "card": "text"})}
    with pytest.raises(ValueError, match="the event 'played' gives its field 'card' the type"):
        dataclasses.replace(TOY_TRICKS_KIT, events=wrong)
    either = {"played": EventKind("A seat played.", {"seat": "integer|null", "card": "string?"})}
    assert dataclasses.replace(TOY_TRICKS_KIT, events=either).events == either


def test_two_different_kits_cannot_claim_one_game() -> None:
    other = dataclasses.replace(TOY_TRICKS_KIT, evaluator=ScaledEvaluator(lambda s, seat: 0.0))
    with pytest.raises(RuntimeError, match="two kits claim the game 'toy_tricks'"):
        register_kit(other)
    assert register_kit(TOY_TRICKS_KIT) is TOY_TRICKS_KIT  # the same kit again is fine


def test_the_generic_parts() -> None:
    state = ToyTricks().new_initial_state(2)
    seat = state.deciding_seats()[0]
    legal = state.legal_actions(seat)
    assert keep_all(state, seat, legal) == legal
    assert FINAL_RETURNS(state, seat) == 0.0
    assert GreedyHeuristic(FINAL_RETURNS).choose(state, seat, random.Random(1)) in legal
    with pytest.raises(ValueError, match="must not be negative"):
        Rollout(playout_limit=-1)
    with pytest.raises(ValueError, match="must be positive"):
        ScaledEvaluator(FINAL_RETURNS, scale=0.0)


def test_a_drawing_module_without_a_drawing_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="defines no DRAWING"):
        DrawingModule("meeple.core.kit").load()
    with pytest.raises(TypeError, match="defines no writer"):
        TensorModule("meeple.core.kit")(ToyTricks())
