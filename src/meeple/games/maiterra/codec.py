"""The full state of a Maiterra match as JSON, and back (docs/notation.md).

``to_json`` holds everything -- sealed orders, locked houses, hands, the deck order and the
generator -- for storage and records, never for a seat (seats get :func:`.view.view`).
Queued orders are stored in notation and re-checked one by one when read back.
"""

from __future__ import annotations

from typing import Any

from meeple.core.errors import GameError, InvalidState, excerpt
from meeple.core.types import JSON
from meeple.core.validate import (
    Fields,
    check_can_continue,
    expect_choice,
    expect_int,
    expect_list,
    expect_str,
)
from meeple.games.maiterra import notation as ids
from meeple.games.maiterra.data import (
    BUILDING_NAMES,
    CARD_NAMES,
    CELLS,
    HOUSE,
    NUM_BUILDINGS,
    RESOURCES,
    RULES,
    SCIENCE,
    RuleData,
    cell_name,
    cell_of,
)
from meeple.games.maiterra.lakeland import LAKE
from meeple.games.maiterra.rules import (
    DRAFT,
    HOUSES,
    NO_SEAT,
    OVER,
    PHASES,
    PLAN,
    MaiterraRulebook,
    MaiterraState,
)

FORMAT = "maiterra-state/1"


def state_to_json(state: MaiterraState) -> JSON:
    armies = []
    for seat in range(state.seats):
        armies.append(
            {
                cell_name(c): [state.soldiers[seat][c], state.cavalry[seat][c]]
                for c in range(CELLS)
                if state.soldiers[seat][c] or state.cavalry[seat][c]
            }
        )
    buildings = {}
    for cell in range(CELLS):
        row = state.buildings[cell * NUM_BUILDINGS : (cell + 1) * NUM_BUILDINGS]
        if any(row):
            buildings[cell_name(cell)] = {BUILDING_NAMES[k]: n for k, n in enumerate(row) if n}
    return {
        "format": FORMAT,
        "phase": PHASES[state.phase],
        "turn": state.turn,
        "map": [None if t == LAKE else RULES.terrains[t] for t in state.terrain],
        "owner": [None if o < 0 else o for o in state.owner],
        "buildings": buildings,
        "armies": armies,
        "seats": [
            {
                **{RESOURCES[i]: state.res[seat][i] for i in range(4)},
                "people": state.people[seat],
                "house": None if state.house[seat] < 0 else RULES.houses[state.house[seat]],
                "cards": [CARD_NAMES[c] for c in state.cards[seat]],
                "queue": [ids.format_action(a) for a in state.queue[seat]],
                "ended": state.ended[seat],
                # From rules version 3 only, so earlier versions' positions read as they did.
                **({"taken_back": state.taken_back[seat]} if state.game.rules.take_backs else {}),
            }
            for seat in range(state.seats)
        ],
        "deck": [CARD_NAMES[c] for c in state.deck],
        "discard": [CARD_NAMES[c] for c in state.discard],
        "draft_order": list(state.draft_order),
        "draft_step": state.draft_step,
        "winners": list(state.winners),
        "reason": state.reason,
        "rng": state.rng.to_json(),
    }


TOP = (
    "format", "phase", "turn", "map", "owner", "buildings", "armies", "seats", "deck",
    "discard", "draft_order", "draft_step", "winners", "reason", "rng",
)  # fmt: skip
SEAT = (*RESOURCES, "people", "house", "cards", "queue", "ended")
REASONS = ("majority", "last_holding_land", "turn_limit")
MAX_UNITS = 999
"""The most soldiers (or cavalry) of one seat on one field that a state may hold."""


def state_from_json(game: MaiterraRulebook, data: JSON) -> MaiterraState:
    """Rebuild a state; raises :class:`InvalidState` on anything malformed or impossible.

    Every field is checked for its type and range; the cards of the deck, the discard
    pile and the hands are the game's cards, each copy once; buildings stand on their
    owner's fields within the terrain's slots and the workers' people; each phase holds
    what it needs (a whole snake draft order with free fields for every pick to come);
    queued orders are re-checked one by one; and the position must be able to go on
    (see docs/notation.md, Limits).
    """
    rules = game.rules
    seats = game.seats
    top = Fields(data, "state", required=TOP)
    if top.raw("format") != FORMAT:
        raise InvalidState(
            f"a Maiterra state has format {FORMAT!r}, got {excerpt(top.raw('format'))}"
        )
    state = MaiterraState(game)
    state.phase = top.choice("phase", PHASES)
    state.turn = top.integer("turn", 0, rules.turn_limit)
    state.terrain = [
        LAKE if t is None else expect_choice(t, RULES.terrains, f"state.map[{cell}]")
        for cell, t in enumerate(top.items("map", length=CELLS))
    ]
    for cell, owner in enumerate(top.items("owner", length=CELLS)):
        if owner is not None:
            state.owner[cell] = expect_int(owner, f"state.owner[{cell}]", 0, seats - 1)
            if not state.is_land(cell):
                raise InvalidState(f"{cell_name(cell)} is a lake and cannot be owned")
    _read_armies(state, top.items("armies", length=seats))
    rows = [
        Fields(raw, f"state.seats[{seat}]", required=SEAT, optional=("taken_back",))
        for seat, raw in enumerate(top.items("seats", length=seats))
    ]
    for seat, row in enumerate(rows):
        _read_seat(state, seat, row, rules)
    _read_buildings(state, top.child("buildings"))
    cards = len(CARD_NAMES) * rules.card_copies
    state.deck = _cards(top.items("deck", max_len=cards), "state.deck")
    state.discard = _cards(top.items("discard", max_len=cards), "state.discard")
    _check_cards(state, rules.card_copies)
    picks = seats * rules.draft_fields
    state.draft_order = [
        expect_int(s, f"state.draft_order[{i}]", 0, seats - 1)
        for i, s in enumerate(top.items("draft_order", max_len=picks))
    ]
    state.draft_step = top.integer("draft_step", 0, len(state.draft_order))
    winners = top.items("winners", max_len=seats)
    state.winners = tuple(
        expect_int(s, f"state.winners[{i}]", 0, seats - 1) for i, s in enumerate(winners)
    )
    reason = top.raw("reason")
    if reason != "":
        expect_choice(reason, REASONS, "state.reason")
    state.reason = reason
    state.rng = top.rng()
    _check_phase(state)
    for seat, row in enumerate(rows):
        _read_queue(state, seat, row)
    check_can_continue(state)
    return state


def _read_armies(state: MaiterraState, armies: list[Any]) -> None:
    for seat, raw in enumerate(armies):
        army = Fields(raw, f"state.armies[{seat}]")
        if len(army.data) > CELLS:
            raise InvalidState(f"state.armies[{seat}] lists more than {CELLS} fields")
        for name, stack in army.data.items():
            cell = _cell(name, f"state.armies[{seat}]")
            if not state.is_land(cell):
                raise InvalidState(f"an army stands in the lake at {name}")
            what = army.path(name)
            soldiers, cavalry = expect_list(stack, what, length=2)
            state.soldiers[seat][cell] = expect_int(soldiers, f"{what}[0]", 0, MAX_UNITS)
            state.cavalry[seat][cell] = expect_int(cavalry, f"{what}[1]", 0, MAX_UNITS)


def _read_seat(state: MaiterraState, seat: int, row: Fields, rules: RuleData) -> None:
    state.res[seat] = [row.integer(name, 0, rules.storage_cap) for name in RESOURCES]
    houses = rules.buildings[HOUSE].per_field * CELLS
    state.people[seat] = row.integer(
        "people", 0, rules.people_base_cap + rules.cap_per_house * houses
    )
    house = row.raw("house")
    state.house[seat] = (
        NO_SEAT if house is None else expect_choice(house, RULES.houses, row.path("house"))
    )
    state.cards[seat] = _cards(row.items("cards", max_len=rules.hand_limit), row.path("cards"))
    state.ended[seat] = row.flag("ended")
    if row.has("taken_back"):
        state.taken_back[seat] = row.integer("taken_back", 0, rules.take_backs)
    row.items("queue", max_len=rules.max_orders)


def _read_buildings(state: MaiterraState, buildings: Fields) -> None:
    if len(buildings.data) > CELLS:
        raise InvalidState(f"state.buildings lists more than {CELLS} fields")
    for name, raw in buildings.data.items():
        cell = _cell(name, "state.buildings")
        if state.owner[cell] < 0:
            raise InvalidState(f"buildings stand on {name}, which nobody owns")
        row = Fields(raw, buildings.path(name))
        for building, count in row.data.items():
            kind = expect_choice(building, BUILDING_NAMES, f"a building on {name}")
            state.buildings[cell * NUM_BUILDINGS + kind] = expect_int(
                count, row.path(building), 1, state.slots(cell, kind)
            )
    for seat in range(state.seats):
        if state.workers(seat) > state.people[seat]:
            raise InvalidState(
                f"seat {seat} has {state.workers(seat)} workers but {state.people[seat]} people"
            )
        if state.count_buildings(seat, SCIENCE) > state.science_limit(seat):
            raise InvalidState(f"seat {seat} has more science centres than its house allows")


def _cards(names: list[Any], what: str) -> list[int]:
    return [expect_choice(c, CARD_NAMES, f"{what}[{i}]") for i, c in enumerate(names)]


def _check_cards(state: MaiterraState, copies: int) -> None:
    """ "The deck": every card is in the deck, the discard pile or a hand, each copy once."""
    counts = [0] * len(CARD_NAMES)
    for card in [*state.deck, *state.discard, *(c for hand in state.cards for c in hand)]:
        counts[card] += 1
    for card, count in enumerate(counts):
        if count != copies:
            raise InvalidState(
                f"the deck, discard pile and hands hold {count} {CARD_NAMES[card]} cards, "
                f"not {copies}"
            )


def _read_queue(state: MaiterraState, seat: int, row: Fields) -> None:
    for index, text in enumerate(row.items("queue")):
        what = f"{row.path('queue')}[{index}]"
        order = expect_str(text, what)
        try:
            action = ids.parse_action(order)
        except GameError as error:
            raise InvalidState(f"{what} is no order: {error.reason}") from error
        if state.phase != PLAN or action == ids.END or action not in state.legal_orders(seat):
            raise InvalidState(f"seat {seat} cannot have queued {excerpt(order)}")
        state.queue[seat].append(action)


def _cell(name: Any, what: str) -> int:
    cell = cell_of(name) if isinstance(name, str) else None
    if cell is None:
        raise InvalidState(f"{what} must name fields a1..e5, got {excerpt(name)}")
    return cell


def _snake(order: list[int], picks: int, snake: bool) -> list[int]:
    """The whole draft order from the first round's (see ``_roll_draft_order``)."""
    rounds: list[int] = []
    for index in range(picks // max(1, len(order))):
        rounds.extend(reversed(order) if snake and index % 2 == 1 else order)
    return rounds


def _check_phase(state: MaiterraState) -> None:
    """Every phase can go on from what the state holds."""
    phase, rules = state.phase, state.game.rules
    if phase == HOUSES and NO_SEAT not in state.house:
        raise InvalidState("every house is locked, yet the phase is houses")
    if phase != HOUSES and NO_SEAT in state.house:
        raise InvalidState(f"phase {PHASES[phase]} needs every house locked")
    if phase in (HOUSES, DRAFT):
        _check_opening(state)
    if phase == DRAFT:
        seats = state.seats
        first_round = state.draft_order[:seats]
        picks = seats * rules.draft_fields
        if sorted(first_round) != list(range(seats)) or state.draft_order != _snake(
            first_round, picks, rules.snake_draft
        ):
            raise InvalidState(
                f"the draft order must be {rules.draft_fields} rounds of every seat once"
                f"{' (snake order)' if rules.snake_draft else ''}"
            )
        if state.draft_step >= len(state.draft_order):
            raise InvalidState("the draft needs a seat to pick")
        free = sum(1 for c in range(CELLS) if state.is_land(c) and state.owner[c] < 0)
        if free < len(state.draft_order) - state.draft_step:
            raise InvalidState(f"the draft has {free} free fields for its picks still to come")
        done = state.draft_order[: state.draft_step]
        for seat in range(seats):
            if state.owner.count(seat) != done.count(seat):
                raise InvalidState(f"seat {seat} owns other fields than it drafted")
    elif state.draft_order or state.draft_step:
        raise InvalidState("only the draft has a draft order")
    if phase == PLAN:
        if all(state.ended):
            raise InvalidState("a turn needs a seat still planning")
        for seat in range(state.seats):
            if state.is_out(seat) and not state.ended[seat]:
                raise InvalidState(f"seat {seat} holds no field and no unit, so it has ended")
    if phase != PLAN and any(state.ended) != (phase == OVER):
        raise InvalidState("only a turn (or the end) has seats that ended")
    if phase == OVER and not all(state.ended):
        raise InvalidState("at the end every seat has ended")
    if (phase == OVER) != bool(state.reason):
        raise InvalidState("the end, and only the end, has a reason")
    _check_winners(state)
    if phase in (PLAN, OVER) and state.turn < 1:
        raise InvalidState("turns count from 1")
    if phase in (HOUSES, DRAFT) and state.turn != 0:
        raise InvalidState("turn 0 is the house pick and the draft")


def _check_opening(state: MaiterraState) -> None:
    """Before the first turn nobody has built, trained, drawn or earned anything."""
    rules = state.game.rules
    opening = [rules.opening_food, 0, 0, 0]
    for seat in range(state.seats):
        if state.res[seat] != opening or state.people[seat] != rules.opening_people:
            raise InvalidState(f"seat {seat} must hold the opening stores before the first turn")
        if state.cards[seat] or any(state.cavalry[seat]):
            raise InvalidState(f"seat {seat} holds cards or cavalry before the first turn")
        for cell in range(CELLS):
            drafted = state.owner[cell] == seat
            if drafted != (state.soldiers[seat][cell] > 0):
                raise InvalidState(f"seat {seat}'s soldiers stand on its drafted fields only")
    if any(state.buildings) or state.discard:
        raise InvalidState("nothing is built or discarded before the first turn")


def _check_winners(state: MaiterraState) -> None:
    """The winners are one whole side (or nobody, when no side won)."""
    winners = state.winners
    if state.phase != OVER:
        if winners:
            raise InvalidState("only the end has winners")
        return
    if not winners:
        if state.reason == "majority":
            raise InvalidState("a majority needs a winning side")
        return
    side = state.side[winners[0]]
    if winners != tuple(s for s in range(state.seats) if state.side[s] == side):
        raise InvalidState("the winners must be every seat of one side, in seat order")
