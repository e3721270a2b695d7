"""The client: :class:`Client` for REST, :class:`MatchConnection` for one match's socket."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, Self
from urllib.parse import urlencode

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import meeple.games  # noqa: F401  (registers every game, so records replay)
from meeple.core import MatchRecord

Frame = dict[str, Any]

RESUMABLE = frozenset({1001, 1006, 1009, 1011, 1012, 1013, 4408})
"""Close codes after which a match connection opens again by itself, asking for what it
missed (``since``): the server going away or restarting (1001, 1012, 1013), a dropped
connection (1006), a message too long (1009), no answer to the server's pings (1011), and
a client too slow to read its frames (4408). Others (4403, 4404, a flood's 1008) end it."""
Policy = Callable[[Frame], "int | str | None"]
"""Chooses an action (id or notation) from a snapshot or update where the seat decides."""


class ClientError(Exception):
    """The server refused a request: its HTTP status, stable code and message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


class Client:
    """One login on one server. Every method is one REST call and returns its JSON."""

    def __init__(self, base_url: str, token: str | None = None, timeout: float = 30.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.account: Frame | None = None
        self._http = httpx.Client(base_url=self.base_url, timeout=timeout)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def call(self, method: str, path: str, body: Any = None) -> Any:
        """One request; raises :class:`ClientError` unless it succeeds."""
        reply = self._http.request(method, path, json=body, headers=self.headers)
        if reply.status_code >= 400:
            try:
                detail = reply.json().get("detail")
            except ValueError:
                detail = None
            if isinstance(detail, dict):
                raise ClientError(
                    reply.status_code, str(detail.get("code")), str(detail.get("message"))
                )
            raise ClientError(reply.status_code, "http/error", reply.text[:200])
        return None if reply.status_code == 204 else reply.json()

    def _logged_in(self, reply: Frame) -> Frame:
        self.token = reply["token"]
        self.account = reply["account"]
        return reply

    # -- accounts ----------------------------------------------------------------------

    def register(
        self, name: str, password: str, *, display_name: str | None = None, bot: bool = False
    ) -> Frame:
        body = {"name": name, "password": password, "display_name": display_name, "bot": bot}
        return self._logged_in(self.call("POST", "/api/accounts", body))

    def login(self, name: str, password: str) -> Frame:
        return self._logged_in(
            self.call("POST", "/api/sessions", {"name": name, "password": password})
        )

    def guest(self, display_name: str) -> Frame:
        return self._logged_in(self.call("POST", "/api/guests", {"display_name": display_name}))

    def logout(self) -> None:
        self.call("DELETE", "/api/sessions")
        self.token = None

    def me(self) -> Frame:
        result: Frame = self.call("GET", "/api/me")
        return result

    # -- matches -------------------------------------------------------------------------

    def games(self) -> list[Frame]:
        result: list[Frame] = self.call("GET", "/api/games")
        return result

    def solo(self, game: str, **options: Any) -> Frame:
        """A match against bots: ``seats``, ``options``, ``seat``, ``bots``, ``seed``."""
        result: Frame = self.call("POST", "/api/matches/solo", {"game": game, **options})
        return result

    def matches(self) -> list[Frame]:
        """My matches, newest first, each with ``your_turn``."""
        result: list[Frame] = self.call("GET", "/api/matches")
        return result

    def match(self, match_id: str) -> Frame:
        result: Frame = self.call("GET", f"/api/matches/{match_id}")
        return result

    def record(self, match_id: str) -> MatchRecord:
        """The record of a finished match, as ``meeple replay`` reads it."""
        return MatchRecord.from_json(self.call("GET", f"/api/matches/{match_id}/record"))

    # -- rooms -------------------------------------------------------------------------

    def rooms(self) -> list[Frame]:
        result: list[Frame] = self.call("GET", "/api/rooms")
        return result

    def open_room(self, game: str, **options: Any) -> Frame:
        """A custom room: ``seats``, ``options``, ``timer`` (90, 60, 120 or None), ``public``."""
        result: Frame = self.call("POST", "/api/rooms", {"game": game, **options})
        return result

    def join_code(self, code: str) -> Frame:
        result: Frame = self.call("POST", "/api/rooms/join", {"code": code})
        return result

    def join_room(self, room_id: str, seat: int | None = None) -> Frame:
        result: Frame = self.call("POST", f"/api/rooms/{room_id}/join", {"seat": seat})
        return result

    def ready(self, room_id: str, ready: bool = True) -> Frame:
        result: Frame = self.call("POST", f"/api/rooms/{room_id}/ready", {"ready": ready})
        return result

    def leave(self, room_id: str) -> Frame:
        result: Frame = self.call("POST", f"/api/rooms/{room_id}/leave")
        return result

    def kick(self, room_id: str, seat: int) -> Frame:
        result: Frame = self.call("POST", f"/api/rooms/{room_id}/kick", {"seat": seat})
        return result

    def fill(self, room_id: str, bots: list[str] | str | None = None) -> Frame:
        result: Frame = self.call("POST", f"/api/rooms/{room_id}/bots", {"bots": bots})
        return result

    def start(self, room_id: str) -> Frame:
        result: Frame = self.call("POST", f"/api/rooms/{room_id}/start")
        return result

    def rematch(self, match_id: str) -> Frame:
        result: Frame = self.call("POST", f"/api/rooms/rematch/{match_id}")
        return result

    # -- the match socket -----------------------------------------------------------------

    def connect(
        self,
        match_id: str,
        *,
        seat: int | None = None,
        since: int | None = None,
        watch: bool = False,
    ) -> MatchConnection:
        """Open a match's WebSocket (use it in a ``with`` block). It opens again by itself
        after a close in :data:`RESUMABLE`, from the last version it saw."""
        query: dict[str, str] = {}
        if seat is not None:
            query["seat"] = str(seat)
        if watch:
            query["watch"] = "true"
        url = self.base_url.replace("http", "ws", 1) + f"/ws/matches/{match_id}"
        return MatchConnection(url, self.headers, query=query, since=since)


class MatchConnection:
    """One match's WebSocket: frames in (JSON objects), messages out.

    When the server closes it for a reason in :data:`RESUMABLE`, it opens again with
    ``since`` the last version it saw (a few tries, waiting longer each time), and the next
    frame is the snapshot with what it missed. A message in flight then is lost: the
    snapshot says where the match stands. ``resumed`` lists the close codes it came back
    from."""

    def __init__(
        self,
        url: str,
        headers: dict[str, str],
        *,
        query: dict[str, str] | None = None,
        since: int | None = None,
        tries: int = 5,
    ) -> None:
        self._url = url
        self._headers = headers
        self._query = dict(query or {})
        self.version = since
        """The version of the last snapshot or update received (None: none yet)."""
        self.tries = tries
        self.resumed: list[int] = []
        self._failed = 0
        self._opening: Any = None
        self._socket: ClientConnection | None = None

    def _connect(self) -> None:
        query = dict(self._query)
        if self.version is not None:
            query["since"] = str(self.version)
        url = self._url + ("?" + urlencode(query) if query else "")
        self._opening = connect(url, additional_headers=self._headers, open_timeout=30)
        self._socket = self._opening.__enter__()

    def __enter__(self) -> Self:
        self._connect()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._opening is not None:
            self._opening.__exit__(kind, error, trace)
        self._opening = self._socket = None

    def _open(self) -> ClientConnection:
        if self._socket is None:
            raise RuntimeError("use the connection in a with block")
        return self._socket

    def _reopen(self, closed: ConnectionClosed) -> None:
        """Open again after ``closed``, or raise it when its code is not resumable or the
        server kept refusing."""
        code = closed.rcvd.code if closed.rcvd is not None else 1006
        if code not in RESUMABLE or self._failed >= self.tries:
            raise closed
        self._failed += 1
        time.sleep(min(5.0, 0.1 * 2**self._failed))
        if self._opening is not None:
            self._opening.__exit__(None, None, None)
        try:
            self._connect()
        except (OSError, ConnectionClosed) as error:
            raise closed from error
        self.resumed.append(code)

    def recv(self, timeout: float | None = None) -> Frame:
        while True:
            try:
                frame: Frame = json.loads(self._open().recv(timeout=timeout))
            except ConnectionClosed as closed:
                self._reopen(closed)
                continue
            if frame.get("type") in ("snapshot", "update"):
                self.version = frame["version"]
                self._failed = 0
            return frame

    def send(self, message: Frame | str) -> None:
        """Send a message (a frame as a dict, or its text). On a closed connection it opens
        again and the message is not sent: the snapshot that comes next tells the seat
        where it stands."""
        try:
            self._open().send(message if isinstance(message, str) else json.dumps(message))
        except ConnectionClosed as closed:
            self._reopen(closed)

    def act(self, action: int | str, version: int, ref: str | None = None) -> None:
        self.send({"type": "action", "action": action, "version": version, "ref": ref})

    def resume(self, since: int) -> None:
        self.send({"type": "resume", "since": since})


def random_policy(seed: int = 0) -> Policy:
    """Any legal action, uniformly (the frames carry the seat's legal actions)."""
    rng = random.Random(seed)
    return lambda frame: rng.choice(frame["legal"])["id"]


def play_seat(
    connection: MatchConnection,
    policy: Policy,
    *,
    timeout: float | None = 120.0,
    stop: Callable[[], bool] | None = None,
) -> Frame:
    """Play the connection's seat with ``policy`` until the match ends; the last frame.

    ``policy`` sees each snapshot or update in which the seat decides -- its ``view`` (what
    the engine shows the seat), ``legal`` (``[{"id", "text"}, ...]``) and ``version`` -- and
    returns an action id or notation (``None``: let this frame pass). The action is sent
    with the frame's version, and the next decision waits for the server's answer to it: in
    simultaneous planning other seats' updates keep coming meanwhile, and deciding on each
    would send actions the server refuses as stale. A ``version/stale`` refusal (another
    seat moved first) waits for the update that is on its way, or decides again on the
    newest frame when it has come already.

    ``timeout``: the most seconds to wait for a frame (None: for ever, a match over days);
    ``stop``: polled about once a second, ends the loop early (returns the last frame seen).

    Raises:
        ClientError: for any refusal other than ``version/stale``.
        TimeoutError: when no frame came for ``timeout`` seconds.
    """
    latest: Frame = {}
    seen = -1
    waiting = False  # an action is out and not yet answered
    waited = 0.0
    while True:
        if stop is not None and stop():
            return latest
        try:
            frame = connection.recv(timeout=1.0 if stop is not None else timeout)
        except TimeoutError:
            waited += 1.0
            if stop is None or (timeout is not None and waited >= timeout):
                raise
            continue
        waited = 0.0
        kind = frame["type"]
        if frame.get("ack") is not None or kind == "snapshot":
            # The update that answers this client's action, or a snapshot after the
            # connection opened again (an action in flight then was lost or is in it).
            waiting = False
        if kind == "error":
            waiting = False
            if frame["code"] != "version/stale":
                raise ClientError(400, frame["code"], frame["message"])
            if frame["version"] > seen:
                continue  # the update that made it stale is on its way
            frame = latest  # it came while the action was out: decide on it now
        elif kind not in ("snapshot", "update") or frame["version"] < seen:
            continue
        latest, seen = frame, frame["version"]
        if frame.get("outcome") is not None:
            return frame
        if frame["legal"] and not waiting:  # the seat decides now
            action = policy(frame)
            if action is not None:
                connection.act(action, frame["version"])
                waiting = True
