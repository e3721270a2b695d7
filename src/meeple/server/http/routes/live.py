"""The match WebSocket ``/ws/matches/{id}`` and the room WebSocket ``/ws/rooms/{id}``.

A match connection speaks for the seat its account holds (``?seat=`` picks one when it
holds several), or watches as a spectator (no seat held, or ``?watch=true``). ``?since=N``
asks for the updates after version N with the first snapshot (reconnect and resume).

Every frame to a client goes through its :class:`~meeple.server.live.outbox.Outbox`: the master
and the rooms only put frames there, and a client too slow to read is closed with 4408.

:class:`SocketProtocol` is the WebSocket layer ``meeple serve`` gives uvicorn: uvicorn's
own (websockets' Sans-I/O protocol), with no compression, that counts every frame a client
sends (data, continuation, ping, pong) as websockets parses it, before any JSON is read,
and closes a flooder with 1008. Message length is websockets' own limit (uvicorn's
``ws_max_size``): a longer message closes the connection with 1009.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import struct
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import Request
from websockets.server import ServerProtocol

from meeple.core import Seat
from meeple.server.http.deps import get_services, socket_token
from meeple.server.live.outbox import CONTROL, Outbox, SocketLimits, control_of
from meeple.server.live.protocol import FLOOD, ProtocolError, flooded_ref
from meeple.server.modes.daily import DailyError
from meeple.server.modes.rooms import RoomError, room_json
from meeple.server.services import Services
from meeple.server.settings import Settings
from meeple.server.store.repository import AccountRow

log = logging.getLogger(__name__)

router = APIRouter()

CLOSE_UNKNOWN_MATCH = 4404
CLOSE_NOT_YOUR_SEAT = 4403

FLOODED = "meeple.flooded"
"""The key of the ``websocket.receive`` message :class:`SocketProtocol` gives the app in
place of a message whose frames came past the client's frame budget (it is not acted on;
its ``bytes`` are the message, for its ``ref`` alone)."""

READ_SLICE = 1024
"""Bytes fed to websockets' parser at a time, so that a read full of tiny frames is
counted, and a flood closed, within this many bytes (at most 171 frames of six bytes)."""

_DATA = frozenset({Opcode.TEXT, Opcode.BINARY, Opcode.CONT})


def _default(name: str) -> Any:
    return Settings.model_fields[name].default


class SocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, with no compression, counting the client's frames.

    One token bucket per connection: ``frames_per_second`` a second, ``frame_burst`` at
    most. Every frame takes a token, whatever its kind. A message with a frame that came
    when the bucket was empty is not read: the route gets a :data:`FLOODED` marker in its
    place and answers ``message/flood``. A connection ``frame_burst`` frames past an empty
    bucket is closed with 1008 at once. The limits are the route's settings, given through
    the :class:`~meeple.server.live.outbox.SocketControl` this protocol puts in the ASGI scope;
    until then the settings' defaults count.

    Any close the client does not complete (it does not read) ends with the connection cut
    after ``close_seconds``, never held open by a full TCP window.
    """

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.conn = ServerProtocol(
            extensions=[], max_size=config.ws_max_size, logger=logging.getLogger("uvicorn.error")
        )
        self.limit(
            SocketLimits(
                _default("frames_per_second"),
                _default("frame_burst"),
                _default("socket_close_seconds"),
                _default("socket_send_buffer"),
            )
        )
        self._tokens = float(self._burst)
        self._stamp = self.loop.time()
        self._opened = self._stamp
        self._counted = 0
        self._refused = False  # a frame of the message being received came past the budget
        self._discarding = False  # closed for flooding: what the client still sends is dropped
        self._abort: asyncio.TimerHandle | None = None

    # -- the SocketControl the routes use --------------------------------------------------

    def limit(self, limits: SocketLimits) -> None:
        self._rate = limits.frames_per_second
        self._burst = limits.frame_burst
        self.close_seconds = limits.close_seconds
        self._send_buffer = limits.send_buffer
        if self.transport is not None:
            self._bound_send_buffer()

    def _bound_send_buffer(self) -> None:
        """The kernel's send buffer bounded, as the outbox is: left to itself, Linux grows
        it to megabytes for a client that does not read."""
        raw = self.transport.get_extra_info("socket")
        if raw is not None:
            with contextlib.suppress(OSError):
                raw.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self._send_buffer)

    def abort_after(self, seconds: float) -> None:
        if self._abort is None and not self.disconnected:
            self._abort = self.loop.call_later(seconds, self._cut)

    def _cut(self) -> None:
        """Drop the connection now: a reset, not a close that waits for a full window."""
        self._abort = None
        if self.disconnected:
            return
        raw = self.transport.get_extra_info("socket")
        if raw is not None:
            with contextlib.suppress(OSError):
                raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.transport.abort()

    # -- uvicorn's protocol, counting frames ----------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._bound_send_buffer()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._abort is not None:
            self._abort.cancel()
            self._abort = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._discarding:
            return
        if len(data) <= READ_SLICE:
            super().data_received(data)
            return
        for start in range(0, len(data), READ_SLICE):
            if self.transport.is_closing():
                return
            super().data_received(data[start : start + READ_SLICE])

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # accepted: the route starts on its next step
            scope["extensions"][CONTROL] = self

    def handle_events(self) -> None:
        for event in self.conn.events_received():
            if isinstance(event, Request):
                self.handle_connect(event)
            elif isinstance(event, Frame):
                if not self._count(event):
                    return
                self._handle_frame(event)

    def _count(self, frame: Frame) -> bool:
        """Take a token for ``frame``; False when the connection is closed for flooding."""
        now = self.loop.time()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate) - 1
        self._stamp = now
        self._counted += 1
        if self._tokens > -self._burst:
            if self._tokens < 0 and frame.opcode in _DATA:
                self._refused = True
            return True
        reason = f"too many frames: {self._counted} in {now - self._opened:.1f} s"
        self.conn.fail(CloseCode.POLICY_VIOLATION, reason)
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.queue.put_nowait(
            {"type": "websocket.disconnect", "code": CloseCode.POLICY_VIOLATION, "reason": reason}
        )
        # Half-close, and read on only to drop: closing a socket whose unread frames still sit
        # in the kernel sends a reset, which can destroy the close frame before the client reads
        # it (the route's end would close it too). The connection ends when the client closes
        # its side, or is cut after socket_close_seconds.
        self._discarding = True
        transport = self.transport
        if transport.can_write_eof():
            transport.write_eof()
            if self.read_paused:
                self.read_paused = False
                transport.resume_reading()
        else:
            transport.close()
        self.abort_after(self.close_seconds)
        self.close_timer = self._abort  # uvicorn leaves the transport open while it runs
        return False

    def _handle_frame(self, event: Frame) -> None:
        opcode = event.opcode
        if opcode is Opcode.TEXT:
            self.handle_text(event)
        elif opcode is Opcode.CONT:
            self.handle_cont(event)
        elif opcode is Opcode.BINARY:
            self.handle_bytes(event)
        elif opcode is Opcode.PING:
            self.handle_ping()
        elif opcode is Opcode.PONG:
            self.handle_pong(event)
        else:
            self.handle_close(event)

    def send_receive_event_to_app(self) -> None:
        if not self._refused:
            super().send_receive_event_to_app()
            return
        self._refused = False
        data = b"".join(self.frames)  # handed on for its ref alone: the message is not acted on
        self.frames = []
        if self.close_sent:
            return
        refused: Any = {"type": "websocket.receive", "bytes": data, FLOODED: True}
        self.queue.put_nowait(refused)
        if not self.read_paused:  # as uvicorn does: read on once the route has taken it
            self.read_paused = True
            self.transport.pause_reading()

    def handle_parser_exception(self) -> None:
        super().handle_parser_exception()  # 1009 for a long message, 1002, 1007
        self.abort_after(self.close_seconds)

    def keepalive_timeout(self) -> None:
        super().keepalive_timeout()  # 1011: no pong within ws_ping_timeout
        self.abort_after(self.close_seconds)


def _outbox(websocket: WebSocket, services: Services) -> Outbox:
    """The connection's outbox, and its protocol told the frame limits."""
    settings = services.settings
    control = control_of(websocket)
    if control is not None:
        control.limit(
            SocketLimits(
                settings.frames_per_second,
                settings.frame_burst,
                settings.socket_close_seconds,
                settings.socket_send_buffer,
            )
        )
    return Outbox(
        websocket,
        max_frames=settings.outbox_frames,
        max_bytes=settings.outbox_bytes,
        close_seconds=settings.socket_close_seconds,
    )


class SocketConnection:
    """A :class:`~meeple.server.live.master.Connection` on a WebSocket: frames go to its outbox
    (``send`` never waits on the client; it raises once the connection is closing)."""

    def __init__(self, outbox: Outbox, seat: Seat | None) -> None:
        self._outbox = outbox
        self._seat = seat

    @property
    def seat(self) -> Seat | None:
        return self._seat

    async def send(self, text: str) -> None:
        self._outbox.put(text)


@router.websocket("/ws/matches/{match_id}")
async def match_socket(
    websocket: WebSocket,
    match_id: str,
    seat: int | None = None,
    since: int | None = None,
    watch: bool = False,
) -> None:
    services = get_services(websocket)
    account = await services.account_for(socket_token(websocket, services))
    master = await services.matches.get(match_id)
    await websocket.accept()
    if master is None:
        await websocket.close(CLOSE_UNKNOWN_MATCH, "no such match")
        return
    held = [
        h.seat for h in master.match.holders if account is not None and h.account_id == account.id
    ]
    chosen: Seat | None
    if watch:
        chosen = None
    elif seat is not None:
        if seat not in held:
            await websocket.close(CLOSE_NOT_YOUR_SEAT, "you do not hold that seat")
            return
        chosen = seat
    else:
        chosen = held[0] if held else None
    try:  # today's Daily attempts are watched by their player alone
        await services.daily.check_shown(master.match, account, chosen)
    except DailyError as refused:
        await websocket.close(CLOSE_NOT_YOUR_SEAT, refused.code)
        return
    if since is not None and not 0 <= since <= master.version:
        since = None
    outbox = _outbox(websocket, services)
    connection = SocketConnection(outbox, chosen)
    try:
        await master.attach(connection, since)
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if message.get(FLOODED):
                refusal = ProtocolError(
                    FLOOD,
                    "too many frames; this message was not read",
                    flooded_ref(message.get("bytes") or b"", services.settings.max_message_bytes),
                )
                await master.refuse(connection, refusal)
                continue
            text = message.get("text")
            data = text if text is not None else message.get("bytes") or b""
            await master.receive(connection, data)
    except (WebSocketDisconnect, RuntimeError, ConnectionError):
        # Some closes surface as other errors than WebSocketDisconnect (uvicorn's backends).
        pass
    finally:
        master.detach(connection)
        await outbox.finish()


class RoomSocket:
    """A :class:`~meeple.server.modes.rooms.RoomWatcher` on a WebSocket, through its outbox."""

    def __init__(self, outbox: Outbox, account: AccountRow | None) -> None:
        self._outbox = outbox
        self._account = account

    @property
    def account(self) -> AccountRow | None:
        return self._account

    async def send(self, text: str) -> None:
        self._outbox.put(text)


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(websocket: WebSocket, room_id: str) -> None:
    """A room as it fills: a ``room`` frame now and after every change (join, ready, leave,
    kick, bots, start, close). Once started, the frame's ``socket`` is the match's."""
    services = get_services(websocket)
    account = await services.account_for(socket_token(websocket, services))
    await websocket.accept()
    try:
        room = await services.rooms.get(room_id)
    except RoomError:
        await websocket.close(CLOSE_UNKNOWN_MATCH, "no such room")
        return
    outbox = _outbox(websocket, services)
    watcher = RoomSocket(outbox, account)
    services.rooms.watch(room_id, watcher)
    try:
        await watcher.send(json.dumps({"type": "room", **room_json(room, account)}))
        while True:  # the client says nothing; this notices when it goes
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
    except (WebSocketDisconnect, RuntimeError, ConnectionError):
        pass
    finally:
        services.rooms.unwatch(room_id, watcher)
        await outbox.finish()
