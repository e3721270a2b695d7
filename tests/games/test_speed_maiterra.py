"""Maiterra's fast paths checked against the slow way they replace.

- ``legal_orders`` with a budget the caller keeps equals the one it builds itself.
- The budget a state keeps while a seat plans (:class:`~meeple.games.maiterra.rules.KeptBudget`)
  follows every write to the state, in place or not, and the turn's resolution that reads
  it plays as the one that pays the queue again (a clone keeps none).
- A resample draws other seats' sealed orders kind by kind (:mod:`meeple.games.maiterra.redraw`)
  instead of listing every legal order: the candidates of its kinds, taken together, must be
  exactly the legal orders that join a queue, ``legal_orders`` less ``end`` and ``takeback``,
  so every order it can draw is legal and none is missed. The two left out are no order of a
  queue: ``end`` hands the queue in, and ``takeback`` (rules version 3 on) removes the last
  order, so any queue a seat reaches with take-backs it could have queued without them. A
  redraw draws what a sealed queue holds, not how the seat got there: it gives every other
  seat none taken back, and that seat may then take back exactly when its drawn queue holds
  an order.
- The resample's one-draw shuffle is a permutation, and uniform.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

import pytest
from tests.games.maiterra import helpers

from meeple.core.rng import Rng
from meeple.games.maiterra import Maiterra, redraw
from meeple.games.maiterra import notation as ids
from meeple.games.maiterra.data import BARRACKS, CARD_NAMES, NUM_BUILDINGS
from meeple.games.maiterra.game import Maiterra2
from meeple.games.maiterra.rules import PLAN, MaiterraState


def _positions(
    seats: int, matches: int, every: int = 3, version: type[Maiterra] = Maiterra
) -> list[MaiterraState]:
    """Positions of random matches (take-backs among their actions from rules version 3)."""
    game = version(seats=seats)
    rng = random.Random(seats)
    out = []
    for _ in range(matches):
        state = game.new_initial_state(rng.getrandbits(32))
        step = 0
        while not state.is_terminal():
            seat = state.deciding_seats()[0]
            state.apply_unchecked(seat, rng.choice(state.legal_actions(seat)))
            step += 1
            if step % every == 0:
                out.append(state.clone())
    return out


def _every_candidate(state: MaiterraState, seat: int) -> list[int]:
    """Every order a draw could pick for ``seat`` now, kind by kind."""
    budget = state.budget(seat)
    terrain = state.game.tables.terrain(state.terrain)
    found = [
        *(
            order
            for cell in budget.units
            for order in redraw.stack_orders(state, seat, budget, terrain, cell)
        ),
        *redraw.claim_orders(state, seat, budget, terrain),
        *redraw.build_orders(state, seat, budget, terrain),
        *redraw.train_orders(state, seat, budget),
        *redraw.trade_orders(state, seat, budget),
        *(
            order
            for card in range(len(CARD_NAMES))
            if card in budget.cards
            for order in redraw.card_plays(state, seat, budget, card)
        ),
    ]
    return found


@pytest.mark.parametrize("version", [Maiterra2, Maiterra], ids=["v2", "v3"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_kinds_a_resample_draws_from_are_exactly_the_legal_orders(
    seats: int, version: type[Maiterra]
) -> None:
    """The candidates are the legal orders that join a queue: all but ``end`` and
    ``takeback``, the one left out exactly where the seat may take back (the module
    docstring says why)."""
    checked = taking_back = 0
    limit = version(seats=seats).rules.take_backs
    for state in _positions(seats, 2, version=version):
        if state.phase != PLAN:
            continue
        for seat in state.deciding_seats():
            if len(state.queue[seat]) >= state.game.rules.max_orders:
                continue
            found = _every_candidate(state, seat)
            assert len(found) == len(set(found)), "an order listed under two kinds"
            legal = state.legal_orders(seat)
            assert sorted(found) == [a for a in legal if a not in (ids.END, ids.TAKE_BACK)]
            may_take_back = bool(state.queue[seat]) and state.taken_back[seat] < limit
            assert (ids.TAKE_BACK in legal) == may_take_back
            taking_back += may_take_back
            checked += 1
    assert checked > 50
    assert taking_back > 10 if limit else taking_back == 0


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_redrawn_queue_is_legal_order_by_order(seats: int) -> None:
    drawn = 0
    for index, state in enumerate(_positions(seats, 2)):
        seat = index % seats
        new = state.resample(seat, index)
        assert new.view(seat) == state.view(seat)
        if state.phase != PLAN:
            continue
        assert new.queue[seat] == state.queue[seat]
        for other in range(seats):
            if other == seat:
                continue
            queue = new.queue[other]
            assert len(queue) <= redraw.MAX_DRAWN
            assert new.taken_back[other] == 0
            may_take_back = bool(queue) and bool(state.game.rules.take_backs)
            assert (ids.TAKE_BACK in new.legal_orders(other)) == may_take_back
            replay = new.clone()
            replay.queue[other] = []
            for action in queue:
                assert action in replay.legal_orders(other), ids.format_action(action)
                replay.queue[other].append(action)
            drawn += len(queue)
    assert drawn > 50


def test_legal_orders_with_a_kept_budget_equal_those_it_builds() -> None:
    for state in _positions(4, 1):
        if state.phase != PLAN:
            continue
        for seat in state.deciding_seats():
            budget = state.budget(seat)
            assert state.legal_orders(seat, budget) == state.legal_orders(seat)
            assert budget.res == state.budget(seat).res  # read, never changed


def test_the_kept_budget_follows_writes_in_place() -> None:
    """The tests build positions by writing the state's lists in place between calls that
    list legal orders (``tests/games/maiterra/helpers.py``): the kept budget never goes
    stale."""
    state = helpers.planning(seats=2)
    helpers.own(state, 0, "b2", "c3")
    helpers.army(state, 0, "b2", soldiers=2)
    seat = 0

    def fresh() -> list[int]:
        return state.clone().legal_orders(seat)  # a clone keeps no budget

    before = state.legal_orders(seat)
    assert before == fresh()
    state.res[seat][1] = 5  # wood: pull-backs, claims, builds
    state.res[seat][2] = 5  # brick
    state.res[seat][3] = 5
    assert state.legal_orders(seat) == fresh() != before
    helpers.army(state, 0, "c3", soldiers=1, cavalry=1)
    helpers.own(state, 0, "d4")
    state.buildings[helpers.cell("c3") * NUM_BUILDINGS + BARRACKS] = 1
    state.cards[seat].extend([CARD_NAMES.index("speedup"), CARD_NAMES.index("sabotage")])
    helpers.own(state, 1, "a1")
    assert state.legal_orders(seat) == fresh()
    for text in ("claim b3", "build barracks b2"):
        state.play(seat, text)
        assert state.legal_orders(seat) == fresh()
    state.queue[seat][0] = state.parse_action(seat, "trade coins for food")  # in place
    assert state.legal_orders(seat) == fresh()
    state.terrain[helpers.cell("b3")] = -1  # a lake now
    assert state.legal_orders(seat) == fresh()


@pytest.mark.parametrize("seats", [2, 4])
def test_a_turn_resolves_alike_with_and_without_kept_budgets(seats: int) -> None:
    checked = 0
    rng = random.Random(seats)
    for state in _positions(seats, 2, every=5):
        if state.phase != PLAN:
            continue
        kept, clone = state.clone(), state.clone()
        for seat in kept.deciding_seats():
            kept.legal_orders(seat)  # keeps a budget ...
        while kept.phase == PLAN and kept.turn == state.turn:
            seat = kept.deciding_seats()[0]
            action = rng.choice(kept.legal_actions(seat))  # ... and its queue grows
            assert kept.apply_unchecked(seat, action) == clone.apply_unchecked(seat, action)
        assert kept.to_json() == clone.to_json()
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("size", [0, 1, 2, 7, 20, 21, 45])
def test_the_one_draw_shuffle_is_a_permutation(size: int) -> None:
    rng = Rng(size)
    for _ in range(20):
        items = list(range(size))
        redraw.shuffle(rng, items)
        assert sorted(items) == list(range(size))


@pytest.mark.parametrize("size", [3, 22])
def test_the_one_draw_shuffle_is_uniform(size: int) -> None:
    """Each of the 6 orders of 3 items, and each place of one item among 22 (two draws a
    shuffle), turns up about as often as the others."""
    rng = Rng(2026)
    rounds = 6000
    seen: Counter[tuple[int, ...]] = Counter()
    for _ in range(rounds):
        items = list(range(size))
        redraw.shuffle(rng, items)
        seen[tuple(items) if size == 3 else (items.index(0),)] += 1
    outcomes = len(list(permutations(range(3)))) if size == 3 else size
    assert len(seen) == outcomes
    expected = rounds / outcomes
    assert all(abs(count - expected) < 5 * expected**0.5 for count in seen.values()), seen
