"""The games. Importing this package registers every game with meeple.core.registry."""

from meeple.games import maatatahay, maiterra, manafields

__all__ = ["maatatahay", "maiterra", "manafields"]
