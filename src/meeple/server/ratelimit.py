"""Rate limits on what can be abused from outside: logins and registrations per client
address, guests created per address, room creation per address and per account.

Each limit is a token bucket per key (an address, an account): ``per_minute`` requests a
minute on average, ``burst`` at once. A refused request is answered ``429`` with the
project's ``{code, message}`` error and a ``Retry-After`` header (whole seconds), and
changes nothing: neither the bucket nor anything else is spent on it.

The buckets live in the server's memory (one process); a key idle long enough to have
refilled its bucket is forgotten when the table grows, so the table stays small however many
addresses come by.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

MAX_KEYS = 50_000
"""Keys held before the full (idle) ones are swept out."""


class Limiter:
    """Token buckets by key: ``per_minute`` on average, ``burst`` at once."""

    def __init__(
        self,
        per_minute: float,
        burst: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = MAX_KEYS,
    ) -> None:
        if per_minute <= 0 or burst < 1:
            raise ValueError(f"a limit needs a positive rate and burst, got {per_minute}, {burst}")
        self.rate = per_minute / 60.0
        self.burst = burst
        self._clock = clock
        self._max_keys = max_keys
        self._buckets: dict[str, tuple[float, float]] = {}  # key: (tokens, when)

    def _tokens(self, key: str, now: float) -> float:
        found = self._buckets.get(key)
        if found is None:
            return float(self.burst)
        tokens, when = found
        return min(float(self.burst), tokens + (now - when) * self.rate)

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may make one more request (0: it may now). Takes nothing."""
        tokens = self._tokens(key, self._clock())
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate

    def take(self, key: str) -> None:
        """Spend one request of ``key`` (after :meth:`wait` said it may)."""
        now = self._clock()
        tokens = self._tokens(key, now)
        if key not in self._buckets and len(self._buckets) >= self._max_keys:
            self._sweep(now)
        self._buckets[key] = (max(0.0, tokens - 1), now)

    def _sweep(self, now: float) -> None:
        """Forget the keys whose buckets have refilled: they start full anyway."""
        full = [key for key in self._buckets if self._tokens(key, now) >= self.burst]
        for key in full:
            del self._buckets[key]


class RateLimited(Exception):
    """A request over a limit: how long to wait, and what was limited (for the message)."""

    def __init__(self, retry_after: float, what: str) -> None:
        super().__init__(what)
        self.retry_after = max(1, math.ceil(retry_after))
        self.what = what


def spend(*checks: tuple[Limiter, str], what: str) -> None:
    """Take one request from each ``(limiter, key)``, or none when any of them is spent.

    Raises:
        RateLimited: some key must wait; nothing was taken from any of them.
    """
    retry = max((limiter.wait(key) for limiter, key in checks), default=0.0)
    if retry > 0:
        raise RateLimited(retry, what)
    for limiter, key in checks:
        limiter.take(key)


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's limiters, built from its settings."""

    login: Limiter
    """Logins and registrations, per client address."""
    guests: Limiter
    """Guests created, per client address."""
    rooms_by_address: Limiter
    rooms_by_account: Limiter
