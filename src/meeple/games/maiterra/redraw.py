"""What a seat cannot see of a Maiterra position, redrawn (the engine of ``resample``).

A bot searches over positions that differ from the real one only in what its seat cannot
see: other seats' locked houses while houses are picked, their hands and the deck order,
their sealed orders, and the generator (see :mod:`.view` for what is open). The houses
are drawn uniformly; the cards the seat has not seen (the deck and the other hands) are
shuffled uniformly and dealt by each hand's count, the rest the deck; the generator is
seeded from the draw.

**The sealed orders.** Every other seat's queue is replaced by 0 to 3 orders (each count
equally likely). Each order is drawn against what the seat has left after the orders drawn
before it, in three steps:

1. **a kind of order**, uniformly among the kinds the seat can queue now: moving a stack
   (march, pull back or sell a soldier), claiming, building, training, trading at the
   bank, playing a card;
2. **what it acts on**, uniformly: for a stack order, one of the seat's stacks; for a card,
   one of the distinct cards in hand that has a target;
3. **the order itself**, uniformly among the legal orders of that kind on that stack or
   card (a build: every legal field and building pair; a trade: every legal pair of
   resources).

So every drawn order is legal for that seat: the candidates of each step are exactly the
seat's legal orders of that kind (``tests/games/test_speed_maiterra.py`` checks that they
add up to :meth:`~.rules.MaiterraState.legal_orders`, less ``end`` and ``takeback``).

**No take-back is drawn.** ``end`` and ``takeback`` (rules version 3 on) are legal but no
order of a queue: one hands the queue in, the other removes its last order, so any queue a
seat reaches with take-backs it could have queued without them. The redraw draws what a
sealed queue holds, not how the seat got there, and gives every other seat none taken back
this turn (how many it took back is sealed like its queue; with none, it may take back
exactly when its drawn queue holds an order, as a seat that queued those orders could).

Why this is a fair belief: a seat that cannot see another's plan knows what it can afford
and where its stacks stand, not what it will choose. Drawing the kind first gives each
kind of plan the same weight, where a draw from the whole list of legal orders would be a
march nine times in ten (a stack has up to 36 paths, times the parts it can split into),
however rich the seat is; nor is a stack or a card weighed by how many paths or targets it
has. It is also cheaper: a draw lists one kind's orders on one stack or card, never every
legal order.
"""

from __future__ import annotations

from itertools import permutations

from meeple.core.rng import Rng, mix_seed
from meeple.core.types import Seat
from meeple.games.maiterra import notation as ids
from meeple.games.maiterra.data import (
    BARRACKS,
    CELLS,
    LUCKY_STRIKE,
    NEIGHBOURS,
    NUM_BUILDINGS,
    PROSPECT,
    RALLY,
    SABOTAGE,
    SCIENCE,
    SPEEDUP,
    WOOD,
)
from meeple.games.maiterra.notation import DECODED
from meeple.games.maiterra.rules import HOUSES, NO_SEAT, PLAN, Budget, MaiterraState
from meeple.games.maiterra.tables import (
    BUILD_IDS,
    CLAIM_IDS,
    PROSPECT_IDS,
    PULLBACK_IDS,
    REACH,
    SABOTAGE_IDS,
    SELL_IDS,
    SPEEDUP_IDS,
    TRADE_IDS,
    TRAIN_IDS,
    TerrainTables,
)

MAX_DRAWN = 3
"""A redrawn queue holds 0 to this many orders."""

STACK, CLAIM, BUILD, TRAIN, TRADE, CARD = range(6)
KINDS = (STACK, CLAIM, BUILD, TRAIN, TRADE, CARD)
"""The kinds of order a draw first picks among."""

KIND_ORDERS = tuple(permutations(KINDS))
"""Every order in which a draw may try the kinds."""

_SPAN = 1 << 64


def resample(state: MaiterraState, seat: Seat, seed: int) -> None:
    """Redraw in ``state`` (a clone) what ``seat`` cannot see: other seats' locked houses
    (while picking), their hands and the deck order, their sealed orders (the module
    docstring), and the generator."""
    rng = Rng(mix_seed(seed, seat, 0x5245))
    others = [s for s in range(state.seats) if s != seat]
    if state.phase == HOUSES:
        houses = len(state.game.rules.houses)
        for other in others:
            if state.house[other] != NO_SEAT:
                state.house[other] = rng.below(houses)
    pool = state.deck[:]
    for other in others:
        pool.extend(state.cards[other])
    pool.sort()  # the redraw depends on which cards are unseen, never on where they lie
    shuffle(rng, pool)
    for other in others:
        size = len(state.cards[other])
        state.cards[other] = pool[:size]
        del pool[:size]
    state.deck = pool
    if state.phase == PLAN:
        # Every other seat's count of orders, each 0 to MAX_DRAWN, in one draw.
        counts = rng.below((MAX_DRAWN + 1) ** len(others))
        terrain = state.game.tables.terrain(state.terrain)
        for other in others:
            counts, count = divmod(counts, MAX_DRAWN + 1)
            state.queue[other] = draw_queue(state, other, count, rng, terrain)
            state.taken_back[other] = 0  # sealed like the queue: see the module docstring
    state.rng = Rng(rng.next_u64())


def shuffle(rng: Rng, items: list[int]) -> None:
    """A uniform shuffle of ``items`` (Fisher-Yates) that takes one 64-bit draw for as many
    swaps as it can: their choices are the digits (in the mixed radix of the swaps' ranges)
    of one uniform number below the ranges' product, so a hand-sized pool costs one draw."""
    i = len(items) - 1
    while i > 0:
        span, low = 1, i
        while low > 0 and span * (low + 1) <= _SPAN:
            span *= low + 1
            low -= 1
        limit = _SPAN - _SPAN % span
        value = rng.next_u64()
        while value >= limit:
            value = rng.next_u64()
        while i > low:
            value, j = divmod(value, i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1


def draw_queue(
    state: MaiterraState, seat: int, count: int, rng: Rng, terrain: TerrainTables
) -> list[int]:
    """A sealed queue of up to ``count`` orders for ``seat``, each drawn by
    :func:`draw_order` against what the orders before it left."""
    queue: list[int] = []
    count = min(count, state.game.rules.max_orders)
    if not count:
        return queue
    budget = Budget(state, seat)
    for _ in range(count):
        action = draw_order(state, seat, budget, rng, terrain)
        if action is None:
            break
        queue.append(action)
        state.spend(seat, DECODED[action], budget)
    return queue


def draw_order(
    state: MaiterraState, seat: int, budget: Budget, rng: Rng, terrain: TerrainTables
) -> int | None:
    """One order ``seat`` may queue with ``budget`` left (see the module docstring), or
    None when it can queue nothing but ``end``. ``budget`` is read, never changed."""
    # The first kind with an order in a uniformly drawn order of all kinds: uniform among
    # the kinds the seat can queue, in one draw.
    for kind in KIND_ORDERS[rng.below(len(KIND_ORDERS))]:
        if kind == STACK:
            stacks = [cell for cell, (s, c) in budget.units.items() if s or c]
            if not stacks:
                continue
            cell = stacks[rng.below(len(stacks))] if len(stacks) > 1 else stacks[0]
            drawn = _draw_stack_order(state, seat, budget, terrain, cell, rng=rng)
            if drawn is not None:
                return drawn
            continue
        if kind == CARD:
            if not budget.cards:
                continue
            plays = [card_plays(state, seat, budget, card) for card in sorted(set(budget.cards))]
            plays = [orders for orders in plays if orders]
            if not plays:
                continue
            orders = plays[rng.below(len(plays))] if len(plays) > 1 else plays[0]
        elif kind == CLAIM:
            orders = claim_orders(state, seat, budget, terrain)
        elif kind == BUILD:
            orders = build_orders(state, seat, budget, terrain)
        elif kind == TRAIN:
            orders = train_orders(state, seat, budget)
        else:
            orders = trade_orders(state, seat, budget)
        if orders:
            return orders[rng.below(len(orders))] if len(orders) > 1 else orders[0]
    return None


def stack_orders(
    state: MaiterraState, seat: int, budget: Budget, terrain: TerrainTables, cell: int
) -> list[int]:
    """The marches, pull-backs and sale of the seat's stack on ``cell`` (its Speedup is a
    card play): the marches part by part (:meth:`TerrainTables.stack_marches`), then the
    pull-backs, then the sale."""
    soldiers, cavalry = budget.units[cell]
    if not soldiers and not cavalry:
        return []
    orders = list(terrain.stack_marches(cell, soldiers, cavalry, cell in budget.speedup))
    orders.extend(_pullbacks(state, seat, budget, cell))
    if soldiers:
        orders.append(SELL_IDS[cell])
    return orders


def _pullbacks(state: MaiterraState, seat: int, budget: Budget, cell: int) -> list[int]:
    """The pull-backs of the seat's stack on ``cell`` it can pay, by direction."""
    if budget.res[WOOD] < state.game.rules.pullback_cost[WOOD]:
        return []
    owner, side = state.owner, state.side
    mine, near_cells = side[seat], NEIGHBOURS[cell]
    orders = []
    for direction, action in PULLBACK_IDS[cell]:
        near = near_cells[direction]
        if near >= 0 and owner[near] >= 0 and side[owner[near]] == mine:
            orders.append(action)
    return orders


def _draw_stack_order(
    state: MaiterraState, seat: int, budget: Budget, terrain: TerrainTables, cell: int, *, rng: Rng
) -> int | None:
    """One of :func:`stack_orders`, drawn as from that list without making it (the marches
    are a table's), or None when it is empty (cavalry hemmed in by lakes)."""
    soldiers, cavalry = budget.units[cell]
    marches = terrain.stack_marches(cell, soldiers, cavalry, cell in budget.speedup)
    pullbacks = _pullbacks(state, seat, budget, cell)
    count = len(marches) + len(pullbacks) + (1 if soldiers else 0)
    if not count:
        return None
    index = rng.below(count) if count > 1 else 0
    if index < len(marches):
        return marches[index]
    index -= len(marches)
    if index < len(pullbacks):
        return pullbacks[index]
    return SELL_IDS[cell]


def claim_orders(
    state: MaiterraState, seat: int, budget: Budget, terrain: TerrainTables
) -> list[int]:
    """Claims of the empty land within two steps of the seat's units, if it can pay."""
    if not budget.afford(state.game.rules.claim_cost):
        return []
    reach: set[int] = set()
    for cell in budget.units:  # where the seat stood when it began to plan
        reach |= REACH[cell]
    land = terrain.land
    owner, claims = state.owner, budget.claims
    return [
        CLAIM_IDS[cell]
        for cell in sorted(reach)
        if owner[cell] < 0 and land[cell] and cell not in claims
    ]


def build_orders(
    state: MaiterraState, seat: int, budget: Budget, terrain: TerrainTables
) -> list[int]:
    """Every building the seat can pay, staff and fit on a field of its own."""
    derived = state.game.tables
    food, wood, brick, coins = budget.res
    idle = budget.idle
    kinds = [
        kind
        for kind, cost in enumerate(derived.building_costs)
        if food >= cost[0]
        and wood >= cost[1]
        and brick >= cost[2]
        and coins >= cost[3]
        and idle >= derived.building_people[kind]
        and (kind != SCIENCE or budget.science < state.science_limit(seat))
    ]
    if not kinds:
        return []
    slots = terrain.slots
    buildings, builds = state.buildings, budget.builds
    orders = []
    for cell in budget.fields:
        base = cell * NUM_BUILDINGS
        for kind in kinds:
            if buildings[base + kind] + builds.get((cell, kind), 0) < slots[cell][kind]:
                orders.append(BUILD_IDS[cell][kind])
    return orders


def train_orders(state: MaiterraState, seat: int, budget: Budget) -> list[int]:
    """Every unit the seat can pay, at each of its fields with barracks."""
    food, wood, brick, coins = budget.res
    units = [
        unit
        for unit, cost in enumerate(state.game.tables.unit_costs)
        if food >= cost[0] and wood >= cost[1] and brick >= cost[2] and coins >= cost[3]
    ]
    if not units:
        return []
    buildings = state.buildings
    return [
        TRAIN_IDS[cell][unit]
        for cell in budget.fields
        if buildings[cell * NUM_BUILDINGS + BARRACKS]
        for unit in units
    ]


def trade_orders(state: MaiterraState, seat: int, budget: Budget) -> list[int]:
    """Every bank trade the seat's stores pay for."""
    rate = state.game.rules.bank_rate
    return [action for give in range(4) if budget.res[give] >= rate for action in TRADE_IDS[give]]


def card_plays(state: MaiterraState, seat: int, budget: Budget, card: int) -> list[int]:
    """The plays of ``card`` (held or not) on every target it may have."""
    if card == SPEEDUP:
        return [
            SPEEDUP_IDS[cell]
            for cell, (s, c) in budget.units.items()
            if (s or c) and cell not in budget.speedup
        ]
    if card == LUCKY_STRIKE:
        return [ids.PLAY_LUCKY]
    if card == RALLY:
        return [ids.PLAY_RALLY]
    if card == SABOTAGE:
        owner, side = state.owner, state.side
        mine = side[seat]
        return [
            SABOTAGE_IDS[cell]
            for cell in range(CELLS)
            if owner[cell] >= 0 and side[owner[cell]] != mine
        ]
    if card == PROSPECT:
        return list(PROSPECT_IDS)
    return []


__all__ = [
    "KINDS",
    "MAX_DRAWN",
    "build_orders",
    "card_plays",
    "claim_orders",
    "draw_order",
    "draw_queue",
    "resample",
    "shuffle",
    "stack_orders",
    "trade_orders",
    "train_orders",
]
