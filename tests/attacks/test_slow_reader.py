"""Slow readers: strangers that open a socket, complete the handshake and never read.

A spectator needs no login: anyone who knows a match id (public rooms become matches) can
watch it. Before the outbox, the master sent every frame itself while it held the match's
lock, so one watcher whose TCP window was full stopped both players until it left. Now the
master only puts frames in each connection's outbox; a watcher that falls ``outbox_frames``
frames behind is closed with 4408 and its connection cut within ``socket_close_seconds``
(docs/security.md, "Slow readers and the outbox").

The stalled sockets are raw TCP sockets with a tiny receive buffer (``SO_RCVBUF``); each
notices the server's reset without reading (``SO_ERROR``).
"""

from __future__ import annotations

import base64
import contextlib
import errno
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.attacks.conftest import Client, Figures, Server, Victim, held, report
from tests.server.conftest import sqlite_server

CLOSE_SECONDS = 2.0
"""``socket_close_seconds`` of the server under attack (5 by default): how long a closing
socket may wait for a client that does not read."""

WATCHERS = 3
"""Stalled sockets on each match the victim plays."""

ATTACK_SECONDS = 6.0
"""How long the victim plays beside the stalled watchers."""

CUT_WITHIN = 8.0
"""Seconds after the victim stops by which every stalled socket must have been cut: the
time to fill its kernel buffer (``socket_send_buffer``), uvicorn's 64 KiB and its outbox at
the pace it asks for snapshots, and then ``CLOSE_SECONDS``."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    # The smallest kernel buffer and a short outbox: the same mechanism as the defaults
    # (64 KiB, 64 frames), filled in a second rather than in a long match.
    env = {
        "MEEPLE_SOCKET_CLOSE_SECONDS": str(CLOSE_SECONDS),
        "MEEPLE_SOCKET_SEND_BUFFER": "4096",
        "MEEPLE_OUTBOX_FRAMES": "16",
    }
    with sqlite_server(tmp_path, env, clean_log=True) as running:
        yield running


class Stalled:
    """A WebSocket that completed its handshake and reads nothing more."""

    def __init__(self, server: Server, path: str, token: str | None = None) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect(("127.0.0.1", server.port))
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: 127.0.0.1:{server.port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
        ]
        if token is not None:
            lines.append(f"Authorization: Bearer {token}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while not head.endswith(b"\r\n\r\n"):  # the response's head, byte by byte: no frame
            byte = self.sock.recv(1)
            assert byte, head
            head += byte
        assert head.startswith(b"HTTP/1.1 101"), head
        self.opened = time.monotonic()
        self.cut: float | None = None

    def send_text(self, text: str) -> None:
        """One masked text frame (a client's): the stalled socket may still write."""
        data = text.encode()
        assert len(data) < 126
        mask = os.urandom(4)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(bytes([0x81, 0x80 | len(data)]) + mask + body)

    def poll(self) -> bool:
        """Whether the server has cut the connection (a reset), noticed without reading."""
        if self.cut is None:
            error = self.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if error in (errno.ECONNRESET, errno.EPIPE):
                self.cut = time.monotonic()
        return self.cut is not None

    def close(self) -> None:
        self.sock.close()


class Watching:
    """The attack: stalled watchers, polled in a thread. With ``asking``, each asks for a
    full snapshot (``resume`` from version 0) about 10 times a second, under the frame
    budget, and reads none of them: the server has plenty to send it."""

    def __init__(self, server: Server, *, asking: bool = False) -> None:
        self.asked = 0
        self.server = server
        self.sockets: list[Stalled] = []
        self.asking = asking
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def watch(self, path: str) -> None:
        for _ in range(WATCHERS):
            self.sockets.append(Stalled(self.server, path))

    def _run(self) -> None:
        while not self._stop.wait(1 / 10):
            for stalled in list(self.sockets):
                if not stalled.poll() and self.asking:
                    with contextlib.suppress(OSError):
                        stalled.send_text('{"type":"resume","since":0}')
                        self.asked += 1

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        for stalled in self.sockets:
            stalled.close()


def _wait_cut(sockets: list[Stalled], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not all(s.poll() for s in sockets):
        time.sleep(0.05)


def test_a_watcher_that_never_reads_holds_no_match(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Strangers watch every match the victim plays and never read; the victim's actions
    keep being acknowledged at their pace, and every stalled watcher is cut."""
    victim = Victim(server)
    try:
        reference = victim.actions(60)
        attack = Watching(server, asking=True)
        opened = victim._match

        def watched(bot: str) -> Any:
            match, socket = opened(bot)
            attack.watch(f"/ws/matches/{match['id']}?watch=true")
            for stalled in attack.sockets[-WATCHERS:]:  # the frame budget's burst at once
                for _ in range(30):
                    stalled.send_text('{"type":"resume","since":0}')
            return match, socket

        monkeypatch.setattr(victim, "_match", watched)
        samples: list[float] = []
        began = time.monotonic()
        try:
            while time.monotonic() - began < ATTACK_SECONDS:
                samples.extend(victim.actions(20).samples)
            played = time.monotonic() - began
            _wait_cut(attack.sockets, CUT_WITHIN)
        finally:
            attack.stop()
        attacked = Figures("action ack", tuple(samples))
        cut = [s for s in attack.sockets if s.cut is not None]
        report(
            "slow reader (match)",
            reference=reference,
            attacked=attacked,
            watchers=len(attack.sockets),
            cut=len(cut),
            played_s=round(played, 2),
            cut_after_s=sorted(round(s.cut - s.opened, 2) for s in cut if s.cut is not None),
        )
        held("ack_p99", reference.p99, attacked.p99)
        assert len(cut) == len(attack.sockets), (len(cut), len(attack.sockets))
    finally:
        victim.close()


def test_a_room_watcher_that_never_reads_holds_no_room(server: Server) -> None:
    """The host changes a public room (ready, not ready, over and over) while strangers
    watch it without reading: the host's requests keep their pace, the watchers are cut."""
    host = Client(server).guest("Host")
    guest = Client(server).guest("Guest")
    room = host.post("/api/rooms", json={"game": "maatatahay", "seats": 2, "public": True})
    assert room.status_code == 201, room.text
    room_id = room.json()["id"]
    assert guest.post(f"/api/rooms/{room_id}/join", json={}).status_code == 200
    with httpx.Client(base_url=server.base, headers=guest.headers, timeout=30) as http:

        def toggles(count: int) -> list[float]:
            samples = []
            for index in range(count):
                began = time.perf_counter()
                reply = http.post(f"/api/rooms/{room_id}/ready", json={"ready": index % 2 == 0})
                samples.append(time.perf_counter() - began)
                assert reply.status_code == 200, reply.text
            return samples

        reference = Figures("room ready", tuple(toggles(60)))
        attack = Watching(server)
        try:
            for _ in range(2):
                attack.watch(f"/ws/rooms/{room_id}")
            began = time.monotonic()
            attacked = Figures("room ready", tuple(toggles(400)))
            played = time.monotonic() - began
            _wait_cut(attack.sockets, CUT_WITHIN)
        finally:
            attack.stop()
    cut = [s for s in attack.sockets if s.cut is not None]
    report(
        "slow reader (room)",
        reference=reference,
        attacked=attacked,
        watchers=len(attack.sockets),
        cut=len(cut),
        played_s=round(played, 2),
        cut_after_s=sorted(round(s.cut - s.opened, 2) for s in cut if s.cut is not None),
    )
    held("rest_p95", reference.p95, attacked.p95)
    assert len(cut) == len(attack.sockets), (len(cut), len(attack.sockets))
