"""Farming ranked: guests queueing, two accounts boosting each other with a throw-away that
leaves, and the rematch of a ranked match, each beside a victim measured in the same run
(docs/security.md, "Ranked is for accounts").
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.attacks.conftest import Client, Figures, Server, Victim, held, report
from tests.server.conftest import sqlite_server
from tests.server.test_live import play_out
from tests.server.test_ranked import member

QUEUE = {"game": "maatatahay", "seats": 2, "wait": 60}
PAIR_PER_DAY = 2


def _ok(reply: httpx.Response, status: int = 200) -> Any:
    assert reply.status_code == status, reply.text
    return reply.json()


def _code(reply: httpx.Response) -> str:
    detail = reply.json().get("detail")
    return f"{reply.status_code} {detail.get('code') if isinstance(detail, dict) else None}"


def _status(client: Client, wanted: str, seconds: float = 15) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        found: dict[str, Any] = _ok(client.get("/api/ranked/queue"))
        if found["status"] == wanted or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def _history(client: Client, match_id: str) -> dict[str, Any]:
    """The rating change ``client`` got from ``match_id``, once it is rated."""
    assert client.account is not None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        rated = _ok(client.get(f"/api/accounts/{client.account['id']}/ratings"))
        for change in rated["history"]:
            if change["match"] == match_id:
                found: dict[str, Any] = change
                return found
        time.sleep(0.2)
    raise AssertionError(f"match {match_id} was not rated")


@pytest.fixture
def farmed(tmp_path: Path) -> Iterator[tuple[Server, Victim]]:
    env = {"MEEPLE_RANKED_PAIR_PER_DAY": str(PAIR_PER_DAY)}
    with sqlite_server(tmp_path, env, clean_log=True) as server:
        person = Victim(server)
        try:
            yield server, person
        finally:
            person.close()


def test_a_guest_cannot_queue_for_ranked(attacked_server: Server, victim: Victim) -> None:
    """Ten guests (throw-aways cost nothing) queue for ranked over and over for a few
    seconds: each is told ranked needs an account, and nothing is queued."""
    guests = [Client(attacked_server).guest(f"Throwaway {n}") for n in range(10)]
    rest_before = victim.rest()
    answers: Counter[str] = Counter()
    stop = threading.Event()

    def queue() -> None:
        sessions = [
            httpx.Client(base_url=attacked_server.base, headers=g.headers, timeout=10)
            for g in guests
        ]
        try:
            while not stop.is_set():
                for http in sessions:
                    answers[_code(http.post("/api/ranked/queue", json=QUEUE))] += 1
        finally:
            for http in sessions:
                http.close()

    attacker = threading.Thread(target=queue)
    attacker.start()
    began = time.monotonic()
    try:
        time.sleep(0.3)
        rest = victim.rest()
        time.sleep(max(0.0, 2.0 - (time.monotonic() - began)))
    finally:
        stop.set()
        attacker.join(30)
    statuses = {_ok(guest.get("/api/ranked/queue"))["status"] for guest in guests}
    report("ranked as a guest", rest_before=rest_before, rest=rest, answers=dict(answers))
    assert set(answers) == {"403 ranked/account_needed"} and answers.total() >= 20
    assert statuses == {"none"}
    held("rest_p95", rest_before.p95, rest.p95)


def test_two_accounts_boosting_each_other_stop_being_rated_after_the_bound(
    farmed: tuple[Server, Victim],
) -> None:
    """A booster and its throw-away account queue together; the throw-away never connects
    (its bot plays the seat) and the booster plays badly. The booster is rated by the board,
    never up for a match it lost there; after ``PAIR_PER_DAY`` matches the two are no longer
    paired, and a third account queueing meets one of them."""
    server, person = farmed
    booster, throwaway = member(server, "Booster"), member(server, "Throwaway")
    rest_before = person.rest()
    changes: list[dict[str, Any]] = []
    lost_on_board: list[bool] = []
    done = threading.Event()
    unpaired: dict[str, Any] = {}

    def farm() -> None:
        for _ in range(PAIR_PER_DAY):
            for client in (booster, throwaway):
                _ok(client.post("/api/ranked/queue", json=QUEUE), 201)
            mine = _status(booster, "matched")
            assert mine["status"] == "matched", mine
            with booster.socket(mine["match"]) as socket:
                play_out(socket, mine["seat"], random.Random(len(changes)), socket.recv())
            outcome = _ok(booster.get(f"/api/matches/{mine['match']}"))["outcome"]
            lost_on_board.append(
                bool(outcome["winners"]) and mine["seat"] not in outcome["winners"]
            )
            changes.append(_history(booster, mine["match"]))
        for client in (booster, throwaway):
            _ok(client.post("/api/ranked/queue", json=QUEUE), 201)
        time.sleep(1.5)  # several pairings (each status asked pairs the queue)
        unpaired.update(_status(booster, "matched", seconds=1.0))
        done.set()

    attacker = threading.Thread(target=farm)
    attacker.start()
    rests: list[float] = []
    while not done.is_set() and attacker.is_alive():
        rests.extend(person.rest(count=10).samples)
    attacker.join(60)
    assert done.is_set(), "the farming did not finish"
    honest = member(server, "Honest")
    _ok(honest.post("/api/ranked/queue", json=QUEUE), 201)
    met = _status(honest, "matched")
    partner = [c for c in (booster, throwaway) if _status(c, "matched", 0)["status"] == "matched"]
    rest = Figures("GET /api/me", tuple(rests))
    report(
        "ranked boosting",
        rest_before=rest_before,
        rest=rest,
        booster_mu=[changes[0]["mu_before"], *(c["mu"] for c in changes)],
        booster_places=[c["place"] for c in changes],
        lost_on_board=lost_on_board,
        third_queue=unpaired["status"],
        honest_met=met["status"],
    )
    for change, lost in zip(changes, lost_on_board, strict=True):
        if lost:  # rated by the board: a loss there is a loss, whoever left
            assert change["place"] == 2 and change["mu"] < change["mu_before"], change
        else:
            assert change["place"] == 1, change
    assert unpaired["status"] == "queued", unpaired  # met as often as they may today
    assert met["status"] == "matched" and len(partner) == 1
    held("rest_p95", rest_before.p95, rest.p95)


def test_a_ranked_rematch_is_a_casual_room_that_works(
    attacked_server: Server, victim: Victim
) -> None:
    """Two accounts finish a ranked match; one asks for a rematch: a casual room, unlisted,
    that answers get, ready, leave, bots and start like any room, is played, and is no longer
    waiting in anyone's list."""
    server = attacked_server
    host, other = member(server, "Rematch Host"), member(server, "Rematch Other")
    rest_before = victim.rest()
    for client in (host, other):
        _ok(client.post("/api/ranked/queue", json=QUEUE), 201)
    mine, theirs = _status(host, "matched"), _status(other, "matched")
    with host.socket(mine["match"]) as socket:  # the other's bot plays past the grace
        play_out(socket, mine["seat"], random.Random(3), socket.recv())
    room = _ok(host.post(f"/api/rooms/rematch/{mine['match']}"), 201)
    room_id = room["id"]
    assert room["mode"] == "custom" and room["status"] == "waiting" and not room["public"]
    steps = {
        "get": host.get(f"/api/rooms/{room_id}"),
        "ready": other.post(f"/api/rooms/{room_id}/ready", json={"ready": True}),
        "leave": other.post(f"/api/rooms/{room_id}/leave"),
        "bots": host.post(f"/api/rooms/{room_id}/bots", json={"bots": "random"}),
        "start": host.post(f"/api/rooms/{room_id}/start"),
    }
    rest = victim.rest()
    answers = {step: reply.status_code for step, reply in steps.items()}
    listed = [r["id"] for r in _ok(host.get("/api/rooms"))]
    lines = {m["id"]: m["status"] for m in _ok(host.get("/api/matches"))}
    report("ranked rematch", rest_before=rest_before, rest=rest, answers=answers)
    assert answers == dict.fromkeys(steps, 200), {s: r.text for s, r in steps.items()}
    assert steps["start"].json()["mode"] == "custom"
    assert room_id not in listed and lines[room_id] == "playing"
    assert _ok(other.get(f"/api/matches/{theirs['match']}"))["status"] == "over"
    held("rest_p95", rest_before.p95, rest.p95)
