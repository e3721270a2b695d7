"""A real server for the server tests: ``meeple serve`` in a child process on a free loopback
port, on SQLite and on the machine's PostgreSQL (a fresh database per run, dropped after).

PostgreSQL is not optional here: if it cannot be reached (and cannot be started with
``pg_ctlcluster``), the tests that need it fail.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
BACKENDS = ("sqlite", "postgres")
GENEROUS_LIMITS = (
    "LOGIN_PER_MINUTE",
    "LOGIN_BURST",
    "ROOMS_PER_MINUTE",
    "ROOMS_BURST",
    "ROOMS_PER_ADDRESS_PER_MINUTE",
    "ROOMS_PER_ADDRESS_BURST",
    "GUESTS_PER_MINUTE",
    "GUESTS_BURST",
    "SOLO_LIVE",
    "SOLO_PER_MINUTE",
    "SOLO_BURST",
    "HINTS_PER_MINUTE",
    "HINTS_BURST",
    "ANALYSES_PER_MINUTE",
    "ANALYSES_BURST",
    "REPLAYS_PER_MINUTE",
    "REPLAYS_BURST",
    "JOIN_CODES_PER_MINUTE",
    "JOIN_CODES_BURST",
    "MAX_CONNECTIONS_PER_ADDRESS",
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


async def _pg(statement: str) -> None:
    connection = await asyncpg.connect(PG_ADMIN, timeout=5)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


def run_pg(statement: str) -> None:
    """Run one statement on its own thread's event loop: a test process that already drives
    a loop in this thread (Playwright's sync API does) cannot ``asyncio.run`` here."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, _pg(statement)).result()


def _pg_reachable() -> bool:
    try:
        run_pg("SELECT 1")
    except (OSError, asyncpg.PostgresError, TimeoutError):
        return False
    return True


def _start_postgres() -> None:
    clusters = Path("/etc/postgresql")
    if not clusters.is_dir() or shutil.which("pg_ctlcluster") is None:
        return
    for version in sorted(p.name for p in clusters.iterdir()):
        subprocess.run(
            ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "start"],
            check=False,
            capture_output=True,
        )


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """A fresh PostgreSQL database for this run; its async URL. Dropped at the end."""
    if not _pg_reachable():
        _start_postgres()
        for _ in range(20):
            if _pg_reachable():
                break
            time.sleep(0.5)
        else:
            pytest.fail("PostgreSQL is not reachable on 127.0.0.1:5432 and did not start")
    name = f"meeple_test_{uuid.uuid4().hex[:12]}"
    # template0 takes no connections, so another client busy in template1 cannot block this.
    run_pg(f'CREATE DATABASE "{name}" TEMPLATE template0')
    try:
        yield f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"
    finally:
        run_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def database_urls(
    tmp_path_factory: pytest.TempPathFactory, postgres_database: str
) -> dict[str, str]:
    sqlite_dir = tmp_path_factory.mktemp("sqlite")
    return {
        "sqlite": f"sqlite+aiosqlite:///{sqlite_dir / 'meeple.db'}",
        "postgres": postgres_database,
    }


@dataclass
class Server:
    """``meeple serve`` in a child process."""

    database_url: str
    data_dir: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    env: dict[str, str] = field(default_factory=dict)
    """More ``MEEPLE_*`` settings for this server (they override the ones below)."""
    start_seconds: float = 30.0
    """How long it may take to answer (several started at once on a busy machine: more)."""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        # Turn timers run 50 times faster: a 90 s timer rings after 1.8 s.
        # Wi-Fi rooms: announced over mDNS on loopback only.
        env = {
            **os.environ,
            "MEEPLE_DATA_DIR": str(self.data_dir),
            "MEEPLE_CLOCK_SCALE": "0.02",
            "MEEPLE_LAN_INTERFACES": '["127.0.0.1"]',
            "MEEPLE_LAN_NAME": f"meeple test {self.port}",
            # Every test logs in and opens rooms from 127.0.0.1: limits no test reaches
            # unless it sets its own (tests/server/test_access.py).
            **{f"MEEPLE_{name}": "100000" for name in GENEROUS_LIMITS},
            **self.env,
        }
        log = (self.data_dir / f"server-{self.port}.log").open("ab")
        with log:  # the child keeps its own copy of the descriptor
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "meeple",
                    "serve",
                    "--port",
                    str(self.port),
                    "--database-url",
                    self.database_url,
                    "--bot-workers",
                    "1",
                    "--host",
                    "127.0.0.1",
                    "--lan",
                ],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        deadline = time.monotonic() + self.start_seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log()}")
            try:
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the server did not come up: {self.log()}")

    def log(self) -> str:
        path = self.data_dir / f"server-{self.port}.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flushing; what was acknowledged must be on disk."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def restart(self) -> None:
        """Start again on the same port and database after :meth:`kill` or :meth:`stop`."""
        self.stop()
        self.start()

    def client(self) -> Client:
        return Client(self)


class Client:
    """A REST client holding one login, and its WebSockets."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.token: str | None = None
        self.account: dict[str, Any] | None = None

    def request(self, method: str, path: str, **kw: Any) -> httpx.Response:
        """One request on a connection of its own (nothing left open between tests)."""
        headers = {**self.headers, **kw.pop("headers", {})}
        return httpx.request(method, self.server.base + path, headers=headers, timeout=10, **kw)

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return self.request("GET", path, **kw)

    def post(self, path: str, **kw: Any) -> httpx.Response:
        return self.request("POST", path, **kw)

    def guest(self, name: str = "Ana") -> Client:
        reply = self.post("/api/guests", json={"display_name": name})
        assert reply.status_code == 201, reply.text
        self.token = reply.json()["token"]
        self.account = reply.json()["account"]
        return self

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def solo(self, **body: Any) -> dict[str, Any]:
        reply = self.post("/api/matches/solo", json=body)
        assert reply.status_code == 201, reply.text
        data: dict[str, Any] = reply.json()
        return data

    def socket(self, match_id: str, query: str = "", path: str = "matches") -> Socket:
        url = f"{self.server.ws_base}/ws/{path}/{match_id}{query}"
        return Socket(connect(url, additional_headers=self.headers, open_timeout=10))


class Socket:
    """A WebSocket that keeps every frame it received (for the leak checks)."""

    def __init__(self, opening: Any) -> None:
        self._opening = opening
        self.connection: ClientConnection = opening.__enter__()
        self.frames: list[dict[str, Any]] = []

    def send(self, message: Any) -> None:
        self.connection.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def recv(self, timeout: float = 20) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.connection.recv(timeout=timeout))
        self.frames.append(frame)
        return frame

    def until(self, kind: str, timeout: float = 20) -> dict[str, Any]:
        while True:
            frame = self.recv(timeout)
            if frame["type"] == kind:
                return frame

    def until_ack(self, timeout: float = 20) -> dict[str, Any]:
        """The update that acknowledges this socket's action (it carries ``ack``)."""
        while True:
            frame = self.recv(timeout)
            if frame["type"] == "update" and frame.get("ack") is not None:
                return frame

    def close(self) -> None:
        self._opening.__exit__(None, None, None)

    def __enter__(self) -> Socket:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


@pytest.fixture(scope="session", params=BACKENDS)
def server(
    request: pytest.FixtureRequest,
    database_urls: dict[str, str],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Server]:
    """One server per database for the whole run (pytest groups the tests by database)."""
    running = Server(database_urls[request.param], tmp_path_factory.mktemp("data")).start()
    try:
        yield running
    finally:
        running.stop()


@contextmanager
def sqlite_server(
    data: Path, env: dict[str, str] | None = None, *, clean_log: bool = False
) -> Iterator[Server]:
    """A running server on an SQLite file in ``data``, stopped afterwards; with ``clean_log``,
    its whole log must then hold no traceback."""
    running = Server(f"sqlite+aiosqlite:///{data / 'meeple.db'}", data, env=env or {}).start()
    try:
        yield running
    finally:
        log = (data / f"server-{running.port}.log").read_text(errors="replace")
        running.stop()
        if clean_log:
            assert "Traceback" not in log and "Exception in ASGI" not in log, log[-4000:]
