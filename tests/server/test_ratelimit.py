"""The token buckets behind the login, guest and room limits, on a clock the test moves; and
the guest limit on a real ``meeple serve``."""

from __future__ import annotations

import asyncio
import sqlite3
import uuid
from pathlib import Path

import httpx
import pytest

from meeple.server.ratelimit import Limiter, RateLimited, SharedBuckets, spend
from tests.server.conftest import Server, sqlite_server


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


def test_shared_buckets_in_redis_spend_every_key_or_none() -> None:
    """The same rule as above with the buckets kept in the machine's Redis (as many workers
    keep them), by Redis's clock: one minute of rate, bursts of 1 and 2."""
    import redis.asyncio as aioredis  # noqa: PLC0415

    account = Limiter(60, 1, name="rooms-account")
    address = Limiter(60, 2, name="rooms-address")

    async def run() -> tuple[list[str], int]:
        client = aioredis.from_url("redis://127.0.0.1:6379/0", decode_responses=True)
        prefix = f"meeple:test-{uuid.uuid4().hex[:8]}:limit:"
        shared = SharedBuckets(client, prefix)
        outcomes = []
        for who in ("ana", "ana", "ben", "cy"):
            try:
                await shared.spend((account, who), (address, "10.0.0.1"), what="rooms")
                outcomes.append("ok")
            except RateLimited:
                outcomes.append("refused")
        ttl = await client.pttl(f"{prefix}rooms-address:10.0.0.1")
        await client.delete(*[k async for k in client.scan_iter(prefix + "*")])
        await client.aclose()
        return outcomes, ttl

    outcomes, ttl = asyncio.run(run())
    assert outcomes == ["ok", "refused", "ok", "refused"]
    assert 0 < ttl <= 3000  # a bucket is dropped once it would be full again


def test_shared_buckets_without_redis_count_in_this_process() -> None:
    """Redis out of reach: the worker counts alone rather than failing the request."""
    import redis.asyncio as aioredis  # noqa: PLC0415

    limiter = Limiter(60, 1, name="guests")

    async def run() -> list[str]:
        client = aioredis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=1)
        shared = SharedBuckets(client, "meeple:nowhere:limit:")
        outcomes = []
        for _ in range(2):
            try:
                await shared.spend((limiter, "10.0.0.2"), what="guests")
                outcomes.append("ok")
            except RateLimited:
                outcomes.append("refused")
        await client.aclose()
        return outcomes

    assert asyncio.run(run()) == ["ok", "refused"]


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


def _from(address: str, server: Server) -> httpx.Client:
    """A client whose requests leave from ``address`` (any 127.x address is loopback)."""
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(base_url=server.base, transport=transport, timeout=10)


@pytest.mark.slow  # starts a server
def test_guests_are_limited_per_address(tmp_path: Path) -> None:
    """Three guests at once from one address, then ``429 rate/limited`` with Retry-After and
    no account made; another address is not held back, and other account routes are not
    counted."""
    limits = {"MEEPLE_GUESTS_PER_MINUTE": "6", "MEEPLE_GUESTS_BURST": "3"}
    with (
        sqlite_server(tmp_path, limits, clean_log=True) as server,
        _from("127.0.0.7", server) as near,
        _from("127.0.0.8", server) as far,
    ):
        tokens = []
        for n in range(3):
            reply = near.post("/api/guests", json={"display_name": f"Guest {n}"})
            assert reply.status_code == 201, reply.text
            tokens.append(reply.json()["token"])
        refused = near.post("/api/guests", json={"display_name": "One Too Many"})
        assert refused.status_code == 429
        assert refused.json()["detail"]["code"] == "rate/limited"
        retry = int(refused.headers["Retry-After"])
        assert 1 <= retry <= 10 and str(retry) in refused.json()["detail"]["message"]
        assert "token" not in refused.json()
        # Asking who one is (another route of the same router) is not a guest made.
        me = near.get("/api/me", headers={"Authorization": f"Bearer {tokens[0]}"})
        assert me.status_code == 200 and me.json()["display_name"] == "Guest 0"
        assert far.post("/api/guests", json={"display_name": "Elsewhere"}).status_code == 201
    with sqlite3.connect(tmp_path / "meeple.db") as database:
        names = {name for (name,) in database.execute("SELECT display_name FROM accounts")}
    assert names == {"Guest 0", "Guest 1", "Guest 2", "Elsewhere"}
