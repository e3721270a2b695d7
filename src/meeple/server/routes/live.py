"""The match WebSocket: ``/ws/matches/{id}``.

A connection speaks for the seat its account holds (``?seat=`` picks one when it holds
several), or watches as a spectator (no seat held, or ``?watch=true``). ``?since=N`` asks
for the updates after version N with the first snapshot (reconnect and resume).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from meeple.core import Seat
from meeple.server.deps import get_services, socket_token
from meeple.server.protocol import FLOOD, ProtocolError
from meeple.server.repository import AccountRow
from meeple.server.rooms import RoomError, room_json

log = logging.getLogger(__name__)

router = APIRouter()

CLOSE_UNKNOWN_MATCH = 4404
CLOSE_NOT_YOUR_SEAT = 4403
CLOSE_FLOOD = 1008  # policy violation
FLOOD_CLOSE_AFTER = 200
"""Frames dropped in a row before a flooding connection is closed."""


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
