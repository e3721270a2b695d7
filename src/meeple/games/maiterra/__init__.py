"""Maiterra: Lakeland for two to four seats, simultaneous turns, houses, cards and teams.

Rules: docs/rules/maiterra.md; the numbers the rules read: data/rules.json.
"""

from meeple.core.registry import register_kit
from meeple.games.maiterra.game import Maiterra, Maiterra1
from meeple.games.maiterra.kit import KIT
from meeple.games.maiterra.rules import MaiterraState

register_kit(KIT)

__all__ = ["KIT", "Maiterra", "Maiterra1", "MaiterraState"]
