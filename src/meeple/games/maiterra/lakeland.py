"""Lakeland: the board, drawn anew every match from the state's generator.

A region of ``rows x cols`` hex cells (the top rows of the 5 x 5 grid; see
``data/rules.json``) loses some cells to lakes until it holds the seat count's 17, 16 or
22 fields. A draw is kept only if it is fair:

* the land is one piece, so every seat can march to every field;
* every field has at least ``min_land_neighbours`` land neighbours (no dead-end spits a
  single soldier could hold for ever) and at most ``max_land_neighbours`` (5: every field
  lies on a lake or the shore, so no opening field is open to attack from all six sides);
* every worker building has a slot on at least one field per seat, so every seat can reach
  every terrain it needs;
* there are ``vale_per_seat`` (2) vales per seat, so every seat, whatever its place in the
  draft, can open on two fields with a slot for each worker building.

The terrains are dealt -- the vales first, the other fields round meadow, forest and clay --
and shuffled, so the mix is the same every match and only the places change. (With vales
dealt round like the rest, 4 vales met 6 or 8 draft picks at 3 or 4 seats; the last seat in
the draft opened without a vale half the time and won 27 % and 21 % of its matches instead
of 33 % and 25 %.)
"""

from __future__ import annotations

from meeple.core.hexgrid import connected
from meeple.core.rng import Rng
from meeple.games.maiterra.data import (
    CELLS,
    GRID_COLS,
    NEIGHBOURS,
    RULES,
    WORKER_BUILDINGS,
    RuleData,
)

LAKE = -1
VALE = RULES.terrains.index("vale")
"""The Vale's place among the terrains (their names are the same in every version)."""


def region_cells(seats: int, rules: RuleData) -> list[int]:
    """The cells of the seat count's region, in the 5 x 5 grid's numbering."""
    region = rules.regions[seats]
    return [row * GRID_COLS + col for row in range(region.rows) for col in range(region.cols)]


_SHAPES: dict[tuple[tuple[int, ...], int, int], bool] = {}
""":func:`is_fair_shape`'s verdicts: a seat count's region holds a few thousand land shapes,
and a draw tries a score of them."""


def is_fair_shape(land: list[int], rules: RuleData) -> bool:
    """The constraints of the module docstring that depend only on which cells are land
    (``land``, ascending): one piece, and every field's count of land neighbours."""
    low, high = rules.min_land_neighbours, rules.max_land_neighbours
    key = (tuple(land), low, high)
    fair = _SHAPES.get(key)
    if fair is None:
        if len(_SHAPES) >= 1 << 16:
            _SHAPES.clear()
        fair = _SHAPES[key] = _shape_verdict(land, low, high)
    return fair


def _shape_verdict(land: list[int], low: int, high: int) -> bool:
    if not connected(land, NEIGHBOURS):
        return False
    is_land = set(land)
    for cell in land:
        near = sum(1 for n in NEIGHBOURS[cell] if n in is_land)
        if not low <= near <= high:
            return False
    return True


def is_fair(terrain: list[int], seats: int, rules: RuleData) -> bool:
    """The fairness constraints of the module docstring."""
    land = [cell for cell in range(CELLS) if terrain[cell] != LAKE]
    if not is_fair_shape(land, rules):
        return False
    return is_fair_deal(terrain, land, seats, rules)


def is_fair_deal(terrain: list[int], land: list[int], seats: int, rules: RuleData) -> bool:
    """The constraints of the module docstring on the terrains dealt to the ``land``."""
    for building in WORKER_BUILDINGS:
        with_slot = sum(1 for cell in land if rules.slots[terrain[cell]][building] > 0)
        if with_slot < seats:
            return False
    return sum(1 for cell in land if terrain[cell] == VALE) >= rules.vale_per_seat * seats


def terrain_deal(seats: int, rules: RuleData) -> list[int]:
    """The terrains of the seat count's fields, before the shuffle."""
    fields = rules.regions[seats].fields
    vales = rules.vale_per_seat * seats
    others = [kind for kind in range(len(rules.terrains)) if kind != VALE]
    return [VALE] * vales + [others[i % len(others)] for i in range(fields - vales)]


def generate(rng: Rng, seats: int, rules: RuleData) -> list[int]:
    """Terrain per grid cell (``LAKE`` for lakes and cells outside the region)."""
    cells = region_cells(seats, rules)
    fields = rules.regions[seats].fields
    dealt = terrain_deal(seats, rules)
    for _ in range(rules.map_attempts):
        order = cells[:]
        rng.shuffle(order)
        land = sorted(order[:fields])
        deal = dealt[:]
        rng.shuffle(deal)  # drawn whatever the shape, so every attempt takes the same draws
        if not is_fair_shape(land, rules):
            continue
        terrain = [LAKE] * CELLS
        for cell, kind in zip(land, deal, strict=True):
            terrain[cell] = kind
        if is_fair_deal(terrain, land, seats, rules):
            return terrain
    raise RuntimeError(f"no fair Lakeland for {seats} seats in {rules.map_attempts} draws")
