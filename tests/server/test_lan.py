"""Wi-Fi rooms: the test servers run ``meeple serve --lan`` announcing on loopback only, and
discovery finds them there."""

from __future__ import annotations

import asyncio

import httpx

from meeple.client.lan import discover
from tests.server.conftest import Client, Server


def test_a_lan_server_is_found_over_mdns_with_its_rooms(server: Server) -> None:
    host = Client(server).guest("Host")
    room = host.post(
        "/api/rooms", json={"game": "maiterra", "seats": 3, "options": {"teams": "112"}}
    )
    assert room.status_code == 201
    mine = []
    for _ in range(4):  # a browse answered late (the network is busy) is asked again
        found = asyncio.run(discover(1.5, interfaces=["127.0.0.1"]))
        mine = [s for s in found if s.port == server.port]
        if mine:
            break
    assert mine, (found, server.log())
    assert mine[0].name == f"meeple test {server.port}"
    assert mine[0].address == "127.0.0.1"
    rooms = httpx.get(f"{mine[0].base_url}/api/rooms", timeout=10).json()
    assert any(r["id"] == room.json()["id"] and r["options"]["teams"] == "112" for r in rooms)
