"""Manafields' move filter: the search tries the heuristic's best few actions, end and done."""

from __future__ import annotations

import random

import pytest

import meeple.games  # noqa: F401  (registers Manafields)
from meeple.ai import Budget, Mcts
from meeple.core import Game, State, kit_for, load_game
from meeple.games.manafields import ManafieldsState
from meeple.games.manafields import notation as ids
from meeple.games.manafields.bots import ManafieldsHeuristic
from meeple.games.manafields.move_order import KEEP, manafields_moves


@pytest.fixture(scope="module")
def manafields() -> Game:
    return load_game("manafields")


def _positions(game: Game, matches: int = 4) -> list[tuple[State, int]]:
    """(state, deciding seat) pairs met in random matches."""
    found = []
    rng = random.Random(8)
    for seed in range(matches):
        state = game.new_initial_state(seed)
        while not state.is_terminal() and len(found) < 80 * (seed + 1):
            seat = state.deciding_seats()[0]
            found.append((state.clone(), seat))
            state.apply_unchecked(seat, rng.choice(state.legal_actions(seat)))
    return found


def test_the_filter_keeps_the_best_actions_and_end_in_the_engines_order(
    manafields: Game,
) -> None:
    assert kit_for("manafields/1").move_order is manafields_moves
    scorer = ManafieldsHeuristic()
    shrunk = 0
    for state, seat in _positions(manafields):
        assert isinstance(state, ManafieldsState)
        legal = state.legal_actions(seat)
        kept = manafields_moves(state, seat, legal)
        assert kept and set(kept) <= set(legal) and kept == [a for a in legal if a in kept]
        assert all(a in kept for a in legal if a in (ids.END, ids.DONE))
        others = [a for a in kept if a not in (ids.END, ids.DONE)]
        assert len(others) <= KEEP
        if len(kept) < len(legal):
            shrunk += 1
            worst = min(scorer.score(state, seat, a) for a in others)
            dropped = [a for a in legal if a not in kept]
            assert all(scorer.score(state, seat, a) <= worst for a in dropped)
    assert shrunk > 50


def test_a_pruned_search_only_tries_what_the_filter_keeps(manafields: Game) -> None:
    state, seat = next(
        (s, seat) for s, seat in _positions(manafields, 1) if len(s.legal_actions(seat)) > 20
    )
    kept = set(manafields_moves(state, seat, state.legal_actions(seat)))
    result = Mcts().run(state, seat, Budget(30), 4)
    assert {stat.action for stat in result.stats} <= kept
    assert result == Mcts().run(state, seat, Budget(30), 4)


def test_scoring_a_decision_at_once_gives_each_actions_own_score(manafields: Game) -> None:
    """``scores`` works out what a decision's actions share once (the enemies, each unit's
    Move cost and present square's value); every figure equals ``score`` alone."""
    scorer = ManafieldsHeuristic()
    for state, seat in _positions(manafields, 3):
        assert isinstance(state, ManafieldsState)
        legal = state.legal_actions(seat)
        assert scorer.scores(state, seat, legal) == [scorer.score(state, seat, a) for a in legal]
