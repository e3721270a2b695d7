"""Rate limits on what can be abused from outside, counted by the ``limits`` library.

Each :class:`Limit` allows ``burst`` requests in any moving window of ``burst / per_minute``
minutes, per key (a client address, an account): ``per_minute`` on average, ``burst`` at
once. A refused request is answered ``429`` with the project's ``{code, message}`` error and
a ``Retry-After`` header (whole seconds: until the oldest request in the window leaves it),
and changes nothing: no key is spent for a request that one of its keys refuses.

With one process the counts live in its memory (the library's memory storage drops a
window once it has passed). With many workers they live in Redis (the library's Redis
storage through redis-py), so a client that reaches several workers gets no more than one
would give it; Redis out of reach, each worker counts alone (logged) rather than failing
the request.
"""

from __future__ import annotations

import contextlib
import logging
import math
import time
from dataclasses import dataclass

from limits import RateLimitItem, RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter

log = logging.getLogger(__name__)

REDIS_SECONDS = 1.0
"""How long a count waits on Redis before this worker counts alone."""


@dataclass(frozen=True, slots=True)
class Limit:
    """One limit: ``item`` (so many in a window) under ``name``, kept apart per key."""

    name: str
    item: RateLimitItem

    @classmethod
    def of(cls, name: str, per_minute: float, burst: int) -> Limit:
        """``burst`` at once and ``per_minute`` on average: ``burst`` in a window of
        ``burst / per_minute`` minutes (whole seconds, at least one).

        Raises:
            ValueError: for a rate or burst that is not positive.
        """
        if per_minute <= 0 or burst < 1:
            raise ValueError(f"a limit needs a positive rate and burst, got {per_minute}, {burst}")
        seconds = max(1, math.ceil(burst * 60 / per_minute))
        return cls(name, RateLimitItemPerSecond(burst, seconds))


class RateLimited(Exception):
    """A request over a limit: how long to wait, and what was limited (for the message)."""

    def __init__(self, retry_after: float, what: str) -> None:
        super().__init__(what)
        self.retry_after = max(1, math.ceil(retry_after))
        self.what = what


class Counts:
    """Where the limits count: this process's memory, or Redis shared by the workers."""

    def __init__(self, redis_url: str | None = None, prefix: str = "meeple:limit") -> None:
        self._local = MovingWindowRateLimiter(MemoryStorage())
        self._shared: MovingWindowRateLimiter | None = None
        self._redis: RedisStorage | None = None
        if redis_url is not None:
            storage = RedisStorage(
                "async+" + redis_url,
                implementation="redispy",
                key_prefix=prefix,
                socket_connect_timeout=REDIS_SECONDS,
                socket_timeout=REDIS_SECONDS,
            )
            self._shared = MovingWindowRateLimiter(storage)
            self._redis = storage

    async def close(self) -> None:
        """Let go of the Redis connections (the server is stopping)."""
        # The library's bridge holds the redis-py client; it has no close of its own.
        client = getattr(getattr(self._redis, "bridge", None), "storage", None)
        if client is not None:
            with contextlib.suppress(Exception):
                await client.aclose()

    async def spend(self, *checks: tuple[Limit, str], what: str) -> None:
        """Take one request from each ``(limit, key)``, or none when any of them is spent.

        Raises:
            RateLimited: some key must wait; nothing was taken from any of them.
        """
        if self._shared is not None:
            try:
                await _spend(self._shared, checks, what)
            except RateLimited:
                raise
            except Exception:
                log.warning("rate limits: Redis out of reach, counting in this worker alone")
            else:
                return
        await _spend(self._local, checks, what)


async def _spend(
    limiter: MovingWindowRateLimiter, checks: tuple[tuple[Limit, str], ...], what: str
) -> None:
    for limit, key in checks:
        if not await limiter.test(limit.item, limit.name, key):
            raise RateLimited(await _wait(limiter, limit, key), what)
    for limit, key in checks:
        # Another worker may have spent the last one since the test: refused, as it is.
        if not await limiter.hit(limit.item, limit.name, key):
            raise RateLimited(await _wait(limiter, limit, key), what)


async def _wait(limiter: MovingWindowRateLimiter, limit: Limit, key: str) -> float:
    """Seconds until the oldest request in ``key``'s window leaves it."""
    stats = await limiter.get_window_stats(limit.item, limit.name, key)
    return stats.reset_time - time.time()
