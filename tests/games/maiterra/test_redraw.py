"""How a resample draws another seat's sealed orders (:mod:`meeple.games.maiterra.redraw`):
a kind of order uniformly among the kinds the seat can queue, then what it acts on, then
the order, each uniformly; every draw legal for that seat."""

from __future__ import annotations

from collections import Counter

from tests.games.maiterra.helpers import army, cell, own, planning

from meeple.core.rng import Rng
from meeple.games.maiterra import notation as ids
from meeple.games.maiterra import redraw
from meeple.games.maiterra.data import BARRACKS, NUM_BUILDINGS, PROSPECT, SABOTAGE
from meeple.games.maiterra.notation import DECODED
from meeple.games.maiterra.rules import MaiterraState

KIND_OF = {
    ids.K_MARCH: redraw.STACK,
    ids.K_PULLBACK: redraw.STACK,
    ids.K_SELL: redraw.STACK,
    ids.K_CLAIM: redraw.CLAIM,
    ids.K_BUILD: redraw.BUILD,
    ids.K_TRAIN: redraw.TRAIN,
    ids.K_TRADE: redraw.TRADE,
    ids.K_PLAY: redraw.CARD,
}
DRAWS = 6000


def _rich() -> MaiterraState:
    """Blue holds c3 and d3 with barracks on c3, two stacks, stores for everything, and two
    cards: every kind of order is open to it."""
    state = planning(seats=2)
    own(state, 0, "a1")
    own(state, 1, "c3", "d3")
    state.buildings[cell("c3") * NUM_BUILDINGS + BARRACKS] = 1
    army(state, 1, "c3", soldiers=2, cavalry=1)
    army(state, 1, "a5", soldiers=1)
    state.res[1] = [9, 9, 9, 9]
    state.cards[1] = [SABOTAGE, PROSPECT]
    return state


def _draws(state: MaiterraState, seat: int) -> list[int]:
    rng, budget = Rng(7), state.budget(seat)
    terrain = state.game.tables.terrain(state.terrain)
    drawn = []
    for _ in range(DRAWS):
        action = redraw.draw_order(state, seat, budget, rng, terrain)
        assert action is not None
        drawn.append(action)
    return drawn


def _even(counts: Counter[int], outcomes: int) -> bool:
    expected = sum(counts.values()) / outcomes
    return len(counts) == outcomes and all(
        abs(n - expected) < 5 * expected**0.5 for n in counts.values()
    )


def test_each_kind_the_seat_can_queue_is_drawn_as_often() -> None:
    state = _rich()
    drawn = _draws(state, 1)
    legal = set(state.legal_orders(1))
    assert set(drawn) <= legal
    kinds = Counter(KIND_OF[DECODED[action].kind] for action in drawn)
    assert _even(kinds, len(redraw.KINDS)), kinds


def test_each_stack_and_each_card_is_drawn_as_often_whatever_its_number_of_orders() -> None:
    """The stack on c3 has far more marches than the one on a5 (a corner); Sabotage has two
    targets, Prospect four."""
    state = _rich()
    drawn = [DECODED[action] for action in _draws(state, 1)]
    stacks = Counter(order.a for order in drawn if KIND_OF[order.kind] == redraw.STACK)
    cards = Counter(order.a for order in drawn if order.kind == ids.K_PLAY)
    assert set(stacks) == {cell("c3"), cell("a5")} and _even(stacks, 2), stacks
    assert set(cards) == {SABOTAGE, PROSPECT} and _even(cards, 2), cards


def test_a_seat_with_empty_stores_draws_only_what_costs_nothing() -> None:
    state = _rich()
    state.res[1] = [0, 0, 0, 0]
    drawn = _draws(state, 1)
    assert set(drawn) <= set(state.legal_orders(1))
    kinds = {DECODED[action].kind for action in drawn}
    assert {ids.K_MARCH, ids.K_SELL, ids.K_PLAY} <= kinds
    assert not kinds & {ids.K_PULLBACK, ids.K_CLAIM, ids.K_TRAIN, ids.K_TRADE}


def test_a_seat_that_can_queue_nothing_but_end_draws_nothing() -> None:
    state = planning(seats=2)
    state.res[1] = [0, 0, 0, 0]  # no field, no unit, no card either
    terrain = state.game.tables.terrain(state.terrain)
    assert state.legal_orders(1) == [ids.END]
    assert redraw.draw_order(state, 1, state.budget(1), Rng(1), terrain) is None
    assert redraw.draw_queue(state, 1, redraw.MAX_DRAWN, Rng(1), terrain) == []


def test_a_redrawn_queue_pays_for_its_orders_one_after_another() -> None:
    """Whatever Blue drew first, the next orders are drawn against what is left."""
    state = _rich()
    terrain = state.game.tables.terrain(state.terrain)
    for seed in range(200):
        queue = redraw.draw_queue(state.clone(), 1, redraw.MAX_DRAWN, Rng(seed), terrain)
        replay = state.clone()
        for action in queue:
            assert action in replay.legal_orders(1)
            replay.queue[1].append(action)
