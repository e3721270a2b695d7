"""A state from a seat's view: what a client holding only its seat's view gives a bot.

The key property, for every shipped game, seat count and option, in every phase random play
reaches: for a state ``s`` and each seat ``k``, ``t = state_from_view(game, s.view(k), k,
seed)`` shows ``k`` the same view, gives ``k`` the same legal actions and has the same
deciding seats; and a searching bot can decide on ``t``. Views that are malformed or that no
position gives are refused with one typed error that names the field.
"""

from __future__ import annotations

import json
import random
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.toygames import ToyTricks

import meeple.games
from meeple.ai import Budget, MctsBot, make_bot
from meeple.core import (
    JSON,
    Game,
    GameError,
    GameInfo,
    InvalidOptions,
    InvalidSeat,
    InvalidView,
    NoStateFromView,
    State,
    game_class,
    kit_for,
    load_game,
    registered,
    state_from_view,
)
from meeple.testing.strategies import hostile_values, playout_prefixes, seeds


def _shipped() -> list[GameInfo]:
    prefix = meeple.games.__name__ + "."
    return [info for info in registered() if game_class(info.id).__module__.startswith(prefix)]


class Config(NamedTuple):
    game_id: str
    seats: int
    options: dict[str, Any]

    def __str__(self) -> str:
        options = ",".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.game_id}-{self.seats}p" + (f"-{options}" if options else "")

    def game(self) -> Game:
        return load_game(self.game_id, self.seats, self.options)


def _configs() -> list[Config]:
    """Every shipped game (each rules version) at every seat count, and each option's other
    values at the fewest seats that take them."""
    configs = []
    for info in _shipped():
        for seats in range(info.min_seats, info.max_seats + 1):
            configs.append(Config(info.id, seats, {}))
        for spec in info.options:
            values = list(spec.choices or ()) if spec.choices else []
            if spec.choices is None and isinstance(spec.default, bool):
                values = [not spec.default]
            for value in values:
                if value == spec.default:
                    continue
                for seats in range(info.min_seats, info.max_seats + 1):
                    try:
                        load_game(info.id, seats, {spec.name: value})
                    except InvalidOptions:
                        continue
                    configs.append(Config(info.id, seats, {spec.name: value}))
                    break
    return configs


CONFIGS = _configs()


def _wire(view: JSON) -> JSON:
    """The view as a client reads it off the socket."""
    loaded: JSON = json.loads(json.dumps(view))
    return loaded


def check_same_for_the_seat(state: State, seat: int, seed: int) -> State:
    """The key property at one position for one seat; the built state."""
    view = state.view(seat)
    built = state_from_view(state.game, _wire(view), seat, seed)
    assert built.view(seat) == view
    assert built.legal_actions(seat) == state.legal_actions(seat)
    assert built.deciding_seats() == state.deciding_seats()
    assert built.outcome() == state.outcome()
    return built


def _random_positions(game: Game, seed: int, most: int = 40) -> list[State]:
    """Every position of a random match (at most ``most``, evenly spread, always the first
    and the last)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    positions = [state.clone()]
    while not state.is_terminal():
        seat = rng.choice(state.deciding_seats())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        positions.append(state.clone())
    if len(positions) <= most:
        return positions
    step = len(positions) / (most - 1)
    return [positions[int(i * step)] for i in range(most - 1)] + [positions[-1]]


def test_every_shipped_game_builds_states_from_views():
    assert CONFIGS, "importing meeple.games registered no game"
    for info in _shipped():
        assert kit_for(info).from_view is not None, info.id


def _check_random_matches(config: Config, matches: int, most: int) -> None:
    game = config.game()
    for match in range(matches):
        for position in _random_positions(game, 1000 * match + len(str(config)), most):
            for seat in range(game.seats):
                check_same_for_the_seat(position, seat, seed=match)


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_state_from_view_shows_the_seat_the_same_view_legal_actions_and_deciding_seats(
    config: Config,
):
    _check_random_matches(config, matches=1, most=30)


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_state_from_view_holds_at_every_position_of_whole_random_matches(config: Config):
    _check_random_matches(config, matches=3, most=10_000)


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
    positions = [p for p in _random_positions(game, seed) if not p.is_terminal()]
    step = max(1, len(positions) // count)
    return [(p, p.deciding_seats()[seed % len(p.deciding_seats())]) for p in positions[::step]][
        :count
    ]


@pytest.mark.parametrize("config", [c for c in CONFIGS if not c.options], ids=str)
def test_a_searching_bot_decides_on_a_state_built_from_a_view(config: Config):
    game = config.game()
    for state, seat in _deciding_positions(game, seed=3, count=4):
        built = state_from_view(game, _wire(state.view(seat)), seat, seed=11)
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
    return game, _wire(state.view(0))


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


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_damage_to_a_view_is_refused_as_a_game_error_never_a_crash(data: st.DataObject):
    game_id = data.draw(st.sampled_from(sorted({info.name for info in _shipped()})))
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
    assert _wire(built.view(0)) == view  # a change the view allows (another possible position)
