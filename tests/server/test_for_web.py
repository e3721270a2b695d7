"""What the browser client asks of the server beyond the match interface: the lobby learns
from ``GET /api/health`` whether the server is a Wi-Fi one (it then offers Wi-Fi rooms), and
from ``GET /api/bots`` which bot a seat gets unless told."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from meeple.server.http.app import create_app
from meeple.server.live.bots import default_bot
from meeple.server.settings import Settings
from tests.server.conftest import Server


def _get(settings: Settings, path: str) -> httpx.Response:
    """GET ``path`` from the app in-process, without its lifespan (no database, no mDNS):
    enough for the routes that read only the settings. On a thread of its own, so it runs
    beside a session that already has an event loop (Playwright's)."""
    app = create_app(settings)

    async def ask() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.get(path)

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(ask())).result()


@pytest.mark.parametrize("lan", [False, True])
def test_health_says_whether_the_server_is_a_wifi_one(tmp_path: Path, lan: bool) -> None:
    reply = _get(Settings(data_dir=tmp_path, lan=lan), "/api/health")
    assert reply.status_code == 200
    assert reply.json() == {"ok": True, "lan": lan}


def test_a_lan_server_says_so_over_http(server: Server) -> None:
    # The test servers run ``meeple serve --lan``.
    assert httpx.get(f"{server.base}/api/health", timeout=10).json() == {"ok": True, "lan": True}


def test_the_bots_name_the_default_a_seat_gets(tmp_path: Path) -> None:
    """The lobby's bot choice says which bot an unchosen seat gets."""
    bots = _get(Settings(data_dir=tmp_path), "/api/bots").json()
    assert bots["default"] == default_bot()
    assert bots["default"] in bots["bots"]
