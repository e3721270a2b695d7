"""The numbers Maiterra's rules read, loaded from ``data/rules.json``.

Everything the rule text leaves open -- Lakeland's regions, terrains and worker slots, the
draft, the order limit, the casualty rule's knobs, the card deck, the team target -- lives
in that file, not in code. This module turns it into flat tuples the engine indexes.

Cells: the orders speak of the cells of the largest region, 5 x 5, named ``a1`` (top
left) to ``e5``; smaller maps use the top rows of the same grid, so one action id means
the same order at every seat count.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from meeple.core.hexgrid import DIRECTIONS, neighbour_table, opposite

GRID_ROWS = 5
GRID_COLS = 5
CELLS = GRID_ROWS * GRID_COLS
FILES = "abcde"
RESOURCES = ("food", "wood", "brick", "coins")
FOOD, WOOD, BRICK, COINS = range(4)
UNIT_NAMES = ("soldier", "cavalry")
SEAT_NAMES = ("Red", "Blue", "Green", "Gold")
"""The seats by the colours the board shows them in, for sentences people read."""
SOLDIER, CAVALRY = range(2)
NEIGHBOURS = neighbour_table(GRID_ROWS, GRID_COLS)


def cell_name(cell: int) -> str:
    row, col = divmod(cell, GRID_COLS)
    return f"{FILES[col]}{row + 1}"


CELL_NAMES = tuple(cell_name(cell) for cell in range(CELLS))
"""Every cell's name, worked out once (views and evaluations name fields at every step)."""


def cell_of(name: str) -> int | None:
    """The cell a name like ``c3`` names, or None."""
    if len(name) != 2 or name[0] not in FILES or name[1] not in "12345":
        return None
    return (int(name[1]) - 1) * GRID_COLS + FILES.index(name[0])


# Paths an army may take: 6 single steps, then 30 two-step rides that do not turn back.
# PATH_DIRECTIONS[p] = (first direction, second direction or -1).
PATH_DIRECTIONS: tuple[tuple[int, int], ...] = tuple(
    [(d, -1) for d in range(6)]
    + [(d1, d2) for d1 in range(6) for d2 in range(6) if d2 != opposite(d1)]
)
PATHS = len(PATH_DIRECTIONS)


def _path_cells() -> tuple[tuple[tuple[int, int], ...], ...]:
    """``[cell][path]`` -> (first cell, last cell); -1 where the path leaves the grid."""
    table = []
    for cell in range(CELLS):
        row = []
        for d1, d2 in PATH_DIRECTIONS:
            mid = NEIGHBOURS[cell][d1]
            end = mid if d2 < 0 or mid < 0 else NEIGHBOURS[mid][d2]
            row.append((mid, end) if mid >= 0 and end >= 0 else (-1, -1))
        table.append(tuple(row))
    return tuple(table)


PATH_CELLS = _path_cells()


def path_name(path: int) -> str:
    d1, d2 = PATH_DIRECTIONS[path]
    return DIRECTIONS[d1] if d2 < 0 else f"{DIRECTIONS[d1]}-{DIRECTIONS[d2]}"


@dataclass(frozen=True, slots=True)
class Building:
    name: str
    cost: tuple[int, int, int, int]  # food, wood, brick, coins
    people: int
    makes: int  # resource index, or -1 for a building that produces nothing
    per_field: int  # 0 = limited by the terrain's worker slots
    per_seat: int  # 0 = no limit


@dataclass(frozen=True, slots=True)
class Unit:
    name: str
    cost: tuple[int, int, int, int]
    attack: int
    defence: int
    moves: int


@dataclass(frozen=True, slots=True)
class Region:
    rows: int
    cols: int
    fields: int


@dataclass(frozen=True, slots=True)
class RuleData:
    version: int  # the rules version these numbers are (``maiterra/<version>``)
    houses: tuple[str, ...]
    regions: dict[int, Region]
    min_land_neighbours: int
    max_land_neighbours: int
    vale_per_seat: int
    map_attempts: int
    terrains: tuple[str, ...]
    slots: tuple[tuple[int, ...], ...]  # [terrain][building] worker slots
    opening_food: int
    opening_people: int
    draft_fields: int
    draft_soldiers: int
    # stores (food, wood, brick, coins) a seat gets when the draft ends, by seat count and
    # by its place in the draft order; a seat count not listed gets none
    draft_place_stores: dict[int, tuple[tuple[int, int, int, int], ...]]
    snake_draft: bool
    max_orders: int
    # orders a seat may take back from its queue in a turn (0 before version 3)
    take_backs: int
    turn_limit: int
    storage_cap: int
    free_food: int
    eat_home: int
    eat_away: int
    people_base_cap: int
    cap_per_house: int
    growth_per_house: int
    coins_per_person: int
    bank_rate: int
    soldier_food: int
    per_worker: int
    science_factor: int
    buildings: tuple[Building, ...]
    units: tuple[Unit, ...]
    pullback_cost: tuple[int, int, int, int]
    claim_cost: tuple[int, int, int, int]
    wall_bonus: int
    die: int
    flank_per_direction: int
    flank_max: int
    road_loser_loses: str
    road_fights: str  # "every_crossing" (version 2 on) or "first_steps" (version 1)
    tie_rerolls: int
    star_card: str  # "any_lost_fight" (version 2 on) or "units_lost" (version 1)
    moon_cavalry_defence: int
    tower_science_centres: int
    sun_farms_per_food: int
    cards: tuple[str, ...]
    card_copies: int
    hand_limit: int
    prospect_amount: int
    points_per_field: int
    targets: dict[int, int]
    team_target_extra_per_ally: int
    derived: dict[str, object] = field(default_factory=dict, init=False, compare=False, repr=False)
    """Tables worked out from these numbers, kept with them (see :mod:`.tables`)."""


def _cost(raw: dict[str, Any]) -> tuple[int, int, int, int]:
    return (
        int(raw.get("food", 0)),
        int(raw.get("wood", 0)),
        int(raw.get("brick", 0)),
        int(raw.get("coins", 0)),
    )


ROAD_FIGHTS = ("every_crossing", "first_steps")
STAR_CARDS = ("any_lost_fight", "units_lost")


def _merged(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``changes`` laid over it: objects merge key by key, anything else
    (numbers, strings, lists) is replaced whole."""
    out = dict(base)
    for key, value in changes.items():
        old = out.get(key)
        out[key] = (
            _merged(old, value) if isinstance(old, dict) and isinstance(value, dict) else value
        )
    return out


def load_rule_versions(text: str | None = None) -> dict[int, RuleData]:
    """Every rules version's numbers from rules.json (or the given JSON text).

    The file states the newest version (``"version"``) in full; ``"earlier"`` holds, for
    each older version, only what differs from the version after it, laid over that one
    (objects key by key). So version ``n - 1`` is version ``n`` with ``earlier["n-1"]``,
    version ``n - 2`` that with ``earlier["n-2"]``, and so on down to 1.
    """
    if text is None:
        text = resources.files(__package__).joinpath("data/rules.json").read_text("utf-8")
    raw = json.loads(text)
    newest = int(raw.get("version", 1))
    earlier = raw.get("earlier", {})
    versions = {newest: _rule_data(raw, newest)}
    current = raw
    for older in range(newest - 1, 0, -1):
        current = _merged(current, earlier.get(str(older), {}))
        versions[older] = _rule_data(current, older)
    return versions


def load_rules(text: str | None = None) -> RuleData:
    """The newest rules version's numbers from rules.json (or the given JSON text)."""
    versions = load_rule_versions(text)
    return versions[max(versions)]


def _choice(value: Any, allowed: tuple[str, ...], key: str) -> str:
    if value not in allowed:
        raise ValueError(f"rules.json: {key} must be one of {allowed}, got {value!r}")
    return str(value)


def _draft_place_stores(
    opening: dict[str, Any],
) -> dict[int, tuple[tuple[int, int, int, int], ...]]:
    """``opening.stores_by_draft_place``: per seat count, what each place in the draft order
    (1st first) gets when the draft ends -- wood, brick or coins; never food, which the rule
    text fixes ("each seat opens with 3 food and 4 people")."""
    table = {}
    for key, places in opening.get("stores_by_draft_place", {}).items():
        stores = tuple(_cost(place) for place in places)
        if len(stores) != int(key) or any(s[0] or min(s) < 0 for s in stores):
            raise ValueError(
                f"rules.json: opening.stores_by_draft_place[{key!r}] must give each of {key} "
                f"places its wood, brick or coins (no food, nothing negative), got {places!r}"
            )
        table[int(key)] = stores
    return table


def _rule_data(raw: dict[str, Any], version: int) -> RuleData:
    buildings = tuple(
        Building(
            name=b["name"],
            cost=_cost(b["cost"]),
            people=int(b["cost"].get("people", 0)),
            makes=RESOURCES.index(b["makes"]) if "makes" in b else -1,
            per_field=int(b.get("per_field", 0)),
            per_seat=int(b.get("per_seat", 0)),
        )
        for b in raw["buildings"]
    )
    names = [b.name for b in buildings]
    land = raw["lakeland"]
    combat, perks, cards = raw["combat"], raw["perks"], raw["cards"]
    return RuleData(
        version=version,
        houses=tuple(raw["houses"]),
        regions={
            seats: Region(
                int(land[str(seats)]["rows"]),
                int(land[str(seats)]["cols"]),
                int(land[str(seats)]["fields"]),
            )
            for seats in (2, 3, 4)
        },
        min_land_neighbours=int(land["min_land_neighbours"]),
        max_land_neighbours=int(land["max_land_neighbours"]),
        vale_per_seat=int(land["vale_per_seat"]),
        map_attempts=int(land["attempts"]),
        terrains=tuple(t["name"] for t in raw["terrains"]),
        slots=tuple(tuple(int(t["slots"].get(name, 0)) for name in names) for t in raw["terrains"]),
        opening_food=int(raw["opening"]["food"]),
        opening_people=int(raw["opening"]["people"]),
        draft_fields=int(raw["opening"]["draft_fields"]),
        draft_soldiers=int(raw["opening"]["soldiers_per_drafted_field"]),
        draft_place_stores=_draft_place_stores(raw["opening"]),
        snake_draft=raw["opening"]["draft"] == "snake",
        max_orders=int(raw["max_orders"]),
        take_backs=int(raw["take_backs_per_turn"]),
        turn_limit=int(raw["turn_limit"]),
        storage_cap=int(raw["storage_cap"]),
        free_food=int(raw["food"]["free"]),
        eat_home=int(raw["food"]["eat_home"]),
        eat_away=int(raw["food"]["eat_away"]),
        people_base_cap=int(raw["people"]["base_cap"]),
        cap_per_house=int(raw["people"]["cap_per_house"]),
        growth_per_house=int(raw["people"]["growth_per_house"]),
        coins_per_person=int(raw["people"]["coins_per_person"]),
        bank_rate=int(raw["bank"]["rate"]),
        soldier_food=int(raw["bank"]["soldier_food"]),
        per_worker=int(raw["production"]["per_worker"]),
        science_factor=int(raw["production"]["science_factor"]),
        buildings=buildings,
        units=tuple(
            Unit(u["name"], _cost(u["cost"]), int(u["attack"]), int(u["defence"]), int(u["moves"]))
            for u in raw["units"]
        ),
        pullback_cost=_cost(raw["pullback_cost"]),
        claim_cost=_cost(raw["claim_cost"]),
        wall_bonus=int(combat["wall_bonus"]),
        die=int(combat["die"]),
        flank_per_direction=int(combat["flank_per_direction"]),
        flank_max=int(combat["flank_max"]),
        road_loser_loses=str(combat["road_loser_loses"]),
        road_fights=_choice(combat["road_fights"], ROAD_FIGHTS, "combat.road_fights"),
        tie_rerolls=int(combat["tie_rerolls"]),
        star_card=_choice(perks["star_card"], STAR_CARDS, "perks.star_card"),
        moon_cavalry_defence=int(perks["moon_cavalry_defence"]),
        tower_science_centres=int(perks["tower_science_centres"]),
        sun_farms_per_food=int(perks["sun_farms_per_food"]),
        cards=tuple(cards["names"]),
        card_copies=int(cards["copies"]),
        hand_limit=int(cards["hand_limit"]),
        prospect_amount=int(cards["prospect_amount"]),
        points_per_field=int(raw["points_per_field"]),
        targets={int(k): int(v) for k, v in raw["targets"].items()},
        team_target_extra_per_ally=int(raw["team_target_extra_per_ally"]),
    )


RULE_VERSIONS = load_rule_versions()
"""Every rules version's published numbers; a game holds its version's as ``game.rules``."""
RULES = RULE_VERSIONS[max(RULE_VERSIONS)]
"""The newest version's published numbers. The rules read the numbers from the game's
``rules``, never from here; what is read here (names: houses, terrains, buildings, cards)
is the same in every version."""
BUILDING_NAMES = tuple(b.name for b in RULES.buildings)
FARM, SAWMILL, BRICKWORKS, HOUSE, WALL, BARRACKS, SCIENCE = range(7)
WORKER_BUILDINGS = (FARM, SAWMILL, BRICKWORKS)
NUM_BUILDINGS = len(BUILDING_NAMES)
STAR, TOWER, SUN, MOON = range(4)
SPEEDUP, LUCKY_STRIKE, RALLY, SABOTAGE, PROSPECT = range(5)
CARD_NAMES = RULES.cards
