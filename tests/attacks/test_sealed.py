"""Sealed orders, watched: in Maiterra a seat queues five orders while the other seat and an
anonymous spectator listen and poll the no-login REST summary. Rule: "nobody sees another
seat's orders, only that it has ended." Neither gets a frame, and the public version stays
where it was, until the seat ends its turn; then each gets one update."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx

from tests.attacks.conftest import Client, Server, Socket, Victim, held, report

ORDERS = 5


def _room(server: Server) -> tuple[Client, Client, str]:
    host, friend = Client(server).guest("Red"), Client(server).guest("Blue")
    reply = host.post("/api/rooms", json={"game": "maiterra", "seats": 2, "timer": None})
    assert reply.status_code == 201, reply.text
    room = reply.json()
    assert friend.post("/api/rooms/join", json={"code": room["code"]}).status_code == 200
    assert friend.post(f"/api/rooms/{room['id']}/ready", json={}).status_code == 200
    assert host.post(f"/api/rooms/{room['id']}/start").status_code == 200
    return host, friend, str(room["id"])


def _latest(socket: Socket) -> dict[str, Any]:
    return next(f for f in reversed(socket.frames) if f["type"] in ("snapshot", "update"))


def _drain(socket: Socket, quiet: float = 0.3) -> list[dict[str, Any]]:
    """The frames that arrive until none has for ``quiet`` seconds."""
    got = []
    while True:
        try:
            got.append(socket.recv(timeout=quiet))
        except TimeoutError:
            return got


def _to_the_orders(sockets: dict[int, Socket]) -> None:
    """Houses and the draft, played at random, up to the first turn of orders."""
    rng = random.Random(4)
    for socket in sockets.values():
        socket.until("snapshot")
    for _ in range(200):
        for socket in sockets.values():
            _drain(socket, 0.1)
        frames = {seat: _latest(socket) for seat, socket in sockets.items()}
        if all(
            f["view"]["phase"] == "plan" and seat in f["deciding"] for seat, f in frames.items()
        ):
            return
        for seat, frame in frames.items():
            if seat in frame["deciding"] and frame["view"]["phase"] != "plan":
                choice = rng.choice(frame["legal"])["id"]
                sockets[seat].send(
                    {"type": "action", "action": choice, "version": frame["version"]}
                )
                break
    raise AssertionError("the match never reached a turn of orders")


def test_a_seats_queued_orders_reach_neither_the_other_seat_nor_a_spectator(
    attacked_server: Server, victim: Victim
) -> None:
    reference = victim.rest(20)
    host, friend, match_id = _room(attacked_server)
    stranger = httpx.Client(base_url=attacked_server.base, timeout=10)
    with (
        host.socket(match_id) as red,
        friend.socket(match_id) as blue,
        Client(attacked_server).socket(match_id, "?watch=true") as watcher,
    ):
        _to_the_orders({0: red, 1: blue})
        _drain(watcher, 0.3)
        before = stranger.get(f"/api/matches/{match_id}").json()
        seen = {"blue": len(blue.frames), "watcher": len(watcher.frames)}
        began = time.perf_counter()
        for _ in range(ORDERS):
            frame = _latest(red)
            order = next(i for i in frame["legal"] if i["text"] != "end")
            red.send({"type": "action", "action": order["id"], "version": frame["version"]})
            ack = red.until_ack()
            assert ack["events"] and all(e["audience"] == [0] for e in ack["events"]), ack
        queued = time.perf_counter() - began
        during = victim.rest(20)
        leaked = _drain(blue, 0.5) + _drain(watcher, 0.5)
        after = stranger.get(f"/api/matches/{match_id}").json()
        assert len(_latest(red)["view"]["queue"]) == ORDERS
        red.send({"type": "action", "action": "end", "version": _latest(red)["version"]})
        red.until_ack()
        ended = {"blue": _drain(blue, 0.5), "watcher": _drain(watcher, 0.5)}
        public_after_end = stranger.get(f"/api/matches/{match_id}").json()["version"]
    stranger.close()
    report(
        "sealed orders",
        orders=ORDERS,
        queued_seconds=round(queued, 3),
        frames_to_other_seat_and_spectator=len(leaked),
        public_version_before=before["version"],
        public_version_after=after["version"],
        public_version_after_end=public_after_end,
        rest=reference,
        rest_during=during,
    )
    assert leaked == [], leaked
    assert after == before
    for who, frames in ended.items():
        updates = [f for f in frames if f["type"] == "update"]
        assert len(updates) == 1, (who, frames)
        assert [e["kind"] for e in updates[0]["events"]] == ["turn_ended"], (who, updates)
    assert len(blue.frames) == seen["blue"] + 1 and len(watcher.frames) == seen["watcher"] + 1
    assert public_after_end == before["version"] + 1
    held("rest_p95", reference.p95, during.p95)
