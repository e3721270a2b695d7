"""Manafields: a 1v1 fantasy wargame of orders, dice, objectives and Generals.

Rules: docs/rules/manafields.md; the numbers the rules read: data/rules.json.
"""

from meeple.core.registry import register
from meeple.games.manafields.game import Manafields
from meeple.games.manafields.rules import ManafieldsState

register(Manafields)

__all__ = ["Manafields", "ManafieldsState"]
