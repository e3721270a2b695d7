"""Move filters: Maatatahay's search tries one facing per useful arrow layout, sane storage."""

from __future__ import annotations

import random

import pytest

import meeple.games  # noqa: F401  (registers Maatatahay)
from meeple.ai import Budget, Mcts, MctsConfig
from meeple.core import Game, State, kit_for, load_game
from meeple.core.kit import keep_all
from meeple.games.maatatahay import notation as ids
from meeple.games.maatatahay.data import ARROW_TARGETS, KEEPS, TILES_PER_SEAT
from meeple.games.maatatahay.move_order import maatatahay_moves
from meeple.games.maatatahay.rules import EMPTY, FINISH, PLACE, MaatatahayState


@pytest.fixture(scope="module")
def maatatahay() -> Game:
    return load_game("maatatahay")


def _finishes(game: Game, matches: int = 30) -> list[MaatatahayState]:
    """Finish decisions met in random matches."""
    found = []
    rng = random.Random(3)
    for seed in range(matches):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            seat = state.deciding_seats()[0]
            if isinstance(state, MaatatahayState) and state.phase == FINISH:
                found.append(state.clone())
            state.apply_unchecked(seat, rng.choice(state.legal_actions(seat)))
    return found


def _last(state: MaatatahayState) -> bool:
    """The match ends after this round (docs/rules/maatatahay.md, A round, 6)."""
    return not state.stream or max(state.lost) >= 6 or state.free_spaces() <= 1


def _useful(state: MaatatahayState, facing: int) -> frozenset[int]:
    tile = state.tile[state.hot] % TILES_PER_SEAT
    targets = ARROW_TARGETS[tile][facing][state.hot]
    return frozenset(t for t in targets if state.tile[t] == EMPTY)


def test_the_filter_keeps_an_ordered_subset_covering_every_useful_layout(
    maatatahay: Game,
) -> None:
    shrunk = 0
    for state in _finishes(maatatahay):
        if _last(state):
            continue
        seat = state.placing
        legal = state.legal_actions(seat)
        kept = maatatahay_moves(state, seat, legal)
        assert kept and set(kept) <= set(legal) and kept == sorted(kept)
        shrunk += len(kept) < len(legal)
        facings = {(a - ids.FINISH) // len(KEEPS) for a in kept}
        # Every arrow layout that reaches open spaces is kept or beaten by a kept one.
        for facing in range(4):
            assert any(_useful(state, facing) <= _useful(state, f) for f in facings)
    assert shrunk > 0


def test_the_last_placement_keeps_no_energy_and_one_facing(maatatahay: Game) -> None:
    last = [s for s in _finishes(maatatahay) if _last(s)]
    assert last
    for state in last:
        kept = maatatahay_moves(state, state.placing, state.legal_actions(state.placing))
        assert len({(a - ids.FINISH) // len(KEEPS) for a in kept}) == 1
        keeps = [KEEPS[(a - ids.FINISH) % len(KEEPS)] for a in kept]
        assert all(energy == 0 for energy, _ in keeps)
        if state.placements == 1:  # nobody places after it: everything goes on the warrior
            assert keeps == [(0, 0)]


def test_other_phases_and_games_are_left_alone(maatatahay: Game) -> None:
    state = maatatahay.new_initial_state(2)
    seat = state.deciding_seats()[0]
    legal = state.legal_actions(seat)
    assert maatatahay_moves(state, seat, legal) == legal
    assert kit_for("maatatahay/1").move_order is maatatahay_moves
    assert kit_for("toy_tricks").move_order is keep_all


def _to_finish(game: Game) -> State:
    state = game.new_initial_state(9)
    rng = random.Random(1)
    while not (isinstance(state, MaatatahayState) and state.phase == FINISH):
        seat = state.deciding_seats()[0]
        legal = state.legal_actions(seat)
        if isinstance(state, MaatatahayState) and state.phase == PLACE:
            legal = [a for a in legal if a != legal[0]] or legal
        state.apply_unchecked(seat, rng.choice(legal))
    return state


def test_a_pruned_search_only_tries_what_the_filter_keeps(maatatahay: Game) -> None:
    state = _to_finish(maatatahay)
    seat = state.deciding_seats()[0]
    kept = set(maatatahay_moves(state, seat, state.legal_actions(seat)))
    pruned = Mcts().run(state, seat, Budget(120), 5)
    assert {stat.action for stat in pruned.stats} <= kept
    assert pruned == Mcts().run(state, seat, Budget(120), 5)
    full = Mcts(MctsConfig(prune=False)).run(state, seat, Budget(120), 5)
    assert len(full.stats) >= len(pruned.stats)
