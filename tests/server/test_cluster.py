"""Many workers on the real PostgreSQL and Redis: separate `meeple serve` processes made one
server by ``--redis-url``, each on a port of its own so a test chooses the worker each client
reaches, and ``meeple serve --workers 2`` sharing one port.

Each test has a fresh database (its matches must not be claimed by another test's workers).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from websockets.exceptions import ConnectionClosed

import meeple.games  # noqa: F401
from meeple.core import load_game
from meeple.server.cluster.workers import HELD_LOCKS, held_key, lock_key
from meeple.server.live.master import MatchMaster
from meeple.server.store.match_store import MemoryMatchStore, SeatHolder, StoredMatch
from tests.server.conftest import ROOT, Client, Server, Socket, free_port, run_pg
from tests.server.test_ranked import member

REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture(scope="module")
def database(postgres_database: str) -> Iterator[str]:
    """A fresh PostgreSQL database for these tests (``postgres_database`` starts the
    cluster): the other tests' server must not share its matches with these workers."""
    name = f"meeple_cluster_{uuid.uuid4().hex[:12]}"
    run_pg(f'CREATE DATABASE "{name}" TEMPLATE template0')
    try:
        yield f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"
    finally:
        run_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def workers(database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    """Two workers of one server, started together on a fresh database; a test that kills
    one starts it again before it ends."""
    env = {"MEEPLE_REDIS_URL": REDIS_URL, "MEEPLE_CLAIM_SECONDS": "0.2"}
    data = tmp_path_factory.mktemp("cluster")
    started = [Server(database, data, env=env, start_seconds=120) for _ in range(2)]
    try:
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(Server.start, started))
        yield started
    finally:
        for server in started:
            server.stop()


def _rows(database: str, statement: str, *args: Any) -> list[asyncpg.Record]:
    async def fetch() -> list[asyncpg.Record]:
        connection = await asyncpg.connect(database.replace("+asyncpg", ""), timeout=5)
        try:
            return list(await connection.fetch(statement, *args))
        finally:
            await connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, fetch()).result()


def _stored(database: str, match_id: str) -> list[tuple[int, int, int]]:
    """The stored actions of a match: (number, seat, action), in order."""
    rows = _rows(
        database,
        "SELECT number, seat, action FROM match_actions WHERE match_id = $1 ORDER BY number",
        match_id,
    )
    return [(row["number"], row["seat"], row["action"]) for row in rows]


def _state(socket: Socket) -> dict[str, Any]:
    return next(f for f in reversed(socket.frames) if f["type"] in ("snapshot", "update"))


def test_a_lock_key_is_read_back_from_pg_locks(database: str) -> None:
    """How a worker sees which matches are mastered: every key it locks, of either sign,
    comes back from ``pg_locks`` as the same key."""
    names = [f"match-{n}" for n in range(40)]
    keys = [lock_key(name) for name in names]
    assert min(keys) < 0 < max(keys)

    async def held() -> set[int]:
        connection = await asyncpg.connect(database.replace("+asyncpg", ""), timeout=5)
        try:
            for key in keys:
                await connection.execute("SELECT pg_advisory_lock($1)", key)
            rows = await connection.fetch(HELD_LOCKS.text)
            return {held_key(row["classid"], row["objid"]) for row in rows}
        finally:
            await connection.close()

    with ThreadPoolExecutor(1) as pool:
        assert set(keys) <= pool.submit(asyncio.run, held()).result()


def _drain(socket: Socket) -> None:
    """Take in every frame already received (none waited for)."""
    with contextlib.suppress(TimeoutError):
        while True:
            socket.recv(timeout=0)


def _act(sockets: dict[int, Socket], rng: random.Random) -> tuple[int, int, int]:
    """One action by whichever seat decides, on its own socket: (acked version, seat,
    action). A refusal (a timer or a bot moved first) means looking again."""
    for _ in range(400):
        for seat, socket in sockets.items():
            _drain(socket)
            state = _state(socket)
            if seat not in state["deciding"] or not state["legal"] or state["outcome"]:
                continue
            choice = rng.choice(state["legal"])["id"]
            socket.send({"type": "action", "action": choice, "version": state["version"]})
            while True:
                frame = socket.recv()
                if frame.get("ack") is not None:  # the update answering this action
                    return frame["version"], seat, choice
                if frame["type"] == "error":
                    assert frame["code"] == "version/stale", frame
                    break
        # Nobody can act yet: wait for the next frame (a bot's move, the timer).
        with contextlib.suppress(TimeoutError):
            next(iter(sockets.values())).recv(timeout=0.1)
    raise AssertionError(f"no seat got to act; what each socket last saw: {_last_seen(sockets)}")


def _last_seen(sockets: dict[int, Socket]) -> dict[int, dict[str, Any]]:
    """Per seat: the newest position its socket holds (version, deciding, how many legal
    actions, outcome), its frames' kinds in order, and its last error, for a failure's text."""
    seen: dict[int, dict[str, Any]] = {}
    for seat, socket in sockets.items():
        state = _state(socket)
        errors = [f for f in socket.frames if f["type"] == "error"]
        seen[seat] = {
            "version": state.get("version"),
            "deciding": state.get("deciding"),
            "legal": len(state.get("legal") or []),
            "outcome": state.get("outcome"),
            "frames": [f["type"] for f in socket.frames][-12:],
            "error": errors[-1] if errors else None,
        }
    return seen


def _until_version(socket: Socket, version: int) -> dict[str, Any]:
    """The first snapshot or update at ``version`` or later (polls the socket, no sleep):
    the last one received already, when it is (the update carrying an ack is read there)."""
    state = _state(socket)
    if state["version"] >= version:
        return state
    while True:
        frame = socket.recv()
        if frame["type"] in ("snapshot", "update") and frame["version"] >= version:
            return frame


def _room(host: Client, guest: Client, game: str, timer: int | None) -> str:
    room = host.post("/api/rooms", json={"game": game, "timer": timer}).json()
    assert guest.post("/api/rooms/join", json={"code": room["code"]}).status_code == 200
    assert guest.post(f"/api/rooms/{room['id']}/ready", json={}).status_code == 200
    started = host.post(f"/api/rooms/{room['id']}/start")
    assert started.status_code == 200, started.text
    match_id: str = room["id"]
    return match_id


def test_clients_on_different_workers_play_one_match_each_seeing_its_own_view(
    workers: list[Server], database: str
) -> None:
    a, b = workers
    host, guest = Client(a).guest("Host"), Client(b).guest("Guest")
    match_id = _room(host, guest, "maiterra", None)  # mastered by worker a
    # Seat 0 plays through worker b, seat 1 through worker a, a spectator watches on b.
    seat0 = Client(b)
    seat0.token = host.token
    seat1 = Client(a)
    seat1.token = guest.token
    rng = random.Random(5)
    with (
        seat0.socket(match_id) as first,
        seat1.socket(match_id) as second,
        Client(b).socket(match_id, "?watch=true") as watcher,
    ):
        assert first.recv()["seat"] == 0 and second.recv()["seat"] == 1
        assert watcher.recv()["seat"] is None
        acked: dict[tuple[int, int], int] = {}  # (seat, its version): the action acked
        for _ in range(12):
            version, seat, action = _act({0: first, 1: second}, rng)
            acked[seat, version] = action
        stored = _stored(database, match_id)
        (match,) = _rows(database, "SELECT seed, options FROM matches WHERE id = $1", match_id)
        game = load_game("maiterra", seats=2, options=json.loads(match["options"]))
        # Each audience's versions count what it could see: the master's count, replayed.
        replayed = MatchMaster(
            StoredMatch(
                "m", game.id, 2, dict(game.options), match["seed"], "custom",
                [SeatHolder(s, f"seat {s}") for s in range(2)],
                actions=[(seat, action) for _, seat, action in stored],
            ),
            MemoryMatchStore(),
            None,
        )  # fmt: skip
        number = {
            holder: {0: 0} | {a.seen[i]: a.number for a in replayed.applied if a.changed[i]}
            for i, holder in enumerate([0, 1, None])
        }
        last = max(number[seat][version] for seat, version in acked)
        frames = {0: first, 1: second, None: watcher}
        for holder, socket in frames.items():
            _until_version(socket, replayed.applied[last - 1].seen[2 if holder is None else holder])
    assert [n for n, _, _ in stored] == list(range(1, len(stored) + 1))
    for (seat, version), action in acked.items():
        at = number[seat][version]
        assert stored[at - 1] == (at, seat, action)
    # Every frame a seat got holds that seat's view of the match at that version, no more.
    states = [game.new_initial_state(match["seed"])]
    for _, seat, action in stored:
        states.append(states[-1].clone())
        states[-1].apply(seat, action)
    for holder, socket in frames.items():
        seen = [f for f in socket.frames if f["type"] in ("snapshot", "update")]
        assert len(seen) > 1
        for frame in seen:
            at = number[holder][frame["version"]]
            assert frame["view"] == states[at].view(holder), (holder, frame)


def test_a_worker_that_lost_its_lease_connection_leaves_one_master(
    workers: list[Server], database: str
) -> None:
    """PostgreSQL ends the lease connection of the worker mastering a match: one master
    goes on (the worker takes its lock back, or the other claims the match) and a client on
    the other worker still plays."""
    a, b = workers
    host = Client(a).guest("Lease")
    match = host.solo(game="maatatahay", seat=0, bots="random", seed=3)
    held = (
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
        "AND ((classid::bigint << 32) | objid::bigint) = $1"
    )
    (lease,) = _rows(database, held, lock_key(match["id"]))
    _rows(database, "SELECT pg_terminate_backend($1)", lease["pid"])
    player = Client(b)
    player.token = host.token
    with player.socket(match["id"]) as socket:
        socket.recv()
        for _ in range(3):
            _act({0: socket}, random.Random(2))
    owners: list[asyncpg.Record] = []
    for _ in range(100):  # polled: the lock is held again within a few claim periods
        owners = _rows(database, held, lock_key(match["id"]))
        if owners:
            break
        _rows(database, "SELECT pg_sleep(0.05)")
    assert len(owners) == 1 and owners[0]["pid"] != lease["pid"]
    stored = _stored(database, match["id"])
    assert [number for number, _, _ in stored] == list(range(1, len(stored) + 1))


def test_a_room_is_joined_through_a_worker_the_moment_its_lease_connection_drops(
    workers: list[Server], database: str
) -> None:
    """A room's seats change under a lock taken on the worker's lease connection: with that
    connection just ended by PostgreSQL, joining through the worker still works (the lease
    is connected again first) and the worker's log holds no traceback of it."""
    a, _ = workers
    host, guest = Client(a).guest("Host"), Client(a).guest("Guest")
    room = host.post("/api/rooms", json={"game": "maatatahay", "timer": None}).json()
    worker_lock = (
        "SELECT l.pid FROM pg_locks l JOIN pg_stat_activity s ON s.pid = l.pid "
        "WHERE l.locktype = 'advisory' AND l.granted AND s.datname = current_database()"
    )
    pids = {row["pid"] for row in _rows(database, worker_lock)}
    log = a.data_dir / f"server-{a.port}.log"
    before = len(log.read_text(errors="replace"))
    for pid in pids:  # every worker's lease connection: a's is among them
        _rows(database, "SELECT pg_terminate_backend($1)", pid)
    joined = guest.post("/api/rooms/join", json={"code": room["code"]})
    assert joined.status_code == 200, joined.text
    time.sleep(0.5)  # a claim period or two: the claim loop finds its lease renewed
    assert "Traceback" not in log.read_text(errors="replace")[before:]


def _timed_match(workers: list[Server]) -> tuple[str, Socket, Socket, Client, Client]:
    """A timed Maatatahay room mastered by worker a: seat 0 on worker b, seat 1 on worker a."""
    a, b = workers
    host, guest = Client(a).guest("Host"), Client(a).guest("Guest")
    match_id = _room(host, guest, "maatatahay", 60)
    seat0 = Client(b)
    seat0.token = host.token
    first, second = seat0.socket(match_id), guest.socket(match_id)
    first.recv()
    second.recv()
    return match_id, first, second, host, guest


def _play_until_killed(
    first: Socket, second: Socket, rng: random.Random, kill: Any
) -> dict[int, tuple[int, int]]:
    """Four actions, then ``kill`` the moment the last is acknowledged (a fresh deadline
    runs: it falls after the kill)."""
    acked: dict[int, tuple[int, int]] = {}
    for _ in range(4):
        version, seat, action = _act({0: first, 1: second}, rng)
        acked[version] = (seat, action)
    kill()
    return acked


def _goes_on(
    database: str, match_id: str, acked: dict[int, tuple[int, int]], socket: Socket
) -> None:
    """The timer rang without anyone acting; every acknowledged action is stored once."""
    last = max(acked)
    frame = _until_version(socket, last + 1)
    stored = _stored(database, match_id)
    assert [number for number, _, _ in stored] == list(range(1, len(stored) + 1))
    assert len(stored) >= frame["version"]
    for version, (seat, action) in acked.items():
        assert stored[version - 1] == (version, seat, action)
    # The versions a client saw after the kill rise one by one: no action was stored twice.
    after = [f["version"] for f in socket.frames if f["type"] == "update" and f["version"] > last]
    assert after == sorted(set(after))


def test_a_killed_workers_timed_match_is_claimed_and_its_timer_rings(
    workers: list[Server], database: str
) -> None:
    a, b = workers
    match_id, first, second, _, guest = _timed_match(workers)
    rng = random.Random(3)
    with first:
        acked = _play_until_killed(first, second, rng, a.kill)
        with contextlib.suppress(Exception):
            second.close()
        # Worker b claims the match; seat 0's connection on b is sent again, to b itself.
        _goes_on(database, match_id, acked, first)
        # Seat 1 reconnects on worker b and both go on.
        again = Client(b)
        again.token = guest.token
        with again.socket(match_id, f"?since={max(acked)}") as second:
            snap = second.recv()
            assert snap["type"] == "snapshot" and snap["version"] >= max(acked)
            assert [m["version"] for m in snap["missed"]] == list(
                range(max(acked) + 1, snap["version"] + 1)
            )
            for _ in range(2):
                _act({0: first, 1: second}, rng)
    a.restart()


def _all_stored(database: str, match_id: str, acked: dict[int, tuple[int, int]]) -> None:
    """Every acknowledged action is stored, once, under its version; nothing is missing."""
    stored = _stored(database, match_id)
    assert [number for number, _, _ in stored] == list(range(1, len(stored) + 1)), match_id
    for version, (seat, action) in acked.items():
        assert stored[version - 1] == (version, seat, action), (match_id, version)


def test_the_whole_server_killed_and_restarted_goes_on(
    workers: list[Server], database: str
) -> None:
    match_id, first, second, host, guest = _timed_match(workers)
    rng = random.Random(4)

    def kill_all() -> None:
        for server in workers:
            server.kill()

    acked = _play_until_killed(first, second, rng, kill_all)
    for socket in (first, second):
        with contextlib.suppress(Exception):
            socket.close()
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(Server.restart, workers))
    a, b = workers
    host_again, guest_again = Client(b), Client(a)
    host_again.token, guest_again.token = host.token, guest.token
    with (
        host_again.socket(match_id, f"?since={max(acked)}") as first,
        guest_again.socket(match_id, f"?since={max(acked)}") as second,
    ):
        first.recv()
        second.recv()
        _goes_on(database, match_id, acked, first)
        for _ in range(2):
            _act({0: first, 1: second}, rng)


@pytest.mark.slow  # starts its own workers
def test_serve_workers_shares_one_port_and_refuses_without_postgres_and_redis(
    database: str, tmp_path: Path
) -> None:
    refused = subprocess.run(
        [sys.executable, "-m", "meeple", "serve", "--workers", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert refused.returncode != 0 and "--redis-url" in refused.stderr
    port = free_port()
    command = [sys.executable, "-m", "meeple", "serve", "--workers", "2", "--port", str(port)]
    command += ["--database-url", database, "--redis-url", REDIS_URL, "--bot-workers", "0"]
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        server = Server(database, tmp_path, port=port)
        for _ in range(300):
            assert process.poll() is None
            try:
                if httpx.get(f"{server.base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        client = Client(server).guest("Two")
        match = client.solo(game="maatatahay", seat=0, bots="random", seed=2)
        with client.socket(match["id"]) as socket:
            assert socket.recv()["type"] == "snapshot"
            _act({0: socket}, random.Random(1))
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


LOCK_HOLDER = (
    "SELECT a.client_port FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
    "WHERE l.locktype = 'advisory' AND l.granted "
    "AND ((l.classid::bigint << 32) | l.objid::bigint) = $1"
)


def _socket_inodes(pid: int) -> set[str]:
    found = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = fd.readlink().name
            if target.startswith("socket:["):
                found.add(target[len("socket:[") : -1])
    return found


def _inode_of_port(port: int) -> set[str]:
    """The inodes of this machine's TCP sockets bound to local ``port``."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port:
                found.add(fields[9])
    return found


def _master_of(workers: list[Server], database: str, match_id: str) -> Server:
    """The worker mastering a match: the one whose lease connection holds the match's lock
    (its client port found among the worker processes' sockets). Polled: a claim may be
    on its way."""
    for _ in range(200):
        rows = _rows(database, LOCK_HOLDER, lock_key(match_id))
        if rows:
            inodes = _inode_of_port(rows[0]["client_port"])
            for server in workers:
                assert server.process is not None
                if inodes & _socket_inodes(server.process.pid):
                    return server
        time.sleep(0.05)
    raise AssertionError(f"no worker masters {match_id}")


def _ranked_status(client: Client, wanted: str) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for _ in range(100):
        found = client.get("/api/ranked/queue").json()
        if found["status"] == wanted:
            return found
        time.sleep(0.1)
    raise AssertionError(f"not {wanted}: {found}")


def _play_to_the_end(sockets: dict[int, Socket], rng: random.Random) -> dict[str, Any]:
    """Both seats act in turn until the match is over; its outcome."""
    for _ in range(2000):
        for socket in sockets.values():
            _drain(socket)
        outcome = next(iter(sockets.values()))
        if _state(outcome)["outcome"]:
            result: dict[str, Any] = _state(outcome)["outcome"]
            return result
        with contextlib.suppress(AssertionError):
            _act(sockets, rng)
    raise AssertionError("the match did not end")


def test_ranked_players_on_two_workers_meet_and_their_match_is_rated_once_after_a_failover(
    workers: list[Server], database: str
) -> None:
    """Two people queue on different workers and are paired (the queue is the database's);
    the one who queued first learns it from the other worker. The worker mastering their
    match is killed mid-match; the other takes it over, watches it and rates it once."""
    a, b = workers
    one, two = member(a, "Queue A"), member(b, "Queue B")  # ranked is for accounts
    body = {"game": "maatatahay", "seats": 2}
    assert one.post("/api/ranked/queue", json=body).json()["status"] == "queued"
    assert two.post("/api/ranked/queue", json=body).json()["status"] == "matched"
    mine, theirs = _ranked_status(one, "matched"), _ranked_status(two, "matched")
    match_id = mine["match"]
    assert theirs["match"] == match_id and {mine["seat"], theirs["seat"]} == {0, 1}
    master = _master_of(workers, database, match_id)
    other = b if master is a else a
    seats = {}
    for client, ticket in ((one, mine), (two, theirs)):
        on_other = Client(other)
        on_other.token = client.token
        seats[ticket["seat"]] = on_other.socket(match_id)
    try:
        for socket in seats.values():
            socket.recv()
        rng = random.Random(7)
        for _ in range(3):
            _act(seats, rng)
        master.kill()
        assert _master_of(workers, database, match_id) is other
        outcome = _play_to_the_end(seats, rng)
    finally:
        for socket in seats.values():
            with contextlib.suppress(Exception):
                socket.close()
    history = "SELECT account_id, place FROM rating_history WHERE match_id = $1"
    rows: list[asyncpg.Record] = []
    for _ in range(100):
        rows = _rows(database, history, match_id)
        if len(rows) == 2:
            break
        time.sleep(0.1)
    places = {row["account_id"]: row["place"] for row in rows}
    assert one.account is not None and two.account is not None
    winners = {int(seat) for seat in outcome["winners"]}
    for client, ticket in ((one, mine), (two, theirs)):
        assert client.account is not None
        expected = 1 if not winners or ticket["seat"] in winners else 2
        assert places[client.account["id"]] == expected
    games = "SELECT games FROM ratings WHERE account_id = ANY($1::int[])"
    ids = [one.account["id"], two.account["id"]]
    assert [row["games"] for row in _rows(database, games, ids)] == [1, 1]
    assert "Traceback" not in other.log()
    master.restart()


def test_a_room_changed_on_one_worker_reaches_its_watchers_on_the_other(
    workers: list[Server],
) -> None:
    """A room's watcher on worker b hears every change made through worker a: a seat taken,
    ready, bots seated, the match started."""
    a, b = workers
    host, guest = Client(a).guest("Room Host"), Client(a).guest("Room Guest")
    room = host.post("/api/rooms", json={"game": "maiterra", "seats": 3, "timer": 60}).json()
    watcher = Client(b)
    watcher.token = guest.token
    with watcher.socket(room["id"], path="rooms") as watching:
        assert watching.recv()["status"] == "waiting"
        assert guest.post(f"/api/rooms/{room['id']}/join", json={}).status_code == 200
        assert guest.account is not None
        assert watching.recv()["players"][1]["account"] == guest.account["id"]
        assert guest.post(f"/api/rooms/{room['id']}/ready", json={}).status_code == 200
        assert watching.recv()["players"][1]["ready"] is True
        assert host.post(f"/api/rooms/{room['id']}/bots", json={}).status_code == 200
        assert watching.recv()["players"][2]["bot"] == "heuristic"
        assert host.post(f"/api/rooms/{room['id']}/start").status_code == 200
        started = watching.recv()
        assert started["status"] == "playing" and started["socket"] == f"/ws/matches/{room['id']}"


@pytest.mark.slow  # starts its own workers
def test_a_dead_workers_matches_are_shared_out_among_the_others(
    postgres_database: str, tmp_path: Path
) -> None:
    """A third worker masters twelve matches and is killed: the two left share them out
    (each claims those hashing nearest to it, up to its fair share), neither takes all.

    A database and two workers of its own: the module's workers master whatever matches
    the earlier tests left being played, and the fair share counts every match being
    played, so a worker holding many of those would rightly take few of the twelve."""
    name = f"meeple_share_{uuid.uuid4().hex[:12]}"
    run_pg(f'CREATE DATABASE "{name}" TEMPLATE template0')
    database = f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"
    env = {"MEEPLE_REDIS_URL": REDIS_URL, "MEEPLE_CLAIM_SECONDS": "0.2"}
    servers = []
    for part in ("a", "b", "third"):
        (tmp_path / part).mkdir()
        servers.append(Server(database, tmp_path / part, env=env, start_seconds=120))
    a, b, third = servers
    try:
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(Server.start, [a, b]))
        third.start()
        try:
            player = Client(third).guest("Many Matches")
            made = [
                player.solo(game="maatatahay", seat=0, bots="random", seed=n)["id"]
                for n in range(12)
            ]
            assert all(_master_of([third], database, m) is third for m in made)
        finally:
            third.kill()
        masters = [_master_of([a, b], database, m) for m in made]
        count = {server.port: sum(m is server for m in masters) for server in (a, b)}
        assert sum(count.values()) == 12 and min(count.values()) >= 3, count
        for match_id in made[:2]:  # and they are played on
            client = Client(b)
            client.token = player.token
            with client.socket(match_id) as socket:
                assert socket.recv()["type"] == "snapshot"
                _act({0: socket}, random.Random(3))
    finally:
        for server in (a, b):
            server.stop()
        run_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.slow  # starts its own workers
def test_rate_limits_are_counted_across_the_workers(postgres_database: str, tmp_path: Path) -> None:
    """Three guests at once from one address (and one more a minute) between two workers
    of one server: the fourth guest is refused whichever worker it asks, since the buckets
    are kept in Redis for both (counted apart, each worker would give three). A database
    and workers of their own, with that low limit."""
    name = f"meeple_limits_{uuid.uuid4().hex[:12]}"
    run_pg(f'CREATE DATABASE "{name}" TEMPLATE template0')
    database = f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"
    env = {
        "MEEPLE_REDIS_URL": REDIS_URL,
        "MEEPLE_CLAIM_SECONDS": "0.2",
        "MEEPLE_GUESTS_BURST": "3",
        "MEEPLE_GUESTS_PER_MINUTE": "1",
    }
    servers = []
    for part in ("a", "b"):
        (tmp_path / part).mkdir()
        servers.append(Server(database, tmp_path / part, env=env, start_seconds=120))
    a, b = servers
    try:
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(Server.start, servers))
        answers = []
        for server in (a, b, a, b, a):
            with httpx.Client(base_url=server.base, timeout=30) as http:
                answers.append(http.post("/api/guests", json={"display_name": "Many"}))
        assert [r.status_code for r in answers] == [201, 201, 201, 429, 429], [
            r.text for r in answers
        ]
        refused = answers[3]
        assert refused.json()["detail"]["code"] == "rate/limited"
        assert int(refused.headers["Retry-After"]) >= 1
    finally:
        for server in servers:
            server.stop()
        run_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_match_that_does_not_replay_is_logged_once_and_never_held(
    workers: list[Server], database: str
) -> None:
    """A stored match the engine refuses to rebuild (its options broken behind the server's
    back) and whose worker died: the worker left tries it once, logs it once, lets its lock
    go and claims it no more; a socket to it is closed as unknown."""
    a, b = workers
    player = Client(a).guest("Broken")
    match_id = player.solo(game="maatatahay", seat=0, bots="random", seed=5)["id"]
    master = _master_of(workers, database, match_id)
    other = b if master is a else a
    broken = json.dumps({"no_such_option": True})
    _rows(database, "UPDATE matches SET options = $2::json WHERE id = $1", match_id, broken)
    master.kill()
    line = f"match {match_id} does not replay"
    log = other.data_dir / f"server-{other.port}.log"
    for _ in range(200):
        if line in log.read_text(errors="replace"):
            break
        time.sleep(0.05)
    watcher = Client(other)
    watcher.token = player.token
    with watcher.socket(match_id) as socket, pytest.raises(ConnectionClosed) as closed:
        socket.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    time.sleep(10 * 0.2)  # ten claim periods: it is not tried again
    assert not _rows(database, LOCK_HOLDER, lock_key(match_id))
    assert log.read_text(errors="replace").count(line) == 1
    master.restart()


def test_two_people_taking_a_rooms_last_seat_through_two_workers_do_not_both_get_it(
    workers: list[Server],
) -> None:
    """The last open seat asked for at the same moment through each worker: one gets it,
    the other is told the room is full, five rooms over."""
    a, b = workers
    host = Client(a).guest("Seat Host")
    for round_ in range(5):
        room = host.post("/api/rooms", json={"game": "maatatahay", "timer": 60}).json()
        takers = [Client(a).guest(f"Taker A{round_}"), Client(b).guest(f"Taker B{round_}")]
        barrier = threading.Barrier(2)

        def take(
            client: Client, code: str = room["code"], barrier: threading.Barrier = barrier
        ) -> int:
            barrier.wait()
            return client.post("/api/rooms/join", json={"code": code}).status_code

        with ThreadPoolExecutor(2) as pool:
            answers = sorted(pool.map(take, takers))
        assert answers == [200, 409], answers
        seated = Client(a).get(f"/api/rooms/{room['id']}").json()["players"][1]["account"]
        assert seated in {t.account["id"] for t in takers if t.account is not None}


def test_a_rematch_asked_for_through_two_workers_at_once_is_one_room(
    workers: list[Server], database: str
) -> None:
    """Both players of a finished match ask for a rematch at the same moment, one through
    each worker: both get the same new room."""
    a, b = workers
    host, guest = Client(a).guest("Again Host"), Client(a).guest("Again Guest")
    match_id = _room(host, guest, "maatatahay", None)
    # Finished behind the server's back: the rematch reads only the stored status.
    _rows(database, "UPDATE matches SET status = 'over' WHERE id = $1", match_id)
    through_b = Client(b)
    through_b.token = guest.token
    barrier = threading.Barrier(2)

    def ask(client: Client) -> dict[str, Any]:
        barrier.wait()
        reply = client.post(f"/api/rooms/rematch/{match_id}")
        assert reply.status_code == 201, reply.text
        room: dict[str, Any] = reply.json()
        return room

    with ThreadPoolExecutor(2) as pool:
        first, second = pool.map(ask, [host, through_b])
    assert first["id"] == second["id"] and first["status"] == "waiting"
    rows = _rows(database, "SELECT rematch_id FROM rematches WHERE match_id = $1", match_id)
    assert [row["rematch_id"] for row in rows] == [first["id"]]


def test_sockets_left_open_on_the_live_worker_hear_the_new_masters_of_a_dead_ones_matches(
    workers: list[Server], database: str
) -> None:
    """Worker a masters three matches, each with a seat whose socket is on worker b (its
    frames forwarded to a); a is SIGKILLed: every one of those sockets, left open, gets a
    snapshot from its match's new master on b within a few seconds, and plays on."""
    a, b = workers
    rng = random.Random(12)
    open_on_b = []
    try:
        for game in ("maatatahay", "manafields", "maatatahay"):
            host, guest = Client(a).guest("Host"), Client(a).guest("Guest")
            match_id = _room(host, guest, game, None)
            on_b = Client(b)
            on_b.token = host.token
            socket = on_b.socket(match_id)
            assert socket.recv()["type"] == "snapshot"
            open_on_b.append(socket)
        a.kill()
        for socket in open_on_b:
            frame = socket.recv(timeout=15)
            while frame["type"] != "snapshot":
                frame = socket.recv(timeout=15)
            assert frame["version"] == 0
            if 0 in frame["deciding"]:  # and its seat plays on through the new master
                _act({0: socket}, rng)
    finally:
        for socket in open_on_b:
            with contextlib.suppress(Exception):
                socket.close()
        a.restart()


def _space(database: str) -> str:
    """The Redis channel space of the server on ``database`` (as each worker names it)."""
    from sqlalchemy.ext.asyncio import create_async_engine  # noqa: PLC0415

    from meeple.server.cluster.workers import channel_space  # noqa: PLC0415

    engine = create_async_engine(database)
    try:
        return channel_space(engine)
    finally:
        asyncio.run(engine.dispose())


def test_a_worker_whose_redis_subscription_drops_sends_its_forwarded_sockets_again(
    workers: list[Server], database: str
) -> None:
    """Redis ends every worker's subscription connection (`CLIENT KILL`, as a Redis restart
    or a network cut would): redis-py connects and subscribes again, but what was published
    meanwhile is lost. Each worker then sends again the sockets it forwards, so a seat
    whose socket is on worker b, its match mastered on a, gets a fresh snapshot of the
    match by itself, and both seats play on."""
    import redis  # noqa: PLC0415

    a, b = workers
    rng = random.Random(13)
    host, guest = Client(a).guest("Host"), Client(a).guest("Guest")
    match_id = _room(host, guest, "maatatahay", None)  # mastered by a
    on_b = Client(b)
    on_b.token = host.token
    with on_b.socket(match_id) as first, guest.socket(match_id) as second:
        assert first.recv()["type"] == "snapshot" and second.recv()["type"] == "snapshot"
        _act({0: first, 1: second}, rng)
        _drain(first)
        client = redis.Redis.from_url(REDIS_URL, decode_responses=True)
        prefix = _space(database) + "worker:"
        killed = 0
        for entry in client.client_list(_type="pubsub"):
            if entry.get("name", "").startswith(prefix):
                client.client_kill_filter(_id=entry["id"])
                killed += 1
        client.close()
        assert killed == 2  # one subscription connection a worker
        frame = first.recv(timeout=10)
        while frame["type"] != "snapshot":
            frame = first.recv(timeout=10)
        assert frame["version"] >= 1
        for _ in range(2):
            _act({0: first, 1: second}, rng)


def test_a_master_answers_a_forwarded_frame_from_a_socket_it_never_heard_attach(
    workers: list[Server], database: str
) -> None:
    """A frame forwarded from a socket whose attach the master never got (sent to the
    match's previous master, or lost in a Redis drop) is not dropped without a word: the
    master attaches the socket, sending its seat's snapshot, then answers the frame. Driven
    through the real Redis as another worker would, with a worker id of the test's own."""
    import redis  # noqa: PLC0415

    a, _ = workers
    host, guest = Client(a).guest("Host"), Client(a).guest("Guest")
    match_id = _room(host, guest, "maatatahay", None)
    space = _space(database)
    client = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    listener = client.pubsub()
    try:
        listener.subscribe(space + "worker:tester")
        assert listener.get_message(timeout=5)["type"] == "subscribe"
        action = {"type": "action", "action": 0, "version": 99, "ref": "r1"}
        message = {"k": "frame", "w": "tester", "c": "c1", "s": 0, "t": json.dumps(action)}
        client.publish(space + "match:" + match_id, json.dumps(message))
        frames = []
        deadline = time.monotonic() + 10
        while len(frames) < 2 and time.monotonic() < deadline:
            got = listener.get_message(timeout=1)
            if got is not None and got["type"] == "message":
                connection_id, _, text = got["data"].partition(" ")
                assert connection_id == "c1"
                frames.append(json.loads(text))
        assert [f["type"] for f in frames] == ["snapshot", "error"], frames
        assert frames[0]["seat"] == 0 and frames[0]["version"] == 0
        assert frames[1]["code"] == "version/stale" and frames[1]["ref"] == "r1"
        detach = {"k": "detach", "w": "tester", "c": "c1"}
        client.publish(space + "match:" + match_id, json.dumps(detach))
    finally:
        listener.close()
        client.close()


def test_a_forwarded_socket_is_marked_unanswered_while_its_match_has_no_master(
    workers: list[Server], database: str
) -> None:
    """The claim loop's look at the matches nobody masters marks this worker's sockets
    to them unanswered, so they are sent again until a new master answers even when its
    ``claimed`` notice never arrives (in-process, on the real PostgreSQL: the look is given
    an empty set of held locks, as after the master's worker died)."""
    from sqlalchemy.ext.asyncio import create_async_engine  # noqa: PLC0415

    from meeple.server.cluster.workers import Cluster, _Local  # noqa: PLC0415

    a, _ = workers
    host, guest = Client(a).guest("Host"), Client(a).guest("Guest")
    match_id = _room(host, guest, "maatatahay", None)

    async def look() -> tuple[bool, bool, list[str]]:
        engine = create_async_engine(database)
        cluster = Cluster(engine, REDIS_URL, 0.2)
        await cluster._open_lease()
        try:
            to_it = _Local(object(), match_id, None, time.monotonic(), answered=True)  # type: ignore[arg-type]
            elsewhere = _Local(object(), "no-such-match", None, time.monotonic(), answered=True)  # type: ignore[arg-type]
            cluster._locals = {"one": to_it, "two": elsewhere}
            orphans, _ = await cluster._orphans(await cluster._held())
            assert match_id not in orphans and to_it.answered  # a holds its lock
            orphans, _ = await cluster._orphans(set())
            return to_it.answered, elsewhere.answered, orphans
        finally:
            await cluster.close()
            await engine.dispose()

    with ThreadPoolExecutor(1) as pool:
        to_it, elsewhere, orphans = pool.submit(asyncio.run, look()).result()
    assert match_id in orphans
    assert not to_it and elsewhere


def test_a_claim_loop_finding_a_match_a_lookup_just_mastered_keeps_that_master(
    workers: list[Server], database: str, tmp_path: Path
) -> None:
    """The claim loop takes the orphans it saw at the start of its look; a socket's lookup
    may claim and master one of them before the loop reaches it. The loop then keeps that
    master (up to date, its sockets attached) instead of building the match again and
    closing it, which left those sockets on a closed master, each seat seeing a position
    the other had left (in-process, on the real PostgreSQL and Redis; the claim loop itself
    is held off)."""
    from meeple.server.services import Services  # noqa: PLC0415
    from meeple.server.settings import Settings  # noqa: PLC0415

    a, _ = workers
    token = Client(a).guest("Lookup").token

    async def race() -> tuple[bool, bool, bool, int]:
        settings = Settings(
            database_url=database, redis_url=REDIS_URL, claim_seconds=60, data_dir=tmp_path
        )
        services = await Services.open(settings)
        try:
            account = await services.account_for(token)
            assert account is not None
            master = await services.matches.create_solo(account, "maatatahay", bots="random")
            cluster = services.matches.cluster
            assert cluster is not None
            claimed = await cluster.claim(master.id)
            await services.matches.take(master.id)  # as the claim loop would, a moment late
            kept = services.matches.mastered(master.id)
            # The lookup and the loop claiming at once take the lock once, so one release
            # lets it go (the lease connection would hold it as often as it was asked).
            await cluster.release(master.id)
            both = await asyncio.gather(cluster.claim(master.id), cluster.claim(master.id))
            await cluster.release(master.id)
            still_locked = lock_key(master.id) in await cluster._held()
            return claimed and all(both), kept is master, master.closed, still_locked
        finally:
            await services.close()

    with ThreadPoolExecutor(1) as pool:
        claimed, kept, closed, still_locked = pool.submit(asyncio.run, race()).result()
    assert claimed and kept and not closed
    assert not still_locked


@pytest.mark.parametrize("whole_server", [False, True], ids=["one-worker", "whole-server"])
def test_a_kill_in_the_middle_of_a_match_of_every_game_leaves_every_match_going_on(
    workers: list[Server], database: str, whole_server: bool
) -> None:
    """Worker a masters a match of each game (Maatatahay, Manafields, Maiterra), each played
    with one seat on a and one on b; a is SIGKILLed in the middle of all three (or, with
    ``whole_server``, both workers are, and started again). The worker left (or either, after
    the restart) claims every match from the database: each acknowledged action is stored
    once, the seats reconnect with what they missed, and every match goes on.

    Last in this file: it leaves six matches being played, which would weigh on the
    sharing-out test's fair shares."""
    a, b = workers
    rng = random.Random(11)
    tables = []
    for game in ("maatatahay", "manafields", "maiterra"):
        host, guest = Client(a).guest("Host"), Client(a).guest("Guest")
        match_id = _room(host, guest, game, None)  # begun, and so mastered, by worker a
        on_b = Client(b)
        on_b.token = host.token
        first, second = on_b.socket(match_id), guest.socket(match_id)
        first.recv()
        second.recv()
        acked: dict[int, tuple[int, int]] = {}
        for _ in range(3):
            version, seat, action = _act({0: first, 1: second}, rng)
            acked[version] = (seat, action)
        tables.append((match_id, host, guest, first, second, acked))
    killed = [a, b] if whole_server else [a]
    for server in killed:
        server.kill()
    try:
        if whole_server:
            with ThreadPoolExecutor(2) as pool:
                list(pool.map(Server.restart, killed))
        for match_id, host, guest, first, second, acked in tables:
            for socket in [second, first]:
                with contextlib.suppress(Exception):
                    socket.close()
            _all_stored(database, match_id, acked)
            seat0, seat1 = Client(b), Client(a if whole_server else b)
            seat0.token, seat1.token = host.token, guest.token
            since = f"?since={max(acked)}"
            # Both seats connect again, as a browser does after a drop. (That a socket left
            # open on the worker that lives is moved to the new master is
            # test_a_killed_workers_timed_match_is_claimed_and_its_timer_rings's part.)
            with seat0.socket(match_id, since) as zero, seat1.socket(match_id, since) as one:
                for socket in [zero, one]:
                    snap = socket.recv()
                    assert snap["type"] == "snapshot" and snap["version"] >= max(acked)
                    assert [m["version"] for m in snap["missed"]] == list(
                        range(max(acked) + 1, snap["version"] + 1)
                    )
                for _ in range(2):
                    version, seat, action = _act({0: zero, 1: one}, rng)
                    acked[version] = (seat, action)
            _all_stored(database, match_id, acked)
    finally:
        if not whole_server:
            a.restart()
