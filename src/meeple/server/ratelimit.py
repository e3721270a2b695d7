"""Rate limits on what can be abused from outside: logins and registrations per client
address, guests created per address, room creation per address and per account.

Each limit is a token bucket per key (an address, an account): ``per_minute`` requests a
minute on average, ``burst`` at once. A refused request is answered ``429`` with the
project's ``{code, message}`` error and a ``Retry-After`` header (whole seconds), and
changes nothing: neither the bucket nor anything else is spent on it.

With one process the buckets live in its memory; a key idle long enough to have refilled
its bucket is forgotten when the table grows, so the table stays small however many
addresses come by. With many workers they live in Redis (:class:`SharedBuckets`), so a
client that reaches several workers gets no more than one would give it; each bucket there
expires once it would be full again.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

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
        name: str = "",
    ) -> None:
        if per_minute <= 0 or burst < 1:
            raise ValueError(f"a limit needs a positive rate and burst, got {per_minute}, {burst}")
        self.name = name
        """What its buckets are named by where they are shared (Redis)."""
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


SPEND = """
local now = redis.call('TIME')
now = tonumber(now[1]) + tonumber(now[2]) / 1e6
local wait, tokens = 0, {}
for i, key in ipairs(KEYS) do
  local rate, burst = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  local found = redis.call('HMGET', key, 'tokens', 'when')
  local t = burst
  if found[1] then
    t = math.min(burst, tonumber(found[1]) + (now - tonumber(found[2])) * rate)
  end
  tokens[i] = t
  if t < 1 then wait = math.max(wait, (1 - t) / rate) end
end
if wait > 0 then return tostring(wait) end
for i, key in ipairs(KEYS) do
  local rate, burst = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  redis.call('HSET', key, 'tokens', tostring(math.max(0, tokens[i] - 1)), 'when', tostring(now))
  redis.call('PEXPIRE', key, math.ceil(burst / rate * 1000) + 1000)
end
return '0'
"""
"""Spend one request of every key, or none when one must wait (then: how long), in one
step on the Redis server, by its clock: workers never race each other over a bucket."""


class SharedBuckets:
    """The buckets of every limiter kept in Redis, shared by the workers of one server:
    the same token buckets as :class:`Limiter`'s, spent in one Redis script. Redis out of
    reach: each worker falls back to its own buckets (logged) rather than failing the
    request."""

    def __init__(self, redis: Any, prefix: str) -> None:
        self._spend = redis.register_script(SPEND)
        self.prefix = prefix

    async def spend(self, *checks: tuple[Limiter, str], what: str) -> None:
        """:func:`spend`, across the workers.

        Raises:
            RateLimited: some key must wait; nothing was taken from any of them.
        """
        keys = [f"{self.prefix}{limiter.name}:{key}" for limiter, key in checks]
        rates = [value for limiter, _ in checks for value in (limiter.rate, limiter.burst)]
        try:
            wait = float(await self._spend(keys=keys, args=rates))
        except Exception:
            log.warning("rate limits: Redis out of reach, counting in this worker alone")
            spend(*checks, what=what)
            return
        if wait > 0:
            raise RateLimited(wait, what)


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's limiters, built from its settings."""

    login: Limiter
    """Logins and registrations, per client address."""
    guests: Limiter
    """Guests created, per client address."""
    rooms_by_address: Limiter
    rooms_by_account: Limiter
    shared: SharedBuckets | None = None
    """With many workers: where the buckets are kept instead of this process's memory."""

    async def spend(self, *checks: tuple[Limiter, str], what: str) -> None:
        """Take one request from each ``(limiter, key)``, or none when one is spent.

        Raises:
            RateLimited: some key must wait; nothing was taken from any of them.
        """
        if self.shared is None:
            spend(*checks, what=what)
        else:
            await self.shared.spend(*checks, what=what)
