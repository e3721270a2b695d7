"""Manafields: a 1v1 fantasy wargame of orders, dice, objectives and Generals.

Rules: docs/rules/manafields.md; the numbers the rules read: data/rules.json.
"""

from meeple.core.registry import register
from meeple.games.manafields.game import Manafields, Manafields1
from meeple.games.manafields.rules import ManafieldsState

register(Manafields)
if Manafields1.info.version != Manafields.info.version:
    register(Manafields1)

__all__ = ["Manafields", "Manafields1", "ManafieldsState"]
