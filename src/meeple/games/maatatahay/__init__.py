"""Maatatahay: two tribes, a 5x5 map, surround and be surrounded.

Rules: docs/rules/maatatahay.md; the numbers the rules read: data/rules.json.
"""

from meeple.core.registry import register_kit
from meeple.games.maatatahay.game import Maatatahay
from meeple.games.maatatahay.kit import KIT
from meeple.games.maatatahay.rules import MaatatahayState

register_kit(KIT)

__all__ = ["KIT", "Maatatahay", "MaatatahayState"]
