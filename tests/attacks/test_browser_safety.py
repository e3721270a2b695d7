"""Browser safety: another origin's page acting with the victim's cookie, names that pass
for someone else, weak passwords and a login that tells which names exist — each against
a real server, beside a victim measured in the same run (docs/security.md, "Browser
safety")."""

from __future__ import annotations

import statistics
import threading
import time
import uuid
from typing import Any

import httpx
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.attacks.conftest import Server, Victim, held, report

COOKIE = "meeple_session"


def _cookie_of_a_guest(server: Server, name: str) -> str:
    reply = httpx.post(f"{server.base}/api/guests", json={"display_name": name}, timeout=10)
    assert reply.status_code == 201, reply.text
    assert "samesite=strict" in reply.headers["set-cookie"].lower()
    cookie: str = reply.cookies[COOKIE]
    return cookie


def test_another_origin_cannot_act_with_the_victims_cookie(
    attacked_server: Server, victim: Victim
) -> None:
    server = attacked_server
    cookie = _cookie_of_a_guest(server, "Cookie Holder")
    evil = f"http://127.0.0.1:{server.port + 1}"  # a page of the same host on another port
    reference = victim.rest()
    refused: list[tuple[int, str]] = []
    stop = threading.Event()

    def forge() -> None:
        """What a page of another origin makes the victim's browser send."""
        with httpx.Client(base_url=server.base, cookies={COOKIE: cookie}, timeout=10) as browser:
            while not stop.is_set():
                for method, path, body, headers in (
                    ("POST", "/api/matches/solo", {"game": "maatatahay"}, {"Origin": evil}),
                    ("DELETE", "/api/sessions", None, {"Origin": "null"}),
                    ("POST", "/api/rooms", {"game": "maatatahay"}, {"Sec-Fetch-Site": "same-site"}),
                ):
                    reply = browser.request(method, path, json=body, headers=headers)
                    refused.append((reply.status_code, reply.json()["detail"]["code"]))

    thread = threading.Thread(target=forge, daemon=True)
    thread.start()
    try:
        attacked = victim.rest()
    finally:
        stop.set()
        thread.join(30)
    # A WebSocket opened by the other origin's page, carrying the cookie, is refused too.
    match = victim.client.solo(game="maatatahay", bots="random", seat=0)
    socket_url = f"{server.ws_base}/ws/matches/{match['id']}"
    try:
        with connect(
            socket_url, additional_headers={"Cookie": f"{COOKIE}={cookie}", "Origin": evil}
        ):
            ws_status = 101
    except InvalidStatus as refusal:
        ws_status = refusal.response.status_code
    report(
        "cross-origin writes",
        rest=attacked,
        reference=reference,
        refused=len(refused),
        codes=sorted(set(refused)),
        websocket=ws_status,
    )
    held("rest_p95", reference.p95, attacked.p95)
    assert refused and set(refused) == {(403, "request/cross_origin")}
    assert ws_status == 403
    # The cookie still works from the server's own page, and a bearer token from anywhere
    # (a browser never sends one on its own).
    own = httpx.post(
        f"{server.base}/api/matches/solo",
        json={"game": "maatatahay"},
        cookies={COOKIE: cookie},
        headers={"Origin": server.base, "Sec-Fetch-Site": "same-origin"},
    )
    assert own.status_code == 201, own.text
    token = httpx.post(
        f"{server.base}/api/matches/solo",
        json={"game": "maatatahay"},
        headers={**victim.client.headers, "Origin": evil},
    )
    assert token.status_code == 201, token.text
    with connect(
        socket_url, additional_headers={"Cookie": f"{COOKIE}={cookie}", "Origin": server.base}
    ):
        pass
    # The session is still there: the forged logouts ended nothing.
    assert httpx.get(f"{server.base}/api/me", cookies={COOKIE: cookie}).status_code == 200


def test_names_that_pass_for_another_and_weak_passwords_are_refused(
    attacked_server: Server, victim: Victim
) -> None:
    server = attacked_server
    name = f"Ana{uuid.uuid4().hex[:6]}"
    made = httpx.post(
        f"{server.base}/api/accounts", json={"name": name, "password": "kiwi-kiwi-kiwi"}
    )
    assert made.status_code == 201, made.text
    reference = victim.rest()
    tries: list[tuple[dict[str, Any], str]] = [
        ({"name": name.lower(), "password": "kiwi-kiwi-kiwi"}, "account/name_taken"),
        ({"name": name.upper(), "password": "kiwi-kiwi-kiwi"}, "account/name_taken"),
        ({"name": "   ", "password": "kiwi-kiwi-kiwi"}, "account/name_length"),
        ({"name": "ana\u202egnp.exe", "password": "kiwi-kiwi-kiwi"}, "account/name_characters"),
        ({"name": "mcts-hard", "password": "kiwi-kiwi-kiwi"}, "account/name_bot"),
        ({"name": "friendlybot", "password": "kiwi-kiwi-kiwi"}, "account/name_bot"),
        ({"name": "samename1", "password": "samename1!!"}, "account/password_name"),
        ({"name": "weakling", "password": "qwertyuiop"}, "account/password_common"),
        ({"name": "weakling", "password": "short"}, "account/password_length"),
    ]
    guests: list[tuple[str, str]] = [
        ("mcts-hard bot", "account/display_name_bot"),
        ("\u200b", "account/display_name_characters"),
        ("Ana\u2067\u2069", "account/display_name_characters"),
        (" ", "account/display_name_length"),
    ]
    answers: list[tuple[Any, str]] = []

    def attack() -> None:
        for body, _ in tries:
            reply = httpx.post(f"{server.base}/api/accounts", json=body, timeout=10)
            answers.append((reply.status_code, reply.json()["detail"]["code"]))
        for display_name, _ in guests:
            reply = httpx.post(
                f"{server.base}/api/guests", json={"display_name": display_name}, timeout=10
            )
            answers.append((reply.status_code, reply.json()["detail"]["code"]))

    thread = threading.Thread(target=attack, daemon=True)
    thread.start()
    try:
        attacked = victim.rest()
    finally:
        thread.join(30)
    report("names and passwords", rest=attacked, reference=reference, answers=answers)
    held("rest_p95", reference.p95, attacked.p95)
    expected = [(409 if c == "account/name_taken" else 422, c) for _, c in tries + guests]
    assert answers == expected


def test_login_takes_as_long_for_a_name_that_does_not_exist(
    attacked_server: Server, victim: Victim
) -> None:
    """Telling names apart by the time a wrong password takes: the medians of 15 logins
    to a known name and to an unknown one are alike (the unknown one is checked against a
    stand-in hash)."""
    server = attacked_server
    name = f"known{uuid.uuid4().hex[:6]}"
    made = httpx.post(
        f"{server.base}/api/accounts", json={"name": name, "password": "kiwi-kiwi-kiwi"}
    )
    assert made.status_code == 201, made.text
    reference = victim.rest()
    times: dict[str, list[float]] = {"known": [], "unknown": []}
    with httpx.Client(base_url=server.base, timeout=10) as guesser:
        for index in range(30):
            kind = ("known", "unknown")[index % 2]
            guess = name if kind == "known" else f"nobody{uuid.uuid4().hex[:6]}"
            began = time.perf_counter()
            reply = guesser.post("/api/sessions", json={"name": guess, "password": "wrong-guess"})
            times[kind].append(time.perf_counter() - began)
            assert reply.status_code == 401
            assert reply.json()["detail"]["code"] == "auth/bad_login"
    attacked = victim.rest()
    known, unknown = (statistics.median(times[k]) for k in ("known", "unknown"))
    report(
        "login timing",
        rest=attacked,
        reference=reference,
        known_median_ms=round(known * 1000, 1),
        unknown_median_ms=round(unknown * 1000, 1),
    )
    held("rest_p95", reference.p95, attacked.p95)
    # Without the stand-in hash an unknown name answered at once (23 ms against 131 ms);
    # now each median is within half again of the other.
    assert 2 / 3 < known / unknown < 3 / 2, (known, unknown)
