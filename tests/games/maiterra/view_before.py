"""Maiterra's view as it was before it was restructured for speed, kept verbatim as the
reference that tests/games/maiterra/test_view_unchanged.py compares the view with.

What a seat sees of a Maiterra match, determinizations, and sentences for actions.

Open to all: Lakeland, owners, buildings, armies, every seat's stores, people and points,
how many cards each holds, who has ended the turn, the discard pile.
Sealed: another seat's queued orders (until the turn resolves and they act), another
seat's house until every house is locked, other seats' cards, the deck order and the
state's generator.
"""

from __future__ import annotations

from typing import Any

from meeple.core.rng import Rng, mix_seed
from meeple.core.types import JSON, Action, Seat
from meeple.games.maiterra import notation as ids
from meeple.games.maiterra.data import (
    BUILDING_NAMES,
    CARD_NAMES,
    CELLS,
    NUM_BUILDINGS,
    RESOURCES,
    cell_name,
)
from meeple.games.maiterra.lakeland import LAKE
from meeple.games.maiterra.notation import DECODED
from meeple.games.maiterra.resolve import side_points, side_target
from meeple.games.maiterra.rules import HOUSES, NO_SEAT, PHASES, PLAN, Budget, MaiterraState

SEAT_NAMES = ("Red", "Blue", "Green", "Gold")


def view(state: MaiterraState, seat: Seat | None) -> JSON:
    seats = state.seats
    all_locked = NO_SEAT not in state.house
    board = []
    for cell in range(CELLS):
        if state.terrain[cell] == LAKE:
            continue
        built = state.buildings[cell * NUM_BUILDINGS : (cell + 1) * NUM_BUILDINGS]
        owner = state.owner[cell]
        board.append(
            {
                "field": cell_name(cell),
                "terrain": state.game.rules.terrains[state.terrain[cell]],
                "owner": None if owner < 0 else owner,
                "buildings": {BUILDING_NAMES[k]: n for k, n in enumerate(built) if n},
                "armies": {
                    str(s): [state.soldiers[s][cell], state.cavalry[s][cell]]
                    for s in range(seats)
                    if state.soldiers[s][cell] or state.cavalry[s][cell]
                },
            }
        )
    rows: list[dict[str, Any]] = []
    for other in range(seats):
        house = state.house[other]
        shown = house != NO_SEAT and (all_locked or other == seat)
        row: dict[str, Any] = {
            "seat": other,
            "name": SEAT_NAMES[other],
            "house": state.game.rules.houses[house] if shown else None,
            "house_locked": house != NO_SEAT,
            **{RESOURCES[i]: state.res[other][i] for i in range(4)},
            "people": state.people[other],
            "workers": state.workers(other),
            "fields": state.fields(other),
            "points": state.points(other),
            "units": state.units(other),
            "cards": len(state.cards[other]),
            "ended": state.ended[other] if state.phase == PLAN else None,
        }
        if other == seat:
            row["hand"] = [CARD_NAMES[c] for c in state.cards[other]]
        rows.append(row)
    points = side_points(state)
    outcome = state.outcome()
    return {
        "game": state.game.id,
        "seat": seat,
        "tribes": list(SEAT_NAMES[:seats]),
        "phase": PHASES[state.phase],
        "turn": state.turn,
        "turn_limit": state.game.rules.turn_limit,
        "deciding": list(state.deciding_seats()),
        "sides": list(state.side),
        "targets": {str(side): side_target(state, side) for side in sorted(points)},
        "side_points": {str(side): p for side, p in sorted(points.items())},
        "board": board,
        "seats": rows,
        "queue": [] if seat is None else [ids.format_action(a) for a in state.queue[seat]],
        "max_orders": state.game.rules.max_orders,
        "draft_order": list(state.draft_order[state.draft_step :]),
        "deck": len(state.deck),
        "discard": [CARD_NAMES[c] for c in state.discard],
        "outcome": None if outcome is None else outcome.to_json(),
    }


def resample(new: MaiterraState, seat: Seat, seed: int) -> None:
    """Redraw what ``seat`` cannot see: other seats' locked houses (while picking), their
    hands and the deck order, their sealed orders (replaced by a few random legal orders,
    so a seat that ended still hands something in), and the generator. Works in place on
    a clone."""
    state = new
    rng = Rng(mix_seed(seed, seat, 0x5245))
    others = [s for s in range(state.seats) if s != seat]
    if state.phase == HOUSES:
        for other in others:
            if new.house[other] != NO_SEAT:
                new.house[other] = rng.below(len(state.game.rules.houses))
    pool = new.deck[:]
    for other in others:
        pool.extend(new.cards[other])
    pool.sort()  # the redraw depends on which cards are unseen, never on where they lie
    rng.shuffle(pool)
    for other in others:
        size = len(new.cards[other])
        new.cards[other] = pool[:size]
        del pool[:size]
    new.deck = pool
    if state.phase == PLAN:
        for other in others:
            queue: list[int] = []
            new.queue[other] = queue
            budget = Budget(new, other)  # kept up to date here, not rebuilt per order
            for _ in range(rng.below(4)):
                orders = new.legal_orders(other, budget)
                orders.remove(ids.END)
                if not orders:
                    break
                action = orders[rng.below(len(orders))]
                queue.append(action)
                new.spend(other, DECODED[action], budget)
    new.rng = Rng(rng.next_u64())


def describe(state: MaiterraState, seat: Seat, action: Action) -> str:
    """A sentence for people, e.g. "Red queues: march c3 NE"."""
    who = SEAT_NAMES[seat]
    order = DECODED[action]
    if order.kind == ids.K_HOUSE:
        return f"{who} locks in the house of the {state.game.rules.houses[order.a]}"
    if order.kind == ids.K_DRAFT:
        return f"{who} drafts {cell_name(order.a)} ({_terrain(state, order.a)})"
    if order.kind == ids.K_END:
        # No count: a seat's sealed orders, and how many, stay hidden until the turn resolves.
        return f"{who} ends the turn"
    return f"{who} queues: {ids.format_action(action)}"


def _terrain(state: MaiterraState, cell: int) -> str:
    terrain = state.terrain[cell]
    return "lake" if terrain == LAKE else state.game.rules.terrains[terrain]
