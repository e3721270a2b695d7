"""Bots: legal, deterministic per seed, and greedy never looks at the real state's secrets."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.toygames import TakeAway, TakeAwayState

import meeple.games  # noqa: F401  (registers Maatatahay)
from meeple.ai import Bot, GreedyBot, RandomBot, make_bot
from meeple.core import (
    Action,
    Game,
    Seat,
    State,
    kit_for,
    load_game,
)
from meeple.core.kit import FINAL_RETURNS, final_returns
from meeple.games.maatatahay.evaluate import evaluate_maatatahay, evaluate_view


def play_out(state: State, bots: list[Bot]) -> list[Action]:
    actions = []
    while not state.is_terminal():
        seat = state.deciding_seats()[0]
        action = bots[seat].select(state, seat)
        assert action in state.legal_actions(seat)
        state.apply(seat, action)
        actions.append(action)
    return actions


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_bots_are_legal_and_deterministic_on_a_fake_game(name: str) -> None:
    game = TakeAway()
    runs = [
        play_out(game.new_initial_state(5), [make_bot(name, 11), make_bot(name, 12)])
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    assert runs[0]


def test_greedy_takes_the_last_stones_when_it_can() -> None:
    game = TakeAway()
    state = game.state_from_json({"pile": 2, "turn": 0, "rng": "0" * 16, "secret": 0})
    assert GreedyBot(3).select(state, 0) == 1  # take 2: the last stones win


def test_greedy_never_touches_the_real_state() -> None:
    game = TakeAway()
    state = game.new_initial_state(9)
    before = state.to_json()
    seen: list[TakeAwayState] = []

    def spy(candidate: State, seat: Seat) -> float:
        assert isinstance(candidate, TakeAwayState)
        seen.append(candidate)
        return 0.0

    GreedyBot(1, evaluator=spy).select(state, state.deciding_seats()[0])
    assert state.to_json() == before
    assert seen and all(s.resampled_with is not None for s in seen)
    assert all(s.rng.state != state.rng.state for s in seen)


def test_bots_refuse_a_seat_that_does_not_decide() -> None:
    state = TakeAway().new_initial_state(1)
    with pytest.raises(ValueError, match="no legal action"):
        RandomBot(0).select(state, 1)


def test_make_bot_names_the_known_bots() -> None:
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    with pytest.raises(ValueError, match="random"):
        make_bot("deep-thought", 1)


def test_the_kits_hold_the_evaluators() -> None:
    assert kit_for("takeaway").evaluator is FINAL_RETURNS
    assert kit_for("maatatahay").evaluator.scale == 4.0
    state = load_game("maatatahay/1").new_initial_state(3)
    assert kit_for(state).evaluator(state, 0) == evaluate_maatatahay(state, 0)
    over = TakeAway().state_from_json({"pile": 0, "turn": 1, "rng": "0" * 16, "secret": 0})
    assert final_returns(over, 1) == 1.0
    assert final_returns(over, 0) == -1.0


# -- Maatatahay -------------------------------------------------------------------------


def _space(name: str, warrior: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "space": name,
        "relic": False,
        "crystals": {"energy": 0, "spirit": 0},
        "warrior": warrior,
    }


def _warrior(seat: int, strength: int = 2, spirit: int = 0) -> dict[str, Any]:
    return {
        "seat": seat,
        "tile": 3,
        "name": "Warrior",
        "fangs": 1,
        "diamonds": 1,
        "arrows": [],
        "facing": "N",
        "alive": True,
        "energy": 0,
        "spirit": spirit,
        "strength": strength,
    }


def _view(**warriors: dict[str, Any]) -> dict[str, Any]:
    board = [_space(f"{'abcde'[i % 5]}{i // 5 + 1}") for i in range(25)]
    for name, warrior in warriors.items():
        board["abcde".index(name[0]) + 5 * (int(name[1]) - 1)]["warrior"] = warrior
    return {
        "board": board,
        "scores": [3, 1],
        "storage": [{"energy": 1, "spirit": 1}, {"energy": 0, "spirit": 0}],
    }


def test_maatatahay_evaluator_is_zero_sum_and_prefers_points() -> None:
    view = _view(c3=_warrior(0, strength=3, spirit=1), d4=_warrior(1))
    assert evaluate_view(view, 0) == pytest.approx(-evaluate_view(view, 1))
    assert evaluate_view(view, 0) > 2


def test_maatatahay_evaluator_fears_a_warrior_closed_on_three_sides() -> None:
    alone = _view(c1=_warrior(0))  # only the board edge closes it
    flanked = _view(c1=_warrior(0), b1=_warrior(1), d1=_warrior(1))  # edge + two enemies
    enemies_only = _view(a5=_warrior(0), b1=_warrior(1), d1=_warrior(1))
    # Same material either way; the flanked position is worse by the danger term.
    assert evaluate_view(flanked, 0) < evaluate_view(enemies_only, 0) - 1.0
    assert evaluate_view(alone, 0) > evaluate_view(flanked, 0)


@pytest.fixture(scope="module")
def maatatahay() -> Game:
    return load_game("maatatahay")


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_bots_play_maatatahay_legally_and_deterministically(maatatahay: Game, name: str) -> None:
    runs = [
        play_out(maatatahay.new_initial_state(21), [make_bot(name, 1), make_bot(name, 2)])
        for _ in range(2)
    ]
    assert runs[0] == runs[1]


def test_greedy_beats_random_at_maatatahay_more_often_than_not(maatatahay: Game) -> None:
    wins = 0
    for match in range(10):
        state = maatatahay.new_initial_state(100 + match)
        greedy_seat = match % 2
        bots: list[Bot] = [RandomBot(match), RandomBot(match)]
        bots[greedy_seat] = GreedyBot(match)
        play_out(state, bots)
        outcome = state.outcome()
        assert outcome is not None
        wins += greedy_seat in outcome.winners
    assert wins >= 6


def test_maatatahay_evaluator_reads_the_state_as_it_reads_the_view(maatatahay: Game) -> None:
    rng = random.Random(4)
    for seed in range(6):
        state = maatatahay.new_initial_state(seed)
        while not state.is_terminal():
            for seat in (0, 1):
                expected = evaluate_view(state.view(seat), seat)
                assert evaluate_maatatahay(state, seat) == pytest.approx(expected)
            seat = state.deciding_seats()[0]
            state.apply_unchecked(seat, rng.choice(state.legal_actions(seat)))
