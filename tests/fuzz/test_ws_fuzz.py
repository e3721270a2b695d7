"""Hostile WebSocket sessions against a real server, for every game.

For each game, a two-seat match between two people (no bots, no timer: nothing moves
unless the test moves it) on a real ``meeple serve``, with a socket for each seat and one
for a spectator. Hypothesis draws sessions of steps: valid actions of a deciding seat in
between random text and bytes, arbitrary JSON, action and resume frames with wrong fields,
oversized frames, out-of-turn actions (another seat's legal action, from the other seat or
the spectator), actions not legal now, versions ahead of the match, and reconnections.

Every frame must be answered on the socket that sent it, the socket stays open, and:

- a refusal is a typed ``error`` frame (a known code, the version of the socket's audience),
  and the match is unchanged: the same version and the same snapshot for every socket;
- an accepted action is acknowledged (its seat's version one more); every other socket's
  audience either gets its update (its version one more) or, where the action changed
  nothing it may see (a Maiterra seat's sealed order, queued), gets no frame and keeps its
  version and its snapshot (docs/protocol.md, "Versions");
- the server keeps serving: a later valid action works, it answers over HTTP, and its log
  holds no traceback;
- nothing of another seat's hidden state reached any socket: every frame is the seat's view
  of the stored match, and of states redrawn in what the seat cannot see
  (tests/server/test_hidden_frames.py's check).
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

import meeple.games  # noqa: F401
from meeple.core import load_game
from meeple.server.live.protocol import ERROR_CODES, MATCH_OVER, STORE_FAILED
from tests.server.conftest import Client, Server, Socket, sqlite_server
from tests.server.test_hidden_frames import Checker, stored

pytestmark = pytest.mark.slow

GAMES = ("maiterra", "maatatahay", "manafields")
MAX_BYTES = 16 * 1024
REFUSALS = (set(ERROR_CODES) - {STORE_FAILED}) | {MATCH_OVER}
SHOWN = ("version", "view", "legal", "deciding", "outcome", "status", "seat", "players")
"""What a snapshot shows of the match (not ``missed`` or ``ref``, which depend on the ask)."""

FUZZ = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """SQLite; the per-connection flood limit out of the way (tests/server tests it)."""
    with sqlite_server(
        tmp_path_factory.mktemp("wsfuzz"),
        {"MEEPLE_FRAMES_PER_SECOND": "100000", "MEEPLE_FRAME_BURST": "100000"},
        clean_log=True,
    ) as running:
        yield running


# -- what a session is made of ---------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
ODD = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats()
    | st.text(max_size=300)
    | st.lists(st.integers(), max_size=3)
    | st.dictionaries(st.sampled_from(["id", "text", "x"]), st.integers() | st.text(max_size=8))
)
WHO = st.sampled_from([0, 1, "watch"])

ACTIONS = (
    st.integers(-(2**70), 2**70)
    | st.text(max_size=200)
    | st.fixed_dictionaries({"id": st.integers(-(2**40), 2**40)})
    | st.fixed_dictionaries({"text": st.text(max_size=40)})
)
"""What an action field may hold by its schema, mostly naming no action of the game."""

VALID = st.tuples(st.just("valid"), st.integers(0, 1000))
STEPS = st.one_of(
    VALID,
    VALID,  # twice as likely as each kind of bad frame: sessions go deeper into the match
    st.tuples(st.just("bad_action"), st.integers(0, 1000), ACTIONS),
    st.tuples(st.just("text"), WHO, st.text(max_size=200)),
    st.tuples(st.just("bytes"), WHO, st.binary(max_size=200)),
    st.tuples(st.just("json"), WHO, JSON_VALUES),
    st.tuples(
        st.just("fields"),
        WHO,
        st.sampled_from(["action", "resume", "ping", "Action", "teleport", ""]),
        st.dictionaries(st.sampled_from(["action", "version", "seat", "since", "ref", "x"]), ODD),
    ),
    st.tuples(st.just("oversized"), WHO, st.sampled_from([MAX_BYTES + 1, 40_000, 1_200_000])),
    st.tuples(st.just("out_of_turn"), st.integers(0, 1000), st.booleans()),
    st.tuples(st.just("not_legal"), st.integers(0, 10**6)),
    st.tuples(st.just("ahead"), st.integers(1, 10**6)),
    st.tuples(st.just("reconnect"), WHO),
)


class Table:
    """One match of two people and a spectator, and what each socket last saw."""

    def __init__(self, server: Server, game: str) -> None:
        self.server = server
        self.game = game
        self.actions = load_game(game, seats=2).num_distinct_actions()
        self.people = [Client(server).guest(f"Seat{seat}") for seat in (0, 1)]
        self.people.append(Client(server).guest("Watcher"))
        host, guest, _ = self.people
        body = {"game": game, "seats": 2, "timer": None, "public": False}
        room = host.post("/api/rooms", json=body)
        assert room.status_code == 201, room.text
        self.match_id: str = room.json()["id"]
        code = room.json()["code"]
        assert guest.post("/api/rooms/join", json={"code": code}).status_code == 200
        assert guest.post(f"/api/rooms/{self.match_id}/ready", json={}).status_code == 200
        assert host.post(f"/api/rooms/{self.match_id}/start").status_code == 200
        self.sockets: dict[int | str, Socket] = {}
        self.opened: list[tuple[int | str, Socket]] = []
        self.seen: dict[int | str, dict[str, Any]] = {}
        for who in (0, 1, "watch"):
            self.connect(who)
        self.accepted = 0
        self.quiet = 0
        """Other audiences an accepted action left as they were (sealed orders)."""

    def connect(self, who: int | str, since: int | None = None) -> None:
        client = self.people[2 if who == "watch" else int(who)]
        query = "" if since is None else f"?since={since}"
        socket = client.socket(self.match_id, query)
        self.sockets[who] = socket
        self.opened.append((who, socket))
        first = socket.recv()
        assert first["type"] == "snapshot" and first["seat"] == (None if who == "watch" else who)
        if since is not None:
            assert [m["version"] for m in first["missed"]] == list(
                range(since + 1, first["version"] + 1)
            )
        self.seen[who] = {key: first.get(key) for key in SHOWN}

    def close(self) -> None:
        for socket in self.sockets.values():
            socket.close()

    def check_hidden(self) -> None:
        """Every frame any socket got is its seat's view of the stored match at its version,
        and of every state that differs from it only in what that seat cannot see."""
        checker = Checker(stored(self.server, self.match_id))
        for who, socket in self.opened:
            for frame in socket.frames:
                checker.check(None if who == "watch" else int(who), frame)
        assert checker.frames_checked > 0

    def version(self, who: int | str) -> int:
        """The version ``who``'s audience last saw (each seat and the spectators count
        their own)."""
        return int(self.seen[who]["version"])

    @property
    def over(self) -> bool:
        return self.seen[0]["outcome"] is not None

    def _deciding(self, pick: int) -> tuple[int, list[dict[str, Any]]] | None:
        deciding = [s for s in self.seen[0]["deciding"] if self.seen[s]["legal"]]
        if not deciding:
            return None
        seat = deciding[pick % len(deciding)]
        return seat, self.seen[seat]["legal"]

    # -- steps ---------------------------------------------------------------------------

    def step(self, step: tuple[Any, ...]) -> None:
        kind = step[0]
        if kind == "valid":
            found = self._deciding(step[1])
            if found is not None:
                seat, legal = found
                action = legal[step[1] % len(legal)]
                message = {"type": "action", "action": action["id"], "version": self.version(seat)}
                self.send(seat, {**message, "ref": "valid"}, must_refuse=False, must_accept=True)
        elif kind in ("text", "bytes"):
            self.send(step[1], step[2])
        elif kind == "json":
            self.send(step[1], json.dumps(step[2]))
        elif kind == "fields":
            self.send(step[1], json.dumps({"type": step[2], **step[3]}))
        elif kind == "bad_action":
            found = self._deciding(step[1])
            if found is not None:
                message = {"type": "action", "action": step[2], "version": self.version(found[0])}
                self.send(found[0], message)
        elif kind == "oversized":
            self._oversized(step[1], step[2])
        elif kind == "out_of_turn":
            self._out_of_turn(step[1], step[2])
        elif kind == "not_legal":
            found = self._deciding(step[1])
            if found is not None:
                seat, legal = found
                taken = {item["id"] for item in legal}
                action = next(a for a in range(step[1] % self.actions, 10**7) if a not in taken)
                message = {"type": "action", "action": action, "version": self.version(seat)}
                self.send(seat, message, must_refuse=True)
        elif kind == "ahead":
            found = self._deciding(step[1])
            if found is not None:
                seat, legal = found
                message = {"type": "action", "action": legal[0]["id"], "version": 0}
                message["version"] = self.version(seat) + step[1]
                self.send(seat, message, must_refuse=True)
        elif kind == "reconnect":
            self.sockets[step[1]].close()
            since = random.Random(self.accepted).randint(0, self.version(step[1]))
            self.connect(step[1], since=since)

    def _oversized(self, who: int | str, size: int) -> None:
        """A message past ``max_message_bytes`` closes its socket with 1009 (RFC 6455): the
        match is as it was, and the socket opens again from its version."""
        socket = self.sockets[who]
        with contextlib.suppress(ConnectionClosed):  # closed while it was sent
            socket.connection.send("x" * size)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                socket.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009, closed.value
        socket.close()
        self.connect(who, since=self.version(who))
        self.check_unchanged()

    def _out_of_turn(self, pick: int, naming: bool) -> None:
        """A deciding seat's legal action from a socket that does not hold that seat."""
        found = self._deciding(pick)
        if found is None:
            return
        seat, legal = found
        action = legal[pick % len(legal)]["id"]
        others: list[int | str] = [s for s in (0, 1) if s != seat] + ["watch"]
        who = others[pick % len(others)]
        message: dict[str, Any] = {
            "type": "action",
            "action": action,
            "version": self.version(who),
        }
        if naming:
            message["seat"] = seat
        if who != "watch" and not naming and who in self.seen[0]["deciding"]:
            return  # both decide (Maiterra's planning): not out of turn
        self.send(who, message, must_refuse=True)

    def send(
        self,
        who: int | str,
        message: str | bytes | dict[str, Any],
        *,
        must_refuse: bool = False,
        must_accept: bool = False,
    ) -> None:
        """Send one frame and check its answer (and, after a refusal, that nothing changed)."""
        socket = self.sockets[who]
        before = self.version(who)
        if isinstance(message, dict):
            parsed: Any = message
            socket.send(message)
        else:
            try:
                parsed = json.loads(message)
            except (ValueError, UnicodeDecodeError):
                parsed = None
            socket.connection.send(message)
        answer = socket.recv()
        kind = parsed.get("type") if isinstance(parsed, dict) else None
        if answer["type"] == "error":
            assert not must_accept, answer
            assert answer["code"] in REFUSALS, answer
            assert answer["version"] == before and isinstance(answer["message"], str), answer
            self.check_unchanged()
        elif answer["type"] == "update" and answer.get("ack") is not None:
            assert not must_refuse and kind == "action" and who != "watch", (message, answer)
            assert answer["version"] == before + 1, answer
            self.accepted += 1
            self.after_action(who)
        elif answer["type"] == "pong":
            assert kind == "ping" and not must_refuse and not must_accept, (message, answer)
        elif answer["type"] == "snapshot":
            assert kind == "resume" and not must_refuse and not must_accept, (message, answer)
            assert answer["version"] == before
        else:
            raise AssertionError(f"{message!r:.200} was answered {answer}")

    def after_action(self, sender: int | str) -> None:
        """After ``sender``'s action was acknowledged (its update, one version more, came
        with the ack): each other socket asks to resume from the version it last saw. Its
        audience's version is then one more, and it got that update (before the snapshot or
        just after: the updates go out concurrently), or it is the same, and then nothing
        it may see changed: no update, the same snapshot. Each one's snapshot is noted."""
        for who, socket in self.sockets.items():
            if who == sender:
                continue
            old = self.version(who)
            socket.send({"type": "resume", "since": old, "ref": "check"})
            updates = []
            frame = socket.recv()
            while frame["type"] == "update":
                updates.append(frame)
                frame = socket.recv()
            assert frame["type"] == "snapshot" and frame["ref"] == "check", (who, frame)
            now = frame["version"]
            assert now in (old, old + 1), (who, old, frame)
            assert [m["version"] for m in frame["missed"]] == list(range(old + 1, now + 1))
            if now == old:
                self.quiet += 1
                assert not updates, (who, updates)
                assert self.shown(frame) == self.seen[who], who
            elif not updates:
                updates.append(socket.until("update"))
            for update in updates:
                assert "ack" not in update, (who, update)
                assert update["version"] == now, (who, update)
                assert {k: update.get(k) for k in SHOWN if k in update} == {
                    k: frame.get(k) for k in SHOWN if k in update
                }, who
            self.seen[who] = self.shown(frame)
        self.seen[sender] = self.resume(sender, self.version(sender) + 1)

    @staticmethod
    def shown(frame: dict[str, Any]) -> dict[str, Any]:
        return {key: frame.get(key) for key in SHOWN}

    def resume(self, who: int | str, version: int) -> dict[str, Any]:
        socket = self.sockets[who]
        socket.send({"type": "resume", "since": version, "ref": "check"})
        frame = socket.recv()
        assert frame["type"] == "snapshot" and frame["ref"] == "check", frame
        assert frame["missed"] == [], frame
        return {key: frame.get(key) for key in SHOWN}

    def check_unchanged(self) -> None:
        """The same version and the same snapshot for every socket."""
        for who in self.sockets:
            assert self.resume(who, self.version(who)) == self.seen[who], who


@pytest.mark.parametrize("game", GAMES)
def test_hostile_sessions_change_nothing_and_the_server_keeps_serving(
    server: Server, game: str
) -> None:
    tables = [Table(server, game)]

    @FUZZ
    @given(st.lists(STEPS, min_size=4, max_size=12))
    def session(steps: list[tuple[Any, ...]]) -> None:
        if tables[-1].over:
            tables[-1].close()
            tables.append(Table(server, game))
        table = tables[-1]
        try:
            for step in steps:
                table.step(step)
        except BaseException:
            # Frames may be left unread: the next session (Hypothesis shrinking) starts afresh.
            table.close()
            tables.append(Table(server, game))
            raise

    try:
        session()
        # A later valid action still works, and the server answers over HTTP.
        table = tables[-1]
        if table.over:
            table.close()
            table = Table(server, game)
            tables.append(table)
        found = table._deciding(0)
        assert found is not None
        seat, legal = found
        move = {"type": "action", "action": legal[0]["id"], "version": table.version(seat)}
        table.send(seat, move, must_accept=True)
        summary = table.people[0].get(f"/api/matches/{table.match_id}").json()
        assert summary["version"] == table.version("watch")  # the spectators' version
        assert sum(t.accepted for t in tables) >= 2
        if game == "maiterra":  # sealed orders were queued, and reached no other audience
            assert sum(t.quiet for t in tables) > 0
        assert httpx.get(f"{server.base}/api/health", timeout=10).status_code == 200
        for played in tables:
            played.check_hidden()
    finally:
        for table in tables:
            table.close()
