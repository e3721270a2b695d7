"""Frame floods: ping frames and one-byte continuation fragments, as fast as one socket
writes, and messages past ``max_message_bytes``.

Before, such frames were parsed on the event loop and never counted (one guest socket made
a stranger's ``GET /api/me`` take 5.8 s). Now every frame a client sends takes a token of
its connection's budget (``frames_per_second``, ``frame_burst``) as websockets parses it,
and ``frame_burst`` frames past an empty budget the socket is closed with 1008: within a
bounded number of frames, which the close's reason states (docs/security.md, "WebSocket
frames and floods").
"""

from __future__ import annotations

import base64
import os
import re
import socket
import struct
import threading
import time

from meeple.client import client as meeple_client
from tests.attacks.conftest import Client, Server, Victim, held, report

ATTACK_SECONDS = 4.0
RATE, BURST = 20, 40
"""The server's frame budget (the defaults)."""
READ_SLICE_FRAMES = 1024 // 6 + 1
"""Frames of six bytes websockets parses in one slice before they are counted."""


def _masked(opcode_byte: int, payload: bytes) -> bytes:
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([opcode_byte, 0x80 | len(payload)]) + mask + body


PINGS = _masked(0x89, b"") * 2000
"""2,000 empty ping frames, six bytes each."""
FRAGMENTS = _masked(0x01, b"{") + _masked(0x00, b" ") * 2000
"""A text message begun and never ended: 2,000 one-byte continuation fragments."""


def _open(server: Server, path: str, token: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Authorization: Bearer {token}\r\n\r\n"
    )
    sock.sendall(request.encode())
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        byte = sock.recv(1)
        assert byte, head
        head += byte
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def _close_frame(sock: socket.socket) -> tuple[int, str] | None:
    """Read server frames until its close frame: (code, reason), or None at the end."""
    buffer = b""

    def need(n: int) -> bytes:
        nonlocal buffer
        while len(buffer) < n:
            chunk = sock.recv(65536)
            if not chunk:
                raise EOFError
            buffer += chunk
        taken, buffer = buffer[:n], buffer[n:]
        return taken

    try:
        while True:
            head = need(2)
            length = head[1] & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", need(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", need(8))
            payload = need(length)
            if head[0] & 0x0F == 0x8:
                code = struct.unpack("!H", payload[:2])[0]
                return code, payload[2:].decode()
    except (EOFError, OSError):
        return None


def _flood_once(server: Server, path: str, token: str, blob: bytes) -> tuple[int, str] | None:
    sock = _open(server, path, token)

    def write() -> None:
        try:
            while True:
                sock.sendall(blob)
        except OSError:
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        sock.settimeout(10)
        return _close_frame(sock)
    finally:
        sock.close()
        writer.join(5)


def test_ping_and_fragment_floods_are_closed_with_1008(
    attacked_server: Server, victim: Victim
) -> None:
    attacker = Client(attacked_server).guest("Flooder")
    match = attacker.solo(game="maatatahay", bots="random", seat=0)
    path = f"/ws/matches/{match['id']}"
    assert attacker.token is not None
    reference = victim.rest()
    closes: list[tuple[int, str] | None] = []
    stop = threading.Event()

    def attack() -> None:
        blobs = [PINGS, FRAGMENTS]
        while not stop.is_set():
            closes.append(_flood_once(attacked_server, path, attacker.token or "", blobs[0]))
            blobs.reverse()

    thread = threading.Thread(target=attack, daemon=True)
    began = time.monotonic()
    thread.start()
    try:
        attacked = victim.rest(count=60)
        while time.monotonic() - began < ATTACK_SECONDS:
            time.sleep(0.1)
    finally:
        stop.set()
        thread.join(20)
    counted = []
    for close in closes:
        assert close is not None and close[0] == 1008, close
        found = re.fullmatch(r"too many frames: (\d+) in ([\d.]+) s", close[1])
        assert found, close
        frames, seconds = int(found[1]), float(found[2])
        counted.append(frames)
        assert frames <= 2 * BURST + RATE * seconds + READ_SLICE_FRAMES + 1, close
    report(
        "frame flood (pings, 1-byte fragments)",
        reference=reference,
        attacked=attacked,
        connections=len(closes),
        frames_before_close_max=max(counted),
    )
    held("rest_p95", reference.p95, attacked.p95)
    assert len(closes) >= 2


def test_a_message_too_long_closes_with_1009_and_the_client_plays_on(
    attacked_server: Server,
) -> None:
    """The Python client: the server closes with 1009, it opens again with ``since`` and
    plays the match to its end."""
    with meeple_client.Client(attacked_server.base) as player:
        player.guest("Longa")
        match = player.solo("maatatahay", bots="random", seat=0)
        with player.connect(match["id"]) as connection:
            first = connection.recv(timeout=20)
            assert first["type"] == "snapshot"
            connection.send("x" * (32 * 1024))  # twice max_message_bytes
            last = meeple_client.play_seat(connection, meeple_client.random_policy(3))
            assert last["outcome"] is not None
            assert connection.resumed == [1009]
