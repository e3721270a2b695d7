"""The Wilson score interval every win-rate table uses."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meeple.core.stats import wilson


def test_known_values() -> None:
    low, high = wilson(10, 20)
    assert low == pytest.approx(0.2993, abs=1e-4) and high == pytest.approx(0.7007, abs=1e-4)
    low, high = wilson(40, 40)
    assert 0.91 < low < 0.92 and high == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


@given(st.integers(1, 10_000), st.floats(0.0, 1.0))
def test_the_interval_holds_the_rate_and_stays_in_0_1(n: int, fraction: float) -> None:
    score = fraction * n
    low, high = wilson(score, n)
    assert 0.0 <= low <= score / n + 1e-12 and score / n - 1e-12 <= high <= 1.0
