"""Online custom rooms over a real server: open, list, join by code, ready, leave, kick, fill
with bots, start; and a four-seat Maiterra room with teams whose timer rings on
half-written queues."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time

import asyncpg

from tests.server.conftest import Client, Server


def _ok(reply, status: int = 200) -> dict:
    assert reply.status_code == status, reply.text
    return reply.json()


def _refused(reply, status: int, code: str) -> None:
    assert reply.status_code == status, reply.text
    assert reply.json()["detail"]["code"] == code, reply.text


def test_a_room_fills_and_starts(server: Server) -> None:
    host = Client(server).guest("Host")
    guest = Client(server).guest("Guest")
    third = Client(server).guest("Third")
    room = _ok(host.post("/api/rooms", json={"game": "maatatahay", "timer": 60}), 201)
    assert room["timer"] == 60 and room["status"] == "waiting" and room["code"]
    assert any(r["id"] == room["id"] for r in _ok(guest.get("/api/rooms")))
    assert "code" not in _ok(guest.get(f"/api/rooms/{room['id']}"))
    _refused(
        host.post("/api/rooms", json={"game": "maatatahay", "timer": 45}), 422, "room/bad_timer"
    )
    joined = _ok(guest.post("/api/rooms/join", json={"code": room["code"].lower()}))
    assert joined["players"][1]["account"] == guest.account["id"]
    _refused(third.post(f"/api/rooms/{room['id']}/join", json={}), 409, "room/full")
    _refused(guest.post(f"/api/rooms/{room['id']}/kick", json={"seat": 0}), 403, "room/not_host")
    _refused(host.post(f"/api/rooms/{room['id']}/start"), 409, "room/not_ready")
    kicked = _ok(host.post(f"/api/rooms/{room['id']}/kick", json={"seat": 1}))
    assert kicked["players"][1]["open"]
    _ok(third.post(f"/api/rooms/{room['id']}/join", json={"seat": 1}))
    left = _ok(third.post(f"/api/rooms/{room['id']}/leave"))
    assert left["players"][1]["open"]
    _ok(guest.post(f"/api/rooms/{room['id']}/join", json={}))
    assert _ok(guest.post(f"/api/rooms/{room['id']}/ready", json={"ready": True}))["players"][1][
        "ready"
    ]
    # A waiting room has no match to open yet.
    assert guest.get(f"/api/matches/{room['id']}").status_code == 404
    match = _ok(host.post(f"/api/rooms/{room['id']}/start"))
    assert match["id"] == room["id"] and match["status"] == "playing"
    _refused(host.post(f"/api/rooms/{room['id']}/start"), 409, "room/not_waiting")
    with guest.socket(room["id"]) as socket:
        snap = socket.recv()
        assert snap["seat"] == 1 and snap["turn_seconds"] == 60 * 0.02 and snap["deadline"]


def test_the_host_leaving_closes_the_room(server: Server) -> None:
    host = Client(server).guest("Host")
    room = _ok(
        host.post("/api/rooms", json={"game": "manafields", "timer": None, "public": False}), 201
    )
    assert room["timer"] is None
    assert all(r["id"] != room["id"] for r in _ok(host.get("/api/rooms")))
    other = Client(server).guest("Other")
    _refused(other.post(f"/api/rooms/{room['id']}/join", json={}), 403, "room/private")
    assert _ok(host.post(f"/api/rooms/{room['id']}/leave"))["status"] == "closed"
    # A closed room's code answers as an unknown one does: codes cannot be probed.
    _refused(other.post("/api/rooms/join", json={"code": room["code"]}), 404, "room/unknown")


def test_a_four_seat_maiterra_room_with_teams_hands_in_half_written_queues(server: Server) -> None:
    host = Client(server).guest("Red")
    friend = Client(server).guest("Blue")
    room = _ok(
        host.post(
            "/api/rooms",
            json={"game": "maiterra", "seats": 4, "options": {"teams": "1122"}, "public": False},
        ),
        201,
    )
    assert room["timer"] == 90
    _ok(friend.post("/api/rooms/join", json={"code": room["code"]}))
    _ok(friend.post(f"/api/rooms/{room['id']}/ready", json={}))
    filled = _ok(host.post(f"/api/rooms/{room['id']}/bots", json={"bots": "maiterra-heuristic"}))
    assert [p["bot"] for p in filled["players"]] == [
        None,
        None,
        "maiterra-heuristic",
        "maiterra-heuristic",
    ]
    _ok(host.post(f"/api/rooms/{room['id']}/start"))
    rng = random.Random(6)
    queued: set[int] = set()
    first_turn = None
    deadline = time.monotonic() + 40
    with host.socket(room["id"]) as red, friend.socket(room["id"]) as blue:
        sockets = {0: red, 1: blue}
        while time.monotonic() < deadline:
            for seat, socket in sockets.items():
                try:
                    frame = socket.recv(timeout=0.05)
                except TimeoutError:
                    continue
                if frame["type"] == "error":
                    assert frame["code"] == "version/stale", frame
                    socket.send({"type": "resume", "since": frame["version"]})
                    continue
                if frame["type"] not in ("snapshot", "update"):
                    continue
                view = frame["view"]
                if view["phase"] == "plan" and first_turn is None:
                    first_turn = view["turn"]
                    assert frame["deadline"] is not None
                if seat not in frame["deciding"]:
                    continue
                if view["phase"] != "plan":
                    choice = rng.choice(frame["legal"])["id"]
                    socket.send({"type": "action", "action": choice, "version": frame["version"]})
                elif view["turn"] == first_turn and seat not in queued:
                    # Queue one order and never end the turn: the timer must hand it in.
                    order = next(i for i in frame["legal"] if i["text"] != "end")
                    socket.send(
                        {"type": "action", "action": order["id"], "version": frame["version"]}
                    )
                    queued.add(seat)
            if first_turn is not None and any(
                f.get("view", {}).get("turn", 0) > first_turn for f in red.frames
            ):
                break
        else:
            raise AssertionError("the turn timer did not ring")
    assert queued == {0, 1}
    ended = [
        e["seat"] for f in red.frames for e in f.get("events", []) if e["kind"] == "turn_ended"
    ]
    assert set(ended) == {0, 1, 2, 3}
    # Seat 0 never sent "end": its turn_ended came from the timer, after its queued order.
    acks = [f["ack"] for f in red.frames if f.get("ack") is not None]
    assert all(a["action"]["text"] != "end" for a in acks)


def test_a_disconnected_player_is_played_by_a_bot_and_returns(server: Server) -> None:
    """Timed room: the host leaves the table; past the grace period (60 s, 1.2 s here) the
    game's bot plays the seat and everyone is told; the host comes back and has the seat."""
    host = Client(server).guest("Host")
    watcher = Client(server).guest("Watcher")
    room = _ok(host.post("/api/rooms", json={"game": "manafields", "timer": 120}), 201)
    _ok(host.post(f"/api/rooms/{room['id']}/bots", json={"bots": "random"}))
    _ok(host.post(f"/api/rooms/{room['id']}/start"))
    with watcher.socket(room["id"]) as watching:
        assert watching.recv()["away"] == []
        with host.socket(room["id"]) as seat:
            assert seat.recv()["seat"] == 0
        # Everyone sees the grace period start, with its deadline (the host's arrival ended
        # the one that began with the match); then the seat away.
        leaving = watching.until("presence", timeout=20)
        while not leaving["leaving"]:
            leaving = watching.until("presence", timeout=20)
        assert leaving["away"] == [] and [e["seat"] for e in leaving["leaving"]] == [0]
        assert leaving["leaving"][0]["deadline"]
        away = watching.until("presence", timeout=20)
        assert away["away"] == [0] and away["leaving"] == []
        # The bot plays seat 0 now (Manafields: seat 0 moves first).
        update = watching.until("update", timeout=20)
        assert update["version"] >= 1
        with host.socket(room["id"]) as seat:
            back = seat.recv()
            assert back["away"] == []
            assert watching.until("presence", timeout=20)["away"] == []


def test_a_room_socket_tells_its_watchers_every_change(server: Server) -> None:
    host = Client(server).guest("Host")
    guest = Client(server).guest("Guest")
    room = _ok(host.post("/api/rooms", json={"game": "maiterra", "seats": 3, "timer": 60}), 201)
    with guest.socket(room["id"], path="rooms") as watching:
        first = watching.recv()
        assert first["type"] == "room" and first["status"] == "waiting"
        assert "code" not in first  # the guest holds no seat yet
        _ok(guest.post(f"/api/rooms/{room['id']}/join", json={}))
        joined = watching.recv()
        assert joined["players"][1]["account"] == guest.account["id"] and joined["code"]
        _ok(guest.post(f"/api/rooms/{room['id']}/ready", json={}))
        assert watching.recv()["players"][1]["ready"] is True
        _ok(host.post(f"/api/rooms/{room['id']}/bots", json={}))
        # The default bot: the ladder's heuristic, the same name in every game.
        assert watching.recv()["players"][2]["bot"] == "heuristic"
        _ok(host.post(f"/api/rooms/{room['id']}/start"))
        started = watching.recv()
        assert started["status"] == "playing" and started["socket"] == f"/ws/matches/{room['id']}"


def test_a_match_over_days_is_a_room_without_a_timer(server: Server) -> None:
    host = Client(server).guest("Patient")
    _refused(
        host.post("/api/rooms", json={"game": "manafields", "mode": "days", "timer": 90}),
        422,
        "room/bad_timer",
    )
    room = _ok(
        host.post("/api/rooms", json={"game": "manafields", "mode": "days", "timer": None}), 201
    )
    assert room["timer"] is None and room["mode"] == "days"
    assert any(r["id"] == room["id"] for r in _ok(host.get("/api/rooms")))
    _ok(host.post(f"/api/rooms/{room['id']}/bots", json={"bots": "random"}))
    match = _ok(host.post(f"/api/rooms/{room['id']}/start"))
    mine = {m["id"]: m for m in _ok(host.get("/api/matches"))}
    assert mine[match["id"]]["your_turn"] is True  # Manafields: seat 0 moves first


def test_a_room_the_engine_refuses_to_start_waits_again_and_the_host_is_told(
    server: Server,
) -> None:
    """A room whose stored table the engine no longer accepts (options of a game changed
    since the room opened: written into the database here) is refused at start with
    `422 room/cannot_start`, not a 500, and stays waiting, as it was."""
    host = Client(server).guest("Host")
    guest = Client(server).guest("Guest")
    room = _ok(host.post("/api/rooms", json={"game": "maatatahay", "timer": 60}), 201)
    _ok(guest.post("/api/rooms/join", json={"code": room["code"]}))
    _ok(guest.post(f"/api/rooms/{room['id']}/ready", json={"ready": True}))
    bad = json.dumps({"no such option": 1})
    if server.database_url.startswith("sqlite"):
        path = server.database_url.removeprefix("sqlite+aiosqlite:///")
        with sqlite3.connect(path) as db:
            db.execute("UPDATE matches SET options = ? WHERE id = ?", (bad, room["id"]))
    else:

        async def write() -> None:
            url = server.database_url.replace("+asyncpg", "")
            connection = await asyncpg.connect(url, timeout=5)
            try:
                await connection.execute(
                    "UPDATE matches SET options = $1 WHERE id = $2", bad, room["id"]
                )
            finally:
                await connection.close()

        asyncio.run(write())
    _refused(host.post(f"/api/rooms/{room['id']}/start"), 422, "room/cannot_start")
    again = _ok(host.get(f"/api/rooms/{room['id']}"))
    assert again["status"] == "waiting"
    assert guest.get(f"/api/matches/{room['id']}").status_code == 404
