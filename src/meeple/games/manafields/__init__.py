"""Manafields: a 1v1 fantasy wargame of orders, dice, objectives and Generals.

Rules: docs/rules/manafields.md; the numbers the rules read: data/rules.json.
"""

from meeple.core.registry import register_kit
from meeple.games.manafields.game import Manafields, Manafields1, Manafields2
from meeple.games.manafields.kit import KIT
from meeple.games.manafields.rules import ManafieldsState

register_kit(KIT)

__all__ = ["KIT", "Manafields", "Manafields1", "Manafields2", "ManafieldsState"]
