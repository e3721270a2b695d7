"""Maiterra: Lakeland for two to four seats, simultaneous turns, houses, cards and teams.

Rules: docs/rules/maiterra.md; the numbers the rules read: data/rules.json.
"""

from meeple.core.registry import register
from meeple.games.maiterra.game import Maiterra
from meeple.games.maiterra.rules import MaiterraState

register(Maiterra)

__all__ = ["Maiterra", "MaiterraState"]
