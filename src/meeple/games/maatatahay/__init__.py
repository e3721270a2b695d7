"""Maatatahay: two tribes, a 5x5 map, surround and be surrounded.

Rules: docs/rules/maatatahay.md; the numbers the rules read: data/rules.json.
"""

from meeple.core.registry import register
from meeple.games.maatatahay.game import Maatatahay
from meeple.games.maatatahay.rules import MaatatahayState

register(Maatatahay)

__all__ = ["Maatatahay", "MaatatahayState"]
