"""Combat arithmetic: a side's strength, the dice, who wins and what the winner loses.

"A side's strength is its units as above, plus 3 for each wall on the field it owns. Both
sides roll a die, 1 to 5. The higher roller adds the difference to their strength. Higher
strength wins. A tie holds for the defender. The loser loses everything on the field. The
winner loses some units too, fewer the harder they won."

With more than two sides (unclaimed land, or several enemies marching on one field) every
side adds the difference between its roll and the lowest roll. The casualty rule (a
Decision): the winner loses ``max(0, L - margin)`` units, where ``L`` counts the losers'
units plus the walls they lost and ``margin`` is the winner's lead over the strongest
loser; the winner always keeps at least one unit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from meeple.core.rng import Rng
from meeple.games.maiterra.data import RuleData


@dataclass(slots=True)
class Side:
    """One side of a fight: a seat, or allies fighting as one.

    ``members`` maps a seat to its ``[soldiers, cavalry]`` on the field (or on the road);
    ``base`` is the strength before the die (units, walls, flanking).
    """

    side: int
    members: dict[int, list[int]]
    base: int = 0
    defender: bool = False
    lucky: bool = False
    roll: int = 0
    total: int = 0
    walls: int = 0
    detail: dict[str, int] = field(default_factory=dict)

    def units(self) -> int:
        return sum(s + c for s, c in self.members.values())


def roll(rng: Rng, lucky: bool, die: int) -> int:
    """A die 1..5 (``die`` faces); Lucky Strike: "roll twice, keep the higher"."""
    first = 1 + rng.below(die)
    if not lucky:
        return first
    return max(first, 1 + rng.below(die))


def flank_bonus(directions: int, rules: RuleData) -> int:
    """ "+2 for each extra direction, at most +4." """
    if directions <= 1:
        return 0
    return min(rules.flank_max, rules.flank_per_direction * (directions - 1))


def decide(sides: list[Side], rng: Rng, rules: RuleData) -> Side:
    """Roll for every side and return the winner (sides are ordered by ``side``).

    Ties at the top hold for the defender; between attackers the dice are rolled again
    (at most ``tie_rerolls`` times, then the lowest side number wins).
    """
    for _ in range(rules.tie_rerolls):
        for side in sides:
            side.roll = roll(rng, side.lucky, rules.die)
        low = min(side.roll for side in sides)
        for side in sides:
            side.total = side.base + side.roll - low
        best = max(side.total for side in sides)
        top = [side for side in sides if side.total == best]
        if len(top) == 1:
            return top[0]
        for side in top:
            if side.defender:
                return side
    return top[0]


def casualties(winner: Side, losers: list[Side]) -> int:
    """How many units the winner loses: fewer the harder it won (module docstring)."""
    lost = sum(side.units() + side.walls for side in losers)
    margin = winner.total - max((side.total for side in losers), default=0)
    units = winner.units()
    return max(0, min(units - 1, lost - margin)) if units else 0


def remove_units(members: dict[int, list[int]], count: int) -> dict[int, list[int]]:
    """Take ``count`` units away, one at a time from the member with the most left
    (ties: the lower seat), soldiers before cavalry. Returns the losses per seat."""
    losses: dict[int, list[int]] = {}
    for _ in range(count):
        seat = max(members, key=lambda s: (sum(members[s]), -s))
        stack = members[seat]
        kind = 0 if stack[0] else 1
        if stack[kind] == 0:
            break
        stack[kind] -= 1
        losses.setdefault(seat, [0, 0])[kind] += 1
    return losses
