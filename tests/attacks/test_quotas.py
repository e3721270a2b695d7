"""Quotas: room codes guessed, records uploaded, hints asked, beside a victim.

Before, join-by-code took 295 guesses a second and a finished room's code answered 409
(not 404), so codes could be probed; ``POST /api/replays`` needed no login and had no
limit (36 KB in, 4.4 MB out). Now each is counted per account and per client address with
a typed ``429`` and ``Retry-After``, a code of a room no longer waiting answers 404 as an
unknown one does, and an upload needs a login.
"""

from __future__ import annotations

import secrets
import threading
import time
from pathlib import Path

import httpx

from tests.attacks.conftest import Victim, held, report
from tests.attacks.test_bot_starvation import Attacker
from tests.server.conftest import sqlite_server

LIMITS = {
    "MEEPLE_JOIN_CODES_PER_MINUTE": "10",
    "MEEPLE_JOIN_CODES_BURST": "20",
    "MEEPLE_REPLAYS_PER_MINUTE": "10",
    "MEEPLE_REPLAYS_BURST": "5",
    "MEEPLE_HINTS_PER_MINUTE": "20",
    "MEEPLE_HINTS_BURST": "5",
}


def guess_codes(attacker: Attacker) -> None:
    while not attacker.stop.is_set():
        code = secrets.token_hex(3).upper()
        try:
            attacker.note(attacker.http.post("/api/rooms/join", json={"code": code}))
        except httpx.HTTPError:
            return


def test_room_codes_cannot_be_guessed_or_probed(tmp_path: Path) -> None:
    with sqlite_server(tmp_path, LIMITS, clean_log=True) as server:
        victim = Victim(server)
        try:
            # A closed room's code answers as an unknown code does.
            host = victim.client
            room = host.post("/api/rooms", json={"game": "maatatahay", "public": False}).json()
            assert host.post(f"/api/rooms/{room['id']}/leave").status_code == 200
            prober = Attacker(server, "127.0.0.6", "Prober")
            closed = prober.http.post("/api/rooms/join", json={"code": room["code"]})
            unknown = prober.http.post("/api/rooms/join", json={"code": "ZZZZZZ"})
            assert closed.status_code == unknown.status_code == 404
            assert closed.json() == unknown.json()
            prober.close()

            rest = victim.rest()
            attacker = Attacker(server, "127.0.0.7", "Guesser")
            try:
                for _ in range(2):
                    attacker.run(guess_codes, attacker)
                time.sleep(1.0)
                rest_attacked = victim.rest()
            finally:
                attacker.close()
        finally:
            victim.close()
    tried = attacker.answers[(404, "room/unknown")]
    report(
        "room code guessing",
        rest=rest,
        rest_attacked=rest_attacked,
        answers=str(dict(attacker.answers)),
    )
    held("rest_p95", rest.p95, rest_attacked.p95)
    assert tried == int(LIMITS["MEEPLE_JOIN_CODES_BURST"])  # then refused, whatever the code
    assert set(attacker.answers) == {(404, "room/unknown"), (429, "rate/limited")}
    assert attacker.retry_after and min(attacker.retry_after) >= 1


def test_replay_uploads_need_a_login_and_are_counted(tmp_path: Path) -> None:
    with sqlite_server(tmp_path, LIMITS, clean_log=True) as server:
        stranger = httpx.post(f"{server.base}/api/replays", content=b"{}", timeout=10)
        assert stranger.status_code == 401
        assert stranger.json()["detail"]["code"] == "auth/required"
        attacker = Attacker(server, "127.0.0.8", "Uploader")
        try:
            for _ in range(8):
                attacker.note(attacker.http.post("/api/replays", content=b"{}"))
        finally:
            attacker.close()
    burst = int(LIMITS["MEEPLE_REPLAYS_BURST"])
    assert attacker.answers == {(422, "record/invalid"): burst, (429, "rate/limited"): 8 - burst}


def test_hints_are_counted_per_account(tmp_path: Path) -> None:
    with sqlite_server(tmp_path, LIMITS, clean_log=True) as server:
        attacker = Attacker(server, "127.0.0.9", "Hinter")
        try:
            made = attacker.http.post(
                "/api/matches/solo", json={"game": "maatatahay", "bots": "random", "seat": 0}
            ).json()
            player = threading.Thread(target=attacker.play, args=(made["id"], 9), daemon=True)
            player.start()  # connected (seat 9 never decides): the match's bots may think
            time.sleep(0.5)
            for _ in range(8):
                attacker.note(attacker.http.get(f"/api/matches/{made['id']}/hint"))
        finally:
            attacker.close()
    burst = int(LIMITS["MEEPLE_HINTS_BURST"])
    assert attacker.answers == {(200, None): burst, (429, "rate/limited"): 8 - burst}


def test_live_solo_matches_are_capped_per_account_and_per_address(tmp_path: Path) -> None:
    """Many throw-away guests from one address cannot hold more solo matches in play than
    ``solo_live`` times ``per_address_factor``; another address is not held back by them."""
    limits = {"MEEPLE_SOLO_LIVE": "2", "MEEPLE_PER_ADDRESS_FACTOR": "1.5"}
    body = {"game": "maatatahay", "bots": "random"}
    with sqlite_server(tmp_path, limits, clean_log=True) as server:
        first = Attacker(server, "127.0.0.9", "First")
        second = Attacker(server, "127.0.0.9", "Second")
        elsewhere = Attacker(server, "127.0.0.10", "Elsewhere")
        try:
            for _ in range(3):
                first.note(first.http.post("/api/matches/solo", json=body))
            for _ in range(2):
                second.note(second.http.post("/api/matches/solo", json=body))
            refused = second.http.post("/api/matches/solo", json=body)
            elsewhere.note(elsewhere.http.post("/api/matches/solo", json=body))
        finally:
            for attacker in (first, second, elsewhere):
                attacker.close()
    report(
        "live solo matches per address",
        **{
            attacker.address + " " + name: {f"{s} {c}": n for (s, c), n in attacker.answers.items()}
            for name, attacker in (("first", first), ("second", second), ("else", elsewhere))
        },
    )
    # The account's own cap (2), then the address's (3 = 2 x 1.5) across its accounts.
    assert first.answers == {(201, None): 2, (429, "match/too_many"): 1}
    assert second.answers == {(201, None): 1, (429, "match/too_many"): 1}
    assert refused.status_code == 429 and "your address" in refused.json()["detail"]["message"]
    assert elsewhere.answers == {(201, None): 1}
