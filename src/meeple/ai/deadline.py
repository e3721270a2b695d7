"""A search budget's stop by the clock: the move deadline every time-limited caller uses.

``meeple.ai`` reads no clock, so the caller hands one in (``time.perf_counter``); the
returned callable is what :class:`meeple.ai.Budget` polls as ``should_stop``.
"""

from __future__ import annotations

from collections.abc import Callable


def deadline(seconds: float, clock: Callable[[], float]) -> Callable[[], bool]:
    """A ``Budget.should_stop`` that says stop once ``clock()`` has advanced ``seconds``
    from now.

    >>> now = iter([10.0, 10.5, 11.0])
    >>> stop = deadline(1.0, lambda: next(now))
    >>> stop(), stop()
    (False, True)
    """
    end = clock() + seconds
    return lambda: clock() >= end
