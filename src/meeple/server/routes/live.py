"""The match WebSocket: ``/ws/matches/{id}``.

A connection speaks for the seat its account holds (``?seat=`` picks one when it holds
several), or watches as a spectator (no seat held, or ``?watch=true``). ``?since=N`` asks
for the updates after version N with the first snapshot (reconnect and resume).

:class:`SocketProtocol` is the WebSocket layer ``meeple serve`` gives uvicorn: uvicorn's
own (websockets' Sans-I/O protocol) except that a message longer than uvicorn's
``ws_max_size`` is not a reason to close the connection: its bytes are read and dropped as
they arrive, never held, and the route answers ``message/too_large`` on that connection.
It offers no compression (permessage-deflate), so every frame's length is its payload's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import struct
import time
from collections.abc import Generator
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.exceptions import PayloadTooBig
from websockets.exceptions import ProtocolError as WireError
from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import Protocol
from websockets.server import ServerProtocol

from meeple.core import Seat
from meeple.server.daily import DailyError
from meeple.server.deps import get_services, socket_token
from meeple.server.protocol import FLOOD, TOO_LARGE, ProtocolError
from meeple.server.repository import AccountRow
from meeple.server.rooms import RoomError, room_json

log = logging.getLogger(__name__)

router = APIRouter()

CLOSE_UNKNOWN_MATCH = 4404
CLOSE_NOT_YOUR_SEAT = 4403
CLOSE_FLOOD = 1008  # policy violation
FLOOD_CLOSE_AFTER = 200
"""Frames dropped in a row before a flooding connection is closed."""

DROPPED = "meeple.dropped_bytes"
"""The key of the ``websocket.receive`` message :class:`SocketProtocol` sends the app in
place of a message it dropped for its length (the value: how many bytes it had)."""


class Oversized:
    """The event :class:`_DroppingServerProtocol` records for a message it dropped."""

    def __init__(self, size: int) -> None:
        self.size = size


_DATA = (Opcode.CONT.value, Opcode.TEXT.value, Opcode.BINARY.value)


class _DroppingFrames(Protocol):
    """websockets' frame parser, but a data frame that would take a message past
    ``max_size`` is skipped byte by byte as it arrives (with the rest of its message, when
    fragmented) and recorded as one :class:`Oversized` event; the connection goes on.

    A base of :class:`_DroppingServerProtocol` under ``ServerProtocol``, whose ``parse``
    reads the opening handshake and then calls this one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._replay = bytearray()
        self._dropped: int | None = None  # bytes of the message being dropped, if one is
        super().__init__(*args, **kwargs)

    def _read(self, n: int) -> Generator[None, None, bytes | bytearray]:
        """``reader.read_exact``, served first from the header bytes read ahead."""
        if not self._replay:
            return (yield from self.reader.read_exact(n))
        taken = self._replay[:n]
        del self._replay[:n]
        if len(taken) < n:
            taken += yield from self.reader.read_exact(n - len(taken))
        return taken

    def _skip(self, n: int) -> Generator[None]:
        """Drop the next ``n`` bytes of the stream, holding none of them."""
        buffer = self.reader.buffer
        while n > 0:
            if not buffer:
                if self.reader.eof:
                    raise EOFError("unexpected end of stream")
                yield
                continue
            step = min(n, len(buffer))
            del buffer[:step]
            n -= step

    def parse(self) -> Generator[None]:
        try:
            while True:
                if (yield from self.reader.at_eof()):
                    raise EOFError("unexpected end of stream")
                head = yield from self.reader.read_exact(2)
                length = head[1] & 0x7F
                extended: bytes | bytearray = b""
                if length == 126:
                    extended = yield from self.reader.read_exact(2)
                    (length,) = struct.unpack("!H", extended)
                elif length == 127:
                    extended = yield from self.reader.read_exact(8)
                    (length,) = struct.unpack("!Q", extended)
                opcode, fin, masked = head[0] & 0x0F, bool(head[0] & 0x80), bool(head[1] & 0x80)
                room = None
                if self.max_message_size is not None:
                    room = self.max_message_size - (self.current_size or 0)
                if self._dropped is not None and opcode in _DATA:
                    if opcode != Opcode.CONT.value:
                        raise WireError("expected a continuation frame")
                elif not (
                    opcode in _DATA
                    and room is not None
                    and length > room
                    and (opcode != Opcode.CONT.value or self.current_size is not None)
                ):
                    self._replay[:] = bytes(head) + bytes(extended)
                    frame = yield from Frame.parse(
                        self._read, mask=True, max_size=room, extensions=self.extensions
                    )
                    self.recv_frame(frame)
                    continue
                # Too long to read: drop it (the mask key and the payload).
                if not masked:
                    raise WireError("incorrect masking")
                if self._dropped is None:
                    self._dropped = self.current_size or 0
                yield from self._skip(4 + length)
                self._dropped += length
                if fin:
                    self.events.append(Oversized(self._dropped))  # type: ignore[arg-type]
                    self._dropped = self.current_size = None
                else:
                    self.current_size = self._dropped
        except WireError as exc:
            self.fail(CloseCode.PROTOCOL_ERROR, str(exc))
            self.parser_exc = exc
        except EOFError as exc:
            self.fail(CloseCode.ABNORMAL_CLOSURE, str(exc))
            self.parser_exc = exc
        except UnicodeDecodeError as exc:
            self.fail(CloseCode.INVALID_DATA, f"{exc.reason} at position {exc.start}")
            self.parser_exc = exc
        except PayloadTooBig as exc:  # not reached: long frames are dropped above
            self.fail(CloseCode.MESSAGE_TOO_BIG, str(exc))
            self.parser_exc = exc
        except Exception as exc:
            log.error("WebSocket parser failed", exc_info=True)
            self.fail(CloseCode.INTERNAL_ERROR)
            self.parser_exc = exc
        yield
        raise AssertionError("parse() shouldn't step after error")


class _DroppingServerProtocol(ServerProtocol, _DroppingFrames):
    """websockets' server protocol with :class:`_DroppingFrames` for its frames."""


class SocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol with :class:`_DroppingServerProtocol` and no compression:
    a message over ``ws_max_size`` reaches the app as ``{"type": "websocket.receive",
    "bytes": b"", DROPPED: size}`` instead of closing the connection with 1009."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.conn = _DroppingServerProtocol(
            extensions=[], max_size=config.ws_max_size, logger=logging.getLogger("uvicorn.error")
        )

    def handle_events(self) -> None:
        for event in self.conn.events_received():
            if isinstance(event, Oversized):
                self.frames = []  # the fragments taken before the message grew too long
                if not self.close_sent:
                    message: Any = {"type": "websocket.receive", "bytes": b"", DROPPED: event.size}
                    self.queue.put_nowait(message)
            elif isinstance(event, Frame):
                self._handle_frame(event)
            elif isinstance(event, Request):
                self.handle_connect(event)

    def _handle_frame(self, event: Frame) -> None:
        handlers = {
            Opcode.CONT: self.handle_cont,
            Opcode.TEXT: self.handle_text,
            Opcode.BINARY: self.handle_bytes,
            Opcode.PONG: self.handle_pong,
            Opcode.CLOSE: self.handle_close,
        }
        if event.opcode is Opcode.PING:
            self.handle_ping()
        else:
            handlers[event.opcode](event)


class Bucket:
    """A token bucket: ``rate`` frames a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class SocketConnection:
    """A :class:`~meeple.server.master.Connection` on a WebSocket; one send at a time."""

    def __init__(self, websocket: WebSocket, seat: Seat | None) -> None:
        self._socket = websocket
        self._seat = seat
        self._sending = asyncio.Lock()

    @property
    def seat(self) -> Seat | None:
        return self._seat

    async def send(self, text: str) -> None:
        async with self._sending:
            await self._socket.send_text(text)


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
    connection = SocketConnection(websocket, chosen)
    bucket = Bucket(services.settings.messages_per_second, services.settings.message_burst)
    dropped = 0
    await master.attach(connection, since)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if not bucket.take():
                dropped += 1
                if dropped >= FLOOD_CLOSE_AFTER:
                    await websocket.close(CLOSE_FLOOD, "too many frames")
                    break
                refusal = ProtocolError(FLOOD, "too many frames; this one was dropped")
                await master.refuse(connection, refusal)
                continue
            dropped = 0
            if DROPPED in message:
                size, limit = message[DROPPED], services.settings.max_message_bytes
                refusal = ProtocolError(
                    TOO_LARGE, f"a frame is at most {limit} bytes, got {size} (dropped unread)"
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
        with contextlib.suppress(Exception):
            await websocket.close()


class RoomSocket:
    """A :class:`~meeple.server.rooms.RoomWatcher` on a WebSocket."""

    def __init__(self, websocket: WebSocket, account: AccountRow | None) -> None:
        self._socket = websocket
        self._account = account

    @property
    def account(self) -> AccountRow | None:
        return self._account

    async def send(self, text: str) -> None:
        await self._socket.send_text(text)


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
    watcher = RoomSocket(websocket, account)
    services.rooms.watch(room_id, watcher)
    try:
        await websocket.send_text(json.dumps({"type": "room", **room_json(room, account)}))
        while True:  # the client says nothing; this notices when it goes
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
    except (WebSocketDisconnect, RuntimeError, ConnectionError):
        pass
    finally:
        services.rooms.unwatch(room_id, watcher)
