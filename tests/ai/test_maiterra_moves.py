"""Maiterra's move filter: the search tries the heuristic's best few orders and ``end``."""

from __future__ import annotations

import random

import pytest

import meeple.games  # noqa: F401  (registers Maiterra)
from meeple.ai import Budget, Mcts
from meeple.core import Game, State, kit_for, load_game
from meeple.games.maiterra import MaiterraState
from meeple.games.maiterra import notation as ids
from meeple.games.maiterra.bots import MaiterraHeuristic
from meeple.games.maiterra.data import PATH_CELLS, WALL
from meeple.games.maiterra.move_order import KEEP, maiterra_moves
from meeple.games.maiterra.rules import DRAFT, HOUSES


@pytest.fixture(scope="module")
def maiterra() -> Game:
    return load_game("maiterra", 2)


def _positions(game: Game, matches: int = 6) -> list[tuple[State, int]]:
    """(state, deciding seat) pairs met in random matches, every phase."""
    found = []
    rng = random.Random(5)
    for seed in range(matches):
        state = game.new_initial_state(seed)
        while not state.is_terminal() and len(found) < 60 * (seed + 1):
            seat = state.deciding_seats()[0]
            found.append((state.clone(), seat))
            state.apply_unchecked(seat, rng.choice(state.legal_actions(seat)))
    return found


def test_the_filter_keeps_an_ordered_subset_with_end_while_planning(maiterra: Game) -> None:
    assert kit_for("maiterra/1").move_order is maiterra_moves
    shrunk = 0
    for state, seat in _positions(maiterra):
        assert isinstance(state, MaiterraState)
        legal = state.legal_actions(seat)
        kept = maiterra_moves(state, seat, legal)
        assert kept and set(kept) <= set(legal) and kept == [a for a in legal if a in kept]
        if state.phase == HOUSES:
            assert kept == legal
        elif state.phase == DRAFT:
            assert len(kept) <= max(KEEP, len(legal)) and len(kept) <= len(legal)
        else:
            assert ids.END in kept and len(kept) <= KEEP + 1
        shrunk += len(kept) < len(legal)
    assert shrunk > 50


def test_the_filter_keeps_the_heuristics_best_orders(maiterra: Game) -> None:
    scorer = MaiterraHeuristic()
    for state, seat in _positions(maiterra, 3):
        assert isinstance(state, MaiterraState)
        if state.phase in (HOUSES, DRAFT):
            continue
        legal = state.legal_actions(seat)
        kept = set(maiterra_moves(state, seat, legal))
        scores = {a: scorer.order_score(state, seat, a) for a in legal}
        worst_kept = min((scores[a] for a in kept if a != ids.END), default=None)
        if worst_kept is None:
            continue
        assert all(scores[a] <= worst_kept for a in legal if a not in kept)


def test_the_filter_reads_only_what_the_seat_sees(maiterra: Game) -> None:
    for state, seat in _positions(maiterra, 2):
        legal = state.legal_actions(seat)
        other = state.resample(seat, 77)
        assert other.view(seat) == state.view(seat)
        assert maiterra_moves(other, seat, other.legal_actions(seat)) == maiterra_moves(
            state, seat, legal
        )


def test_a_pruned_search_only_tries_what_the_filter_keeps(maiterra: Game) -> None:
    state, seat = next(
        (s, seat)
        for s, seat in _positions(maiterra, 2)
        if isinstance(s, MaiterraState) and s.phase not in (HOUSES, DRAFT)
    )
    kept = set(maiterra_moves(state, seat, state.legal_actions(seat)))
    result = Mcts().run(state, seat, Budget(40), 3)
    assert {stat.action for stat in result.stats} <= kept
    assert result == Mcts().run(state, seat, Budget(40), 3)


def test_the_heuristic_takes_an_undefended_enemy_field(maiterra: Game) -> None:
    """An enemy field with no army and no wall falls to any march: worth more than a claim."""
    scorer = MaiterraHeuristic()
    seen = 0
    for state, seat in _positions(maiterra):
        assert isinstance(state, MaiterraState)
        if state.phase in (HOUSES, DRAFT):
            continue
        budget = state.budget(seat)
        for action in state.legal_actions(seat):
            order = ids.DECODED[action]
            if order.kind != ids.K_MARCH:
                continue
            path = order.b
            mid, end = PATH_CELLS[order.a][path]
            dest = end if path >= 6 else mid
            owner = state.owner[dest]
            # (Leaving one's own field empty beside an enemy costs; march from elsewhere.)
            if state.owner[order.a] == seat:
                continue
            if owner < 0 or owner == seat or state.building(dest, WALL):
                continue
            if any(state.soldiers[o][dest] or state.cavalry[o][dest] for o in range(2)):
                continue
            seen += 1
            assert scorer.order_score(state, seat, action, budget) >= 42.0
    assert seen > 0
