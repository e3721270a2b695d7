"""What the browser client asks of the server beyond the match interface: the lobby learns
from ``GET /api/health`` whether the server is a Wi-Fi one (it then offers Wi-Fi rooms)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from meeple.server.app import create_app
from meeple.server.bots import default_bot
from meeple.server.settings import Settings
from tests.server.conftest import Server


@pytest.mark.parametrize("lan", [False, True])
def test_health_says_whether_the_server_is_a_wifi_one(tmp_path: Path, lan: bool) -> None:
    # The health route needs no database: the app answers it without its lifespan (which
    # would open the database and, with --lan, announce the server).
    app = create_app(Settings(data_dir=tmp_path, lan=lan))

    async def ask() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.get("/api/health")

    reply = asyncio.run(ask())
    assert reply.status_code == 200
    assert reply.json() == {"ok": True, "lan": lan}


def test_a_lan_server_says_so_over_http(server: Server) -> None:
    # The test servers run ``meeple serve --lan``.
    assert httpx.get(f"{server.base}/api/health", timeout=10).json() == {"ok": True, "lan": True}


def test_the_bots_name_the_default_a_seat_gets(tmp_path: Path) -> None:
    """The lobby's bot choice says which bot an unchosen seat gets."""
    app = create_app(Settings(data_dir=tmp_path))

    async def ask() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.get("/api/bots")

    bots = asyncio.run(ask()).json()
    assert bots["default"] == default_bot()
    assert bots["default"] in bots["bots"]
