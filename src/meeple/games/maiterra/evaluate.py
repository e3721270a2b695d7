"""A heuristic for Maiterra, read from the seat's view only.

Points decide the match ("every field scores 2 points"), so the score is the seat's side's
points against the best other side's, counted in points. Smaller terms value what wins
points later: units (they take and hold fields), stores (they become buildings and
units), working buildings -- and fear *threat*: enemy units next to a field of the side
that could take it (their attack against its defence, walls included), worth up to the
field's 2 points. A finished match is worth far more than any position.

It reads ``state.view(seat)`` and the fixed geometry of the grid, nothing else, so sealed
orders, houses and hands stay sealed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from meeple.core import Seat, State
from meeple.games.maiterra.data import CELL_NAMES, NEIGHBOURS, RESOURCES, RULES, cell_name

UNIT_WEIGHT = 0.6
"""Points a unit is worth (a soldier takes and holds a 2-point field with some help)."""
STORE_WEIGHT = 0.04
BUILDING_WEIGHT = 0.25
THREAT_WEIGHT = 0.25
WIN_VALUE = 100.0
ATTACK = (RULES.units[0].attack, RULES.units[1].attack)
DEFENCE = (RULES.units[0].defence, RULES.units[1].defence)
NEIGHBOUR_NAMES = tuple(tuple(cell_name(near) for near in row if near >= 0) for row in NEIGHBOURS)


def evaluate_maiterra(state: State, seat: Seat) -> float:
    """Higher is better for ``seat``'s side; counted in points (a field is 2)."""
    return evaluate_view(state.view(seat), seat)


def evaluate_view(view: Mapping[str, Any], seat: Seat) -> float:
    """The heuristic on a view JSON object (see the Maiterra view schema)."""
    sides: Sequence[int] = view["sides"]
    mine = sides[seat]
    outcome = view.get("outcome")
    if outcome:
        winners = outcome.get("winners") or []
        if not winners:
            return 0.0
        return WIN_VALUE if sides[int(winners[0])] == mine else -WIN_VALUE
    worth: dict[int, float] = dict.fromkeys(sides, 0.0)
    for row in view["seats"]:
        side = sides[int(row["seat"])]
        worth[side] += float(row["points"])
        worth[side] += UNIT_WEIGHT * float(row["units"])
        worth[side] += STORE_WEIGHT * sum(float(row[r]) for r in RESOURCES)
    fields = {str(f["field"]): f for f in view["board"]}
    for field in fields.values():
        owner = field.get("owner")
        if owner is None:
            continue
        side = sides[int(owner)]
        worth[side] += BUILDING_WEIGHT * sum(int(n) for n in field["buildings"].values())
        worth[side] -= _threat(field, fields, sides)
    others = [value for side, value in worth.items() if side != mine]
    return worth[mine] - (max(others) if others else 0.0)


def _threat(
    field: Mapping[str, Any], fields: Mapping[str, Mapping[str, Any]], sides: Sequence[int]
) -> float:
    """How much of a field's 2 points the enemies next to it put at risk."""
    side = sides[int(field["owner"])]
    defence = RULES.wall_bonus * int(field["buildings"].get("wall", 0))
    for who, (soldiers, cavalry) in field["armies"].items():
        if sides[int(who)] == side:
            defence += soldiers * DEFENCE[0] + cavalry * DEFENCE[1]
    attack = 0
    for name in NEIGHBOUR_NAMES[CELL_NAMES.index(str(field["field"]))]:
        near = fields.get(name)
        if near is None:
            continue
        for who, (soldiers, cavalry) in near["armies"].items():
            if sides[int(who)] != side:
                attack += soldiers * ATTACK[0] + cavalry * ATTACK[1]
    if attack <= defence:
        return 0.0
    return min(float(RULES.points_per_field), THREAT_WEIGHT * (attack - defence))
