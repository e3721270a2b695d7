"""Maiterra: Lakeland for two to four seats, simultaneous turns, houses, cards and teams.

Rules: docs/rules/maiterra.md; the numbers the rules read: data/rules.json.
"""

from meeple.core.registry import register
from meeple.games.maiterra.game import EARLIER_VERSIONS, Maiterra, Maiterra1
from meeple.games.maiterra.rules import MaiterraState

register(Maiterra)
for _earlier in EARLIER_VERSIONS:
    register(_earlier)

__all__ = ["Maiterra", "Maiterra1", "MaiterraState"]
