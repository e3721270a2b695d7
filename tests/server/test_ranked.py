"""Ranked matches over a real server: formed from the queue, played to the end, rated; a
three- and a four-seat Maiterra match formed; leaving the queue and a queue timeout."""

from __future__ import annotations

import random
import time
from typing import Any

from tests.server.conftest import Client, Server
from tests.server.test_live import play_out


def _ok(reply: Any, status: int = 200) -> Any:
    assert reply.status_code == status, reply.text
    return reply.json()


def _matched(client: Client) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found: dict[str, Any] = _ok(client.get("/api/ranked/queue"))
        if found["status"] == "matched":
            return found
        time.sleep(0.1)
    raise AssertionError(f"not matched: {found}")


def test_a_maatatahay_ranked_match_is_formed_played_and_rated(server: Server) -> None:
    one = Client(server).guest("Rank One")
    two = Client(server).guest("Rank Two")
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
    stays = Client(server).guest("Stays")
    leaves = Client(server).guest("Leaves")
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
    assert stayed["place"] == 1 and stayed["mu"] > stayed["mu_before"]


def play_out_frame(socket: Any, seat: int) -> dict[str, Any]:
    """Play ``seat`` with random legal actions to the end; the outcome."""
    acks = play_out(socket, seat, random.Random(8), socket.recv())
    assert acks
    frame: dict[str, Any] = acks[-1]
    return frame


def test_three_and_four_seat_maiterra_ranked_matches_are_formed(server: Server) -> None:
    for seats in (3, 4):
        clients = [Client(server).guest(f"M{seats}{i}") for i in range(seats)]
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
    alone = Client(server).guest("Alone")
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
