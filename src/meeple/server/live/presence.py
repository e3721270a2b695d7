"""Who is away: a player of a timed match with no connection past the grace period.

The master tells :class:`Presence` when a seat's last connection leaves and when one comes
back; when a grace period runs out the seat is away and ``on_away`` runs (the master says so
to everyone and lets a bot play the seat until the player returns).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from meeple.core import Seat


class Presence:
    """Grace periods and away seats. ``grace_seconds`` None: nobody is ever away."""

    def __init__(
        self,
        grace_seconds: float | None,
        connected: Callable[[Seat], bool],
        on_away: Callable[[], Awaitable[None]],
    ) -> None:
        self.grace_seconds = grace_seconds
        self._connected = connected
        self._on_away = on_away
        self.away: set[Seat] = set()
        self._grace: dict[Seat, asyncio.Task[None]] = {}

    def left(self, seat: Seat) -> None:
        """``seat`` (a person's, in a match going on) may have no connection left."""
        seconds = self.grace_seconds
        if seconds is None or seat in self.away or seat in self._grace or self._connected(seat):
            return
        self._grace[seat] = asyncio.get_running_loop().create_task(self._wait(seat, seconds))

    async def _wait(self, seat: Seat, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self._grace.pop(seat, None)
        if self._connected(seat):
            return
        self.away.add(seat)
        await self._on_away()

    def away_now(self, seat: Seat) -> bool:
        """``seat`` is known to have left before (a leaver stored before a restart): away at
        once, no grace period, unless it has a connection here. Whether it became away."""
        if self.grace_seconds is None or seat in self.away or self._connected(seat):
            return False
        task = self._grace.pop(seat, None)
        if task is not None:
            task.cancel()
        self.away.add(seat)
        return True

    def returned(self, seat: Seat) -> bool:
        """The seat's player is back: no grace period, no bot. Whether it had been away."""
        task = self._grace.pop(seat, None)
        if task is not None:
            task.cancel()
        if seat in self.away:
            self.away.discard(seat)
            return True
        return False

    def tasks(self) -> list[asyncio.Task[None]]:
        return list(self._grace.values())
