"""Who may do and read what, over a real server: a seat acts only for itself, a spectator
not at all, nobody reads another seat's view or a private room without its code; logins
expire; passwords are never logged; logins and room creation are rate-limited per client
address (and per account for rooms).

The seat and room checks run on SQLite and PostgreSQL (the shared ``server`` fixture); the
expiry and the limits on servers of their own (SQLite) with a short token lifetime and
tight limits.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed

from meeple.server.http.app import create_app
from meeple.server.settings import Settings
from tests.server.conftest import Client, Server, Socket, free_port

PASSWORD = "correct-horse-7Qz!battery"
WRONG = "wrong-horse-3Xy?staple"


def _ok(reply: httpx.Response, status: int = 200) -> Any:
    assert reply.status_code == status, reply.text
    return reply.json()


def _refused(reply: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert reply.status_code == status, reply.text
    detail: dict[str, Any] = reply.json()["detail"]
    assert detail["code"] == code, reply.text
    assert isinstance(detail["message"], str) and detail["message"]
    return detail


def _expect_error(socket: Socket, message: dict[str, Any], code: str, version: int) -> None:
    socket.send(message)
    frame = socket.until("error")
    assert frame["code"] == code, frame
    assert frame["version"] == version


def _two_person_match(server: Server, game: str = "maatatahay") -> tuple[Client, Client, str]:
    """A private room of two people, started: (host at seat 0, guest at seat 1, match id)."""
    host = Client(server).guest("Host")
    guest = Client(server).guest("Guest")
    room = _ok(host.post("/api/rooms", json={"game": game, "timer": None, "public": False}), 201)
    _ok(guest.post("/api/rooms/join", json={"code": room["code"]}))
    _ok(guest.post(f"/api/rooms/{room['id']}/ready", json={"ready": True}))
    _ok(host.post(f"/api/rooms/{room['id']}/start"))
    return host, guest, room["id"]


def test_a_seat_acts_only_for_itself_and_a_spectator_not_at_all(server: Server) -> None:
    host, guest, match_id = _two_person_match(server)
    outsider = Client(server).guest("Outsider")
    anonymous = Client(server)
    with (
        host.socket(match_id) as seat0,
        guest.socket(match_id) as seat1,
        outsider.socket(match_id) as watcher,
        anonymous.socket(match_id) as stranger,
    ):
        snaps = [s.recv() for s in (seat0, seat1, watcher, stranger)]
        assert [s["seat"] for s in snaps] == [0, 1, None, None]
        deciding = snaps[0]["deciding"]
        assert len(deciding) == 1
        decider, other = (seat0, seat1) if deciding == [0] else (seat1, seat0)
        mover = next(s for s in snaps[:2] if s["legal"])
        action = mover["legal"][0]["id"]
        # The other seat: naming the deciding seat, and as itself while it does not decide.
        naming = {"type": "action", "action": action, "version": 0, "seat": deciding[0]}
        _expect_error(other, naming, "seat/wrong", 0)
        _expect_error(
            other, {"type": "action", "action": action, "version": 0}, "action/not_your_decision", 0
        )
        # Spectators, logged in or not, and whatever seat they name.
        for spectator in (watcher, stranger):
            for extra in ({}, {"seat": deciding[0]}):
                message = {"type": "action", "action": action, "version": 0, **extra}
                _expect_error(spectator, message, "seat/wrong", 0)
        assert _ok(host.get(f"/api/matches/{match_id}"))["version"] == 0
        # The seat that decides still can.
        decider.send({"type": "action", "action": action, "version": 0, "ref": "mine"})
        assert decider.until_ack()["ack"]["ref"] == "mine"
    # A socket may not ask for a seat its account does not hold.
    for client, seat in ((guest, 0), (host, 1), (outsider, 0)):
        with client.socket(match_id, f"?seat={seat}") as socket, pytest.raises(ConnectionClosed):
            socket.recv(timeout=10)
        assert socket.connection.close_code == 4403


def test_nobody_reads_another_seats_view(server: Server) -> None:
    """A spectator's frames are the public view; the REST routes that show more (the record,
    replays, analysis) are withheld while the match is played."""
    host, _guest, match_id = _two_person_match(server, "maiterra")
    outsider = Client(server).guest("Outsider")
    with host.socket(match_id) as seat0, outsider.socket(match_id) as watcher:
        mine, watched = seat0.recv(), watcher.recv()
    with host.socket(match_id, "?watch=true") as watching:
        public = watching.recv()
    assert watched["seat"] is None and watched["legal"] == []
    assert watched["view"] == public["view"]
    assert watched["view"] != mine["view"]  # the seat sees its own hand, the spectator none
    assert "hand" not in json.dumps(watched["view"]["seats"])
    # The NDJSON stream gives an outsider the spectators' frames too.
    url = f"{server.base}/api/matches/{match_id}/stream"
    with httpx.stream("GET", url, headers=outsider.headers, timeout=20) as reply:
        first = json.loads(next(line for line in reply.iter_lines() if line.strip()))
    assert first["seat"] is None and first["view"] == public["view"]
    for path, status, code in (
        (f"/api/matches/{match_id}/record", 409, "match/not_over"),
        (f"/api/matches/{match_id}/replay?seat=1", 409, "match/not_over"),
        (f"/api/matches/{match_id}/analysis?seat=1", 403, "analysis/live"),
        (f"/api/matches/{match_id}/hint", 403, "hint/not_solo"),
    ):
        _refused(outsider.get(path), status, code)
        _refused(host.get(path), status, code)
    # In a solo match the person may analyse only the seat it holds while it is played.
    solo = host.solo(game="maatatahay", seat=0, bots="random", seed=3)
    _refused(
        host.get(f"/api/matches/{solo['id']}/analysis?seat=1&iterations=1"),
        403,
        "analysis/not_your_seat",
    )
    _refused(outsider.get(f"/api/matches/{solo['id']}/hint"), 403, "hint/not_seated")


def test_a_private_room_is_read_only_with_its_code(server: Server) -> None:
    host = Client(server).guest("Host")
    outsider = Client(server).guest("Outsider")
    room = _ok(host.post("/api/rooms", json={"game": "manafields", "public": False}), 201)
    code = room["code"]
    assert all(r["id"] != room["id"] for r in _ok(outsider.get("/api/rooms")))
    assert "code" not in _ok(outsider.get(f"/api/rooms/{room['id']}"))
    assert "code" not in _ok(Client(server).get(f"/api/rooms/{room['id']}"))
    _refused(outsider.post(f"/api/rooms/{room['id']}/join", json={}), 403, "room/private")
    wrong = "".join("A" if c != "A" else "B" for c in code)
    _refused(outsider.post("/api/rooms/join", json={"code": wrong}), 404, "room/unknown")
    with outsider.socket(room["id"], path="rooms") as socket:
        frame = socket.recv()
        assert frame["type"] == "room" and "code" not in frame
    # Nothing of that changed the room; the code opens it.
    assert [p["open"] for p in _ok(host.get(f"/api/rooms/{room['id']}"))["players"]] == [
        False,
        True,
    ]
    joined = _ok(outsider.post("/api/rooms/join", json={"code": code}))
    assert joined["code"] == code and joined["players"][1]["account"] == outsider.account["id"]


# -- servers of their own: a short token lifetime and tight limits --------------------------


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """SQLite; a login lasts 3 s; 3 logins per address in any 6 minutes (one every 2 minutes
    on average); 2 rooms at once per account, 3 per address."""
    data = tmp_path_factory.mktemp("strict")
    running = Server(
        f"sqlite+aiosqlite:///{data / 'meeple.db'}",
        data,
        env={
            "MEEPLE_TOKEN_DAYS": str(3 / 86400),
            "MEEPLE_LOGIN_PER_MINUTE": "0.5",
            "MEEPLE_LOGIN_BURST": "3",
            "MEEPLE_ROOMS_PER_MINUTE": "0.5",
            "MEEPLE_ROOMS_BURST": "2",
            "MEEPLE_ROOMS_PER_ADDRESS_PER_MINUTE": "0.5",
            "MEEPLE_ROOMS_PER_ADDRESS_BURST": "3",
        },
    ).start()
    try:
        yield running
    finally:
        running.stop()


def _from(address: str, server: Server) -> httpx.Client:
    """A client whose requests leave from ``address`` (any 127.x address is loopback)."""
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(base_url=server.base, transport=transport, timeout=10)


def test_a_login_expires(strict: Server) -> None:
    reply = _ok(strict.client().post("/api/guests", json={"display_name": "Brief"}), 201)
    token, expires = reply["token"], datetime.fromisoformat(reply["expires_at"])
    expires = expires if expires.tzinfo else expires.replace(tzinfo=UTC)
    client = strict.client()
    client.token = token
    assert _ok(client.get("/api/me"))["display_name"] == "Brief"
    match = client.solo(game="maatatahay", seat=0, bots="random", seed=1)
    with client.socket(match["id"]) as socket:
        assert socket.recv()["seat"] == 0
    # Wait out the lifetime the server gave (the server runs on this machine's clock).
    while datetime.now(UTC) <= expires:
        time.sleep(0.25)
    _refused(client.get("/api/me"), 401, "auth/required")
    _refused(client.post("/api/matches/solo", json={"game": "maatatahay"}), 401, "auth/required")
    # The socket of an expired login holds no seat: it only watches.
    with client.socket(match["id"]) as socket:
        frame = socket.recv()
        assert frame["seat"] is None and frame["legal"] == []


def test_logins_are_limited_per_address(strict: Server) -> None:
    with _from("127.0.0.3", strict) as near, _from("127.0.0.4", strict) as far:
        # Three at once: a registration, a wrong password, the right one.
        _ok(near.post("/api/accounts", json={"name": "limited", "password": PASSWORD}), 201)
        _refused(
            near.post("/api/sessions", json={"name": "limited", "password": WRONG}),
            401,
            "auth/bad_login",
        )
        _ok(near.post("/api/sessions", json={"name": "limited", "password": PASSWORD}))
        # The fourth is refused, the right password too, and a registration creates nothing.
        for path, body in (
            ("/api/sessions", {"name": "limited", "password": PASSWORD}),
            ("/api/accounts", {"name": "never-made", "password": PASSWORD}),
            ("/api/sessions", {"name": "x"}),  # refused before its body is read
        ):
            reply = near.post(path, json=body)
            detail = _refused(reply, 429, "rate/limited")
            retry = int(reply.headers["Retry-After"])
            assert 1 <= retry <= 360  # until the first of the three leaves its 6-minute window
            assert str(retry) in detail["message"]
        # Another address is not held back, and the refused registration made no account.
        _ok(far.post("/api/sessions", json={"name": "limited", "password": PASSWORD}))
        _refused(
            far.post("/api/sessions", json={"name": "never-made", "password": PASSWORD}),
            401,
            "auth/bad_login",
        )


def test_rooms_are_limited_per_account_and_per_address(strict: Server) -> None:
    def guest(client: httpx.Client, name: str) -> dict[str, str]:
        token = _ok(client.post("/api/guests", json={"display_name": name}), 201)["token"]
        return {"Authorization": f"Bearer {token}"}

    room = {"game": "maatatahay"}
    with _from("127.0.0.5", strict) as near, _from("127.0.0.6", strict) as far:
        first, second, third = (guest(near, n) for n in ("First", "Second", "Third"))
        for _ in range(2):
            _ok(near.post("/api/rooms", json=room, headers=first), 201)
        reply = near.post("/api/rooms", json=room, headers=first)
        _refused(reply, 429, "rate/limited")  # the account's two at once
        assert int(reply.headers["Retry-After"]) >= 1
        _ok(near.post("/api/rooms", json=room, headers=second), 201)
        _refused(near.post("/api/rooms", json=room, headers=third), 429, "rate/limited")  # address
        listed = [r for r in _ok(near.get("/api/rooms")) if r["game"].startswith("maatatahay")]
        hosts = [r["players"][0]["name"] for r in listed]
        assert hosts.count("First") == 2 and hosts.count("Third") == 0
        # The same account from another address is still held to its own two.
        _refused(far.post("/api/rooms", json=room, headers=first), 429, "rate/limited")
        _ok(far.post("/api/rooms", json=room, headers=guest(far, "Fourth")), 201)


# -- passwords in the logs -----------------------------------------------------------------


class _Everything(logging.Handler):
    """Keeps every record's formatted text and arguments."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.texts: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.texts.append(self.format(record) + " " + repr(record.args))


@pytest.fixture
def chatty(tmp_path: Path) -> Iterator[tuple[str, _Everything]]:
    """The server in this process on uvicorn, every logger at DEBUG (SQLAlchemy's with each
    statement and its parameters), all of it captured."""
    handler = _Everything()
    root = logging.getLogger()
    levels = {name: logging.getLogger(name).level for name in ("", "sqlalchemy.engine")}
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    logging.getLogger("sqlalchemy.engine").setLevel(logging.DEBUG)
    port = free_port()
    settings = Settings(data_dir=tmp_path, port=port, bot_workers=0)
    config = uvicorn.Config(
        create_app(settings),
        host="127.0.0.1",
        port=port,
        log_config=None,
        log_level="debug",
        access_log=True,
        ws="meeple.server.http.routes.live:SocketProtocol",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}", handler
    finally:
        server.should_exit = True
        thread.join(30)
        root.removeHandler(handler)
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


def test_passwords_are_never_logged(
    chatty: tuple[str, _Everything], tmp_path: Path, server: Server
) -> None:
    base, handler = chatty
    replies = []
    with httpx.Client(base_url=base, timeout=10) as client:
        replies.append(client.post("/api/accounts", json={"name": "quiet", "password": PASSWORD}))
        replies.append(client.post("/api/sessions", json={"name": "quiet", "password": WRONG}))
        replies.append(client.post("/api/sessions", json={"name": "quiet", "password": PASSWORD}))
        replies.append(client.post("/api/sessions", json={"name": "quiet", "password": 12345678}))
        replies.append(client.post("/api/sessions", json={"name": "q", "password": PASSWORD}))
    # A login name of any shape is looked up (and found nowhere): 401, as for a wrong password.
    assert [r.status_code for r in replies] == [201, 401, 200, 422, 401]
    # The child-process server (meeple serve) too.
    child = Client(server)
    child.post("/api/accounts", json={"name": f"quiet-{server.port}", "password": PASSWORD})
    child.post("/api/sessions", json={"name": f"quiet-{server.port}", "password": WRONG})
    logged = "\n".join(handler.texts)
    assert "POST /api/sessions" in logged and "INSERT INTO accounts" in logged  # it did log
    for password in (PASSWORD, WRONG):
        assert password not in logged
        assert password not in server.log()
        for reply in replies:
            assert password not in reply.text
        # Nor in the database: only the Argon2id hash is stored.
        assert password.encode() not in (tmp_path / "meeple.db").read_bytes()
