"""The token buckets behind the login and room limits, on a clock the test moves."""

from __future__ import annotations

import pytest

from meeple.server.ratelimit import Limiter, RateLimited, spend


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_one_per_interval() -> None:
    clock = Clock()
    limiter = Limiter(6, 3, clock=clock)  # one every 10 s, three at once
    for _ in range(3):
        assert limiter.wait("a") == 0
        limiter.take("a")
    assert limiter.wait("a") == pytest.approx(10)
    assert limiter.wait("b") == 0  # keys are apart
    clock.now += 4
    assert limiter.wait("a") == pytest.approx(6)
    clock.now += 6
    assert limiter.wait("a") == 0
    limiter.take("a")
    assert limiter.wait("a") == pytest.approx(10)
    clock.now += 1000  # refills to the burst, no further
    for _ in range(3):
        limiter.take("a")
    assert limiter.wait("a") > 0


def test_spend_takes_from_every_key_or_from_none() -> None:
    clock = Clock()
    account, address = Limiter(60, 1, clock=clock), Limiter(60, 2, clock=clock)
    spend((account, "ana"), (address, "10.0.0.1"), what="rooms")
    with pytest.raises(RateLimited) as refused:
        spend((account, "ana"), (address, "10.0.0.1"), what="rooms opened")
    assert refused.value.retry_after == 1 and refused.value.what == "rooms opened"
    # The refusal took nothing from the address: another account there still has its one.
    spend((account, "ben"), (address, "10.0.0.1"), what="rooms")
    with pytest.raises(RateLimited):
        spend((account, "cy"), (address, "10.0.0.1"), what="rooms")
    assert account.wait("cy") == 0


def test_retry_after_is_whole_seconds_and_at_least_one() -> None:
    assert RateLimited(0.01, "x").retry_after == 1
    assert RateLimited(12.2, "x").retry_after == 13


def test_idle_keys_are_forgotten_when_the_table_is_full() -> None:
    clock = Clock()
    limiter = Limiter(60, 2, clock=clock, max_keys=3)
    for key in ("a", "b", "c"):
        limiter.take(key)
    clock.now += 1  # a, b and c have refilled
    limiter.take("a")
    limiter.take("a")  # a is spent
    limiter.take("d")  # the table is full: the full buckets (b, c) go
    assert set(limiter._buckets) == {"a", "d"}
    assert limiter.wait("a") > 0 and limiter.wait("b") == 0


def test_a_limit_needs_a_rate_and_a_burst() -> None:
    with pytest.raises(ValueError, match="positive"):
        Limiter(0, 1)
    with pytest.raises(ValueError, match="positive"):
        Limiter(1, 0)
