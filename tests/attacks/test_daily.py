"""Copying the Daily: a second account after the leader's moves, and one account scoring
twice through two workers, each beside a victim measured in the same run
(docs/security.md, "The Daily is fair").
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from meeple.core.record import MAX_SEED
from tests.attacks.conftest import Client, Server, Victim, held, report
from tests.server.conftest import postgres_database, run_pg  # noqa: F401 (a fixture)
from tests.server.test_live import play_out

REDIS_URL = "redis://127.0.0.1:6379/0"
GAMES = ("maatatahay", "manafields", "maiterra")


def _code(reply: httpx.Response) -> str:
    try:
        detail = reply.json().get("detail")
    except ValueError:
        return f"{reply.status_code} (no JSON)"
    code = detail.get("code") if isinstance(detail, dict) else None
    return f"{reply.status_code} {code}"


def _public_formula_seed(game: str) -> int:
    """The seed the Daily had when it was derived from the date alone."""
    today = datetime.now(UTC).date().isoformat()
    digest = hashlib.sha256(f"daily/{game}/{today}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & MAX_SEED


def test_a_second_account_cannot_copy_the_leaders_daily(
    attacked_server: Server, victim: Victim
) -> None:
    """The leader plays today's scored Maatatahay Daily to the end; a second account then
    tries every way to its moves or its seed (the challenge, the leaderboard, the record, the
    replay at every seat, the line, the stream, the socket from version 0) for a few seconds,
    guessing the match id the leaderboard no longer names. Every way is refused."""
    server = attacked_server
    leader = Client(server).guest("Leader")
    copier = Client(server).guest("Copier")
    rest_before, actions_before = victim.rest(), victim.actions(count=20)

    attempt = leader.post("/api/daily/maatatahay")
    assert attempt.status_code == 201, attempt.text
    match_id = attempt.json()["id"]
    assert attempt.json()["daily"]["seed"] is None
    with leader.socket(match_id) as socket:
        play_out(socket, 0, random.Random(5), socket.recv())
    board = copier.get("/api/daily/maatatahay/leaderboard").json()
    assert [entry["match"] for entry in board] == [None]

    seen: Counter[str] = Counter()
    leaks: list[str] = []
    stop = threading.Event()
    tries = [
        ("/api/daily/maatatahay", None),
        (f"/api/matches/{match_id}/record", "403 daily/private"),
        (f"/api/matches/{match_id}/replay", "403 daily/private"),
        (f"/api/matches/{match_id}/replay?seat=0", "403 daily/private"),
        (f"/api/matches/{match_id}/replay?seat=1", "403 daily/private"),
        (f"/api/matches/{match_id}/analysis?seat=0&end=2&iterations=10", "403 daily/private"),
        (f"/api/matches/{match_id}/stream?since=0", "403 daily/private"),
    ]

    def copy() -> None:
        with httpx.Client(base_url=server.base, headers=copier.headers, timeout=10) as http:
            while not stop.is_set():
                for path, refusal in tries:
                    reply = http.get(path)
                    if refusal is None:  # the day's challenge: given, but with no seed
                        seen["challenge without seed"] += reply.json()["seed"] is None
                        if reply.json()["seed"] is not None:
                            leaks.append(f"{path}: seed")
                        continue
                    seen[_code(reply)] += 1
                    if _code(reply) != refusal:
                        leaks.append(f"{path}: {_code(reply)}")
                try:
                    with copier.socket(match_id, "?since=0&watch=true") as watching:
                        frame = watching.recv(timeout=5)
                        leaks.append(f"socket gave a {frame.get('type')} frame")
                except ConnectionClosed as closed:
                    code = closed.rcvd.code if closed.rcvd is not None else None
                    seen[f"socket closed {code}"] += 1

    attacker = threading.Thread(target=copy)
    attacker.start()
    try:
        time.sleep(0.5)
        rest, actions = victim.rest(), victim.actions(count=20)
    finally:
        stop.set()
        attacker.join(30)

    # The copier's own attempt shows no seed either, and is not the public formula's board.
    own = copier.post("/api/daily/maatatahay")
    assert own.status_code == 201 and own.json()["daily"]["seed"] is None
    offline = Client(server).guest("Offline")
    guess = offline.solo(
        game="maatatahay", seat=0, bots="heuristic", seed=_public_formula_seed("maatatahay")
    )
    with copier.socket(own.json()["id"]) as mine, offline.socket(guess["id"]) as theirs:
        daily_view, guessed_view = mine.until("snapshot")["view"], theirs.until("snapshot")["view"]
    report(
        "daily copy",
        rest_before=rest_before,
        rest=rest,
        actions_before=actions_before,
        actions=actions,
        refusals=dict(seen),
        leaks=leaks,
        offline_board_matches=daily_view == guessed_view,
    )
    assert not leaks, leaks
    assert seen["403 daily/private"] >= 6 and seen["socket closed 4403"] >= 1
    assert daily_view != guessed_view
    held("rest_p95", rest_before.p95, rest.p95)
    held("ack_p99", actions_before.p99, actions.p99)


# -- two workers --------------------------------------------------------------------------


@pytest.fixture
def database(postgres_database: str) -> Iterator[str]:  # noqa: F811 (the fixture)
    name = f"meeple_daily_{uuid.uuid4().hex[:12]}"
    run_pg(f'CREATE DATABASE "{name}" TEMPLATE template0')
    try:
        yield f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"
    finally:
        run_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def workers(database: str, tmp_path: Path) -> Iterator[list[Server]]:
    env = {"MEEPLE_REDIS_URL": REDIS_URL, "MEEPLE_CLAIM_SECONDS": "0.5"}
    started = [Server(database, tmp_path, env=env, start_seconds=120) for _ in range(2)]
    try:
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(Server.start, started))
        yield started
    finally:
        for server in started:
            server.stop()


def _rows(database: str, statement: str) -> list[asyncpg.Record]:
    async def fetch() -> list[asyncpg.Record]:
        connection = await asyncpg.connect(database.replace("+asyncpg", ""), timeout=5)
        try:
            return list(await connection.fetch(statement))
        finally:
            await connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, fetch()).result()


def test_one_account_through_two_workers_scores_one_attempt_a_day(
    workers: list[Server], database: str
) -> None:
    """One account fires eight scored attempts at once at each game's Daily, half through
    each worker, three games, three times: one is scored per game, every other is the typed
    ``daily/played``, and no match is left behind for a refused one."""
    a, b = workers
    person = Victim(a)
    try:
        greedy = Client(a).guest("Twice")
        rest_before = person.rest()
        through = {id(a): Client(a), id(b): Client(b)}
        for client in through.values():
            client.token, client.account = greedy.token, greedy.account
        answers: Counter[str] = Counter()
        scored: Counter[str] = Counter()
        stop = threading.Event()

        def fire() -> None:
            for _round in range(3):
                for game in GAMES:
                    gate = threading.Barrier(8)

                    def one(n: int, game: str = game, gate: threading.Barrier = gate) -> None:
                        client = through[id(workers[n % 2])]
                        gate.wait()
                        reply = client.post(f"/api/daily/{game}")
                        answers[_code(reply) if reply.status_code != 201 else "201"] += 1
                        if reply.status_code == 201 and reply.json()["daily"]["scored"]:
                            scored[game] += 1

                    with ThreadPoolExecutor(8) as pool:
                        list(pool.map(one, range(8)))
            stop.set()

        attacker = threading.Thread(target=fire)
        attacker.start()
        rest = person.rest(count=40)
        attacker.join(60)
        assert stop.is_set()
        rows = _rows(
            database,
            "SELECT game_id, count(*) AS n FROM daily_attempts WHERE scored GROUP BY game_id",
        )
        stored = {row["game_id"]: row["n"] for row in rows}
        dailies = _rows(database, "SELECT count(*) AS n FROM matches WHERE mode = 'daily'")
        attempts = _rows(database, "SELECT count(*) AS n FROM daily_attempts")
        report(
            "daily twice through two workers",
            rest_before=rest_before,
            rest=rest,
            answers=dict(answers),
            scored=dict(scored),
            stored_scored=stored,
            daily_matches=dailies[0]["n"],
        )
        assert dict(scored) == dict.fromkeys(GAMES, 1)
        assert stored == dict.fromkeys(GAMES, 1)
        assert answers == Counter({"201": 3, "409 daily/played": 3 * 3 * 8 - 3})
        assert dailies[0]["n"] == attempts[0]["n"] == 3  # nothing left of a refused one
        held("rest_p95", rest_before.p95, rest.p95)
    finally:
        person.close()
