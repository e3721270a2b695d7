"""Maiterra's resample keeps each other seat's budget as it queues their redrawn orders,
instead of rebuilding it from the queue for every order; the draws must not change.

The reference below is the redraw as it was written first: every order listed through
``legal_orders(other)``, which walks the whole queue again. Both must give the same
position, byte for byte, on positions of random matches at every seat count, and
``legal_orders`` with a budget kept by the caller must equal the one it builds itself.
"""

from __future__ import annotations

import random

import pytest

from meeple.core.rng import Rng, mix_seed
from meeple.games.maiterra import Maiterra
from meeple.games.maiterra import notation as ids
from meeple.games.maiterra.rules import HOUSES, NO_SEAT, PLAN, MaiterraState


def _resample_by_replay(state: MaiterraState, seat: int, seed: int) -> MaiterraState:
    new = state.clone()
    rng = Rng(mix_seed(seed, seat, 0x5245))
    others = [s for s in range(new.seats) if s != seat]
    if new.phase == HOUSES:
        for other in others:
            if new.house[other] != NO_SEAT:
                new.house[other] = rng.below(len(new.game.rules.houses))
    pool = new.deck[:]
    for other in others:
        pool.extend(new.cards[other])
    pool.sort()
    rng.shuffle(pool)
    for other in others:
        size = len(new.cards[other])
        new.cards[other] = pool[:size]
        del pool[:size]
    new.deck = pool
    if new.phase == PLAN:
        for other in others:
            new.queue[other] = []
            for _ in range(rng.below(4)):
                orders = [a for a in new.legal_orders(other) if a != ids.END]
                if not orders:
                    break
                new.queue[other].append(orders[rng.below(len(orders))])
    new.rng = Rng(rng.next_u64())
    return new


def _positions(seats: int, matches: int) -> list[MaiterraState]:
    game = Maiterra(seats=seats)
    rng = random.Random(seats)
    out = []
    for _ in range(matches):
        state = game.new_initial_state(rng.getrandbits(32))
        step = 0
        while not state.is_terminal():
            seat = state.deciding_seats()[0]
            state.apply_unchecked(seat, rng.choice(state.legal_actions(seat)))
            step += 1
            if step % 3 == 0:
                out.append(state.clone())
    return out


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_resample_draws_what_the_replaying_redraw_drew(seats: int) -> None:
    for index, state in enumerate(_positions(seats, 2)):
        seat = index % seats
        fast = state.resample(seat, index)
        slow = _resample_by_replay(state, seat, index)
        assert fast.to_json() == slow.to_json()
        assert fast.queue == slow.queue


def test_legal_orders_with_a_kept_budget_equal_those_it_builds() -> None:
    for state in _positions(4, 1):
        if state.phase != PLAN:
            continue
        for seat in state.deciding_seats():
            budget = state.budget(seat)
            assert state.legal_orders(seat, budget) == state.legal_orders(seat)
            assert budget.res == state.budget(seat).res  # read, never changed
