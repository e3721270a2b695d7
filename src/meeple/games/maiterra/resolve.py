"""A Maiterra turn, resolved for all seats together in the written order.

1. "Orders are checked and paid for. You spend only what you hold."
2. "Armies march: 1 field, or 2 for cavalry (a ride cannot pass another army). Two armies
   marching opposite ways along one edge fight on the road first."
3. "Fights, on any field holding more than one army."
4. "Claims."
5. "Buildings and training finish."
6. "Production. A building produces from the turn after it is built."
7. "Bank trades pay out."
8. "Food is eaten; starvation."
9. "Growth."
10. "Cards are drawn and victory is checked."

Steps 2 and 3 live in :mod:`.fights`. Within a step seats go in seat order and a seat's
orders in queue order; the outcome never depends on that order except where a Decision
says so (two allies claiming one field).
"""

from __future__ import annotations

from meeple.core.outcome import Event
from meeple.games.maiterra import notation as ids
from meeple.games.maiterra.data import (
    BARRACKS,
    CARD_NAMES,
    CAVALRY,
    CELL_NAMES,
    CELLS,
    FARM,
    FOOD,
    HOUSE,
    LUCKY_STRIKE,
    NEIGHBOURS,
    NUM_BUILDINGS,
    PATH_CELLS,
    RALLY,
    RESOURCES,
    SABOTAGE,
    SCIENCE,
    SOLDIER,
    STAR,
    SUN,
    WORKER_BUILDINGS,
)
from meeple.games.maiterra.fights import Group, Turn, fight, march
from meeple.games.maiterra.notation import DECODED, NOTATION
from meeple.games.maiterra.rules import OVER, Budget, MaiterraState, march_part


def resolve_turn(state: MaiterraState) -> list[Event]:
    """Run every step of the turn; the state moves to the next turn or to the end."""
    turn = Turn()
    events: list[Event] = [Event("resolve", None, {"turn": state.turn})]
    for seat in range(state.seats):
        _pay_orders(state, seat, turn, events)
    march(state, turn, events)
    for cell in sorted(turn.arrivals):
        fight(state, cell, turn, events)
    _claims(state, turn, events)
    fresh = _finish_buildings(state, turn, events)
    _produce(state, turn, fresh, events)
    _pay_out(state, turn, events)
    _eat(state, events)
    _grow(state, events)
    _draw_cards(state, turn, events)
    _check_victory(state, events)
    return events


def _gain(state: MaiterraState, seat: int, resource: int, amount: int) -> None:
    res = state.res[seat]
    res[resource] = min(state.game.rules.storage_cap, res[resource] + amount)


def _gain_all(state: MaiterraState, seat: int, amounts: list[int] | tuple[int, ...]) -> None:
    """:func:`_gain` of each resource, ``amounts[resource]`` of it."""
    res, cap = state.res[seat], state.game.rules.storage_cap
    for resource in range(4):
        res[resource] = min(cap, res[resource] + amounts[resource])


# -- 1. orders -----------------------------------------------------------------------------


def _pay_orders(state: MaiterraState, seat: int, turn: Turn, events: list[Event]) -> None:
    """ "Orders are checked and paid for. You spend only what you hold." The seat's budget
    as it planned (:meth:`MaiterraState.paid_orders`) has paid them already, in this order
    against these stores; a seat that kept none pays them here."""
    queue = state.queue[seat]
    if not queue:
        return
    kept = state.paid_orders(seat)
    if kept is not None:
        budget, passed, moved = kept.budget, kept.passed, kept.moved
    else:
        budget, passed, moved = Budget(state, seat), [], []
        for action in queue:
            order = DECODED[action]
            kind, cell, _, part = order
            moving = None
            if kind in (ids.K_MARCH, ids.K_PULLBACK):
                stack = budget.units.get(cell)
                if stack is not None:
                    moving = march_part(stack, ids.ALL if kind == ids.K_PULLBACK else part)
            passed.append(state.spend(seat, order, budget))
            moved.append(moving)
    texts = []
    for index, action in enumerate(queue):
        if not passed[index]:
            events.append(Event("order_failed", seat, {"order": NOTATION[action]}))
            continue
        texts.append(NOTATION[action])
        kind, cell, b, _ = DECODED[action]
        moving = moved[index]
        if kind == ids.K_MARCH and moving is not None:
            mid, end = PATH_CELLS[cell][b]
            _lift(state, seat, cell, moving)
            turn.groups.append(Group(seat, cell, mid, end, list(moving)))
        elif kind == ids.K_PULLBACK and moving is not None:
            near = NEIGHBOURS[cell][b]
            _lift(state, seat, cell, moving)
            turn.pullbacks.append(Group(seat, cell, near, near, list(moving)))
        elif kind == ids.K_SELL:
            state.soldiers[seat][cell] -= 1
            turn.payouts.setdefault(seat, [0, 0, 0, 0])[FOOD] += state.game.rules.soldier_food
        elif kind == ids.K_CLAIM:
            turn.claims.append((seat, cell))
        elif kind == ids.K_BUILD:
            turn.builds.append((seat, cell, b))
        elif kind == ids.K_TRAIN:
            turn.trains.append((seat, cell, b))
        elif kind == ids.K_TRADE:
            turn.payouts.setdefault(seat, [0, 0, 0, 0])[b] += 1
        elif kind == ids.K_PLAY:
            _play(state, seat, cell, b, turn)
    state.res[seat] = budget.res
    events.append(Event("orders", seat, {"orders": texts}))


def _lift(state: MaiterraState, seat: int, cell: int, moving: tuple[int, int]) -> None:
    state.soldiers[seat][cell] -= moving[0]
    state.cavalry[seat][cell] -= moving[1]


def _play(state: MaiterraState, seat: int, card: int, target: int, turn: Turn) -> None:
    state.cards[seat].remove(card)
    state.discard.append(card)
    if card == LUCKY_STRIKE:
        turn.lucky.add(seat)
    elif card == RALLY:
        turn.rally.add(seat)
    elif card == SABOTAGE:
        turn.sabotaged.add(target)
    # Speedup was used when the marches were checked; Prospect paid into the budget.


# -- 4. claims -----------------------------------------------------------------------------


def _claims(state: MaiterraState, turn: Turn, events: list[Event]) -> None:
    """ "To claim an empty field, stand 1 soldier on it and pay 1 wood and 1 coin." """
    ordered = sorted(turn.claims, key=lambda c: (-state.soldiers[c[0]][c[1]], c[0]))
    for seat, cell in ordered:
        enemies = any(
            state.soldiers[o][cell] or state.cavalry[o][cell]
            for o in range(state.seats)
            if not state.allied(o, seat)
        )
        if state.owner[cell] < 0 and state.soldiers[seat][cell] >= 1 and not enemies:
            state.owner[cell] = seat
            events.append(Event("claimed", seat, {"field": CELL_NAMES[cell]}))
            continue
        for resource, amount in enumerate(state.game.rules.claim_cost):
            _gain(state, seat, resource, amount)
        events.append(Event("claim_failed", seat, {"field": CELL_NAMES[cell]}))


# -- 5. buildings and training -------------------------------------------------------------


def _finish_buildings(
    state: MaiterraState, turn: Turn, events: list[Event]
) -> dict[tuple[int, int], int]:
    fresh: dict[tuple[int, int], int] = {}
    for seat, cell, kind in turn.builds:
        building = state.game.rules.buildings[kind]
        idle = state.people[seat] - state.workers(seat)
        fits = (
            state.owner[cell] == seat
            and state.building(cell, kind) < state.slots(cell, kind)
            and idle >= building.people
            and (
                kind != SCIENCE or state.count_buildings(seat, SCIENCE) < state.science_limit(seat)
            )
        )
        if not fits:
            for resource, amount in enumerate(building.cost):
                _gain(state, seat, resource, amount)
            events.append(
                Event("build_failed", seat, {"field": CELL_NAMES[cell], "building": building.name})
            )
            continue
        state.buildings[cell * NUM_BUILDINGS + kind] += 1
        fresh[(cell, kind)] = fresh.get((cell, kind), 0) + 1
        events.append(Event("built", seat, {"field": CELL_NAMES[cell], "building": building.name}))
    for seat, cell, unit in turn.trains:
        if state.owner[cell] == seat and state.building(cell, BARRACKS):
            (state.soldiers if unit == SOLDIER else state.cavalry)[seat][cell] += 1
            events.append(
                Event(
                    "trained",
                    seat,
                    {"field": CELL_NAMES[cell], "unit": state.game.rules.units[unit].name},
                )
            )
            continue
        for resource, amount in enumerate(state.game.rules.units[unit].cost):
            _gain(state, seat, resource, amount)
        events.append(
            Event(
                "train_failed",
                seat,
                {"field": CELL_NAMES[cell], "unit": state.game.rules.units[unit].name},
            )
        )
    return fresh


# -- 6. production, 7. bank ----------------------------------------------------------------


def _produce(
    state: MaiterraState, turn: Turn, fresh: dict[tuple[int, int], int], events: list[Event]
) -> None:
    """ "It makes 2 a turn, or 4 on a field with a science centre." Buildings finished this
    turn (``fresh``) start next turn; a sabotaged field makes nothing."""
    rules = state.game.rules
    per_worker, science_factor = rules.per_worker, rules.science_factor
    makes = [(kind, rules.buildings[kind].makes) for kind in WORKER_BUILDINGS]
    owner, buildings, sabotaged = state.owner, state.buildings, turn.sabotaged
    made = [[0, 0, 0, 0] for _ in range(state.seats)]
    for cell in range(CELLS):
        seat = owner[cell]
        if seat < 0:
            continue
        if cell in sabotaged:
            events.append(Event("sabotaged", seat, {"field": CELL_NAMES[cell]}))
            continue
        base = cell * NUM_BUILDINGS
        science = buildings[base + SCIENCE]
        if fresh:
            science -= fresh.get((cell, SCIENCE), 0)
        factor = science_factor if science > 0 else 1
        for kind, resource in makes:
            working = buildings[base + kind]
            if working and fresh:
                working -= fresh.get((cell, kind), 0)
            if working:
                made[seat][resource] += working * per_worker * factor
    for seat in range(state.seats):
        if any(made[seat]):
            _gain_all(state, seat, made[seat])
            events.append(Event("produced", seat, dict(zip(RESOURCES, made[seat], strict=True))))


def _pay_out(state: MaiterraState, turn: Turn, events: list[Event]) -> None:
    for seat, paid in sorted(turn.payouts.items()):
        _gain_all(state, seat, paid)
        events.append(Event("bank", seat, dict(zip(RESOURCES, paid, strict=True))))


# -- 8. food, 9. growth --------------------------------------------------------------------


def _eat(state: MaiterraState, events: list[Event]) -> None:
    """ "Only armies eat: a soldier or cavalry eats 1 at home and 2 away." "Each missing
    food kills a soldier or cavalry at random." """
    for seat in range(state.seats):
        bonus = 0
        if state.house[seat] == SUN:
            bonus = state.count_buildings(seat, FARM) // state.game.rules.sun_farms_per_food
        _gain(state, seat, FOOD, state.game.rules.free_food + bonus)
        need = 0
        for cell in range(CELLS):
            here = state.soldiers[seat][cell] + state.cavalry[seat][cell]
            if here:
                owner = state.owner[cell]
                home = owner >= 0 and state.allied(owner, seat)
                need += here * (state.game.rules.eat_home if home else state.game.rules.eat_away)
        res = state.res[seat]
        if res[FOOD] >= need:
            res[FOOD] -= need
            continue
        missing = need - res[FOOD]
        res[FOOD] = 0
        victims = [
            (cell, kind)
            for cell in range(CELLS)
            for kind, stacks in ((SOLDIER, state.soldiers), (CAVALRY, state.cavalry))
            for _ in range(stacks[seat][cell])
        ]
        killed = []
        for _ in range(min(missing, len(victims))):
            cell, kind = victims.pop(state.rng.below(len(victims)))
            (state.soldiers if kind == SOLDIER else state.cavalry)[seat][cell] -= 1
            killed.append([CELL_NAMES[cell], state.game.rules.units[kind].name])
        events.append(Event("starvation", seat, {"missing": missing, "killed": killed}))


def _grow(state: MaiterraState, events: list[Event]) -> None:
    """ "+1 a turn for every house you have, up to a cap of 4 plus 2 per house." "Coins:
    1 a turn per person, idle or working." """
    rules, buildings = state.game.rules, state.buildings
    houses = [0] * state.seats
    for cell, seat in enumerate(state.owner):
        if seat >= 0:
            houses[seat] += buildings[cell * NUM_BUILDINGS + HOUSE]
    for seat in range(state.seats):
        cap = rules.people_base_cap + rules.cap_per_house * houses[seat]
        people = state.people[seat]
        if people < cap:
            state.people[seat] = min(cap, people + rules.growth_per_house * houses[seat])
        _gain(state, seat, 3, rules.coins_per_person * state.people[seat])


# -- 10. cards and victory -----------------------------------------------------------------


def _draw_cards(state: MaiterraState, turn: Turn, events: list[Event]) -> None:
    """One card per field conquered. Star: "On any turn it loses a fight, it draws a card
    (at most one a turn)" -- ``turn.lost_fight`` (see :mod:`.fights` for who is on a losing
    side). "You hold up to 3 cards": a card drawn over the limit goes to the discard pile
    (a Decision)."""
    for seat in range(state.seats):
        count = turn.draws.get(seat, 0)
        if seat in turn.lost_fight and state.house[seat] == STAR:
            count += 1
        drawn = kept = 0
        for _ in range(count):
            if not state.deck:
                state.deck, state.discard = state.discard, []
                state.rng.shuffle(state.deck)
            if not state.deck:
                break
            card = state.deck.pop()
            drawn += 1
            if len(state.cards[seat]) < state.game.rules.hand_limit:
                state.cards[seat].append(card)
                kept += 1
                events.append(Event("card", seat, {"card": CARD_NAMES[card]}, (seat,)))
            else:
                state.discard.append(card)
        if drawn:
            events.append(Event("cards_drawn", seat, {"drawn": drawn, "kept": kept}))


def side_target(state: MaiterraState, side: int) -> int:
    """A lone seat's target, plus 2 points per ally (a Decision for "a higher target")."""
    members = sum(1 for s in state.side if s == side)
    return state.game.rules.targets[state.seats] + state.game.rules.team_target_extra_per_ally * (
        members - 1
    )


def side_points(state: MaiterraState) -> dict[int, int]:
    points = {side: 0 for side in state.side}
    for seat in range(state.seats):
        points[state.side[seat]] += state.points(seat)
    return points


def _check_victory(state: MaiterraState, events: list[Event]) -> None:
    points = side_points(state)
    holders = {state.side[o] for o in state.owner if o >= 0}
    winner, reason = -1, ""
    if len(holders) <= 1:
        winner, reason = (min(holders) if holders else -1), "last_holding_land"
    else:
        reached = [side for side in points if points[side] >= side_target(state, side)]
        best = max((points[side] for side in reached), default=-1)
        top = [side for side in reached if points[side] == best]
        if len(top) == 1:
            winner, reason = top[0], "majority"
        elif state.turn >= state.game.rules.turn_limit:
            reason = "turn_limit"
            units = {side: 0 for side in points}
            for seat in range(state.seats):
                units[state.side[seat]] += state.units(seat)
            keys = {side: (points[side], units[side]) for side in points}
            best_key = max(keys.values())
            leaders = [side for side in keys if keys[side] == best_key]
            if len(leaders) == 1:
                winner = leaders[0]
    if not reason:
        state.start_turn(state.turn + 1)
        events.append(Event("turn", None, {"turn": state.turn}))
        return
    state.phase = OVER
    for seat in range(state.seats):
        state.queue[seat] = []
        state.ended[seat] = True
    state.winners = tuple(s for s in range(state.seats) if winner >= 0 and state.side[s] == winner)
    state.reason = reason
    outcome = state.outcome()
    if outcome is not None:
        events.append(Event("game_over", None, outcome.to_json()))
