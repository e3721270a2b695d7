"""The one interface every bot speaks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from meeple.core import Action, Seat, State
from meeple.core.kit import check_can_decide


@runtime_checkable
class Bot(Protocol):
    """A player that picks an action for a seat.

    A bot is constructed with a seed (see :data:`BotFactory`) and keeps its own generator,
    so the same seed and the same sequence of :meth:`select` calls give the same actions.
    It never changes the state it is given and never looks past ``state.view(seat)`` in
    spirit: where it explores, it explores a determinization (:meth:`State.resample`).
    """

    name: str

    def select(self, state: State, seat: Seat) -> Action:
        """A legal action for ``seat``, which must be one of ``state.deciding_seats()``."""
        ...


BotFactory = Callable[[int], Bot]
"""Builds a bot from a seed."""


__all__ = ["Bot", "BotFactory", "check_can_decide"]
