"""The limits behind the login, guest, room, solo, hint, analysis, replay and room-code
quotas (the ``limits`` library, in memory and in Redis); and the guest limit on a real
``meeple serve``."""

from __future__ import annotations

import asyncio
import sqlite3
import uuid
from pathlib import Path

import httpx
import pytest

from meeple.server.http.ratelimit import Counts, Limit, RateLimited
from tests.server.conftest import Server, sqlite_server


def _outcomes(counts: Counts, *asks: tuple[str, str]) -> list[str]:
    """Spend one of a one-a-second account limit and a two-at-once address limit per ask."""
    account, address = Limit.of("rooms-account", 60, 1), Limit.of("rooms-address", 60, 2)

    async def run() -> list[str]:
        outcomes = []
        for who, where in asks:
            try:
                await counts.spend((account, who), (address, where), what="rooms")
                outcomes.append("ok")
            except RateLimited as refused:
                assert 1 <= refused.retry_after <= 2 and refused.what == "rooms"
                outcomes.append("refused")
        await counts.close()
        return outcomes

    return asyncio.run(run())


ASKS = (("ana", "10.0.0.1"), ("ana", "10.0.0.1"), ("ben", "10.0.0.1"), ("cy", "10.0.0.1"))
"""Ana twice (her second is refused by her own limit and takes nothing from the address),
then Ben (the address's second), then Cy (the address is spent)."""


def test_a_limit_is_its_burst_in_a_window_of_burst_over_rate() -> None:
    limit = Limit.of("rooms", 6, 12)  # twelve at once, one every ten seconds on average
    assert (limit.item.amount, limit.item.get_expiry()) == (12, 120)
    assert Limit.of("x", 100000, 100000).item.get_expiry() == 60
    assert Limit.of("x", 600, 1).item.get_expiry() == 1  # at least a second


def test_spend_takes_from_every_key_or_from_none() -> None:
    assert _outcomes(Counts(), *ASKS) == ["ok", "refused", "ok", "refused"]


def test_a_window_frees_a_request_as_its_oldest_leaves() -> None:
    limit = Limit.of("fast", 120, 1)  # one in a window of half a second: a whole second

    async def run() -> list[bool]:
        counts = Counts()
        answers = []
        for pause in (0, 0, 1.1):
            await asyncio.sleep(pause)
            try:
                await counts.spend((limit, "a"), what="x")
                answers.append(True)
            except RateLimited:
                answers.append(False)
        return answers

    assert asyncio.run(run()) == [True, False, True]


def test_counts_in_redis_spend_every_key_or_none() -> None:
    """The same rule with the counts kept in the machine's Redis (as many workers keep
    them), each key under the server's prefix."""
    prefix = f"meeple:test-{uuid.uuid4().hex[:8]}:limit"
    assert _outcomes(Counts("redis://127.0.0.1:6379/0", prefix=prefix), *ASKS) == [
        "ok",
        "refused",
        "ok",
        "refused",
    ]
    import redis  # noqa: PLC0415

    client = redis.Redis.from_url("redis://127.0.0.1:6379/0")
    try:
        keys = list(client.scan_iter(prefix + "*"))
        assert keys and all(0 < client.pttl(key) <= 60_000 for key in keys)  # windows expire
        client.delete(*keys)
    finally:
        client.close()


def test_counts_without_redis_count_in_this_process() -> None:
    """Redis out of reach: the worker counts alone rather than failing the request."""
    counts = Counts("redis://127.0.0.1:1/0", prefix="meeple:nowhere:limit")
    assert _outcomes(counts, *ASKS) == ["ok", "refused", "ok", "refused"]


def test_retry_after_is_whole_seconds_and_at_least_one() -> None:
    assert RateLimited(0.01, "x").retry_after == 1
    assert RateLimited(12.2, "x").retry_after == 13
    assert RateLimited(-3, "x").retry_after == 1


def test_a_limit_needs_a_rate_and_a_burst() -> None:
    with pytest.raises(ValueError, match="positive"):
        Limit.of("x", 0, 1)
    with pytest.raises(ValueError, match="positive"):
        Limit.of("x", 1, 0)


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
        # Until the first of the three leaves its window of 3 / 6 minutes.
        assert 1 <= retry <= 30 and str(retry) in refused.json()["detail"]["message"]
        assert "token" not in refused.json()
        # Asking who one is (another route of the same router) is not a guest made.
        me = near.get("/api/me", headers={"Authorization": f"Bearer {tokens[0]}"})
        assert me.status_code == 200 and me.json()["display_name"] == "Guest 0"
        assert far.post("/api/guests", json={"display_name": "Elsewhere"}).status_code == 201
    with sqlite3.connect(tmp_path / "meeple.db") as database:
        names = {name for (name,) in database.execute("SELECT display_name FROM accounts")}
    assert names == {"Guest 0", "Guest 1", "Guest 2", "Elsewhere"}
