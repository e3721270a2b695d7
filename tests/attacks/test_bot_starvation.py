"""Bot starvation: one guest floods the bots with expert matches, another with long analyses.

Every bot shares one pool (here one worker process). Before the runner picked its jobs by
priority and in turns across accounts, one guest's 2,346 mcts-expert matches in ten seconds
left another user's heuristic bot unanswered, and four concurrent 1,000-iteration analyses
pushed other users' bot moves to 18.7 s and a hint to 10.4 s. Now the flooder is held to
its quotas (``429 match/too_many`` or ``rate/limited``), its matches take one turn among
the accounts in the pool, hints go before analyses, and the victim's bot and hint stay
within budget.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.attacks.conftest import Server, Victim, held, report
from tests.server.conftest import sqlite_server

LIMITS = {
    # The quotas as shipped (the tests' servers lift them otherwise), a little tighter.
    "MEEPLE_SOLO_LIVE": "8",
    "MEEPLE_SOLO_PER_MINUTE": "10",
    "MEEPLE_SOLO_BURST": "20",
    "MEEPLE_ANALYSES_PER_MINUTE": "4",
    "MEEPLE_ANALYSES_BURST": "6",
}
ATTACK_SECONDS = 4.0
"""How long the attack runs before the victim is measured beside it (it goes on meanwhile)."""


class Attacker:
    """A guest on an address of its own (127.0.0.x) whose threads stop when told."""

    def __init__(self, server: Server, address: str, name: str) -> None:
        self.server = server
        self.address = address
        transport = httpx.HTTPTransport(local_address=address)
        self.http = httpx.Client(base_url=server.base, transport=transport, timeout=30)
        reply = self.http.post("/api/guests", json={"display_name": name})
        assert reply.status_code == 201, reply.text
        self.http.headers["Authorization"] = f"Bearer {reply.json()['token']}"
        self.stop = threading.Event()
        self.answers: Counter[tuple[int, str | None]] = Counter()
        self.retry_after: list[int] = []
        self._lock = threading.Lock()
        self.threads: list[threading.Thread] = []

    def note(self, reply: httpx.Response) -> None:
        """Count an answer by status and refusal code; keep each refusal's Retry-After."""
        code = None
        if reply.status_code >= 400:
            try:
                code = reply.json()["detail"]["code"]
            except ValueError:  # not the project's refusal: counted apart, as its text
                code = f"untyped: {reply.text[:40]!r}"
            assert "Retry-After" in reply.headers or reply.status_code < 429, reply.headers
            if "Retry-After" in reply.headers:
                self.retry_after.append(int(reply.headers["Retry-After"]))
        with self._lock:
            self.answers[(reply.status_code, code)] += 1

    def run(self, target: Any, *args: Any) -> None:
        thread = threading.Thread(target=target, args=args, daemon=True)
        thread.start()
        self.threads.append(thread)

    def close(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(30)
        self.http.close()

    def play(self, match_id: str, seat: int) -> None:
        """Keep a match busy: play the first legal action whenever ``seat`` decides."""
        url = f"{self.server.ws_base}/ws/matches/{match_id}"
        try:
            with connect(
                url,
                additional_headers={"Authorization": self.http.headers["Authorization"]},
                open_timeout=10,
                source_address=(self.address, 0),
            ) as socket:
                while not self.stop.is_set():
                    try:
                        frame = json.loads(socket.recv(timeout=0.5))
                    except TimeoutError:
                        continue
                    if frame.get("outcome") is not None:
                        return
                    if frame.get("type") in {"snapshot", "update"} and seat in frame.get(
                        "deciding", ()
                    ):
                        action = {"id": frame["legal"][0]["id"], "version": frame["version"]}
                        socket.send(json.dumps({"type": "action", **action}))
        except (ConnectionClosed, OSError):
            return


@contextmanager
def attacked(tmp_path: Path) -> Iterator[tuple[Server, Victim]]:
    with sqlite_server(tmp_path, LIMITS, clean_log=True) as server:
        victim = Victim(server)
        try:
            yield server, victim
        finally:
            victim.close()


def flood_solo(attacker: Attacker) -> None:
    """Expert matches as fast as they are answered, each played (the bot at seat 0 moves
    first, and the attacker answers at once: its bots never rest)."""
    while not attacker.stop.is_set():
        try:
            reply = attacker.http.post(
                "/api/matches/solo",
                json={"game": "maatatahay", "bots": "mcts-expert", "seat": 1},
            )
        except httpx.HTTPError:  # the server stopped (tests/attacks/test_clean_stop.py)
            return
        attacker.note(reply)
        if reply.status_code == 201:
            attacker.run(attacker.play, reply.json()["id"], 1)
        else:
            time.sleep(0.05)


def test_a_flood_of_expert_matches_starves_no_other_bot(tmp_path: Path) -> None:
    with attacked(tmp_path) as (server, victim):
        bot, hint = victim.bot_reply(), victim.hint()
        attacker = Attacker(server, "127.0.0.2", "Flooder")
        try:
            for _ in range(2):
                attacker.run(flood_solo, attacker)
            time.sleep(ATTACK_SECONDS)
            bot_attacked, hint_attacked = victim.bot_reply(), victim.hint()
        finally:
            attacker.close()
        made = attacker.answers[(201, None)]
        refused = {key: n for key, n in attacker.answers.items() if key[0] != 201}
        report(
            "solo flood (mcts-expert)",
            bot=bot,
            bot_attacked=bot_attacked,
            hint=hint,
            hint_attacked=hint_attacked,
            made=made,
            refused=str(refused),
        )
        held("bot_reply", bot.worst, bot_attacked.worst)
        held("hint", hint.worst, hint_attacked.worst)
        assert made == int(LIMITS["MEEPLE_SOLO_LIVE"])  # in play at once, no more
        assert refused and set(refused) <= {(429, "match/too_many"), (429, "rate/limited")}
        assert all(retry >= 1 for retry in attacker.retry_after)


def analyse_on(attacker: Attacker, match_id: str, iterations: int) -> None:
    """Lines of 1,000-iteration searches over the attacker's own solo match, each asked
    with another iteration count so that no answer comes from the runner's store."""
    while not attacker.stop.is_set():
        try:
            reply = attacker.http.get(
                f"/api/matches/{match_id}/analysis",
                params={"seat": 0, "iterations": iterations},
                timeout=60,
            )
        except httpx.HTTPError:  # the server stopped (tests/attacks/test_clean_stop.py)
            return
        attacker.note(reply)
        iterations -= 4
        if reply.status_code != 200:
            time.sleep(0.2)


def played_a_little(attacker: Attacker) -> str:
    """A solo match of the attacker's against the random bot, a second into its play, so a
    line has positions to search."""
    reply = attacker.http.post(
        "/api/matches/solo", json={"game": "maatatahay", "bots": "random", "seat": 0}
    )
    assert reply.status_code == 201, reply.text
    match_id: str = reply.json()["id"]
    player = threading.Thread(target=attacker.play, args=(match_id, 0), daemon=True)
    player.start()
    time.sleep(1.0)
    attacker.stop.set()
    player.join(10)
    attacker.stop.clear()
    return match_id


def test_concurrent_long_analyses_delay_no_bot_move_or_hint(tmp_path: Path) -> None:
    with attacked(tmp_path) as (server, victim):
        bot, hint = victim.bot_reply(), victim.hint()
        attacker = Attacker(server, "127.0.0.3", "Analyst")
        match_id = played_a_little(attacker)
        try:
            for n in range(4):
                attacker.run(analyse_on, attacker, match_id, 1000 - n)
            time.sleep(ATTACK_SECONDS)
            bot_attacked, hint_attacked = victim.bot_reply(), victim.hint()
        finally:
            attacker.close()
        answered = attacker.answers[(200, None)]
        refused = {key: n for key, n in attacker.answers.items() if key[0] != 200}
        report(
            "concurrent analyses (1,000 iterations)",
            bot=bot,
            bot_attacked=bot_attacked,
            hint=hint,
            hint_attacked=hint_attacked,
            answered=answered,
            refused=str(refused),
        )
        held("bot_reply", bot.worst, bot_attacked.worst)
        held("hint", hint.worst, hint_attacked.worst)
        assert answered <= int(LIMITS["MEEPLE_ANALYSES_BURST"])
        assert refused and set(refused) <= {(429, "rate/limited"), (503, "bots/busy")}
