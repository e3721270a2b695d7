"""Load on one server worker: N clients playing bot-filled solo matches, against a bare
websockets echo server (and, with --servers, a FastAPI one) on the same machine in the same run.

Each client logs in as a guest, opens a solo match (one person against bots), and plays its
seat as fast as the server answers: it sends an action when its seat decides and times the
round trip from the send to the update of that version reaching it (the action checked,
written to the database, applied, pushed). When a match ends it opens the next. The echo
clients send a frame of about 200 bytes and time the echo. The servers, in this order:
``echo`` (A: bare websockets), ``fastapi`` (C: uvicorn and FastAPI validating each frame into
a small pydantic model and answering JSON), ``meeple`` (``meeple serve``, embedded SQLite).

With ``--workers N`` the server is ``meeple serve --workers N`` on a fresh PostgreSQL database
(``meeple_load_<random>`` on 127.0.0.1:5432, dropped afterwards) and the machine's Redis
(``redis://127.0.0.1:6379/<an empty database number>``), one bot process per worker; its CPU is
summed over every worker process. ``--workers 1`` runs the same way, so 1, 2 and 4 compare.

    ./scripts/loadtest --clients 100 --seconds 20
    ./scripts/loadtest --clients 100 --rate 1   # open loop: one action a second per client
    ./scripts/loadtest --clients 200 --servers echo,fastapi,meeple
    ./scripts/loadtest --clients 1000 --workers 2   # PostgreSQL and Redis, two workers

Prints the figures as JSON (and writes them with --json): round trips a second, p50/p99, the
cores the server (with its bot process) and the load clients kept busy during the window, and
the machine's load average. A script, not a test: figures vary with the machine and whatever
else runs on it; compare only figures of the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import httpx
import orjson
import redis.asyncio as redis
import websockets

ROOT = Path(__file__).resolve().parents[1]

ECHO_SERVER = """
import asyncio, sys, websockets
async def echo(ws):
    async for message in ws:
        await ws.send(message)
async def main():
    async with websockets.serve(echo, "127.0.0.1", int(sys.argv[1]), compression=None):
        await asyncio.Future()
asyncio.run(main())
"""

FASTAPI_ECHO = """
import sys, uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from pydantic import BaseModel
class Message(BaseModel):
    type: str
    action: int
    version: int
    pad: str = ""
app = FastAPI()
@app.websocket("/")
async def echo(ws: WebSocket):
    await ws.accept()
    try:
        while True:
            message = Message.model_validate_json(await ws.receive_text())
            await ws.send_text(message.model_dump_json())
    except (WebSocketDisconnect, RuntimeError, ConnectionError):
        pass
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""
"""Server C of the anchors: FastAPI on uvicorn (as meeple serve runs it), each frame validated
into a small pydantic model and answered as JSON."""

PROFILED = """
import cProfile, runpy, signal, sys, time
signal.raise_signal = lambda number: None  # uvicorn re-raises SIGTERM: return instead
# The event loop thread's CPU time, not the wall clock: time spent waiting (for the socket,
# for the writer thread, for the GIL) is not charged to whatever function was running.
profile = cProfile.Profile(time.thread_time)
try:
    profile.runcall(runpy.run_module, 'meeple', run_name='__main__')
finally:
    profile.dump_stats({out!r})
"""


OPEN_SECONDS = 120
"""How long a client waits for its WebSocket to open: a thousand clients connect at once,
before the measured window opens."""


JOINING_AT_ONCE = 50
"""Clients logging in and opening their first match at the same time, before the window."""


PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
"""The machine's PostgreSQL (trust auth), where --workers creates its database."""


REDIS_HOST = "redis://127.0.0.1:6379"
"""The machine's Redis, where --workers forwards frames between the workers."""


async def create_database() -> str:
    """A fresh PostgreSQL database for one run; its name."""
    name = f"meeple_load_{os.urandom(6).hex()}"
    connection = await asyncpg.connect(PG_ADMIN, timeout=10)
    try:
        # template0 takes no connections, so a client busy in template1 cannot block this.
        await connection.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    finally:
        await connection.close()
    return name


async def drop_database(name: str) -> None:
    connection = await asyncpg.connect(PG_ADMIN, timeout=10)
    try:
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await connection.close()


async def free_redis_url() -> str:
    """The machine's Redis on a database number holding no keys (not 0, where the tests
    run), picked at random. Pub/sub channels are one space whatever the number; the
    server's channels are named by random match and worker ids, so runs do not meet."""
    client = redis.Redis.from_url(REDIS_HOST)
    try:
        config = await client.config_get("databases")
        count = int(config.get("databases") or 16)
        keyspace = await client.info("keyspace")
    finally:
        await client.aclose()
    empty = [n for n in range(1, count) if f"db{n}" not in keyspace]
    if not empty:
        raise RuntimeError(f"no empty Redis database at {REDIS_HOST}")
    return f"{REDIS_HOST}/{random.choice(empty)}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Tally:
    """Round trips in seconds and counts, for one kind of server."""

    latencies: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)  # perf_counter of each round trip's send
    messages: int = 0
    matches: int = 0
    errors: int = 0

    def figures(self, seconds: float) -> dict[str, Any]:
        ordered = sorted(self.latencies)

        def pick(q: float) -> float:
            return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)

        return {
            "round_trips": len(ordered),
            "per_second": round(len(ordered) / seconds, 1),
            "p50_ms": pick(0.50) if ordered else None,
            "p99_ms": pick(0.99) if ordered else None,
            "mean_ms": round(1000 * statistics.fmean(ordered), 2) if ordered else None,
            "frames_in": self.messages,
            "matches": self.matches,
            "errors": self.errors,
        }


async def wait_up(url: str) -> None:
    async with httpx.AsyncClient() as http:
        for _ in range(300):
            try:
                if (await http.get(url)).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError(f"{url} did not come up")


async def player(  # noqa: PLR0917 (one client's whole configuration)
    base: str, game: str, bot: str, rate: float | None, clock: Clock, tally: Tally, seed: int
) -> None:
    """Log in and open a match, wait for every client to be ready, then play until time."""
    rng = random.Random(seed)
    ws_base = base.replace("http", "ws", 1)
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:

        async def post(path: str, body: dict[str, Any], **kw: Any) -> Any:
            """A POST that succeeds, tried again (and counted) when the server refuses it."""
            why = ""
            for _ in range(20):
                try:
                    reply = await http.post(path, json=body, **kw)
                except httpx.HTTPError as error:  # a busy server dropped the connection
                    why = repr(error)
                else:
                    if reply.is_success:
                        return reply.json()
                    why = f"{reply.status_code} {reply.text[:200]}"
                tally.errors += 1
                await asyncio.sleep(0.5)
            raise RuntimeError(f"{path}: {why}")

        async with clock.joining:  # a thousand logins at once exhaust the database's pool
            guest = await post("/api/guests", {"display_name": f"load{seed}"})
        headers = {"Authorization": f"Bearer {guest['token']}"}
        first = True
        while first or time.perf_counter() < clock.until:
            async with clock.joining if first else contextlib.nullcontext():
                info = await post("/api/matches/solo", {"game": game, "bots": bot}, headers=headers)
            async with websockets.connect(
                ws_base + info["socket"],
                additional_headers=headers,
                compression=None,
                open_timeout=OPEN_SECONDS,
            ) as ws:
                if first:
                    first = False
                    await clock.ready()
                await play_match(ws, info["seat"], rng, rate, clock, tally)


async def play_match(  # noqa: PLR0917 (a match and what it needs)
    ws: Any, seat: int, rng: random.Random, rate: float | None, clock: Clock, tally: Tally
) -> None:
    sent: tuple[float, int] | None = None
    async for raw in ws:
        frame = orjson.loads(raw)
        tally.messages += 1
        now = time.perf_counter()
        if frame["type"] == "error":
            tally.errors += 1
            sent = None
            await ws.send(json.dumps({"type": "resume", "since": 0}))
            continue
        if frame["type"] not in ("snapshot", "update"):
            continue
        if sent is not None and frame["version"] >= sent[1]:
            tally.latencies.append(now - sent[0])
            tally.sent_at.append(sent[0])
            sent = None
        if frame.get("outcome") is not None or now >= clock.until:
            tally.matches += frame.get("outcome") is not None
            return
        if sent is None and seat in frame["deciding"] and frame["legal"]:
            if rate is not None:
                await asyncio.sleep(rng.expovariate(rate))
                if time.perf_counter() >= clock.until:
                    # The window closed while this client thought. A round trip sent now
                    # would be timed while the other clients close their sockets (a
                    # thousand closes at once), which is not the load being measured.
                    return
            action = rng.choice(frame["legal"])["id"]
            message = {"type": "action", "action": action, "version": frame["version"]}
            sent = (time.perf_counter(), frame["version"] + 1)
            await ws.send(json.dumps(message))


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) of a process and its descendants (the bot workers)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / tick
        for task in Path(f"/proc/{pid}/task").iterdir():
            children = (task / "children").read_text().split()
            total += sum(cpu_seconds(int(child)) for child in children)
    except (OSError, IndexError, ValueError):
        pass
    return total


def load_average() -> float:
    return os.getloadavg()[0]


class Clock:
    """Starts the measured window once every client has logged in and connected, and takes
    the CPU time the server and the load clients spend in it."""

    def __init__(self, clients: int, seconds: float, server_pid: int) -> None:
        self.waiting = clients
        self.seconds = seconds
        self.until = float("inf")
        self.started = 0.0
        self.go = asyncio.Event()
        self.joining = asyncio.Semaphore(JOINING_AT_ONCE)
        self.server_pid = server_pid
        self.cpu_at_start = (0.0, 0.0)

    async def ready(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.started = time.perf_counter()
            self.until = self.started + self.seconds
            self.cpu_at_start = (cpu_seconds(self.server_pid), time.process_time())
            self.go.set()
        await self.go.wait()

    def cpu(self) -> dict[str, float]:
        """Cores busy over the window: the server (with its bot workers) and the clients."""
        elapsed = time.perf_counter() - self.started
        server = cpu_seconds(self.server_pid) - self.cpu_at_start[0]
        clients = time.process_time() - self.cpu_at_start[1]
        return {
            "server_cores": round(server / elapsed, 2),
            "client_cores": round(clients / elapsed, 2),
        }


async def echoer(url: str, rate: float | None, clock: Clock, tally: Tally, seed: int) -> None:
    rng = random.Random(seed)
    payload = json.dumps({"type": "action", "action": 1234, "version": 17, "pad": "x" * 160})
    async with websockets.connect(url, compression=None, open_timeout=OPEN_SECONDS) as ws:
        await clock.ready()
        while time.perf_counter() < clock.until:
            if rate is not None:
                await asyncio.sleep(rng.expovariate(rate))
                if time.perf_counter() >= clock.until:
                    break  # the window closed while this client thought: send nothing more
            start = time.perf_counter()
            await ws.send(payload)
            await ws.recv()
            tally.latencies.append(time.perf_counter() - start)
            tally.messages += 1


SERVERS = ("echo", "fastapi", "meeple")
"""A: the bare websockets echo; C: FastAPI validating each frame; the meeple server."""


async def run_load(args: argparse.Namespace) -> dict[str, Any]:
    """Set up the server's stores (with --workers: PostgreSQL and Redis), run, clean up."""
    database_url, redis_url, created = args.database_url, None, None
    if args.workers is not None:
        redis_url = args.redis_url or await free_redis_url()
        if database_url is None:
            created = await create_database()
            database_url = f"postgresql+asyncpg://postgres@127.0.0.1:5432/{created}"
    try:
        return await run_servers(args, database_url, redis_url)
    finally:
        if created is not None:
            await drop_database(created)


async def run_servers(
    args: argparse.Namespace, database_url: str | None, redis_url: str | None
) -> dict[str, Any]:
    data_dir = Path(tempfile.mkdtemp(prefix="meeple-load-"))
    port, echo_port, fastapi_port = free_port(), free_port(), free_port()
    env = {**os.environ, "MEEPLE_DATA_DIR": str(data_dir)}
    # Every load client is a guest from 127.0.0.1: the per-address guest limit would refuse
    # all but the first few dozen, the per-address connection cap all past 256, and the
    # per-address quotas (solo matches started, ...) all past a few dozen matches.
    env.update(MEEPLE_GUESTS_PER_MINUTE="1000000", MEEPLE_GUESTS_BURST="1000000")
    env.update(MEEPLE_MAX_CONNECTIONS_PER_ADDRESS="1000000", MEEPLE_PER_ADDRESS_FACTOR="1000000")
    command = [sys.executable, "-m", "meeple", "serve", "--port", str(port), "--bot-workers", "1"]
    if args.profile:
        command[1:3] = ["-c", PROFILED.format(out=str(args.profile))]
    if database_url:
        command += ["--database-url", database_url]
    if args.workers is not None:
        command += ["--workers", str(args.workers), "--redis-url", str(redis_url)]
    servers = [name for name in SERVERS if name in args.servers.split(",")]
    processes = {
        "meeple": subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL),
        "echo": subprocess.Popen([sys.executable, "-c", ECHO_SERVER, str(echo_port)]),
        "fastapi": subprocess.Popen([sys.executable, "-c", FASTAPI_ECHO, str(fastapi_port)]),
    }
    try:
        await wait_up(f"http://127.0.0.1:{port}/api/health")
        await asyncio.sleep(1.0)
        results: dict[str, Any] = {
            "clients": args.clients,
            "seconds": args.seconds,
            "rate": args.rate,
            "game": args.game,
            "bot": args.bot,
            "database": database_url or "sqlite (embedded)",
            "workers": args.workers,
            "redis": redis_url,
            "cores": os.cpu_count(),
            "load_average_before": round(load_average(), 2),
        }
        for name in servers:
            tally = Tally()
            clock = Clock(args.clients, args.seconds, processes[name].pid)
            if name == "meeple":
                base = f"http://127.0.0.1:{port}"
                jobs = [
                    player(base, args.game, args.bot, args.rate, clock, tally, i)
                    for i in range(args.clients)
                ]
            else:
                url = f"ws://127.0.0.1:{echo_port if name == 'echo' else fastapi_port}"
                jobs = [echoer(url, args.rate, clock, tally, i) for i in range(args.clients)]
            await asyncio.gather(*jobs)
            elapsed = time.perf_counter() - clock.started
            results[name] = tally.figures(elapsed)
            results[name].update(clock.cpu(), load_average=round(load_average(), 2))
            # What one round trip cost the server, a figure less shaken by other work on the
            # machine than the rates are (a busy machine leaves the server fewer cores).
            trips = results[name]["round_trips"] or 1
            cpu_ms = 1000 * results[name]["server_cores"] * elapsed / trips
            results[name]["server_cpu_ms_per_round_trip"] = round(cpu_ms, 3)
            if args.latencies is not None and name == "meeple":
                # One line a round trip: seconds into the window it was sent, its latency in ms.
                path = args.latencies.with_name(f"{args.latencies.stem}-{name}.csv")
                rows = sorted(zip(tally.sent_at, tally.latencies, strict=True))
                path.write_text(
                    "".join(f"{at - clock.started:.4f},{1000 * ms:.2f}\n" for at, ms in rows)
                )
        for name in ("echo", "fastapi"):
            if "meeple" in results and name in results:
                rate = results[name]["per_second"] or 1.0
                results[f"meeple_vs_{name}"] = round(results["meeple"]["per_second"] / rate, 3)
        return results
    finally:
        for process in processes.values():
            process.terminate()
        for process in processes.values():
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument(
        "--rate", type=float, default=None, help="actions a second per client (open loop)"
    )
    parser.add_argument("--game", default="maatatahay")
    parser.add_argument("--bot", default="random")
    parser.add_argument(
        "--database-url",
        default=None,
        help="the server's database (with --workers: a fresh PostgreSQL one, dropped after)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="meeple serve --workers N on PostgreSQL and Redis (1 too, to compare)",
    )
    parser.add_argument(
        "--redis-url",
        default=None,
        help="with --workers: default the machine's Redis on an empty database number",
    )
    parser.add_argument(
        "--servers",
        default="echo,meeple",
        help="which to load, in this order: echo (A, bare websockets), fastapi (C), meeple",
    )
    parser.add_argument(
        "--profile", type=Path, default=None, help="run the server under cProfile, write here"
    )
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    parser.add_argument(
        "--latencies",
        type=Path,
        default=None,
        help="write each meeple round trip (its send in the window, s; its latency, ms) as CSV",
    )
    args = parser.parse_args()
    if args.workers is not None and args.workers < 1:
        parser.error("--workers takes 1 or more")
    if args.workers is not None and args.profile is not None:
        parser.error("--profile runs one process: leave out --workers")
    results = asyncio.run(run_load(args))
    print(json.dumps(results, indent=2))
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
