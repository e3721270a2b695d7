"""The numbers Maatatahay's rules read, loaded from ``data/rules.json``.

Everything the rule text leaves open -- the warrior tiles, the crystals on the map, the
shrine spaces, the map's environment arrows, the bag and supply -- lives in that file, not
in code; this module turns it into flat lookup tables indexed by space (``row * 5 + col``,
row 0 = rank 1 at the bottom, col 0 = file a).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

SIZE = 5
SPACES = SIZE * SIZE
FILES = "abcde"

# Compass directions clockwise from north, as (row step, column step); north is up (+row).
DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
FACINGS = ("N", "E", "S", "W")
EMPTY = -1  # a space with no warrior


def space_name(space: int) -> str:
    return f"{FILES[space % SIZE]}{space // SIZE + 1}"


def space_at(row: int, col: int) -> int | None:
    if 0 <= row < SIZE and 0 <= col < SIZE:
        return row * SIZE + col
    return None


@dataclass(frozen=True, slots=True)
class Tile:
    """A warrior tile as printed: fangs (strength), support arrows, diamonds (VP)."""

    index: int
    id: int
    name: str
    fangs: int
    arrows: tuple[int, ...]  # direction indices into DIRECTIONS, facing north
    diamonds: int
    ability: str | None  # "elder", "convert" or None

    def arrows_facing(self, facing: int) -> tuple[int, ...]:
        """Arrow directions after turning the tile ``facing`` quarter turns clockwise."""
        return tuple(sorted((d + 2 * facing) % 8 for d in self.arrows))

    def distinct_facings(self) -> tuple[int, ...]:
        """Facings that give different arrow layouts (the first of each kind)."""
        seen: set[tuple[int, ...]] = set()
        result = []
        for facing in range(4):
            layout = self.arrows_facing(facing)
            if layout not in seen:
                seen.add(layout)
                result.append(facing)
        return tuple(result)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "fangs": self.fangs,
            "diamonds": self.diamonds,
            "arrows": [DIRECTIONS[d] for d in self.arrows],
            "ability": self.ability,
        }


@dataclass(frozen=True, slots=True)
class RuleData:
    tribes: tuple[str, str]
    tiles: tuple[Tile, ...]
    map_crystals: tuple[int, ...]  # per space: crystals drawn from the bag at setup
    shrines: tuple[bool, ...]  # per space: a Temple Relic starts there
    environment_arrows: tuple[int, ...]  # per space: printed arrows pointing at it
    bag_energy: int
    bag_spirit: int
    supply_energy: int
    stream_pairs: int
    storage_limit: int
    relic_base_cost: int
    relic_min_cost: int
    relic_reward: int
    lost_to_end: int
    free_spaces_to_end: int
    progressive_relic_points: tuple[int, ...]
    derived: dict[str, object] = field(default_factory=dict, init=False, compare=False, repr=False)
    """Tables worked out from these numbers, kept with them (:func:`arrow_targets`)."""


def _grid(rows: list[list[int]]) -> tuple[int, ...]:
    """A grid written top row (rank 5) first, as a per-space tuple (rank 1 first)."""
    if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
        raise ValueError("a grid in rules.json must be 5 rows of 5")
    return tuple(int(rows[SIZE - 1 - (s // SIZE)][s % SIZE]) for s in range(SPACES))


def load_rules(text: str | None = None) -> RuleData:
    """Read rules.json (or the given JSON text) into a :class:`RuleData`."""
    if text is None:
        text = resources.files(__package__).joinpath("data/rules.json").read_text("utf-8")
    raw = json.loads(text)
    tiles = tuple(
        Tile(
            index=i,
            id=int(t["id"]),
            name=str(t["name"]),
            fangs=int(t["fangs"]),
            arrows=tuple(sorted(DIRECTIONS.index(a) for a in t["arrows"])),
            diamonds=int(t["diamonds"]),
            ability=t.get("ability"),
        )
        for i, t in enumerate(raw["tiles"])
    )
    return RuleData(
        tribes=(raw["tribes"][0], raw["tribes"][1]),
        tiles=tiles,
        map_crystals=_grid(raw["map_crystals"]),
        shrines=tuple(bool(x) for x in _grid(raw["shrines"])),
        environment_arrows=_grid(raw["environment_arrows"]),
        bag_energy=int(raw["bag"]["energy"]),
        bag_spirit=int(raw["bag"]["spirit"]),
        supply_energy=int(raw["supply_energy"]),
        stream_pairs=int(raw["stream_pairs"]),
        storage_limit=int(raw["storage_limit"]),
        relic_base_cost=int(raw["relic_base_cost"]),
        relic_min_cost=int(raw["relic_min_cost"]),
        relic_reward=int(raw["relic_reward"]),
        lost_to_end=int(raw["lost_to_end"]),
        free_spaces_to_end=int(raw["free_spaces_to_end"]),
        progressive_relic_points=tuple(int(x) for x in raw["progressive_relic_points"]),
    )


RULES = load_rules()
"""The published numbers; a game holds those it plays with as ``game.rules``."""
TILES_PER_SEAT = len(RULES.tiles)


def _neighbours(steps: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    table = []
    for space in range(SPACES):
        row, col = divmod(space, SIZE)
        near = [space_at(row + dr, col + dc) for dr, dc in steps]
        table.append(tuple(n for n in near if n is not None))
    return tuple(table)


ORTHOGONAL = _neighbours(tuple(STEPS[d] for d in (0, 2, 4, 6)))
DIAGONAL = _neighbours(tuple(STEPS[d] for d in (1, 3, 5, 7)))
AROUND = _neighbours(STEPS)


ArrowTargets = tuple[tuple[tuple[frozenset[int], ...], ...], ...]
"""``[tile][facing][space]`` -> the spaces that tile's arrows point at from ``space``."""


def _arrow_targets(tiles: tuple[Tile, ...]) -> ArrowTargets:
    table = []
    for tile in tiles:
        per_facing = []
        for facing in range(4):
            per_space = []
            for space in range(SPACES):
                row, col = divmod(space, SIZE)
                targets = set()
                for d in tile.arrows_facing(facing):
                    dr, dc = STEPS[d]
                    target = space_at(row + dr, col + dc)
                    if target is not None:
                        targets.add(target)
                per_space.append(frozenset(targets))
            per_facing.append(tuple(per_space))
        table.append(tuple(per_facing))
    return tuple(table)


def arrow_targets(rules: RuleData) -> ArrowTargets:
    """The :data:`ArrowTargets` of ``rules``' tiles, worked out on first use and kept with
    them."""
    table = rules.derived.get("arrow_targets")
    if not isinstance(table, tuple):
        table = rules.derived["arrow_targets"] = _arrow_targets(rules.tiles)
    return table


ARROW_TARGETS = arrow_targets(RULES)
"""The published tiles' :data:`ArrowTargets` (the bots' knowledge; the rules read the
game's own)."""
DISTINCT_FACINGS = tuple(tile.distinct_facings() for tile in RULES.tiles)

# How much a seat can keep in storage: every (energy, spirit) pair with energy + spirit <= 4.
KEEPS = tuple(
    (e, s)
    for e in range(RULES.storage_limit + 1)
    for s in range(RULES.storage_limit + 1)
    if e + s <= RULES.storage_limit
)
