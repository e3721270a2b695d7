"""The games' own observation encoders, registered with :mod:`meeple.adapters.encoding`.

Each writes the vector straight from the state's fields with numpy -- no view JSON is built
-- and shows a seat only what ``state.view(seat)`` shows (``tests/adapters/test_encoders.py``
proves the vector is a function of the view alone). The layouts are in ``docs/research.md``.
"""

from __future__ import annotations

from meeple.adapters.encoders.maatatahay import MaatatahayEncoder
from meeple.adapters.encoders.maiterra import MaiterraEncoder
from meeple.adapters.encoders.manafields import ManafieldsEncoder
from meeple.adapters.encoding import register_encoder

register_encoder("maatatahay", MaatatahayEncoder)
register_encoder("maiterra", MaiterraEncoder)
register_encoder("manafields", ManafieldsEncoder)

__all__ = ["MaatatahayEncoder", "MaiterraEncoder", "ManafieldsEncoder"]
