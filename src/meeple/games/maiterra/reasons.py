"""Why an order may not be queued, in the rules' words, and what the seat holds, in words.

``why_illegal`` of a Maiterra state comes here for the plan phase: the first rule that
forbids the order is named ("A farm, sawmill or brickworks ... needs a matching slot on the
field's terrain", "To claim an empty field ... pay 1 wood and 1 coin"), and where the order
fails for want of stores, the message says what the seat has left this turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from meeple.games.maiterra import notation as ids
from meeple.games.maiterra.data import (
    BARRACKS,
    CARD_NAMES,
    NEIGHBOURS,
    PROSPECT,
    RESOURCES,
    SABOTAGE,
    SCIENCE,
    SEAT_NAMES,
    SPEEDUP,
    UNIT_NAMES,
    cell_name,
)
from meeple.games.maiterra.notation import Order
from meeple.games.maiterra.rules import Budget, MaiterraState

_SINGULAR = {"coins": "coin"}
_BUILDING_WORDS = {"science": "science centre"}


def amount(count: int, resource: str) -> str:
    """``3 food``, ``1 coin``, ``2 coins``, ``no wood``."""
    if count == 0:
        return f"no {resource}"
    return f"{count} {_SINGULAR.get(resource, resource) if count == 1 else resource}"


def listed(parts: Sequence[str], empty: str = "nothing") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if not parts:
        return empty
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def cost_words(cost: Sequence[int]) -> str:
    """A cost as the rules write it: ``3 brick and 1 wood``; ``nothing`` for none."""
    return listed([amount(n, RESOURCES[i]) for i, n in enumerate(cost) if n])


def held_words(budget: Budget) -> str:
    """What a seat has left this turn after its queued orders, in words."""
    stores = [amount(n, RESOURCES[i]) for i, n in enumerate(budget.res)]
    people = f"{budget.idle} idle {'person' if budget.idle == 1 else 'people'}"
    cards = listed([CARD_NAMES[c].replace("_", " ") for c in budget.cards], "no cards")
    if budget.cards:
        cards = "the cards " + cards
    return f"you have {', '.join(stores)}, {people} and {cards} left this turn"


def _a(name: str) -> str:
    return ("an " if name[0] in "aeiou" else "a ") + name


def _whose(state: MaiterraState, cell: int) -> str:
    owner = state.owner[cell]
    if owner < 0:
        return "nobody's"
    return f"{SEAT_NAMES[owner]}'s"


def why_order(state: MaiterraState, seat: int, order: Order, budget: Budget) -> str:
    """The first rule that forbids ``order`` for ``seat`` with what ``budget`` has left."""
    kind = order.kind
    if kind == ids.K_BUILD:
        return _why_build(state, seat, order.a, order.b, budget)
    if kind == ids.K_TRAIN:
        return _why_train(state, seat, order.a, order.b, budget)
    if kind == ids.K_CLAIM:
        return _why_claim(state, seat, order.a, budget)
    if kind in (ids.K_MARCH, ids.K_PULLBACK, ids.K_SELL):
        return _why_stack(state, seat, order, budget)
    if kind == ids.K_TRADE:
        rate, give = state.game.rules.bank_rate, RESOURCES[order.a]
        return (
            f"the bank swaps {rate} of a resource for 1 of another; "
            f"you have {amount(budget.res[order.a], give)} left this turn"
        )
    if kind == ids.K_PLAY:
        return _why_play(state, seat, order, budget)
    return f"it cannot be done now: {held_words(budget)}"


def _why_build(state: MaiterraState, seat: int, cell: int, kind: int, budget: Budget) -> str:
    rules = state.game.rules
    building = rules.buildings[kind]
    name, where = _BUILDING_WORDS.get(building.name, building.name), cell_name(cell)
    terrain = rules.terrains[state.terrain[cell]]
    if state.owner[cell] != seat:
        return f"you build only on your own fields; {where} is {_whose(state, cell)}"
    slots = state.slots(cell, kind)
    if slots == 0:
        return (
            f"a farm, sawmill or brickworks needs a matching slot on the field's terrain, "
            f"and {where} is {terrain}, which has no {name} slot"
        )
    queued = budget.builds.get((cell, kind), 0)
    if state.building(cell, kind) + queued >= slots:
        plural = "" if slots == 1 else "s"
        return f"{where} takes {slots} {name}{plural}, and that many stand or are ordered there"
    if kind == SCIENCE and budget.science >= state.science_limit(seat):
        limit = state.science_limit(seat)
        plural = "" if limit == 1 else "s"
        return f"a seat may have {limit} science centre{plural}, and you have {limit}"
    if not budget.afford(building.cost):
        return f"{_a(name)} costs {cost_words(building.cost)}; {held_words(budget)}"
    if budget.idle < building.people:
        person = "person" if building.people == 1 else "people"
        return (
            f"{_a(name)} costs {building.people} {person} (an idle one works it); "
            f"{held_words(budget)}"
        )
    return f"{_a(name)} cannot be built on {where} now; {held_words(budget)}"


def _why_train(state: MaiterraState, seat: int, cell: int, unit: int, budget: Budget) -> str:
    where, name = cell_name(cell), UNIT_NAMES[unit]
    if state.owner[cell] != seat:
        return f"units are trained at your own barracks; {where} is {_whose(state, cell)}"
    if not state.building(cell, BARRACKS):
        return f"units are trained at a barracks, and there is none on {where}"
    cost = state.game.tables.unit_costs[unit]
    return f"{_a(name)} costs {cost_words(cost)} at a barracks; {held_words(budget)}"


def _why_claim(state: MaiterraState, seat: int, cell: int, budget: Budget) -> str:
    where, cost = cell_name(cell), state.game.rules.claim_cost
    if not state.is_land(cell):
        return f"{where} is a lake; only land is claimed"
    if state.owner[cell] >= 0:
        return f"only an empty field is claimed; {where} is {_whose(state, cell)}"
    if cell in budget.claims:
        return f"you already claim {where} this turn"
    if not budget.afford(cost):
        return f"to claim an empty field you pay {cost_words(cost)}; {held_words(budget)}"
    return (
        f"to claim an empty field you stand a soldier on it, and no army of yours "
        f"can march to {where}"
    )


def _why_stack(state: MaiterraState, seat: int, order: Order, budget: Budget) -> str:
    where = cell_name(order.a)
    stack = budget.units.get(order.a)
    if stack is None or not any(stack):
        return f"you have no army on {where} (after the orders you queued)"
    soldiers, cavalry = stack
    if order.kind == ids.K_SELL:
        return f"a soldier can be sold for 2 food, and {where} holds no soldier"
    if order.kind == ids.K_PULLBACK:
        cost = state.game.rules.pullback_cost
        if not budget.afford(cost):
            return f"pulling a stack back costs {cost_words(cost)}; {held_words(budget)}"
        near = NEIGHBOURS[order.a][order.b]
        if near < 0:
            return f"{where} has no field that way"
        return (
            f"a stack pulls back only to a field of your own or your team's; "
            f"{cell_name(near)} is {_whose(state, near)}"
        )
    part = order.c
    if part in (ids.SOLDIERS_ONLY, ids.CAVALRY_ONLY) and not (soldiers and cavalry):
        return f"the stack on {where} is not of both soldiers and cavalry to split"
    if part == ids.ONE and soldiers < 2:
        return (
            f"one soldier marches apart only from a stack of two or more; {where} holds {soldiers}"
        )
    tables = state.game.tables.terrain(state.terrain)
    paths = {base: two for two, base in tables.marches[order.a]}
    base = ids.march_action(order.a, order.b)
    if base not in paths:
        return f"that way from {where} leads off the map or over a lake"
    return (
        f"soldiers move 1 field and cavalry 2 (a Speedup gives soldiers 2); "
        f"{where} holds {soldiers} soldier{'' if soldiers == 1 else 's'}"
    )


def _why_play(state: MaiterraState, seat: int, order: Order, budget: Budget) -> str:
    card = order.a
    name = CARD_NAMES[card].replace("_", " ")
    if card not in budget.cards:
        held = listed([CARD_NAMES[c].replace("_", " ") for c in budget.cards], "none")
        return f"you hold no {name} card (your cards: {held})"
    where = cell_name(order.b) if card in (SPEEDUP, SABOTAGE) else ""
    if card == SABOTAGE:
        return f"sabotage strikes an enemy field; {where} is {_whose(state, order.b)}"
    if card == SPEEDUP:
        return f"speedup hurries an army of yours that has not been sped up; {where} has none"
    if card == PROSPECT:
        return f"prospect fills a store; {held_words(budget)}"
    return f"{name} cannot be played now"
