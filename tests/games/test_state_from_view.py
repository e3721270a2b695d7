"""A state from a seat's view: what a client holding only its seat's view gives a bot.

The key property, for every shipped game, seat count and option, in every phase random play
reaches: for a state ``s`` and each seat ``k``, ``t = state_from_view(game, s.view(k), k,
seed)`` shows ``k`` the same view, gives ``k`` the same legal actions and has the same
deciding seats; and a searching bot can decide on ``t``. Views that are malformed or that no
position gives are refused with one typed error that names the field.

Here the property holds at 30 positions spread over one random match of each configuration
and at any prefix Hypothesis draws; tests/games/test_state_from_view_whole_matches.py holds
it at every position of three whole matches (a file of its own, so that pytest-xdist can run
the two side by side). The configurations and the check are in
tests/games/from_view_checks.py.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.games.from_view_checks import (
    CONFIGS,
    Config,
    check_random_matches,
    check_same_for_the_seat,
    random_positions,
    shipped,
    wire,
)
from tests.toygames import ToyTricks

from meeple.ai import Budget, MctsBot, make_bot
from meeple.core import (
    JSON,
    Game,
    GameError,
    InvalidSeat,
    InvalidView,
    NoStateFromView,
    State,
    kit_for,
    load_game,
    state_from_view,
)
from meeple.testing.strategies import hostile_values, playout_prefixes, seeds


def test_every_shipped_game_builds_states_from_views():
    assert CONFIGS, "importing meeple.games registered no game"
    for info in shipped():
        assert kit_for(info).from_view is not None, info.id


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_state_from_view_shows_the_seat_the_same_view_legal_actions_and_deciding_seats(
    config: Config,
):
    check_random_matches(config, matches=1, most=30)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=seeds())
def test_state_from_view_holds_for_any_prefix_of_any_configuration(data: st.DataObject, seed: int):
    config = data.draw(st.sampled_from(CONFIGS), label="config")
    game = config.game()
    state = data.draw(playout_prefixes(game), label="state")
    seat = data.draw(st.integers(0, game.seats - 1), label="seat")
    check_same_for_the_seat(state, seat, seed)


def _deciding_positions(game: Game, seed: int, count: int) -> list[tuple[State, int]]:
    """``count`` positions of a random match spread over it, each with a seat that decides."""
    positions = [p for p in random_positions(game, seed) if not p.is_terminal()]
    step = max(1, len(positions) // count)
    return [(p, p.deciding_seats()[seed % len(p.deciding_seats())]) for p in positions[::step]][
        :count
    ]


@pytest.mark.parametrize("config", [c for c in CONFIGS if not c.options], ids=str)
def test_a_searching_bot_decides_on_a_state_built_from_a_view(config: Config):
    game = config.game()
    for state, seat in _deciding_positions(game, seed=3, count=4):
        built = state_from_view(game, wire(state.view(seat)), seat, seed=11)
        bot = make_bot("mcts-easy", seed=5)
        assert isinstance(bot, MctsBot)
        action = bot.search(built, seat, Budget(12)).action
        assert action in state.legal_actions(seat)
        state.clone().apply(seat, action)  # the real position takes it too


@pytest.mark.parametrize("config", [c for c in CONFIGS if not c.options], ids=str)
def test_the_same_view_and_seed_give_the_same_state(config: Config):
    game = config.game()
    for state, seat in _deciding_positions(game, seed=4, count=3):
        view = state.view(seat)
        first = state_from_view(game, view, seat, seed=9)
        assert first == state_from_view(game, view, seat, seed=9)


def test_hidden_things_are_drawn_from_the_seed_not_read_from_the_state():
    """Maatatahay's decks lie face down: other seeds deal them in other orders, and the built
    state never copies the real order (the view does not hold it)."""
    game = load_game("maatatahay")
    state = game.new_initial_state(5)
    view = state.view(0)
    decks = {
        json.dumps(state_from_view(game, view, 0, seed).to_json()["decks"]) for seed in range(8)
    }
    assert len(decks) > 1


def test_maiterra_hands_houses_and_sealed_orders_of_other_seats_are_drawn():
    game = load_game("maiterra", seats=3)
    rng = random.Random(2)
    state = game.new_initial_state(2)
    while state.view(None)["phase"] != "plan" or not any(map(len, state.cards)):
        seat = rng.choice(state.deciding_seats())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    built = check_same_for_the_seat(state, 0, seed=1)
    data = built.to_json()
    for other in (1, 2):
        assert data["seats"][other]["queue"] == []
        assert len(data["seats"][other]["cards"]) == len(state.cards[other])


# -- refusals ------------------------------------------------------------------------------


def _a_view(game_id: str = "maatatahay", seats: int = 2) -> tuple[Game, JSON]:
    game = load_game(game_id, seats)
    state = game.new_initial_state(3)
    rng = random.Random(3)
    for _ in range(7):
        seat = rng.choice(state.deciding_seats())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return game, wire(state.view(0))


def test_a_game_without_a_builder_is_refused_with_a_typed_error():
    game = ToyTricks(seats=2)
    with pytest.raises(NoStateFromView, match="cannot build a state"):
        state_from_view(game, game.new_initial_state(1).view(0), 0, 1)


@pytest.mark.parametrize(
    ("change", "quoted"),
    [
        (lambda v: v.pop("board"), "lacks the field 'board'"),
        (lambda v: v.update(board="c3"), "view.board"),
        (lambda v: v.update(decks=[12, 12]), "view.decks[0] counts 12 tiles"),
        (lambda v: v.update(scores=[40, 0]), "view.scores[0] is 40"),
        (lambda v: v.update(seat=1), "view.seat is 1"),
        (lambda v: v.update(round=99), "round"),
        (lambda v: v.update(surprise=True), "unknown field 'surprise'"),
        (lambda v: v["board"][0].update(warrior={"seat": 0}), "view.board[0].warrior"),
    ],
)
def test_a_bad_view_is_refused_with_one_line_quoting_the_field(change: Any, quoted: str):
    game, view = _a_view()
    change(view)
    with pytest.raises(InvalidView) as refused:
        state_from_view(game, view, 0, 1)
    assert quoted in str(refused.value)
    assert "\n" not in str(refused.value)
    assert refused.value.code == "view/invalid"


def test_a_view_of_another_game_or_seat_is_refused():
    game, view = _a_view()
    with pytest.raises(InvalidView):
        state_from_view(load_game("manafields"), view, 0, 1)
    with pytest.raises(InvalidView):
        state_from_view(game, view, 1, 1)  # seat 0's view, read as seat 1's
    with pytest.raises(InvalidSeat):
        state_from_view(game, view, 2, 1)
    with pytest.raises(InvalidView):
        state_from_view(game, [view], 0, 1)  # type: ignore[arg-type]


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_damage_to_a_view_is_refused_as_a_game_error_never_a_crash(data: st.DataObject):
    game_id = data.draw(st.sampled_from(sorted({info.name for info in shipped()})))
    game, view = _a_view(game_id, 2)
    target: Any = view
    path = []
    while isinstance(target, dict | list) and target and data.draw(st.booleans()):
        key = data.draw(
            st.sampled_from(sorted(target) if isinstance(target, dict) else range(len(target)))
        )
        path.append(key)
        if not isinstance(target[key], dict | list):
            break
        target = target[key]
    if isinstance(target, dict | list) and target:
        key = data.draw(
            st.sampled_from(sorted(target) if isinstance(target, dict) else range(len(target)))
        )
        target[key] = data.draw(hostile_values())
    try:
        built = state_from_view(game, view, 0, 1)
    except GameError as refused:
        assert "\n" not in str(refused)
        return
    assert wire(built.view(0)) == view  # a change the view allows (another possible position)
