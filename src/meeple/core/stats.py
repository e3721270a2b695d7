"""Win rates and their uncertainty: the Wilson score interval the arena and balance tables use.

Pure arithmetic (no I/O), so every layer above may report a rate the same way.
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95 % interval."""


def wilson(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``score / n`` (``(0, 1)`` when n is 0).

    ``score`` may be fractional (a draw counting ½, a shared win ⅓); the bounds are clipped
    to 0..1.

    >>> low, high = wilson(10, 20)
    >>> round(low, 3), round(high, 3)
    (0.299, 0.701)
    """
    if n <= 0:
        return 0.0, 1.0
    p = score / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(max(0.0, p * (1 - p)) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)
