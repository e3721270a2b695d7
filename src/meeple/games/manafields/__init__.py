"""Manafields: a 1v1 fantasy wargame of orders, dice, objectives and Generals.

Rules: docs/rules/manafields.md; the numbers the rules read: data/rules.json.
"""

from meeple.core.registry import register
from meeple.games.manafields.game import EARLIER_VERSIONS, Manafields, Manafields1, Manafields2
from meeple.games.manafields.rules import ManafieldsState

register(Manafields)
for _earlier in EARLIER_VERSIONS:
    register(_earlier)

__all__ = ["Manafields", "Manafields1", "Manafields2", "ManafieldsState"]
