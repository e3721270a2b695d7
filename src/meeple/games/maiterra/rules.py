"""Maiterra's positions and the planning that leads to a turn.

A match runs through four phases:

1. ``houses``: "Before the draft every seat picks a house, all at once." Every seat that
   has not locked decides; a pick is sealed until all have locked.
2. ``draft``: "each seat opens with 3 food and 4 people, and drafts 2 free fields. Draft
   order is by die roll." One seat decides at a time (snake order).
3. ``plan``: "Turns are simultaneous: everyone queues orders, then the turn resolves for
   all seats together." Every seat that has not ended its turn decides; each order is one
   action, ``end`` hands the queue in. When the last seat ends, :mod:`.resolve` runs the
   whole turn in the written order. From rules version 3 a seat may take back its last
   queued order (``takeback``) until it ends the turn, up to ``take_backs`` a turn.
4. ``over``.

Per-cell arrays are indexed by the 5 x 5 grid's cell numbers (see :mod:`.data`).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import Any

from meeple.core.compiled import abc_bookkeeping, mypyc_attr
from meeple.core.errors import IllegalAction
from meeple.core.game import Game, State
from meeple.core.outcome import Event, Outcome
from meeple.core.rng import Rng, mix_seed
from meeple.core.types import JSON, Action, Seat
from meeple.games.maiterra import lakeland
from meeple.games.maiterra import notation as ids
from meeple.games.maiterra.data import (
    BARRACKS,
    CARD_NAMES,
    CELLS,
    LUCKY_STRIKE,
    NEIGHBOURS,
    NUM_BUILDINGS,
    PROSPECT,
    RALLY,
    RESOURCES,
    RULE_VERSIONS,
    SABOTAGE,
    SCIENCE,
    SEAT_NAMES,
    SPEEDUP,
    TOWER,
    WOOD,
    RuleData,
    cell_name,
)
from meeple.games.maiterra.notation import DECODED, NOTATION, Order
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
    RuleTables,
    rule_tables,
)

HOUSES, DRAFT, PLAN, OVER = range(4)
CELL_RANGE = range(CELLS)
PHASES = ("houses", "draft", "plan", "over")
NO_SEAT = -1


class Budget:
    """What a seat has left to spend while its queue is checked, order by order.

    The same walk runs when a seat plans (to list its legal orders) and when the turn
    resolves (to pay), so an order that was legal to queue is always paid for.
    """

    __slots__ = (
        "builds",
        "cards",
        "claims",
        "fields",
        "idle",
        "res",
        "science",
        "speedup",
        "units",
    )

    def __init__(self, state: MaiterraState, seat: int) -> None:
        self.res = state.res[seat][:]
        # The seat's fields in board order, and its stacks as the queued orders leave them
        # (every field where it stood when it began to plan; one marched off stays, empty):
        # neither the owners nor the armies change while the seats plan.
        self.fields = fields = [cell for cell, holder in enumerate(state.owner) if holder == seat]
        buildings = state.buildings
        workers = science = 0
        for cell in fields:
            base = cell * NUM_BUILDINGS
            workers += buildings[base] + buildings[base + 1] + buildings[base + 2]
            science += buildings[base + SCIENCE]
        self.idle = state.people[seat] - workers
        self.units = {
            cell: [soldiers, cavalry]
            for cell, soldiers, cavalry in zip(
                CELL_RANGE, state.soldiers[seat], state.cavalry[seat], strict=True
            )
            if soldiers or cavalry
        }
        self.builds: dict[tuple[int, int], int] = {}
        self.science = science
        self.cards = state.cards[seat][:]
        self.claims: set[int] = set()
        self.speedup: set[int] = set()

    def afford(self, cost: tuple[int, int, int, int]) -> bool:
        res = self.res
        return res[0] >= cost[0] and res[1] >= cost[1] and res[2] >= cost[2] and res[3] >= cost[3]

    def pay(self, cost: tuple[int, int, int, int]) -> None:
        for i in range(4):
            self.res[i] -= cost[i]


class KeptBudget:
    """A seat's :class:`Budget`, kept on the state while the seat plans, with copies of
    everything it was worked out from (the budget is a function of them and the queue),
    and the facts its legal orders read that no queued order changes.

    Each :meth:`MaiterraState.legal_orders` call checks that those parts of the state still
    equal the copies and that the queue still begins with the orders already ``paid``, then
    pays only the orders queued since; anything else (a new turn, a test writing the
    state's lists in place) builds it anew. For each paid order it notes whether it
    ``passed`` (:meth:`MaiterraState.spend`) and the units a march or pull-back ``moved``
    (:func:`march_part` before paying), which the turn's resolution reads. So it is never
    stale, however the state was changed, and a seat planning six orders walks its queue
    once, not six times.

    The facts (neither the owners nor the armies change while the seats plan):
    ``pullbacks[cell]``: the pull-backs of the seat's stack on ``cell`` to friendly fields;
    ``claims``: (field, claim id) of the empty land within two steps of where the seat's
    units stood, in board order; ``rooms``: each of the seat's fields with room for a
    building, in board order, with (building, free slots, build id) for each building it
    has room for; ``barracks``: the seat's fields with barracks; ``sabotage``: the Sabotage
    plays on enemy fields. Lists that are read, never changed; :meth:`builds` remembers
    its answers.
    """

    __slots__ = (
        "barracks",
        "budget",
        "build_lists",
        "buildings",
        "cards",
        "cavalry",
        "claims",
        "house",
        "moved",
        "owner",
        "paid",
        "passed",
        "people",
        "pullbacks",
        "res",
        "rooms",
        "sabotage",
        "science_limit",
        "side",
        "soldiers",
        "tables",
        "terrain",
    )

    def __init__(self, state: MaiterraState, seat: int) -> None:
        self.budget = budget = Budget(state, seat)
        self.paid: list[int] = []
        self.passed: list[bool] = []
        self.moved: list[tuple[int, int] | None] = []
        self.res = state.res[seat][:]
        self.owner = owner = state.owner[:]
        self.buildings = buildings = state.buildings[:]
        self.people = state.people[seat]
        self.soldiers = state.soldiers[seat][:]
        self.cavalry = state.cavalry[seat][:]
        self.cards = state.cards[seat][:]
        self.house = state.house[seat]
        self.terrain = state.terrain[:]
        self.side = side = state.side
        self.tables = tables = state.game.tables.terrain(state.terrain)
        self.science_limit = state.science_limit(seat)
        mine = side[seat]
        pullbacks: dict[int, tuple[int, ...]] = {}
        reach: set[int] = set()
        for cell in budget.units:
            near_cells = NEIGHBOURS[cell]
            pullbacks[cell] = tuple(
                [
                    action
                    for direction, action in PULLBACK_IDS[cell]
                    if (near := near_cells[direction]) >= 0
                    and owner[near] >= 0
                    and side[owner[near]] == mine
                ]
            )
            reach |= REACH[cell]
        self.pullbacks = pullbacks
        land = tables.land
        self.claims = tuple(
            [(cell, CLAIM_IDS[cell]) for cell in sorted(reach) if owner[cell] < 0 and land[cell]]
        )
        slots = tables.slots
        rooms: list[tuple[int, list[tuple[int, int, int]]]] = []
        barracks: list[int] = []
        for cell in budget.fields:
            base, room_here, build_ids = cell * NUM_BUILDINGS, slots[cell], BUILD_IDS[cell]
            here = []
            for kind in range(NUM_BUILDINGS):
                room = room_here[kind] - buildings[base + kind]
                if room > 0:
                    here.append((kind, room, build_ids[kind]))
            if here:
                rooms.append((cell, here))
            if buildings[base + BARRACKS]:
                barracks.append(cell)
        self.rooms = rooms
        self.barracks = barracks
        self.build_lists: dict[tuple[bool, ...], list[int]] = {}
        self.sabotage = tuple(
            [
                SABOTAGE_IDS[cell]
                for cell in range(CELLS)
                if owner[cell] >= 0 and side[owner[cell]] != mine
            ]
        )

    def builds(self, affords: tuple[bool, ...]) -> list[int]:
        """Every build on the seat's fields of the kinds it ``affords`` (by kind), while its
        queue builds nothing: worked out once for each such set of kinds."""
        found = self.build_lists.get(affords)
        if found is None:
            found = self.build_lists[affords] = [
                action for _, rooms in self.rooms for kind, _, action in rooms if affords[kind]
            ]
        return found

    def holds(self, state: MaiterraState, seat: int, queue: list[int]) -> bool:
        """Whether the budget is still the seat's before the orders queued since."""
        paid = self.paid
        return (
            len(queue) >= len(paid)
            and (not paid or queue[: len(paid)] == paid)
            and state.res[seat] == self.res
            and state.soldiers[seat] == self.soldiers
            and state.cavalry[seat] == self.cavalry
            and state.people[seat] == self.people
            and state.cards[seat] == self.cards
            and state.house[seat] == self.house
            and state.owner == self.owner
            and state.buildings == self.buildings
            and state.terrain == self.terrain
            and state.side == self.side
        )


@mypyc_attr(native_class=False)  # the game class subclasses it in plain Python
class MaiterraRulebook(Game):
    """What the rules ask of their game object beyond core's :class:`Game`.

    The numbers of its rules version and the seats' sides; and the parts that read the
    rules and so must not be imported by them: the turn's resolution (:mod:`.resolve`), the
    per-seat view and the redraw of what a seat cannot see (:mod:`.view`), the JSON form
    (:mod:`.codec`). The game class (:class:`~meeple.games.maiterra.game.Maiterra`) plugs
    them in.
    """

    rules: RuleData
    """The numbers this game plays with: its rules version's (``data/rules.json`` with that
    version's ``earlier`` changes), or those passed to it. The rules read every number
    here, never from a module."""
    tables: RuleTables
    """The tables worked out from :attr:`rules` (kept with them)."""

    def __init__(
        self,
        seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        rules: RuleData | None = None,
    ) -> None:
        """``rules``: numbers to play with instead of the published ones of this rules
        version (a balance search's candidate:
        ``load_rule_versions(text)[version]``).

        Raises:
            InvalidOptions: as :class:`Game` does.
            ValueError: when ``rules`` are the numbers of another rules version.
        """
        super().__init__(seats, options)
        version = self.info.version
        if rules is None:
            rules = RULE_VERSIONS[version]
        elif rules.version != version:
            raise ValueError(
                f"{self.info.id} plays the numbers of rules version {version}, "
                f"not of version {rules.version}"
            )
        self.rules = rules
        self.tables = rule_tables(rules)

    @abstractmethod
    def sides(self) -> tuple[int, ...]:
        """Each seat's side: the lowest seat of its team (its own number without teams)."""

    @abstractmethod
    def resolve_turn(self, state: MaiterraState) -> list[Event]:
        """Resolve the turn every seat has ended; the state moves on to the next turn."""

    @abstractmethod
    def redraw_hidden(self, state: MaiterraState, seat: Seat, seed: int) -> None:
        """Redraw in ``state`` (a clone) what ``seat`` cannot see."""

    @abstractmethod
    def position_view(self, state: MaiterraState, seat: Seat | None) -> JSON:
        """What ``seat`` (None: a spectator) sees of ``state``."""

    @abstractmethod
    def position_json(self, state: MaiterraState) -> JSON:
        """The whole of ``state`` as JSON."""

    @abstractmethod
    def describe_move(self, state: MaiterraState, seat: Seat, action: Action) -> str:
        """``seat``'s legal ``action`` in ``state``, told in words."""

    @abstractmethod
    def order_reason(self, state: MaiterraState, seat: Seat, order: Order, budget: Budget) -> str:
        """Why ``seat`` may not queue ``order`` in the plan phase, in the rules' words."""


class MaiterraState(State):
    """A Maiterra position. Create through :meth:`Maiterra.new_initial_state`.

    What differs between rules versions is read from ``game.rules`` (see
    :attr:`MaiterraRulebook.rules`)."""

    game: MaiterraRulebook

    __slots__ = (
        "buildings",
        "cards",
        "cavalry",
        "deck",
        "discard",
        "draft_order",
        "draft_step",
        "ended",
        "game",
        "house",
        "kept",
        "owner",
        "people",
        "phase",
        "queue",
        "reason",
        "res",
        "rng",
        "side",
        "soldiers",
        "taken_back",
        "terrain",
        "turn",
        "winners",
    )

    def __init__(self, game: MaiterraRulebook, source: MaiterraState | None = None) -> None:
        """A position before setup or, given ``source``, an independent copy of it (what
        :meth:`clone` makes: one constructor for both, as a compiled class runs its
        ``__init__`` on every new object and so cannot be copied through ``object.__new__``)."""
        self.game = game
        if source is None:
            seats = game.seats
            self.side: tuple[int, ...] = game.sides()
            self.phase = HOUSES
            self.turn = 0
            self.terrain = [lakeland.LAKE] * CELLS
            self.owner = [NO_SEAT] * CELLS
            self.buildings = [0] * (CELLS * NUM_BUILDINGS)
            self.soldiers = [[0] * CELLS for _ in range(seats)]
            self.cavalry = [[0] * CELLS for _ in range(seats)]
            self.res = [[game.rules.opening_food, 0, 0, 0] for _ in range(seats)]
            self.people = [game.rules.opening_people] * seats
            self.house = [NO_SEAT] * seats
            self.cards: list[list[int]] = [[] for _ in range(seats)]
            self.deck: list[int] = []
            self.discard: list[int] = []
            self.queue: list[list[int]] = [[] for _ in range(seats)]
            self.ended = [False] * seats
            self.taken_back = [0] * seats
            self.draft_order: list[int] = []
            self.draft_step = 0
            self.winners: tuple[int, ...] = ()
            self.reason = ""
            self.rng = Rng(0)
            self.kept: dict[int, KeptBudget] | None = None
            return
        self.side = source.side
        self.phase = source.phase
        self.turn = source.turn
        self.terrain = source.terrain[:]  # tests and tools may redraw a map in place
        self.owner = source.owner[:]
        self.buildings = source.buildings[:]
        self.soldiers = [row[:] for row in source.soldiers]
        self.cavalry = [row[:] for row in source.cavalry]
        self.res = [row[:] for row in source.res]
        self.people = source.people[:]
        self.house = source.house[:]
        self.cards = [hand[:] for hand in source.cards]
        self.deck = source.deck[:]
        self.discard = source.discard[:]
        self.queue = [q[:] for q in source.queue]
        self.ended = source.ended[:]
        self.taken_back = source.taken_back[:]
        self.draft_order = source.draft_order[:]
        self.draft_step = source.draft_step
        self.winners = source.winners
        self.reason = source.reason
        self.rng = source.rng.copy()
        self.kept = None  # a clone works its budgets out again when it plans

    # -- setup -------------------------------------------------------------------------

    @classmethod
    def setup(cls, game: MaiterraRulebook, seed: int) -> MaiterraState:
        """Draw Lakeland and shuffle the card deck; every seat then picks a house."""
        state = cls(game)
        state.rng = Rng(mix_seed(seed, 0x4D414954))
        state.terrain = lakeland.generate(state.rng, game.seats, game.rules)
        copies = game.rules.card_copies
        state.deck = [card for card in range(len(CARD_NAMES)) for _ in range(copies)]
        state.rng.shuffle(state.deck)
        return state

    # -- small facts ---------------------------------------------------------------------

    @property
    def seats(self) -> int:
        return len(self.people)

    def allied(self, a: int, b: int) -> bool:
        return self.side[a] == self.side[b]

    def is_land(self, cell: int) -> bool:
        return 0 <= cell < CELLS and self.terrain[cell] != lakeland.LAKE

    def building(self, cell: int, kind: int) -> int:
        return self.buildings[cell * NUM_BUILDINGS + kind]

    def count_buildings(self, seat: int, kind: int) -> int:
        owner, buildings = self.owner, self.buildings
        return sum(
            buildings[cell * NUM_BUILDINGS + kind] for cell in range(CELLS) if owner[cell] == seat
        )

    def workers(self, seat: int) -> int:
        """The seat's people at work: its farms, sawmills and brickworks (the worker
        buildings are the first three kinds, ``WORKER_BUILDINGS``)."""
        owner, buildings = self.owner, self.buildings
        total = 0
        for cell in range(CELLS):
            if owner[cell] == seat:
                base = cell * NUM_BUILDINGS
                total += buildings[base] + buildings[base + 1] + buildings[base + 2]
        return total

    def fields(self, seat: int) -> int:
        return self.owner.count(seat)

    def points(self, seat: int) -> int:
        """ "Every field scores 2 points, wherever it is and whatever stands on it." """
        return self.game.rules.points_per_field * self.owner.count(seat)

    def units(self, seat: int) -> int:
        return sum(self.soldiers[seat]) + sum(self.cavalry[seat])

    def is_out(self, seat: int) -> bool:
        """A seat with no field and no unit has nothing left to order."""
        return seat not in self.owner and self.units(seat) == 0

    def science_limit(self, seat: int) -> int:
        building = self.game.rules.buildings[SCIENCE]
        return (
            self.game.rules.tower_science_centres
            if self.house[seat] == TOWER
            else building.per_seat
        )

    def slots(self, cell: int, kind: int) -> int:
        building = self.game.rules.buildings[kind]
        if building.per_field:
            return building.per_field
        return self.game.rules.slots[self.terrain[cell]][kind]

    # -- who decides -------------------------------------------------------------------

    def deciding_seats(self) -> tuple[Seat, ...]:
        phase = self.phase
        if phase == PLAN:
            return tuple([seat for seat, done in enumerate(self.ended) if not done])
        if phase == HOUSES:
            return tuple(seat for seat, house in enumerate(self.house) if house == NO_SEAT)
        if phase == DRAFT:
            return (self.draft_order[self.draft_step],)
        return ()

    def _legal_actions(self, seat: Seat) -> list[Action]:
        phase = self.phase
        if phase == PLAN:
            if self.ended[seat]:
                return []
            return self.legal_orders(seat)
        if phase == HOUSES:
            if self.house[seat] != NO_SEAT:
                return []
            return list(range(ids.HOUSE, ids.HOUSE + len(self.game.rules.houses)))
        if phase == DRAFT and seat == self.draft_order[self.draft_step]:
            owner = self.owner
            return [ids.DRAFT + c for c in range(CELLS) if self.is_land(c) and owner[c] < 0]
        return []

    def budget(self, seat: int) -> Budget:
        """The seat's budget after its queued orders."""
        budget = Budget(self, seat)
        for action in self.queue[seat]:
            self.spend(seat, DECODED[action], budget)
        return budget

    def kept_budget(self, seat: int, queue: list[int]) -> KeptBudget:
        """The seat's :class:`KeptBudget`, brought up to date with its ``queue``."""
        every = self.kept
        if every is None:
            every = self.kept = {}
        kept = every.get(seat)
        if kept is None or not kept.holds(self, seat, queue):
            kept = every[seat] = KeptBudget(self, seat)
        paid = kept.paid
        if len(paid) < len(queue):
            budget, units, passed, moved = kept.budget, kept.budget.units, kept.passed, kept.moved
            for action in queue[len(paid) :]:
                order = DECODED[action]
                kind, cell, _, part = order
                moving = None
                if kind in (ids.K_MARCH, ids.K_PULLBACK):
                    stack = units.get(cell)
                    if stack is not None:
                        moving = march_part(stack, ids.ALL if kind == ids.K_PULLBACK else part)
                passed.append(self.spend(seat, order, budget))
                moved.append(moving)
                paid.append(action)
        return kept

    def paid_orders(self, seat: int) -> KeptBudget | None:
        """The seat's :class:`KeptBudget` paid up to its whole queue, handed over to the
        turn's resolution (which then pays nothing again and makes the budget's stores the
        seat's, so the state keeps it no longer); None if the seat kept none that still
        holds (a clone that has not planned since)."""
        every, queue = self.kept, self.queue[seat]
        if every is None:
            return None
        kept = every.get(seat)
        if kept is None or not kept.holds(self, seat, queue):
            return None
        kept = self.kept_budget(seat, queue)
        del every[seat]
        return kept

    def legal_orders(self, seat: int, budget: Budget | None = None) -> list[int]:
        """Every order the seat may queue now, sorted, ``end`` among them.

        The hot loop of every playout and search: the map's fixed facts come from
        :class:`TerrainTables`, and whatever depends only on the budget (which buildings,
        units and trades it affords) is worked out once, not once per field; the budget is
        the state's :class:`KeptBudget`, paying only the orders queued since the last call.
        ``budget``: the seat's :meth:`budget` when the caller keeps it up to date itself;
        it is read, never changed.
        """
        derived = self.game.tables
        queue = self.queue[seat]
        if len(queue) >= derived.max_orders:
            return [ids.END, *self._take_back(seat)]
        kept = self.kept_budget(seat, queue)
        if budget is None:
            budget = kept.budget
        tables = kept.tables
        res = budget.res
        food, wood, brick, coins = res
        # Kind by kind in the order of the ids, each in ascending order: the list comes out
        # sorted, as it would be sorted (the tests hold it to the sorted list).
        actions = [ids.END]
        add, extend = actions.append, actions.extend
        units, speedup = budget.units, budget.speedup
        for cell, (soldiers, cavalry) in units.items():  # in board order
            if soldiers or cavalry:
                extend(tables.sorted_marches(cell, soldiers, cavalry, cell in speedup))
        if wood >= derived.pullback_cost[WOOD]:
            pullbacks = kept.pullbacks
            for cell, (soldiers, cavalry) in units.items():
                if soldiers or cavalry:
                    extend(pullbacks[cell])
        if budget.afford(derived.claim_cost):
            claims = budget.claims
            for cell, action in kept.claims:
                if cell not in claims:
                    add(action)
        idle, builds = budget.idle, budget.builds
        building_people = derived.building_people
        affords = tuple(
            [
                food >= cost[0]
                and wood >= cost[1]
                and brick >= cost[2]
                and coins >= cost[3]
                and idle >= building_people[kind]
                and (kind != SCIENCE or budget.science < kept.science_limit)
                for kind, cost in enumerate(derived.building_costs)
            ]
        )
        if builds:  # what the queue builds takes slots too
            for cell, rooms in kept.rooms:
                for kind, room, action in rooms:
                    if affords[kind] and builds.get((cell, kind), 0) < room:
                        add(action)
        else:
            extend(kept.builds(affords))
        trains = [
            unit
            for unit, cost in enumerate(derived.unit_costs)
            if food >= cost[0] and wood >= cost[1] and brick >= cost[2] and coins >= cost[3]
        ]
        if trains:
            for cell in kept.barracks:
                train_ids = TRAIN_IDS[cell]
                for unit in trains:
                    add(train_ids[unit])
        rate = derived.bank_rate
        for give in range(4):
            if res[give] >= rate:
                extend(TRADE_IDS[give])
        for cell, (soldiers, _) in units.items():
            if soldiers:
                add(SELL_IDS[cell])
        cards = budget.cards
        if cards:
            if SPEEDUP in cards:
                for cell, (soldiers, cavalry) in units.items():
                    if (soldiers or cavalry) and cell not in speedup:
                        add(SPEEDUP_IDS[cell])
            if LUCKY_STRIKE in cards:
                add(ids.PLAY_LUCKY)
            if RALLY in cards:
                add(ids.PLAY_RALLY)
            if SABOTAGE in cards:
                extend(kept.sabotage)
            if PROSPECT in cards:
                extend(PROSPECT_IDS)
        extend(self._take_back(seat))  # the highest id: the list stays sorted
        return actions

    def _take_back(self, seat: int) -> list[int]:
        """``takeback`` if the seat may take back its last queued order now: it has one, and
        it has taken back fewer than the rules' ``take_backs`` this turn (none before rules
        version 3). The bound keeps a match finite however often a seat changes its mind."""
        if self.queue[seat] and self.taken_back[seat] < self.game.rules.take_backs:
            return [ids.TAKE_BACK]
        return []

    def _can_build(self, seat: int, cell: int, kind: int, budget: Budget) -> bool:
        building = self.game.rules.buildings[kind]
        if not budget.afford(building.cost) or budget.idle < building.people:
            return False
        queued = budget.builds.get((cell, kind), 0)
        if self.building(cell, kind) + queued >= self.slots(cell, kind):
            return False
        return kind != SCIENCE or budget.science < self.science_limit(seat)

    def spend(self, seat: int, order: Order, budget: Budget, *, dry: bool = False) -> bool:
        """Check ``order`` against ``budget`` and take what it costs; False if it cannot
        be paid or done (then the budget is unchanged)."""
        kind, a, b, part = order  # unpacked: a compiled build reads a tuple's items natively
        derived = self.game.tables
        if kind in (ids.K_MARCH, ids.K_PULLBACK, ids.K_SELL):
            stack = budget.units.get(a)
            if stack is None or not (stack[0] or stack[1]):
                return False
            if kind == ids.K_SELL:
                if not stack[0]:
                    return False
                stack[0] -= 1
                return True
            if kind == ids.K_PULLBACK:
                if not budget.afford(derived.pullback_cost):
                    return False
                budget.pay(derived.pullback_cost)
                stack[0] = stack[1] = 0
                return True
            moving = march_part(stack, part)
            if moving is None:
                return False
            stack[0] -= moving[0]
            stack[1] -= moving[1]
            return True
        if kind == ids.K_CLAIM:
            if a in budget.claims or not budget.afford(derived.claim_cost):
                return False
            budget.pay(derived.claim_cost)
            budget.claims.add(a)
            return True
        if kind == ids.K_BUILD:
            if self.owner[a] != seat or not self._can_build(seat, a, b, budget):
                return False
            budget.pay(derived.building_costs[b])
            budget.idle -= derived.building_people[b]
            key = (a, b)
            budget.builds[key] = budget.builds.get(key, 0) + 1
            budget.science += b == SCIENCE
            return True
        if kind == ids.K_TRAIN:
            cost = derived.unit_costs[b]
            if self.owner[a] != seat or not self.buildings[a * NUM_BUILDINGS + BARRACKS]:
                return False
            if not budget.afford(cost):
                return False
            budget.pay(cost)
            return True
        if kind == ids.K_TRADE:
            if budget.res[a] < derived.bank_rate:
                return False
            budget.res[a] -= derived.bank_rate
            return True
        if kind == ids.K_PLAY:
            if a not in budget.cards:
                return False
            budget.cards.remove(a)
            if a == SPEEDUP:
                budget.speedup.add(b)
            elif a == PROSPECT:
                res = budget.res
                res[b] = min(derived.storage_cap, res[b] + derived.prospect_amount)
            return True
        return False

    def seat_name(self, seat: Seat) -> str:
        """The seat's colour: Red, Blue, Green or Gold."""
        return SEAT_NAMES[seat]

    def why_illegal(self, seat: Seat, action: Action) -> str:
        order = DECODED[action]
        phase = PHASES[self.phase]
        if order.kind == ids.K_HOUSE:
            return f"houses are picked before the draft; this is the {phase} phase"
        if order.kind == ids.K_DRAFT:
            if self.phase != DRAFT:
                return f"fields are drafted in the draft; this is the {phase} phase"
            return f"{cell_name(order.a)} is a lake or already taken"
        if self.phase != PLAN:
            return f"orders are queued in a turn; this is the {phase} phase"
        if order.kind == ids.K_TAKE_BACK:
            return self._why_no_take_back(seat)
        if len(self.queue[seat]) >= self.game.rules.max_orders:
            return f"a seat queues at most {self.game.rules.max_orders} orders a turn; end the turn"
        return self.game.order_reason(self, seat, order, self.budget(seat))

    def _why_no_take_back(self, seat: int) -> str:
        limit = self.game.rules.take_backs
        if not limit:
            return "queued orders are taken back from rules version 3 on"
        if self.ended[seat]:
            return "the turn is ended: its orders are handed in"
        if not self.queue[seat]:
            return "no order is queued to take back"
        return f"a seat takes back at most {limit} orders a turn"

    # -- transitions -------------------------------------------------------------------

    def apply_unchecked(self, seat: Seat, action: Action) -> list[Event]:
        kind, a, _, _ = DECODED[action]
        if kind == ids.K_HOUSE:
            return self._pick_house(seat, a)
        if kind == ids.K_DRAFT:
            return self._draft(seat, a)
        if kind == ids.K_END:
            return self._end_turn(seat)
        queue = self.queue[seat]
        if kind == ids.K_TAKE_BACK:
            taken = queue.pop()
            self.taken_back[seat] += 1
            data = {"order": NOTATION[taken], "queued": len(queue)}
            return [Event("taken_back", seat, data, (seat,))]
        queue.append(action)
        return [Event("queued", seat, {"order": NOTATION[action], "queued": len(queue)}, (seat,))]

    def _pick_house(self, seat: int, house: int) -> list[Event]:
        self.house[seat] = house
        events = [
            Event("house_locked", seat),
            Event("house_picked", seat, {"house": self.game.rules.houses[house]}, (seat,)),
        ]
        if NO_SEAT in self.house:
            return events
        events.append(
            Event("houses", None, {"houses": [self.game.rules.houses[h] for h in self.house]})
        )
        events.extend(self._roll_draft_order())
        self.phase = DRAFT
        return events

    def _roll_draft_order(self) -> list[Event]:
        """ "Draft order is by die roll": highest first, ties rolled again; snake order."""
        rolls: dict[int, list[int]] = {seat: [] for seat in range(self.seats)}
        pending = [list(range(self.seats))]
        order: list[int] = []
        while pending:
            group = pending.pop(0)
            if len(group) == 1:
                order.append(group[0])
                continue
            for seat in group:
                rolls[seat].append(1 + self.rng.below(self.game.rules.die))
            values = sorted({rolls[seat][-1] for seat in group}, reverse=True)
            pending = [[s for s in group if rolls[s][-1] == v] for v in values] + pending
        rounds: list[int] = []
        for index in range(self.game.rules.draft_fields):
            backwards = self.game.rules.snake_draft and index % 2 == 1
            rounds.extend(reversed(order) if backwards else order)
        self.draft_order = rounds
        self.draft_step = 0
        return [
            Event(
                "draft_order",
                None,
                {"rolls": [rolls[s] for s in range(self.seats)], "order": rounds},
            )
        ]

    def _draft(self, seat: int, cell: int) -> list[Event]:
        self.owner[cell] = seat
        self.soldiers[seat][cell] += self.game.rules.draft_soldiers
        events = [Event("drafted", seat, {"field": cell_name(cell)})]
        self.draft_step += 1
        if self.draft_step == len(self.draft_order):
            events.extend(self._draft_place_stores())
            self.draft_order = []
            self.draft_step = 0
            self.start_turn(1)
            events.append(Event("turn", None, {"turn": 1}))
        return events

    def _draft_place_stores(self) -> list[Event]:
        """ "Draft order is by die roll": the order itself is the draft's luck, so from rules
        version 2 a seat's place in it brings stores when the draft ends (Decision 4: the
        seat that drafted first gets 3 brick, a barracks with one coin).
        The opening's 3 food and 4 people stay as written."""
        stores = self.game.rules.draft_place_stores.get(self.seats)
        if not stores:
            return []
        events = []
        places = list(dict.fromkeys(self.draft_order))
        for place, seat in enumerate(places):
            if any(stores[place]):
                res = self.res[seat]
                for kind, amount in enumerate(stores[place]):
                    res[kind] = min(self.game.rules.storage_cap, res[kind] + amount)
                got = {RESOURCES[k]: n for k, n in enumerate(stores[place]) if n}
                events.append(Event("draft_stores", seat, {"place": place + 1, "stores": got}))
        return events

    def start_turn(self, turn: int) -> None:
        self.phase = PLAN
        self.turn = turn
        for seat in range(self.seats):
            self.queue[seat] = []
            self.taken_back[seat] = 0
            self.ended[seat] = self.is_out(seat)

    def _end_turn(self, seat: int) -> list[Event]:
        self.ended[seat] = True
        events = [Event("turn_ended", seat)]
        if all(self.ended):
            events.extend(self.game.resolve_turn(self))
        return events

    def _hand_in_action(self, seat: Seat) -> Action:
        """The turn timer reached zero: "every seat that has not ended its turn hands in
        the orders it has queued, as they stand, and a seat with none passes." The house
        pick and the draft have no timer (a Decision), so there is nothing to hand in."""
        if self.phase != PLAN:
            raise IllegalAction(
                f"the turn timer runs only during turns; this is the {PHASES[self.phase]} phase",
                seat=seat,
                action="hand_in",
            )
        return ids.END

    # -- the end -----------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        return Outcome(
            winners=self.winners,
            reason=self.reason,
            scores=tuple(float(self.points(seat)) for seat in range(self.seats)),
            detail={
                "turn": self.turn,
                "fields": [self.fields(seat) for seat in range(self.seats)],
                "units": [self.units(seat) for seat in range(self.seats)],
                "sides": list(self.side),
            },
        )

    # -- copies, views, JSON -----------------------------------------------------------

    def clone(self) -> MaiterraState:
        """An independent copy: every list copied, the sides, the game and the scalars
        shared (written out in ``__init__``)."""
        return MaiterraState(self.game, self)

    def _resample(self, seat: Seat, seed: int) -> MaiterraState:
        new = self.clone()
        self.game.redraw_hidden(new, seat, seed)
        return new

    def _view(self, seat: Seat | None) -> JSON:
        return self.game.position_view(self, seat)

    def to_json(self) -> JSON:
        return self.game.position_json(self)

    def _describe_action(self, seat: Seat, action: Action) -> str:
        return self.game.describe_move(self, seat, action)


abc_bookkeeping(MaiterraState)  # the compiled class lacks its own (meeple.core.compiled)


def march_part(stack: list[int], part: int) -> tuple[int, int] | None:
    """The (soldiers, cavalry) a march of ``part`` takes from ``stack``, or None."""
    soldiers, cavalry = stack
    if part == ids.ALL:
        return (soldiers, cavalry) if soldiers or cavalry else None
    if part == ids.SOLDIERS_ONLY:
        return (soldiers, 0) if soldiers and cavalry else None
    if part == ids.CAVALRY_ONLY:
        return (0, cavalry) if soldiers and cavalry else None
    return (1, 0) if soldiers >= 2 else None


__all__ = ["Budget", "KeptBudget", "MaiterraState", "march_part"]
