"""Pebbles: a fourth game, added the way a new game is added -- one package, one registration.

Two seats take turns taking one to three pebbles from a pile; who takes the last pebble wins.
Its rules (:mod:`.rules`), game object (:mod:`.game`), bot knowledge (:mod:`.bots`),
terminal drawing (:mod:`.draw`) and event catalogue (:mod:`.events`) live here, and
:mod:`.kit` holds the one :class:`~meeple.core.GameKit` the shared layers read. Importing the
package registers it.
"""

from meeple.core import register_kit
from tests.pebbles.game import Pebbles
from tests.pebbles.kit import KIT
from tests.pebbles.rules import PebblesState

register_kit(KIT)

__all__ = ["KIT", "Pebbles", "PebblesState"]
