"""Who is away: a player of a timed match with no connection past the grace period.

The master tells :class:`Presence` when a seat's last connection leaves and when one comes
back. A seat left with no connection is **leaving** until its grace period's deadline; when
that runs out the seat is **away** (a bot plays it until the player returns). ``on_change``
runs whenever either list changes, so the master can tell everyone, the deadline included.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from meeple.core import Seat


class Presence:
    """Grace periods and away seats. ``grace_seconds`` None: nobody is ever away."""

    def __init__(
        self,
        grace_seconds: float | None,
        connected: Callable[[Seat], bool],
        on_change: Callable[[], Awaitable[None]],
    ) -> None:
        self.grace_seconds = grace_seconds
        self._connected = connected
        self._on_change = on_change
        self.away: set[Seat] = set()
        self._grace: dict[Seat, asyncio.Task[None]] = {}
        self._deadlines: dict[Seat, datetime] = {}

    def leaving(self) -> dict[Seat, datetime]:
        """The seats in their grace period, each with the time a bot takes it."""
        return dict(sorted(self._deadlines.items()))

    def left(self, seat: Seat) -> None:
        """``seat`` (a person's, in a match going on) may have no connection left."""
        seconds = self.grace_seconds
        if seconds is None or seat in self.away or seat in self._grace or self._connected(seat):
            return
        self._deadlines[seat] = datetime.now(UTC) + timedelta(seconds=seconds)
        self._grace[seat] = asyncio.get_running_loop().create_task(self._wait(seat, seconds))

    async def _wait(self, seat: Seat, seconds: float) -> None:
        await self._on_change()  # everyone sees the grace period's clock
        await asyncio.sleep(seconds)
        self._grace.pop(seat, None)
        self._deadlines.pop(seat, None)
        if not self._connected(seat):
            self.away.add(seat)
        await self._on_change()

    def _cancel(self, seat: Seat) -> bool:
        self._deadlines.pop(seat, None)
        task = self._grace.pop(seat, None)
        if task is None:
            return False
        task.cancel()
        return True

    def away_now(self, seat: Seat) -> bool:
        """``seat`` is known to have left before (a leaver stored before a restart): away at
        once, no grace period, unless it has a connection here. Whether it became away."""
        if self.grace_seconds is None or seat in self.away or self._connected(seat):
            return False
        self._cancel(seat)
        self.away.add(seat)
        return True

    def returned(self, seat: Seat) -> bool:
        """The seat's player is back: no grace period, no bot. Whether that changed what
        everyone sees (the seat had been away, or in its grace period)."""
        changed = self._cancel(seat)
        if seat in self.away:
            self.away.discard(seat)
            return True
        return changed

    def tasks(self) -> list[asyncio.Task[None]]:
        return list(self._grace.values())
