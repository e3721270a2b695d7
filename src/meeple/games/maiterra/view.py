"""What a seat sees of a Maiterra match, determinizations, and sentences for actions.

Open to all: Lakeland, owners, buildings, armies, every seat's stores, people and points,
how many cards each holds, who has ended the turn, the discard pile.
Sealed: another seat's queued orders (until the turn resolves and they act) and how many it
has taken back this turn, another seat's house until every house is locked, other seats'
cards, the deck order and the state's generator. A seat sees its own queue, hand and (rules
version 3 on) ``taken_back`` count.
"""

from __future__ import annotations

from typing import Any

from meeple.core.types import JSON, Action, Seat
from meeple.games.maiterra import notation as ids
from meeple.games.maiterra.data import (
    BUILDING_NAMES,
    CARD_NAMES,
    CELL_NAMES,
    CELLS,
    NUM_BUILDINGS,
    RESOURCES,
    cell_name,
)
from meeple.games.maiterra.lakeland import LAKE
from meeple.games.maiterra.notation import DECODED
from meeple.games.maiterra.resolve import side_points, side_target
from meeple.games.maiterra.rules import NO_SEAT, PHASES, PLAN, MaiterraState

SEAT_NAMES = ("Red", "Blue", "Green", "Gold")


def _board(state: MaiterraState) -> list[dict[str, Any]]:
    seats = range(state.seats)
    terrain, owners, buildings = state.terrain, state.owner, state.buildings
    soldiers, cavalry = state.soldiers, state.cavalry
    terrains = state.game.rules.terrains
    board = []
    for cell in range(CELLS):
        if terrain[cell] == LAKE:
            continue
        start = cell * NUM_BUILDINGS
        owner = owners[cell]
        board.append(
            {
                "field": CELL_NAMES[cell],
                "terrain": terrains[terrain[cell]],
                "owner": None if owner < 0 else owner,
                "buildings": {
                    BUILDING_NAMES[k]: n
                    for k, n in enumerate(buildings[start : start + NUM_BUILDINGS])
                    if n
                },
                "armies": {
                    str(s): [soldiers[s][cell], cavalry[s][cell]]
                    for s in seats
                    if soldiers[s][cell] or cavalry[s][cell]
                },
            }
        )
    return board


def view(state: MaiterraState, seat: Seat | None) -> JSON:
    seats = state.seats
    all_locked = NO_SEAT not in state.house
    board = _board(state)
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
        # The seat's own take-backs this turn (rules version 3 on): it knows them, and they
        # decide whether it may take back another; nobody else sees them (sealed like its
        # queue). Only in a seat's own view and from version 3, so a watcher's view and the
        # earlier versions' views read as they did.
        **(
            {"taken_back": state.taken_back[seat]}
            if seat is not None and state.game.rules.take_backs
            else {}
        ),
    }


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
    if order.kind == ids.K_TAKE_BACK:
        return f"{who} takes back the last queued order"
    return f"{who} queues: {ids.format_action(action)}"


def _terrain(state: MaiterraState, cell: int) -> str:
    terrain = state.terrain[cell]
    return "lake" if terrain == LAKE else state.game.rules.terrains[terrain]
