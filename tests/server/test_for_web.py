"""What the browser client asks of the server beyond the match interface: the lobby learns
from ``GET /api/health`` whether the server is a Wi-Fi one (it then offers Wi-Fi rooms), and
from ``GET /api/bots`` which bot a seat gets unless told and the ladder a form offers."""

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


def test_the_bots_ladder_is_offered_weakest_first_without_other_games_names(
    tmp_path: Path,
) -> None:
    """A form offers the ladder: every name a bot the server seats, each with its strength,
    no game's earlier name of its heuristic bot (``maiterra-heuristic`` for Maatatahay), and
    a solo form starts at an easy level, not the default."""
    bots = _get(Settings(data_dir=tmp_path), "/api/bots").json()
    names = [step["bot"] for step in bots["ladder"]]
    assert set(names) <= set(bots["bots"]) and "maiterra-heuristic" not in names
    assert names[0] == "random" and names[-1] == "mcts-expert"
    assert [step["label"] for step in bots["ladder"]][:2] == ["Beginner", "Easy"]
    assert bots["first_match"] == "greedy" and bots["first_match"] != bots["default"]
