"""A fast rule-of-thumb player for Maiterra: the game's ``heuristic`` bot.

Each legal order gets a score from what it does for the seat -- a barracks first, then the
worker that is missing (brick, wood, food), claims and soldiers marching to free land,
soldiers until there is a unit per field and cavalry after, attacks that the moving units
should win (Moon's cavalry defending at 2), houses, walls on the front -- and the best order
is queued; the turn ends when nothing scores above zero. House picks are drawn from the
bot's own generator (so self-play spreads the houses evenly); draft picks prefer clay and
vale fields away from the other seats.

It reads only public parts of the position (the map, armies, buildings, its own stores,
cards and queue), which is what ``state.view(seat)`` shows, without building the JSON.
"""

from __future__ import annotations

import random

from meeple.core.game import State
from meeple.core.kit import check_can_decide
from meeple.core.types import Action, Seat
from meeple.games.maiterra import notation as ids
from meeple.games.maiterra.data import (
    BARRACKS,
    BRICKWORKS,
    FARM,
    HOUSE,
    MOON,
    NEIGHBOURS,
    PATH_CELLS,
    RULES,
    SAWMILL,
    SCIENCE,
    SOLDIER,
    SUN,
    WALL,
)
from meeple.games.maiterra.rules import DRAFT, HOUSES, Budget, MaiterraState, march_part

FOOD, WOOD, BRICK, COINS = range(4)
CLAY, VALE = RULES.terrains.index("clay"), RULES.terrains.index("vale")


class MaiterraHeuristic:
    """The ``heuristic`` policy of Maiterra: scores each legal order and queues the best one.

    Every random choice (house picks, the noise that spreads ties) comes from the bot's
    generator, passed in as ``rng``.
    """

    def choose(self, state: State, seat: Seat, rng: random.Random) -> Action:
        legal = check_can_decide(state, seat)
        if not isinstance(state, MaiterraState):
            return rng.choice(legal)
        if state.phase == HOUSES:
            return rng.choice(legal)
        if state.phase == DRAFT:
            return max(legal, key=lambda a: self.draft_score(state, seat, a) + rng.random() * 0.1)
        best, best_score = ids.END, 0.0
        budget = state.budget(seat)
        for action in legal:
            score = self.order_score(state, seat, action, budget) + rng.random() * 0.5
            if score > best_score:
                best, best_score = action, score
        return best

    # -- the draft -----------------------------------------------------------------------

    def draft_score(self, state: MaiterraState, seat: int, action: int) -> float:
        """How much ``seat`` wants the field drafted by ``action`` (no noise)."""
        cell = ids.DECODED[action].a
        terrain = state.terrain[cell]
        score = {CLAY: 3.0, VALE: 4.0}.get(terrain, 2.0)
        for near in NEIGHBOURS[cell]:
            if near < 0 or not state.is_land(near):
                continue
            owner = state.owner[near]
            score += 1.5 if owner == seat else -2.0 if owner >= 0 else 0.3
        return score

    # -- orders --------------------------------------------------------------------------

    def order_score(
        self, state: MaiterraState, seat: int, action: int, budget: Budget | None = None
    ) -> float:
        """What queueing ``action`` does for ``seat`` (no noise); ending the turn scores
        below 0. ``budget`` is ``state.budget(seat)``, passed in when scoring many orders."""
        order = ids.DECODED[action]
        kind = order.kind
        if kind == ids.K_TAKE_BACK:
            return -1.0  # never better than ending the turn: the bot never takes one back
        if budget is None:
            budget = state.budget(seat)
        res = budget.res
        if kind == ids.K_BUILD:
            return self._build_score(state, seat, order.a, order.b, res)
        if kind == ids.K_CLAIM:
            standing = state.soldiers[seat][order.a] or any(
                state.soldiers[seat][n] for n in NEIGHBOURS[order.a] if n >= 0
            )
            return 45.0 if standing else -1.0
        if kind == ids.K_TRAIN:
            upkeep = state.units(seat) + len(
                [a for a in state.queue[seat] if a >= ids.TRAIN and a < ids.TRADE]
            )
            income = self._food_income(state, seat)
            if upkeep >= income + res[FOOD] // 4:
                return -1.0
            if order.b == SOLDIER:
                return 24.0
            # Soldiers hold fields (they cost 2 coins, cavalry 1 wood and 4); once there is a
            # unit per field, cavalry strikes harder for the same food -- and Moon's defends
            # like a soldier too, so the house's perk gets used.
            return 25.0 if state.units(seat) >= state.fields(seat) else 18.0
        if kind == ids.K_MARCH:
            return self._march_score(
                state, seat, order.a, path=order.b, part=order.c, stacks=budget.units
            )
        if kind == ids.K_TRADE:
            if order.a == COINS and res[COINS] >= 6 and order.b == BRICK and res[BRICK] < 3:
                return 16.0
            if order.a == COINS and res[COINS] >= 6 and order.b == WOOD and res[WOOD] < 2:
                return 14.0
            if order.a == FOOD and res[FOOD] >= 15 and order.b == COINS:
                return 6.0
            return -1.0
        if kind == ids.K_PLAY:
            card = order.a
            if card == 4:  # prospect
                return 20.0 if order.b == BRICK else 5.0
            if card == 1:  # lucky strike: with an attack queued
                return (
                    15.0
                    if any(ids.DECODED[a].kind == ids.K_MARCH for a in state.queue[seat])
                    else -1.0
                )
            if card == 2:  # rally: when an enemy army is next door
                return 12.0 if self._threatened(state, seat) else -1.0
            if card == 3:  # sabotage the richest enemy field
                workers = sum(state.building(order.b, k) for k in (FARM, SAWMILL, BRICKWORKS))
                return 4.0 * workers
            return -1.0
        if kind == ids.K_SELL:
            return (
                8.0
                if res[FOOD] == 0 and state.units(seat) > state.game.rules.free_food + 2
                else -1.0
            )
        return -1.0

    def _build_score(
        self, state: MaiterraState, seat: int, cell: int, kind: int, res: list[int]
    ) -> float:
        if kind == BARRACKS:
            return 50.0 if state.count_buildings(seat, BARRACKS) == 0 else 3.0
        if kind == BRICKWORKS:
            return 40.0 if state.count_buildings(seat, BRICKWORKS) < 2 else 12.0
        if kind == SAWMILL:
            return 34.0 if state.count_buildings(seat, SAWMILL) < 1 else 10.0
        if kind == FARM:
            if state.units(seat) >= self._food_income(state, seat):
                return 30.0
            # Sun: "+1 food a turn for every three farms it has standing" -- the farm that
            # makes a three is worth more than the others.
            farms = state.count_buildings(seat, FARM)
            sun_trio = (
                state.house[seat] == SUN and (farms + 1) % state.game.rules.sun_farms_per_food == 0
            )
            return 26.0 if sun_trio else 9.0
        if kind == HOUSE:
            return 22.0
        if kind == SCIENCE:
            workers = sum(state.building(cell, k) for k in (FARM, SAWMILL, BRICKWORKS))
            return 8.0 * workers
        if kind == WALL:
            return 14.0 if self._front(state, seat, cell) and res[BRICK] >= 4 else -1.0
        return -1.0

    def _march_score(
        self,
        state: MaiterraState,
        seat: int,
        cell: int,
        *,
        path: int,
        part: int,
        stacks: dict[int, list[int]],
    ) -> float:
        stack = stacks.get(cell, [0, 0])
        moving = march_part(stack, part)
        if moving is None:
            return -1.0
        mid, end = PATH_CELLS[cell][path]
        dest = end if path >= 6 else mid
        owner = state.owner[dest]
        attack = moving[0] * 2 + moving[1] * 3
        # On land nobody owns "every side attacks, and cavalry charges at its attack strength".
        enemies = sum(
            state.soldiers[o][dest] * 2
            + state.cavalry[o][dest] * (3 if owner < 0 else self._cavalry_defence(state, o))
            for o in range(state.seats)
            if not state.allied(o, seat)
        )
        left_behind = sum(stack) - sum(moving)
        leaving_penalty = 0.0
        if state.owner[cell] == seat and left_behind == 0 and self._front(state, seat, cell):
            # An empty field next to an enemy army falls to any march; a seat with few
            # fields left risks everything ("the last seat holding land" wins).
            leaving_penalty = 60.0 if state.fields(seat) <= 3 else 25.0
        if owner >= 0 and state.allied(owner, seat):
            return -1.0
        if owner < 0:
            if enemies:
                return (20.0 if attack >= enemies + 3 else -1.0) - leaving_penalty
            if state.soldiers[seat][dest] or state.cavalry[seat][dest]:
                return -1.0
            if moving[0] == 0:
                return 4.0 - leaving_penalty
            return (30.0 if sum(moving) == 1 else 18.0) - leaving_penalty
        defence = enemies + state.game.rules.wall_bonus * state.building(dest, WALL)
        if defence == 0:
            # Nothing stands there and no wall: the march takes the field without a fight.
            return (
                42.0
                + 2.0 * sum(state.building(dest, k) for k in range(len(state.game.rules.buildings)))
                - leaving_penalty
            )
        if attack >= defence + 3:
            return 40.0 + attack - defence - leaving_penalty
        return -1.0

    @staticmethod
    def _food_income(state: MaiterraState, seat: int) -> int:
        """Food a turn before the armies eat: 3 free, 2 a farm, Sun's bonus."""
        farms = state.count_buildings(seat, FARM)
        bonus = farms // state.game.rules.sun_farms_per_food if state.house[seat] == SUN else 0
        return state.game.rules.free_food + state.game.rules.per_worker * farms + bonus

    @staticmethod
    def _cavalry_defence(state: MaiterraState, seat: int) -> int:
        """Moon: "Its cavalry defends at 2 instead of 1" (houses are open after the draft)."""
        return (
            state.game.rules.moon_cavalry_defence
            if state.house[seat] == MOON
            else state.game.rules.units[1].defence
        )

    def _front(self, state: MaiterraState, seat: int, cell: int) -> bool:
        for near in NEIGHBOURS[cell]:
            if near < 0:
                continue
            for other in range(state.seats):
                if not state.allied(other, seat) and (
                    state.soldiers[other][near] or state.cavalry[other][near]
                ):
                    return True
        return False

    def _threatened(self, state: MaiterraState, seat: int) -> bool:
        return any(
            state.owner[cell] == seat and self._front(state, seat, cell) for cell in range(25)
        )
