"""Tables the planning reads in its hot loop, worked out once.

Action ids by field (so :meth:`MaiterraState.legal_orders` never computes one) and the
fields within two steps of each field, which no rules version changes; and per rule data
(:class:`RuleTables`, kept with the numbers: :func:`rule_tables`) the costs as flat tuples
and, per map (:class:`TerrainTables`), the land paths of marches and the building slots of
each field.
"""

from __future__ import annotations

from meeple.core.hexgrid import within
from meeple.games.maiterra import lakeland
from meeple.games.maiterra import notation as ids
from meeple.games.maiterra.data import (
    CELLS,
    NEIGHBOURS,
    NUM_BUILDINGS,
    PATH_CELLS,
    PATHS,
    UNIT_NAMES,
    RuleData,
)

REACH = tuple(frozenset(within(cell, NEIGHBOURS, 2)) for cell in range(CELLS))
BUILD_IDS = tuple(
    tuple(ids.build_action(cell, b) for b in range(NUM_BUILDINGS)) for cell in range(CELLS)
)
SELL_IDS = tuple(ids.SELL + cell for cell in range(CELLS))
SPEEDUP_IDS = tuple(ids.PLAY_SPEEDUP + cell for cell in range(CELLS))
CLAIM_IDS = tuple(ids.CLAIM + cell for cell in range(CELLS))
SABOTAGE_IDS = tuple(ids.PLAY_SABOTAGE + cell for cell in range(CELLS))
TRAIN_IDS = tuple(
    tuple(ids.train_action(cell, unit) for unit in range(len(UNIT_NAMES))) for cell in range(CELLS)
)
PULLBACK_IDS = tuple(
    tuple((direction, ids.pullback_action(cell, direction)) for direction in range(6))
    for cell in range(CELLS)
)
TRADE_IDS = tuple(
    tuple(ids.trade_action(give, get) for get in range(4) if get != give) for give in range(4)
)
PROSPECT_IDS = tuple(ids.PLAY_PROSPECT + resource for resource in range(4))
PART_COUNT = len(ids.PARTS)
PARTS = range(PART_COUNT)


class TerrainTables:
    """What a map's terrain fixes for the whole match, worked out once per map.

    ``marches[cell]``: (two-field?, march id of part ``all``) for every path whose fields
    are land; ``steps[cell][part]`` and ``rides[cell][part]``: the march ids of that part
    along those paths of one field and of two; ``slots[cell][kind]``: how many of a
    building a field takes; :meth:`stack_marches`: every march of a stack (and
    :meth:`sorted_marches`, the same ascending).
    """

    __slots__ = ("land", "marches", "rides", "slots", "sorted_stacks", "stacks", "steps")

    def __init__(self, terrain: tuple[int, ...], rules: RuleData) -> None:
        land = tuple(t != lakeland.LAKE for t in terrain)
        self.land = land
        self.marches = tuple(
            tuple(
                (path >= 6, ids.MARCH + (cell * PATHS + path) * PART_COUNT)
                for path, (mid, end) in enumerate(PATH_CELLS[cell])
                if mid >= 0 and land[mid] and land[end]
            )
            for cell in range(CELLS)
        )
        steps: list[tuple[tuple[int, ...], ...]] = []
        rides: list[tuple[tuple[int, ...], ...]] = []
        for paths in self.marches:
            one = [base for two, base in paths if not two]
            both = [base for two, base in paths if two]
            steps.append(tuple([tuple([base + part for base in one]) for part in PARTS]))
            rides.append(tuple([tuple([base + part for base in both]) for part in PARTS]))
        self.steps = tuple(steps)
        self.rides = tuple(rides)
        self.slots = tuple(
            tuple(
                (building.per_field or rules.slots[terrain[cell]][kind]) if land[cell] else 0
                for kind, building in enumerate(rules.buildings)
            )
            for cell in range(CELLS)
        )
        self.stacks: dict[int, tuple[int, ...]] = {}
        self.sorted_stacks: dict[int, tuple[int, ...]] = {}

    def stack_marches(self, cell: int, soldiers: int, cavalry: int, fast: bool) -> tuple[int, ...]:
        """The march ids of a stack of ``soldiers`` and ``cavalry`` on ``cell`` (``fast``:
        Speedup played on it, so its soldiers ride too): part by part (``all``, then
        ``soldiers``, ``cavalry``, ``one``, each the parts the stack can split into), each
        part's steps then its rides. Worked out once per field and kind of stack."""
        key = ((cell * 3 + min(soldiers, 2)) * 2 + (cavalry > 0)) * 2 + fast
        found = self.stacks.get(key)
        if found is None:
            parts = [(ids.ALL, not soldiers or fast)]
            if soldiers and cavalry:
                parts += [(ids.SOLDIERS_ONLY, fast), (ids.CAVALRY_ONLY, True)]
            if soldiers >= 2:
                parts.append((ids.ONE, fast))
            steps, rides = self.steps[cell], self.rides[cell]
            orders: list[int] = []
            for part, can_ride in parts:
                orders.extend(steps[part])
                if can_ride:
                    orders.extend(rides[part])
            found = self.stacks[key] = tuple(orders)
        return found

    def sorted_marches(self, cell: int, soldiers: int, cavalry: int, fast: bool) -> tuple[int, ...]:
        """:meth:`stack_marches` in ascending order of their ids."""
        key = ((cell * 3 + min(soldiers, 2)) * 2 + (cavalry > 0)) * 2 + fast
        found = self.sorted_stacks.get(key)
        if found is None:
            found = tuple(sorted(self.stack_marches(cell, soldiers, cavalry, fast)))
            self.sorted_stacks[key] = found
        return found


class RuleTables:
    """What one rule data fixes, as flat tuples: each unit's and building's cost, the people
    a building takes, each unit's attack and defence; the numbers the planning reads on
    every order (copied from the rules); and each map's :class:`TerrainTables`
    (kept for the last few maps; the key is the terrain itself, so a terrain changed in
    place gets tables of its own)."""

    __slots__ = (
        "attack",
        "bank_rate",
        "building_costs",
        "building_people",
        "claim_cost",
        "defence",
        "max_orders",
        "prospect_amount",
        "pullback_cost",
        "rules",
        "storage_cap",
        "terrains",
        "unit_costs",
    )

    def __init__(self, rules: RuleData) -> None:
        self.rules = rules
        # The numbers the planning reads on every order, as attributes of a compiled class.
        self.max_orders = rules.max_orders
        self.claim_cost = rules.claim_cost
        self.pullback_cost = rules.pullback_cost
        self.bank_rate = rules.bank_rate
        self.storage_cap = rules.storage_cap
        self.prospect_amount = rules.prospect_amount
        self.unit_costs = tuple(unit.cost for unit in rules.units)
        self.building_costs = tuple(building.cost for building in rules.buildings)
        self.building_people = tuple(building.people for building in rules.buildings)
        self.attack = tuple(unit.attack for unit in rules.units)
        self.defence = tuple(unit.defence for unit in rules.units)
        self.terrains: dict[tuple[int, ...], TerrainTables] = {}

    def terrain(self, terrain: list[int]) -> TerrainTables:
        """The tables of a terrain under these rules."""
        key = tuple(terrain)
        tables = self.terrains.get(key)
        if tables is None:
            if len(self.terrains) >= 64:
                self.terrains.clear()
            tables = self.terrains[key] = TerrainTables(key, self.rules)
        return tables


def rule_tables(rules: RuleData) -> RuleTables:
    """The tables of ``rules``, worked out on first use and kept with them."""
    tables = rules.derived.get("tables")
    if not isinstance(tables, RuleTables):
        tables = rules.derived["tables"] = RuleTables(rules)
    return tables
