"""Ranked matches over a real server: formed from the queue, played to the end, rated; a
three- and a four-seat Maiterra match formed; leaving the queue and a queue timeout; leavers
stored, kept across a server restart, and a player back before the end no leaver."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from meeple.server.store.models import RankedLeaver
from tests.server.conftest import BACKENDS, Client, Server, run_pg
from tests.server.test_live import play_out


def _ok(reply: Any, status: int = 200) -> Any:
    assert reply.status_code == status, reply.text
    return reply.json()


PASSWORD = "a long walk to the harbour"


def member(server: Server, name: str) -> Client:
    """A registered account's client: ranked is for accounts, not guests."""
    client = Client(server)
    login = f"{name.replace(' ', '').lower()}{uuid.uuid4().hex[:8]}"
    reply = client.post(
        "/api/accounts", json={"name": login, "password": PASSWORD, "display_name": name}
    )
    data = _ok(reply, 201)
    client.token, client.account = data["token"], data["account"]
    return client


def _board_place(client: Client, match_id: str, seat: int) -> int | None:
    """Where ``seat`` finished on the board (Maatatahay: 1 the winner, 2 the other; None for
    a draw)."""
    winners = _ok(client.get(f"/api/matches/{match_id}"))["outcome"]["winners"]
    if not winners:
        return None
    return 1 if seat in winners else 2


def _matched(client: Client) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found: dict[str, Any] = _ok(client.get("/api/ranked/queue"))
        if found["status"] == "matched":
            return found
        time.sleep(0.1)
    raise AssertionError(f"not matched: {found}")


def test_a_maatatahay_ranked_match_is_formed_played_and_rated(server: Server) -> None:
    one = member(server, "Rank One")
    two = member(server, "Rank Two")
    first = _ok(one.post("/api/ranked/queue", json={"game": "maatatahay", "seats": 2}), 201)
    assert first["status"] == "queued" and first["queued"] == 1
    _ok(two.post("/api/ranked/queue", json={"game": "maatatahay", "seats": 2}), 201)
    a, b = _matched(one), _matched(two)
    assert a["match"] == b["match"] and {a["seat"], b["seat"]} == {0, 1}
    match = _ok(one.get(f"/api/matches/{a['match']}"))
    assert match["mode"] == "ranked" and match["status"] == "playing"
    seat_of = {a["seat"]: one, b["seat"]: two}
    with one.socket(a["match"]) as s1, two.socket(a["match"]) as s2:
        sockets = {a["seat"]: s1, b["seat"]: s2}
        snaps = {seat: sock.recv() for seat, sock in sockets.items()}
        assert snaps[0]["turn_seconds"] == 90 * 0.02
        # Both play random legal actions, turn about, until the match ends.
        rng = random.Random(4)
        frames = dict(snaps)
        outcome = None
        deadline = time.monotonic() + 60
        while outcome is None and time.monotonic() < deadline:
            for seat, sock in sockets.items():
                frame = frames[seat]
                if frame.get("outcome") is not None:
                    outcome = frame["outcome"]
                    break
                if (
                    frame["type"] in ("snapshot", "update")
                    and seat in frame["deciding"]
                    and frame["legal"]
                ):
                    choice = rng.choice(frame["legal"])["id"]
                    sock.send({"type": "action", "action": choice, "version": frame["version"]})
                try:
                    got = sock.recv(timeout=0.05)
                except TimeoutError:
                    continue
                if got["type"] == "error":
                    sock.send({"type": "resume", "since": got["version"]})
                    frames[seat] = {"type": "wait"}
                elif got["type"] in ("snapshot", "update"):
                    frames[seat] = got
                else:
                    frames[seat] = {"type": "wait"}
        assert outcome is not None, "the match did not end"
    winners = outcome["winners"]
    ratings = {
        seat: _ok(client.get(f"/api/accounts/{client.account['id']}/ratings"))
        for seat, client in seat_of.items()
    }
    for seat, found in ratings.items():
        (rating,) = found["ratings"]
        assert rating["game"] == "maatatahay" and rating["seats"] == 2
        assert rating["games"] == 1 and rating["provisional"]
        (change,) = found["history"]
        assert change["match"] == a["match"]
        if not winners:
            assert rating["mu"] == 25
        elif seat in winners:
            assert rating["mu"] > 25 and change["place"] == 1
        else:
            assert rating["mu"] < 25 and change["place"] == 2
    board = _ok(one.get("/api/ranked/leaderboard", params={"game": "maatatahay", "seats": 2}))
    ids = {entry["account"] for entry in board}
    assert {one.account["id"], two.account["id"]} <= ids
    assert all(entry["bot"] is False for entry in board)


def test_a_leaver_loses_as_last_place(server: Server) -> None:
    stays = member(server, "Stays")
    leaves = member(server, "Leaves")
    for client in (stays, leaves):
        _ok(client.post("/api/ranked/queue", json={"game": "maatatahay", "seats": 2}), 201)
    mine, theirs = _matched(stays), _matched(leaves)
    # The other never connects: past the grace period (1.2 s here) a bot plays the seat.
    with stays.socket(mine["match"]) as socket:
        final = play_out_frame(socket, mine["seat"])
    assert final is not None
    deadline = time.monotonic() + 10
    while True:
        history = _ok(leaves.get(f"/api/accounts/{leaves.account['id']}/ratings"))["history"]
        if history or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    (left,) = history
    (stayed,) = _ok(stays.get(f"/api/accounts/{stays.account['id']}/ratings"))["history"]
    assert left["match"] == mine["match"] == theirs["match"]
    assert left["place"] == 2 and left["mu"] < left["mu_before"]
    _rated_by_the_board(stays, stayed, mine["match"], mine["seat"])


def _rated_by_the_board(client: Client, stayed: dict[str, Any], match_id: str, seat: int) -> None:
    """One who stayed is rated by the board: up when they won there, down when the leaver's
    bot beat them (a leaver's loss is its own, never a win for the one it left)."""
    place = _board_place(client, match_id, seat)
    if place is None:  # a draw: both first, the ratings as equal as they were
        assert stayed["place"] == 1
        return
    assert stayed["place"] == place
    assert (stayed["mu"] > stayed["mu_before"]) == (place == 1)


def play_out_frame(socket: Any, seat: int) -> dict[str, Any]:
    """Play ``seat`` with random legal actions to the end; the outcome."""
    acks = play_out(socket, seat, random.Random(8), socket.recv())
    assert acks
    frame: dict[str, Any] = acks[-1]
    return frame


def test_three_and_four_seat_maiterra_ranked_matches_are_formed(server: Server) -> None:
    for seats in (3, 4):
        clients = [member(server, f"M{seats}{i}") for i in range(seats)]
        for client in clients:
            body = {"game": "maiterra", "seats": seats}
            _ok(client.post("/api/ranked/queue", json=body), 201)
        found = [_matched(client) for client in clients]
        assert len({f["match"] for f in found}) == 1
        assert sorted(f["seat"] for f in found) == list(range(seats))
        match = _ok(clients[0].get(f"/api/matches/{found[0]['match']}"))
        assert match["mode"] == "ranked" and match["seats"] == seats
        assert "teams" not in match["options"] or not match["options"]["teams"]
        # Nobody connects: past the grace period bots play the seats, the timer at 1.8 s.
        deadline = time.monotonic() + 90
        while match["status"] != "over":
            assert time.monotonic() < deadline, "the match did not end"
            time.sleep(0.5)
            match = _ok(clients[0].get(f"/api/matches/{found[0]['match']}"))
        winners = set(match["outcome"]["winners"])
        changes = {}
        for client, entry in zip(clients, found, strict=True):
            rated = _ok(client.get(f"/api/accounts/{client.account['id']}/ratings"))
            (rating,) = rated["ratings"]
            assert rating["game"] == "maiterra" and rating["seats"] == seats
            (changes[entry["seat"]],) = rated["history"]
        last = max(change["place"] for change in changes.values())
        for seat, change in changes.items():
            if seat in winners:  # first place gains, last place loses
                assert change["place"] == 1 and change["mu"] > change["mu_before"]
            elif winners and change["place"] == last:
                assert change["mu"] < change["mu_before"]
        board = _ok(
            clients[0].get("/api/ranked/leaderboard", params={"game": "maiterra", "seats": seats})
        )
        assert {c.account["id"] for c in clients} <= {e["account"] for e in board}


def test_leaving_the_queue_and_a_queue_timeout(server: Server) -> None:
    alone = member(server, "Alone")
    body = {"game": "manafields", "seats": 2, "options": {}, "wait": 600}
    assert _ok(alone.post("/api/ranked/queue", json=body), 201)["status"] == "queued"
    assert _ok(alone.request("DELETE", "/api/ranked/queue")) == {"left": True}
    assert _ok(alone.get("/api/ranked/queue"))["status"] == "none"
    body = {"game": "maiterra", "seats": 4, "wait": 1}
    assert _ok(alone.post("/api/ranked/queue", json=body), 201)["status"] == "queued"
    time.sleep(1.3)
    assert _ok(alone.get("/api/ranked/queue"))["status"] == "timeout"
    bot = Client(server)
    reply = bot.post(
        "/api/accounts",
        json={
            "name": f"rbot{time.monotonic_ns() % 10**8}",
            "password": "beep-boop-beep",
            "bot": True,
        },
    )
    bot.token = _ok(reply, 201)["token"]
    queued = _ok(bot.post("/api/ranked/queue", json={"game": "manafields", "wait": 1}), 201)
    assert queued["bot"] is True and not _ok(alone.get("/api/ranked/queue")).get("bot")
    refused = alone.post("/api/ranked/queue", json={"game": "maatatahay", "seats": 3})
    assert refused.status_code == 422 and refused.json()["detail"]["code"] == "ranked/bad_seats"
    # Ranked is for accounts: a guest is told it needs one, and nothing is queued.
    guest = Client(server).guest("Passing Guest")
    refused = guest.post("/api/ranked/queue", json={"game": "maatatahay", "seats": 2})
    assert refused.status_code == 403
    assert refused.json()["detail"]["code"] == "ranked/account_needed"
    assert _ok(guest.get("/api/ranked/queue"))["status"] == "none"


def _stored_leavers(server: Server, match_id: str) -> set[int]:
    """The seats the server's database holds as the match's leavers (read on a thread of
    its own, as the server's database is async)."""

    async def read() -> set[int]:
        engine = create_async_engine(server.database_url)
        try:
            async with engine.connect() as connection:
                rows = await connection.execute(
                    select(RankedLeaver.seat).where(RankedLeaver.match_id == match_id)
                )
                return {row[0] for row in rows}
        finally:
            await engine.dispose()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, read()).result()


def _until_stored(server: Server, match_id: str, leavers: set[int]) -> None:
    deadline = time.monotonic() + 10
    while (found := _stored_leavers(server, match_id)) != leavers:
        assert time.monotonic() < deadline, f"stored leavers {found}, not {leavers}"
        time.sleep(0.1)


def _history(client: Client) -> list[dict[str, Any]]:
    """The client's rating history once its match is rated (it is, soon after the end)."""
    assert client.account is not None
    deadline = time.monotonic() + 10
    while True:
        found: list[dict[str, Any]] = _ok(
            client.get(f"/api/accounts/{client.account['id']}/ratings")
        )["history"]
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def _ranked_pair(server: Server, first: str, second: str) -> tuple[Client, Client, str, int, int]:
    """Two accounts queued for ranked Maatatahay and matched: both, the match, their seats."""
    one, two = member(server, first), member(server, second)
    for client in (one, two):
        _ok(client.post("/api/ranked/queue", json={"game": "maatatahay", "seats": 2}), 201)
    a, b = _matched(one), _matched(two)
    assert a["match"] == b["match"]
    return one, two, a["match"], a["seat"], b["seat"]


def _away(socket: Any, seat: int) -> None:
    """Wait on ``socket`` until the server says ``seat`` is away (its bot took it over)."""
    while seat not in socket.until("presence")["away"]:
        pass


@pytest.fixture(params=BACKENDS)
def patient_server(
    request: pytest.FixtureRequest, tmp_path: Path, postgres_database: str
) -> Iterator[Server]:
    """A server of its own (a fresh database) whose grace period is 5 s (250 s scaled by
    0.02): after a restart every seat's grace period starts afresh, and on a busy machine
    1.2 s was not always enough for a player to reconnect before bots had played both seats
    to the end."""
    name = f"meeple_leavers_{uuid.uuid4().hex[:12]}"
    if request.param == "postgres":
        run_pg(f'CREATE DATABASE "{name}" TEMPLATE template0')
        url = f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"
    else:
        url = f"sqlite+aiosqlite:///{tmp_path / 'meeple.db'}"
    running = Server(url, tmp_path, env={"MEEPLE_GRACE_SECONDS": "250"}).start()
    try:
        yield running
    finally:
        running.stop()
        if request.param == "postgres":
            run_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_leaver_stays_last_place_across_a_server_restart(patient_server: Server) -> None:
    server = patient_server
    stays, leaves, match_id, mine, theirs = _ranked_pair(server, "Stays On", "Walks Off")
    with leaves.socket(match_id) as gone:
        assert gone.recv()["type"] == "snapshot"
    # Gone past the grace period (5 s here): the bot takes the seat over, and it is stored.
    with stays.socket(match_id) as socket:
        _away(socket, theirs)
    _until_stored(server, match_id, {theirs})
    server.kill()
    server.restart()
    # The restarted server still knows the leaver: its bot plays on at once, with no fresh
    # grace period (the snapshot says the seat is away); the match is played out and rated.
    # Whoever won (the leaver's bot, likely, against random moves) the leaver is last; the
    # one who stayed is rated by the board.
    with stays.socket(match_id) as socket:
        assert theirs in socket.recv()["away"]
        _until_stored(server, match_id, {theirs})
        final = play_out_frame(socket, mine)
    assert final is not None
    (left,) = _history(leaves)
    (stayed,) = _history(stays)
    assert left["match"] == stayed["match"] == match_id
    assert left["place"] == 2 and left["mu"] < left["mu_before"]
    _rated_by_the_board(stays, stayed, match_id, mine)


def test_a_player_back_before_the_end_is_no_leaver(server: Server) -> None:
    back, gone, match_id, returner, leaver = _ranked_pair(server, "Comes Back", "Goes Away")
    with back.socket(match_id) as socket:
        assert socket.recv()["type"] == "snapshot"
    with gone.socket(match_id) as watching:
        _away(watching, returner)
    _until_stored(server, match_id, {returner})
    # Back before the end: no longer a leaver; the other goes and does not come back.
    with back.socket(match_id) as socket:
        _away(socket, leaver)
        _until_stored(server, match_id, {leaver})
        final = play_out_frame(socket, returner)
    assert final is not None
    (stayed,) = _history(back)
    (left,) = _history(gone)
    assert left["place"] == 2
    _rated_by_the_board(back, stayed, match_id, returner)
    assert _stored_leavers(server, match_id) == {leaver}


def test_manafields_is_queued_with_the_faction_each_plays(server: Server) -> None:
    elves, undead = member(server, "Elf Queuer"), member(server, "Undead Queuer")
    for client, faction in ((elves, "elves"), (undead, "undead")):  # factions may differ
        body = {"game": "manafields", "faction": faction, "wait": 30}
        queued = _ok(client.post("/api/ranked/queue", json=body), 201)
        assert queued["faction"] == faction or queued["status"] == "matched"
    mine, theirs = _matched(elves), _matched(undead)
    assert mine["match"] == theirs["match"]
    assert (mine["faction"], theirs["faction"]) == ("elves", "undead")
    options = _ok(elves.get(f"/api/matches/{mine['match']}"))["options"]
    assert options[f"faction{mine['seat']}"] == "elves"
    assert options[f"faction{theirs['seat']}"] == "undead"
    # One queued with no faction plays one drawn; bad choices are refused, nothing queued.
    refusals = [
        ({"game": "manafields", "faction": "dwarves"}, "ranked/bad_faction"),
        ({"game": "maatatahay", "faction": "elves"}, "ranked/bad_faction"),
        ({"game": "manafields", "options": {"faction0": "elves"}}, "ranked/bad_options"),
        # No table of one's own: ranked is played by the published rules only.
        ({"game": "manafields", "options": {"turn_limit": 1}}, "ranked/bad_options"),
        ({"game": "maiterra", "seats": 4, "options": {"teams": "1122"}}, "ranked/bad_options"),
    ]
    for body, code in refusals:
        refused = elves.post("/api/ranked/queue", json=body)
        assert refused.status_code == 422 and refused.json()["detail"]["code"] == code, body
    assert _ok(elves.get("/api/ranked/queue"))["status"] == "matched"
    drawn = [member(server, f"Drawn {i}") for i in range(2)]
    for client in drawn:
        body = {"game": "manafields", "wait": 30}
        _ok(client.post("/api/ranked/queue", json=body), 201)
    found = [_matched(client) for client in drawn]
    assert all(f["faction"] in ("humans", "elves", "orcs", "undead") for f in found)
