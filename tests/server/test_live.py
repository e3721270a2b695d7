"""Matches over a real server and real WebSockets, on SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

import meeple.games  # noqa: F401
from meeple.core import MatchRecord
from tests.server.conftest import Server, Socket


def play_out(socket: Socket, seat: int, rng: random.Random, first: dict[str, Any]) -> list[dict]:
    """Play ``seat`` with random legal actions until the match ends; returns the updates
    that acknowledged its actions."""
    acks = []
    frame = first
    version = frame.get("version", 0)  # a presence or clock frame may come first
    while frame.get("outcome") is None:
        if frame.get("ack") is not None:
            acks.append(frame)
        if frame["type"] in ("snapshot", "update"):
            version = frame["version"]
            if seat in frame["deciding"] and frame["legal"]:
                choice = rng.choice(frame["legal"])
                socket.send({"type": "action", "action": choice["id"], "version": version})
        elif frame["type"] == "error":
            # A bot acted while ours was on its way: ask for the match as it stands now.
            assert frame["code"] == "version/stale", frame
            socket.send({"type": "resume", "since": frame["version"]})
        frame = socket.recv()
    return acks


def test_a_person_plays_maatatahay_against_a_bot_to_the_end(server: Server) -> None:
    client = server.client().guest("Wazu")
    match = client.solo(game="maatatahay", seat=0, bots="mcts-easy", seed=11)
    assert match["players"][1]["bot"] == "mcts-easy"
    with client.socket(match["id"]) as socket:
        first = socket.recv()
        assert first["type"] == "snapshot" and first["seat"] == 0
        acks = play_out(socket, 0, random.Random(3), first)
        final = socket.frames[-1]
    assert acks and all(ack["version"] > 0 for ack in acks)
    assert final["outcome"] is not None
    # The record downloads once the match is over and replays to the same end.
    reply = client.get(f"/api/matches/{match['id']}/record")
    assert reply.status_code == 200
    record = MatchRecord.from_json(reply.json())
    assert len(record.actions) == final["version"]
    end = record.replay()
    assert end.outcome() is not None
    assert end.outcome().to_json() == final["outcome"]
    assert end.view(0) == final["view"]
    summary = client.get(f"/api/matches/{match['id']}").json()
    assert summary["status"] == "over"
    # A rematch: the same table, a new seed; asking twice gives the same match.
    again = client.post(f"/api/rooms/rematch/{match['id']}")
    assert again.status_code == 201, again.text
    assert again.json()["status"] == "playing" and again.json()["id"] != match["id"]
    assert [p["bot"] for p in again.json()["players"]] == [None, "mcts-easy"]
    assert client.post(f"/api/rooms/rematch/{match['id']}").json()["id"] == again.json()["id"]
    mine = client.get("/api/matches").json()
    assert {m["id"] for m in mine} >= {match["id"], again.json()["id"]}
    assert next(m for m in mine if m["id"] == again.json()["id"])["seat"] == 0


def test_the_record_is_withheld_while_the_match_is_played(server: Server) -> None:
    client = server.client().guest()
    match = client.solo(game="manafields", seat=0, bots="random", seed=2)
    reply = client.get(f"/api/matches/{match['id']}/record")
    assert reply.status_code == 409
    assert reply.json()["detail"]["code"] == "match/not_over"
    early = client.post(f"/api/rooms/rematch/{match['id']}")
    assert early.status_code == 409 and early.json()["detail"]["code"] == "match/not_over"


def _expect_error(socket: Socket, message: Any, code: str, version: int) -> None:
    socket.send(message)
    frame = socket.recv()
    assert frame["type"] == "error", frame
    assert frame["code"] == code, frame
    assert frame["version"] == version


def test_bad_input_gets_a_typed_error_and_changes_nothing(server: Server) -> None:
    client = server.client().guest("Balan")
    # Manafields: seat 0 plays first, so the person decides at version 0.
    match = client.solo(game="manafields", seat=0, bots="random", seed=7)
    with client.socket(match["id"]) as socket, client.socket(match["id"], "?watch=true") as watcher:
        snap = socket.recv()
        watched = watcher.recv()
        assert snap["deciding"] == [0] and snap["version"] == 0
        assert watched["seat"] is None and watched["legal"] == []
        legal = {item["id"] for item in snap["legal"]}
        illegal = next(a for a in range(10_000) if a not in legal)
        cases = [
            ("{not json", "message/malformed"),
            ("[1, 2]", "message/malformed"),
            (json.dumps({"type": "action", "version": 0}), "message/malformed"),
            (json.dumps({"type": "teleport"}), "message/unknown_type"),
            (
                {"type": "action", "action": snap["legal"][0]["id"], "version": 0, "seat": 1},
                "seat/wrong",
            ),
            ({"type": "action", "action": illegal, "version": 0}, "action/illegal"),
            ({"type": "action", "action": "zz99", "version": 0}, "action/invalid"),
            ({"type": "action", "action": snap["legal"][0]["id"], "version": 5}, "version/stale"),
        ]
        for message, code in cases:
            _expect_error(socket, message, code, 0)
        # A spectator cannot act either.
        _expect_error(watcher, {"type": "action", "action": 0, "version": 0}, "seat/wrong", 0)
        # Nothing changed: same version, and the first legal action is still accepted.
        assert client.get(f"/api/matches/{match['id']}").json()["version"] == 0
        socket.send({"type": "action", "action": snap["legal"][0]["id"], "version": 0, "ref": "a"})
        ack = socket.until_ack()
        assert ack["version"] == 1 and ack["ack"]["ref"] == "a"
        assert ack["ack"]["action"]["id"] == snap["legal"][0]["id"]
        # The spectator got the update, and of the errors only its own.
        update = watcher.until("update")
        assert update["version"] == 1
        assert [frame["type"] for frame in watcher.frames] == ["snapshot", "error", "update"]
        # After the move the old version is stale for the seat whose choices changed.
        after = ack
        if 0 in after["deciding"]:
            _expect_error(
                socket,
                {"type": "action", "action": after["legal"][0]["id"], "version": 0},
                "version/stale",
                after["version"],
            )


def test_a_second_connection_resumes_with_what_it_missed(server: Server) -> None:
    client = server.client().guest()
    match = client.solo(game="maatatahay", seat=1, bots="random", seed=5)
    with client.socket(match["id"]) as socket:
        snap = socket.recv()
        assert 1 in snap["deciding"]
        socket.send({"type": "action", "action": snap["legal"][0]["id"], "version": 0})
        frame = socket.until_ack()
        while 1 not in frame["deciding"]:
            frame = socket.until("update")
        version = frame["version"]
    with client.socket(match["id"], "?since=0") as again:
        resumed = again.recv()
        assert resumed["type"] == "snapshot" and resumed["version"] == version
        assert [m["version"] for m in resumed["missed"]] == list(range(1, version + 1))
        again.send({"type": "resume", "since": version - 1, "ref": "r"})
        later = again.until("snapshot")
        assert later["ref"] == "r" and [m["version"] for m in later["missed"]] == [version]
        again.send({"type": "ping", "ref": "p"})
        assert again.until("pong")["ref"] == "p"


def test_unknown_match_and_foreign_seat_close_the_socket(server: Server) -> None:
    client = server.client().guest()
    match = client.solo(game="maatatahay", seat=0, bots="random", seed=1)
    other = server.client().guest("Other")
    with other.socket(match["id"]) as socket:
        assert socket.recv()["seat"] is None  # holds no seat: watches
    for query, code in (("?seat=1", 4403),):
        with client.socket(match["id"], query) as socket:
            try:
                socket.recv(timeout=5)
            except Exception as closed:  # websockets' ConnectionClosed
                assert getattr(closed, "rcvd", None) is not None
                assert closed.rcvd.code == code
            else:
                raise AssertionError("the socket should have been closed")


def test_solo_refuses_bad_requests(server: Server) -> None:
    client = server.client().guest()
    for body, code in (
        ({"game": "chess"}, "game/unknown"),
        ({"game": "maiterra", "seats": 7}, "game/invalid_options"),
        ({"game": "maiterra", "seats": 2, "options": {"teams": "12"}}, "game/invalid_options"),
        ({"game": "maatatahay", "bots": "deep-blue"}, "match/invalid"),
        ({"game": "maatatahay", "seat": 2}, "seat/invalid"),
    ):
        reply = client.post("/api/matches/solo", json=body)
        assert reply.status_code == 422, reply.text
        assert reply.json()["detail"]["code"] == code, reply.text
    anonymous = server.client()
    assert anonymous.post("/api/matches/solo", json={"game": "maatatahay"}).status_code == 401


def test_maiterra_frames_over_the_wire_hold_no_other_seats_secrets(server: Server) -> None:
    """Four seats in two teams, three bots: houses, sealed orders and hands stay sealed."""
    client = server.client().guest("Red")
    match = client.solo(game="maiterra", seats=4, options={"teams": "1122"}, seat=0, seed=3)
    rng = random.Random(4)
    with client.socket(match["id"]) as socket:
        frame = socket.recv()
        while len(socket.frames) < 30 and frame.get("outcome") is None:
            if frame["type"] in ("snapshot", "update") and 0 in frame["deciding"]:
                choice = rng.choice(frame["legal"])["id"]
                socket.send({"type": "action", "action": choice, "version": frame["version"]})
            elif frame["type"] == "error":
                assert frame["code"] == "version/stale", frame
                socket.send({"type": "resume", "since": frame["version"]})
            frame = socket.recv()
    sealed = 0
    for frame in socket.frames:
        for event in frame.get("events", []):
            assert event.get("audience") in (None, [0]) or 0 in event["audience"], event
            sealed += "audience" in event
        if "view" in frame:
            rows = frame["view"]["seats"]
            locked = all(row["house_locked"] for row in rows)
            for row in rows[1:]:
                assert "hand" not in row
                assert locked or row["house"] is None
        text = json.dumps(frame)
        assert '"rng"' not in text and '"seed"' not in text
    assert sealed > 0


def test_a_flooding_connection_is_refused_messages_then_closed_and_changes_nothing(
    server: Server,
) -> None:
    """Of 60 messages at once 40 are read and the rest refused ``message/flood`` unread;
    40 frames past the budget the socket is closed with 1008 (docs/protocol.md)."""
    client = server.client().guest()
    match = client.solo(game="manafields", seat=0, bots="random", seed=9)
    with client.socket(match["id"]) as socket:
        socket.recv()
        for index in range(60):
            socket.send({"type": "ping", "ref": str(index)})
        answers = [socket.recv() for _ in range(60)]
        codes = {frame.get("code") for frame in answers if frame["type"] == "error"}
        assert codes == {"message/flood"}
        assert sum(frame["type"] == "pong" for frame in answers) >= 40
        # The close may come while the flood is still being sent: the send sees it then.
        with pytest.raises(ConnectionClosed) as closed:
            for index in range(200):
                socket.send({"type": "ping", "ref": str(index)})
            while True:
                socket.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert closed.value.rcvd.reason.startswith("too many frames")
    assert client.get(f"/api/matches/{match['id']}").json()["version"] == 0


def test_a_match_can_be_followed_as_an_ndjson_stream(server: Server) -> None:
    client = server.client().guest("Follower")
    match = client.solo(game="manafields", seat=0, bots="random", seed=12)
    url = f"{server.base}/api/matches/{match['id']}/stream"
    with httpx.stream("GET", url, headers=client.headers, timeout=20) as reply:
        assert reply.status_code == 200
        assert reply.headers["content-type"].startswith("application/x-ndjson")
        lines = reply.iter_lines()
        snapshot = json.loads(next(line for line in lines if line.strip()))
        assert snapshot["type"] == "snapshot" and snapshot["seat"] == 0
        with client.socket(match["id"]) as socket:
            first = socket.recv()
            action = first["legal"][0]["id"]
            socket.send({"type": "action", "action": action, "version": first["version"]})
            socket.until_ack()
        update = json.loads(next(line for line in lines if line.strip()))
        assert update["type"] == "update" and update["version"] == 1
        # The stream is the seat's: its view, and no ack (that went to the acting socket).
        assert update["view"]["seat"] == 0


def test_a_session_cookie_speaks_for_a_socket_only_from_this_servers_pages(server: Server) -> None:
    client = server.client().guest("Cookie")
    match = client.solo(game="maatatahay", seat=0, bots="random", seed=4)
    url = f"{server.ws_base}/ws/matches/{match['id']}"
    cookie = {"Cookie": f"meeple_session={client.token}"}
    with connect(url, additional_headers=cookie, origin=server.base) as socket:
        assert json.loads(socket.recv(timeout=10))["seat"] == 0
    # From another site's page the cookie-carrying socket is refused before its handshake.
    with pytest.raises(InvalidStatus) as refused:
        connect(url, additional_headers=cookie, origin="http://evil.example")
    assert refused.value.response.status_code == 403


def test_a_message_past_max_message_bytes_closes_the_socket_with_1009(server: Server) -> None:
    """websockets' own limit (RFC 6455's 1009), whether the message comes whole, binary or
    in fragments; the match is as it was and a new socket plays on."""
    client = server.client().guest("Longa")
    match = client.solo(game="manafields", seat=0, bots="random", seed=7)
    long_messages: list[Any] = [
        "x" * (20 * 1024),  # over the 16 KiB the server reads
        b"\x00" * (1 << 20),  # binary, long
        ["y" * (6 * 1024)] * 4,  # one message in four fragments, 24 KiB in all
    ]
    for message in long_messages:
        with client.socket(match["id"]) as socket:
            socket.recv()
            with contextlib.suppress(ConnectionClosed):  # closed while it was sent
                socket.connection.send(message)
            with pytest.raises(ConnectionClosed) as closed:
                socket.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    with client.socket(match["id"], "?since=0") as socket:
        snap = socket.recv()
        assert snap["version"] == 0
        socket.send({"type": "action", "action": snap["legal"][0]["id"], "version": 0})
        assert socket.until_ack()["version"] == 1
