"""Bounded HTTP: huge and endless bodies, idle and half-sent connections, and more
connections than the server takes, each beside a victim measured in the same run.

Each attack is short (a few seconds) and the server's own limits are set small so that it
reaches them quickly (docs/security.md, "Bounded HTTP").
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus, WebSocketException
from websockets.sync.client import connect

from tests.attacks.conftest import Client, Server, Victim, held, report
from tests.server.conftest import sqlite_server

MIB = 1 << 20


@contextlib.contextmanager
def _server(tmp_path: Path, **env: str) -> Iterator[tuple[Server, Victim]]:
    with sqlite_server(tmp_path, {f"MEEPLE_{k}": v for k, v in env.items()}, clean_log=True) as s:
        person = Victim(s)
        try:
            yield s, person
        finally:
            person.close()


def _rss(server: Server) -> int:
    """The server process's resident memory, in bytes (Linux)."""
    assert server.process is not None
    for line in Path(f"/proc/{server.process.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def _open(server: Server, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(10)
    sock.connect(("127.0.0.1", server.port))
    return sock


def _answer(sock: socket.socket, timeout: float = 10) -> tuple[int, dict[str, Any]] | None:
    """The status and JSON body of the answer on ``sock``, or None if it closed without one."""
    sock.settimeout(timeout)
    data = b""
    with contextlib.suppress(OSError):
        while b"\r\n\r\n" not in data or len(data.partition(b"\r\n\r\n")[2]) < _length(data):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    if not data.startswith(b"HTTP/1.1 "):
        return None
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body) if body else {}


def _length(data: bytes) -> int:
    for line in data.partition(b"\r\n\r\n")[0].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 0


def _during(attacks: list[Callable[[], None]], measure: Callable[[], Any]) -> Any:
    """``measure()`` while every attack runs on a thread of its own; the attacks joined."""
    threads = [threading.Thread(target=attack, daemon=True) for attack in attacks]
    for thread in threads:
        thread.start()
    time.sleep(0.3)
    try:
        return measure()
    finally:
        for thread in threads:
            thread.join(30)


def test_huge_and_endless_bodies_are_cut_off_at_the_limit(tmp_path: Path) -> None:
    with _server(tmp_path) as (server, victim):
        reference = victim.rest()
        rss_before = _rss(server)
        peak = [rss_before]
        outcomes: list[tuple[str, int, Any]] = []
        stop = threading.Event()

        def declared() -> None:
            """A 200 MB body announced in Content-Length: refused before any is read."""
            sock = _open(server)
            with sock:
                sock.sendall(
                    b"POST /api/guests HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                    b"\r\nContent-Length: 200000000\r\n\r\n"
                )
                sent = 0
                with contextlib.suppress(OSError):
                    while sent < 8 * MIB:
                        sent += sock.send(b"{" * 65536)
                outcomes.append(("declared", sent, _answer(sock)))

        def chunked() -> None:
            """A chunked body sent as fast as the server takes it: cut off past 1 MiB."""
            sock = _open(server)
            with sock:
                sock.sendall(
                    b"POST /api/guests HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                    b"\r\nTransfer-Encoding: chunked\r\n\r\n"
                )
                sent = 0
                chunk = b"10000\r\n" + b"{" * 0x10000 + b"\r\n"
                with contextlib.suppress(OSError):
                    while sent < 200 * MIB and not stop.is_set():
                        sock.sendall(chunk)
                        sent += 0x10000
                outcomes.append(("chunked", sent, _answer(sock)))

        def sample() -> None:
            while not stop.is_set():
                peak[0] = max(peak[0], _rss(server))
                time.sleep(0.02)

        def measure() -> Any:
            attacked = victim.rest()
            stop.set()
            return attacked

        attacks = [declared] * 4 + [chunked] * 4
        attacked = _during([*attacks, sample], measure)
        grown = peak[0] - rss_before
        report(
            "huge bodies",
            rest=attacked,
            reference=reference,
            rss_before_mib=round(rss_before / MIB, 1),
            rss_peak_mib=round(peak[0] / MIB, 1),
            sent_mib=[round(sent / MIB, 1) for _, sent, _ in outcomes],
            answers=[answer and answer[0] for _, _, answer in outcomes],
        )
        held("rest_p95", reference.p95, attacked.p95)
        assert len(outcomes) == len(attacks)
        for kind, sent, answer in outcomes:
            # The server stopped reading at the limit: the client could not push 200 MB, and
            # whatever it read back is the typed refusal.
            assert sent < 40 * MIB, (kind, sent)
            if answer is not None:
                assert answer[0] == 413, (kind, answer)
                assert answer[1]["detail"]["code"] == "request/too_large", (kind, answer)
        assert sum(answer is not None for _, _, answer in outcomes) >= len(attacks) // 2
        # Eight 200 MB bodies cost the server less than 64 MiB (it read each up to 1 MiB).
        assert grown < 64 * MIB, f"the server grew {grown / MIB:.0f} MiB"


def test_idle_and_half_sent_connections_are_closed_on_time(tmp_path: Path) -> None:
    with _server(tmp_path, HEADER_SECONDS="2", BODY_SECONDS="2") as (server, victim):
        reference = victim.rest()
        closed: dict[str, list[float]] = {"idle": [], "headers": [], "body": []}
        answers: list[Any] = []
        began = time.monotonic()

        def idle() -> None:
            """Connections that send nothing."""
            socks = [_open(server) for _ in range(100)]
            for sock in socks:
                with sock:
                    sock.settimeout(15)
                    with contextlib.suppress(OSError):
                        sock.recv(1)
                    closed["idle"].append(time.monotonic() - began)

        def headers_byte_by_byte() -> None:
            """Slowloris: headers a byte every 0.2 s, never finished."""
            socks = [_open(server) for _ in range(20)]
            line = b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 1000
            for index in range(len(line)):
                for sock in list(socks):
                    try:
                        sock.send(line[index : index + 1])
                    except OSError:
                        socks.remove(sock)
                        sock.close()
                        closed["headers"].append(time.monotonic() - began)
                if not socks or time.monotonic() - began > 15:
                    break
                time.sleep(0.2)
            for sock in socks:
                sock.close()

        def half_a_body() -> None:
            """A body promised and never sent in full: answered 408, then closed."""
            socks = [_open(server) for _ in range(20)]
            for sock in socks:
                sock.sendall(
                    b"POST /api/guests HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                    b"\r\nContent-Length: 100\r\n\r\n{"
                )
            for sock in socks:
                with sock:
                    answers.append(_answer(sock, 15))
                    closed["body"].append(time.monotonic() - began)

        attacked = _during([idle, headers_byte_by_byte, half_a_body], victim.rest)
        report(
            "idle and half-sent connections",
            rest=attacked,
            reference=reference,
            closed_after_s={k: round(max(v, default=-1), 2) for k, v in closed.items()},
            answers=sorted({answer and answer[0] for answer in answers}),
        )
        held("rest_p95", reference.p95, attacked.p95)
        assert len(closed["idle"]) == 100 and len(closed["body"]) == 20
        assert len(closed["headers"]) == 20, closed
        # Closed within their two seconds, with slack for a busy machine; never left open.
        for kind, times in closed.items():
            assert max(times) < 9, (kind, times)
        for answer in answers:
            assert answer is not None and answer[0] == 408, answer
            assert answer[1]["detail"]["code"] == "request/too_slow"


def _ws_refused(server: Server, client: Client, match_id: str) -> int | str | None:
    """The HTTP status that refused a WebSocket to the match, "closed" if the connection
    closed with no answer, or None if it opened."""
    try:
        with connect(
            f"{server.ws_base}/ws/matches/{match_id}",
            additional_headers=client.headers,
            open_timeout=10,
        ):
            return None
    except InvalidStatus as refused:
        return refused.response.status_code
    except (OSError, WebSocketException):
        return "closed"


def test_connections_past_the_cap_of_an_address_are_answered_503(tmp_path: Path) -> None:
    """One address holds its 40 connections (WebSockets among them) and is refused more,
    while a victim on another address (127.0.0.2) is served as before."""
    cap = "40"
    with _server(tmp_path, MAX_CONNECTIONS_PER_ADDRESS=cap, HEADER_SECONDS="30") as (
        server,
        victim,
    ):
        # The victim speaks from 127.0.0.2, the attacker from 127.0.0.1.
        victim._http = httpx.Client(
            base_url=server.base,
            headers=victim.client.headers,
            timeout=30,
            transport=httpx.HTTPTransport(local_address="127.0.0.2"),
        )
        reference = victim.rest()
        attacker = Client(server).guest("Crowd")
        match = attacker.solo(game="maatatahay", bots="random", seat=0)
        held_open: list[Any] = [attacker.socket(match["id"]) for _ in range(10)]
        held_open += [_open(server) for _ in range(int(cap) - len(held_open))]
        refusals: list[Any] = []

        def more() -> None:
            for _ in range(20):
                try:
                    reply = httpx.get(f"{server.base}/api/health", timeout=10)
                    refusals.append((reply.status_code, reply.json()["detail"]["code"]))
                except httpx.TransportError as failed:  # reset before the answer was read
                    refusals.append(("reset", type(failed).__name__))
                refusals.append(("ws", _ws_refused(server, attacker, match["id"])))

        try:
            attacked = _during([more], victim.rest)
        finally:
            for opened in held_open:
                opened.close()
        report("connections per address", rest=attacked, reference=reference, refusals=refusals)
        held("rest_p95", reference.p95, attacked.p95)
        assert refusals == [(503, "server/busy"), ("ws", 503)] * 20, refusals
        # Once the attacker lets go, its address is served again.
        assert httpx.get(f"{server.base}/api/health", timeout=10).status_code == 200


def test_connections_past_the_total_cap_are_answered_503_and_freed(tmp_path: Path) -> None:
    """Three addresses fill the server's 120 connections; the next is refused 503 (not
    left to run the server out of files), and once they go everyone is served."""
    with _server(
        tmp_path, MAX_CONNECTIONS="120", MAX_CONNECTIONS_PER_ADDRESS="60", HEADER_SECONDS="30"
    ) as (server, victim):
        reference = victim.rest()
        held_open = [_open(server, f"127.0.0.{3 + n // 60}") for n in range(120)]
        try:
            time.sleep(0.3)
            refused = []
            for source in ("127.0.0.6", "127.0.0.7"):
                sock = _open(server, source)
                with sock:
                    sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
                    refused.append(_answer(sock))
            # A flood of silent ones past the cap: the server keeps few of them open.
            flood = [_open(server, f"127.0.1.{n % 200 + 1}") for n in range(200)]
            time.sleep(0.3)
            files = len(list(Path(f"/proc/{server.process.pid}/fd").iterdir()))  # type: ignore[union-attr]
            for sock in flood:
                sock.close()
        finally:
            for sock in held_open:
                sock.close()
        time.sleep(0.5)
        after = victim.rest()
        limits = Path(f"/proc/{server.process.pid}/limits").read_text()  # type: ignore[union-attr]
        limit = next(line for line in limits.splitlines() if line.startswith("Max open files"))
        report(
            "connections in all",
            rest=after,
            reference=reference,
            refused=refused,
            open_files_in_the_flood=files,
            limit=limit,
        )
        held("rest_p95", reference.p95, after.p95)
        for answer in refused:
            assert answer is not None and answer[0] == 503, refused
            assert answer[1]["detail"]["code"] == "server/busy"
        # 120 held, 64 kept for an answer, and the server's own (database, logs, pipes).
        assert files < 120 + 64 + 60, files
        soft, hard = limit.split()[3:5]
        assert soft == hard, f"the open-file limit was not raised: {limit}"


@pytest.mark.parametrize("path", ["/api/health", "/"])
def test_every_answer_carries_the_security_headers(attacked_server: Server, path: str) -> None:
    reply = httpx.get(attacked_server.base + path, timeout=10)
    assert reply.status_code == 200
    policy = reply.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
    assert reply.headers["x-content-type-options"] == "nosniff"
    assert reply.headers["referrer-policy"] == "no-referrer"
    # Swagger UI (it loads its script from a CDN) is off unless api_docs is set.
    assert httpx.get(attacked_server.base + "/docs", timeout=10).status_code == 404
