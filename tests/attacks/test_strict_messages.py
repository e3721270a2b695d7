"""Coerced JSON types: a guest sends socket frames and REST bodies whose integers are
booleans, floats or strings (``"action": true`` once played action 1). Each is refused with
a typed error and changes nothing, while a normal user is measured beside it."""

from __future__ import annotations

import threading
import time
from typing import Any

from tests.attacks.conftest import Client, Server, Victim, held, report

FRAMES: list[dict[str, Any]] = [
    {"type": "action", "action": True, "version": 0},
    {"type": "action", "action": 1.0, "version": 0},
    {"type": "action", "action": {"id": True}, "version": 0},
    {"type": "action", "action": {"id": 1.0}, "version": 0},
    {"type": "action", "action": {"text": 5}, "version": 0},
    {"type": "action", "action": 1, "version": "0"},
    {"type": "action", "action": 1, "version": False},
    {"type": "action", "action": 1, "version": 0.0},
    {"type": "action", "action": 1, "version": 0, "seat": False},
    {"type": "action", "action": 1, "version": 0, "seat": "0"},
    {"type": "resume", "since": True},
    {"type": "resume", "since": "0"},
]
"""Each refused; the codes are those the server names for them (docs/protocol.md)."""

REFUSED_CODES = {"message/malformed", "action/invalid"}

BODIES: list[tuple[str, dict[str, Any]]] = [
    ("/api/matches/solo", {"game": "maatatahay", "seat": "0"}),
    ("/api/matches/solo", {"game": "maatatahay", "seat": False}),
    ("/api/matches/solo", {"game": "maatatahay", "seed": True}),
    ("/api/matches/solo", {"game": "maatatahay", "seed": 1.0}),
    ("/api/matches/solo", {"game": "maatatahay", "seats": "2"}),
    ("/api/rooms", {"game": "maatatahay", "timer": "90"}),
    ("/api/rooms", {"game": "maatatahay", "public": 1}),
]


def test_coerced_types_are_refused_and_change_nothing(
    attacked_server: Server, victim: Victim
) -> None:
    rest, actions = victim.rest(), victim.actions(20)
    attacker = Client(attacked_server).guest("Coercer")
    match = attacker.solo(game="maatatahay", bots="random", seat=0)
    codes: list[str] = []
    statuses: list[tuple[int, str]] = []
    stop = threading.Event()
    sent = 0

    failures: list[BaseException] = []

    def attack() -> None:
        try:
            coerce()
        except BaseException as failure:
            failures.append(failure)

    def coerce() -> None:
        nonlocal sent
        with attacker.socket(match["id"]) as socket:
            first = Victim._our_turn(socket, socket.until("snapshot"), 20)
            while not stop.is_set():
                for message in FRAMES:
                    socket.send(message)
                    answer = socket.recv()
                    time.sleep(0.02)  # under the frame rate: each frame is read, and refused
                    sent += 1
                    assert answer["type"] == "error", (message, answer)
                    codes.append(answer["code"])
            socket.send({"type": "resume", "since": first["version"]})
            again = socket.until("snapshot")
            assert again["version"] == first["version"] and again["view"] == first["view"]
            assert again["missed"] == []
        for path, body in BODIES:
            reply = attacker.post(path, json=body)
            statuses.append((reply.status_code, reply.json()["detail"]["code"]))

    thread = threading.Thread(target=attack)
    thread.start()
    time.sleep(0.2)
    try:
        rest_during, actions_during = victim.rest(), victim.actions(20)
    finally:
        stop.set()
        thread.join(30)
    assert not thread.is_alive()
    if failures:
        raise failures[0]
    report(
        "strict messages",
        frames_refused=sent,
        codes=sorted(set(codes)),
        rest_statuses=sorted(set(statuses)),
        rest=rest,
        rest_during=rest_during,
        actions=actions,
        actions_during=actions_during,
    )
    assert sent >= len(FRAMES) and set(codes) <= REFUSED_CODES, codes
    assert statuses == [(422, "request/invalid")] * len(BODIES), statuses
    held("rest_p95", rest.p95, rest_during.p95)
    held("ack_p99", actions.p99, actions_during.p99)
