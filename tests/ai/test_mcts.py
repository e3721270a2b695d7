"""MCTS: legal, deterministic per seed and budget, blind to secrets, decoupled when simultaneous."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Self

import pytest
from tests.ai.test_bots import play_out
from tests.toygames import TakeAway, ToyOrders, ToyTricks, ToyTricksState

import meeple.games  # noqa: F401  (registers Maatatahay)
from meeple.ai import (
    Budget,
    Mcts,
    MctsBot,
    MctsConfig,
    Playout,
    RandomBot,
    make_bot,
)
from meeple.ai.levels import LEVELS, level
from meeple.core import (
    Action,
    Event,
    Game,
    GameInfo,
    Seat,
    State,
    kit_for,
    load_game,
    registered,
    registry,
)
from meeple.core.kit import Rollout, ScaledEvaluator
from meeple.games.maatatahay.rules import FINISH, PLACE


def _search(state: State, seat: Seat, iterations: int = 60, seed: int = 7, **config: object):
    return Mcts(MctsConfig(**config)).run(state, seat, Budget(iterations), seed)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def maatatahay() -> Game:
    return load_game("maatatahay")


@pytest.mark.parametrize("name", ["maatatahay", "toy_tricks", "toy_orders"])
def test_same_seed_and_iterations_give_the_same_search(name: str) -> None:
    state = load_game(name).new_initial_state(4)
    seat = state.deciding_seats()[0]
    first, second = _search(state, seat), _search(state, seat)
    assert first == second
    assert first.action in state.legal_actions(seat)
    assert -1.0 <= first.value <= 1.0
    assert sum(stat.visits for stat in first.stats) == first.iterations == 60
    assert sum(first.visit_distribution().values()) == pytest.approx(1.0)


def test_search_leaves_the_state_as_it_was(maatatahay: Game) -> None:
    state = maatatahay.new_initial_state(8)
    before = state.to_json()
    _search(state, state.deciding_seats()[0], leaf=Playout(max_actions=5))
    assert state.to_json() == before


class _SpyTricksState(ToyTricksState):
    """Refuses any action on a state that is not a determinization."""

    determinized = False

    def clone(self) -> Self:
        new = super().clone()
        new.determinized = self.determinized
        return new

    def resample(self, seat: Seat, seed: int) -> Self:
        new = super().resample(seat, seed)
        new.determinized = True
        return new

    def apply_unchecked(self, seat: Seat, action: Action) -> list[Event]:
        if not self.determinized:
            raise AssertionError("the search acted on the real state")
        return super().apply_unchecked(seat, action)


def test_search_only_ever_plays_on_determinizations() -> None:
    game = ToyTricks()
    real = game.new_initial_state(3)
    spy = _SpyTricksState(
        game, real.hands, real.deck, real.trick, real.leader, real.tricks, real.rng
    )
    result = _search(spy, spy.deciding_seats()[0], iterations=40)
    assert result.action in spy.legal_actions(spy.deciding_seats()[0])


def test_sealed_orders_of_the_others_do_not_change_the_search() -> None:
    game = ToyOrders(seats=3)
    quiet, busy = game.new_initial_state(0), game.new_initial_state(0)
    busy.apply(1, 0)  # seat 1 queues a claim on region a: sealed from seat 0
    busy.apply(2, 1)
    assert quiet.view(0) == busy.view(0)
    assert _search(quiet, 0) == _search(busy, 0)


def test_a_stopping_callback_ends_the_search_early(maatatahay: Game) -> None:
    state = maatatahay.new_initial_state(2)
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) >= 2

    budget = Budget(10_000, should_stop=stop, check_every=4)
    result = Mcts().run(state, state.deciding_seats()[0], budget, seed=1)
    assert result.iterations == 8


def test_budget_needs_an_iteration() -> None:
    with pytest.raises(ValueError, match="at least one"):
        Budget(0)


def test_search_takes_the_winning_stones() -> None:
    state = TakeAway().state_from_json({"pile": 3, "turn": 0, "rng": "0" * 16, "secret": 0})
    result = _search(state, 0, iterations=50)
    assert result.action == 2  # take 3: the last stone wins
    assert result.win_probability == 1.0


def test_search_refuses_a_seat_that_does_not_decide() -> None:
    state = TakeAway().new_initial_state(1)
    with pytest.raises(ValueError, match="no legal action"):
        _search(state, 1)


def test_simultaneous_root_searches_the_seats_own_turn() -> None:
    state = ToyOrders(seats=2).new_initial_state(0)
    result = _search(state, 0, iterations=80)
    assert {stat.action for stat in result.stats} <= set(state.legal_actions(0))
    # Ending the turn with no claim can only lose regions to the other seat.
    assert result.action != state.game.end


def test_mcts_outplays_random_at_toy_orders() -> None:
    # A guessing game (a contested region stays as it was), so draws are common; the
    # search still never forgets to claim, and loses far less often than it wins.
    game = ToyOrders(seats=2)
    wins = losses = 0
    for match in range(20):
        state = game.new_initial_state(match)
        bots = [MctsBot(match, Budget(30)), RandomBot(match)]
        if match % 2:
            bots.reverse()
        while not state.is_terminal():
            seat = state.deciding_seats()[0]
            state.apply(seat, bots[seat].select(state, seat))
        outcome = state.outcome()
        assert outcome is not None
        if not outcome.is_draw:
            won = (match % 2) in outcome.winners
            wins, losses = wins + won, losses + (not won)
    assert wins >= losses + 3


def test_playout_cut_short_asks_the_evaluator(maatatahay: Game) -> None:
    state = maatatahay.new_initial_state(5)
    values = Playout(max_actions=0)(state.clone(), random.Random(0))
    assert len(values) == 2
    assert values[0] == pytest.approx(-values[1])


def test_levels_are_bots_and_grow_stronger() -> None:
    budgets = [lvl.iterations for lvl in LEVELS.values()]
    assert budgets == sorted(budgets)
    bot = make_bot("mcts-easy", 3)
    assert isinstance(bot, MctsBot)
    assert bot.name == "mcts-easy"
    assert level("hard") is level("mcts-hard")
    with pytest.raises(ValueError, match="expert"):
        level("godlike")


def test_an_mcts_bot_plays_a_whole_match_deterministically(maatatahay: Game) -> None:
    def bots() -> list[MctsBot]:
        return [MctsBot(1, Budget(8)), MctsBot(2, Budget(8))]

    runs = [play_out(maatatahay.new_initial_state(6), list(bots())) for _ in range(2)]
    assert runs[0] == runs[1]


def test_long_games_set_a_playout_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    assert kit_for("maatatahay").rollout.playout_limit is None
    assert kit_for("maiterra/1").rollout.playout_limit == 0
    state = ToyTricks().new_initial_state(0)
    Playout()(state, random.Random(0))
    assert state.is_terminal()  # no playout limit: played to the end
    cut = replace(
        kit_for("toy_tricks"),
        rollout=Rollout(playout_limit=1),
        evaluator=ScaledEvaluator(lambda state, seat: 1.0 - 2 * seat, scale=1.0),
    )
    monkeypatch.setitem(registry._KITS, "toy_tricks", cut)
    state = ToyTricks().new_initial_state(0)
    values = Playout()(state, random.Random(0))
    assert not state.is_terminal()  # cut after one action, judged by the evaluator
    assert values == pytest.approx([math.tanh(1.0), math.tanh(-1.0)])


@pytest.mark.parametrize("info", registered(), ids=lambda info: info.name)
def test_every_registered_game_can_be_searched(info: GameInfo) -> None:
    game = load_game(info.name, seats=info.max_seats)
    state = game.new_initial_state(1)
    seat = state.deciding_seats()[-1]
    first = _search(state, seat, iterations=3, seed=2)
    assert first == _search(state, seat, iterations=3, seed=2)
    assert first.action in state.legal_actions(seat)


def test_a_turn_policy_finishes_the_leafs_turn_before_judging() -> None:
    game = load_game("manafields")
    state = game.new_initial_state(3)
    mover = state.deciding_seats()[0]
    assert kit_for("manafields/1").rollout.finish_turn
    values = Playout()(state, random.Random(1))
    assert state.deciding_seats() != (mover,) or state.is_terminal()
    assert len(values) == 2 and all(-1.0 <= v <= 1.0 for v in values)
    untouched = game.new_initial_state(3)
    Playout(max_actions=0, turn_policy=False)(untouched, random.Random(1))
    assert untouched.to_json() == game.new_initial_state(3).to_json()


def test_a_bot_grows_the_subtree_of_its_move_when_it_decides_again(maatatahay: Game) -> None:
    # A Maatatahay placement is two decisions of one seat: where, then how it ends. The
    # finish's search starts from what the place's search learnt below the chosen space.
    state = maatatahay.new_initial_state(3)
    while state.phase != PLACE:
        mover = state.deciding_seats()[0]
        state.apply(mover, state.legal_actions(mover)[0])
    seat = state.deciding_seats()[0]
    bot = MctsBot(1, Budget(200))
    placed = bot.search(state, seat)
    state.apply(seat, placed.action)
    finish = bot.search(state, seat)
    visits = sum(stat.visits for stat in finish.stats)
    assert visits > 200
    assert visits == 200 + max(stat.visits for stat in placed.stats) - 1
    # Asked about another position (the same seat's, a move earlier), it starts afresh.
    fresh = MctsBot(1, Budget(200))
    fresh.search(state.clone(), seat)
    other = maatatahay.new_initial_state(4)
    while other.deciding_seats() != (seat,) or other.phase != FINISH:
        mover = other.deciding_seats()[0]
        other.apply(mover, other.legal_actions(mover)[0])
    assert sum(stat.visits for stat in fresh.search(other, seat).stats) == 200
