"""A socket's outbox: the frames on their way to one client, and the one task that writes them.

The match master and the rooms never wait on a client: they put a frame in the client's
:class:`Outbox` and go on. One writer task per connection sends the frames in order, as fast
as that client reads. The outbox is bounded in frames and in bytes; a client that falls so
far behind that a frame would not fit is closed at once with :data:`CLOSE_BEHIND` (it
reconnects with ``since`` and gets what it missed in one snapshot). Its close frame waits at
most ``close_seconds`` for room in the client's TCP window, and the connection is then cut
without waiting longer (:meth:`SocketControl.abort_after`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from dataclasses import dataclass
from typing import Protocol, cast

from starlette.websockets import WebSocket

CLOSE_BEHIND = 4408
"""The close code of a connection that read too slowly: its outbox overflowed. Reconnect
with ``since`` (docs/protocol.md)."""

CONTROL = "meeple.socket"
"""The key in an ASGI WebSocket scope's ``extensions`` under which ``meeple serve``'s
WebSocket protocol offers its :class:`SocketControl`."""


@dataclass(frozen=True, slots=True)
class SocketLimits:
    """What the WebSocket protocol holds one connection to (the settings of the same names)."""

    frames_per_second: float
    frame_burst: int
    close_seconds: float
    send_buffer: int
    """The kernel's send buffer for the connection (SO_SNDBUF), in bytes."""


class SocketControl(Protocol):
    """What the WebSocket protocol under a route offers it (``meeple serve``'s does)."""

    def limit(self, limits: SocketLimits) -> None:
        """Hold the connection to ``limits`` (see ``routes.live.SocketProtocol``)."""

    def abort_after(self, seconds: float) -> None:
        """Cut the connection if it has not ended within ``seconds`` (a closing handshake
        the client never reads)."""


def control_of(websocket: WebSocket) -> SocketControl | None:
    """The socket's :class:`SocketControl`, or None under another server."""
    found = websocket.scope.get("extensions", {}).get(CONTROL)
    return cast("SocketControl | None", found)


class SocketGone(ConnectionError):
    """The connection is closed or closing: the frame was not taken."""


def _size(text: str) -> int:
    """The frame's length in bytes, as UTF-8 (JSON is mostly ASCII: one byte a character)."""
    return len(text) if text.isascii() else len(text.encode())


class Outbox:
    """The frames waiting for one client, drained by one writer task.

    ``put`` takes a frame unless that would make more than ``max_frames`` frames or
    ``max_bytes`` bytes wait (a frame alone in the outbox is always taken, whatever its
    length: a long snapshot is no sign of a slow client). A frame that does not fit closes
    the connection with :data:`CLOSE_BEHIND` and raises :class:`SocketGone`; so does any
    frame once the outbox is closed.
    """

    def __init__(
        self,
        websocket: WebSocket,
        *,
        max_frames: int,
        max_bytes: int,
        close_seconds: float,
    ) -> None:
        self._socket = websocket
        self._control = control_of(websocket)
        self.max_frames = max_frames
        self.max_bytes = max_bytes
        self.close_seconds = close_seconds
        self._frames: deque[str] = deque()
        self._bytes = 0
        self._waiting = asyncio.Event()
        self._closed = False
        self._writer = asyncio.get_running_loop().create_task(self._write())
        self._closer: asyncio.Task[None] | None = None

    @property
    def closed(self) -> bool:
        return self._closed

    def put(self, text: str) -> None:
        """Queue a frame for the client; never waits.

        Raises:
            SocketGone: the connection is closing, or closes now (the frame did not fit).
        """
        if self._closed:
            raise SocketGone("the connection is closed")
        size = _size(text)
        frames = self._frames
        if frames and (len(frames) >= self.max_frames or self._bytes + size > self.max_bytes):
            self.close(CLOSE_BEHIND, "too slow to read: reconnect with since")
            raise SocketGone(
                f"the client fell behind ({len(frames)} frames, {self._bytes} bytes waiting)"
            )
        frames.append(text)
        self._bytes += size
        self._waiting.set()

    async def _write(self) -> None:
        frames = self._frames
        while True:
            while not frames:
                self._waiting.clear()
                await self._waiting.wait()
            text = frames.popleft()
            self._bytes -= _size(text)
            try:
                await self._socket.send_text(text)
            except Exception:  # the client went: the route's receive notices and ends
                self._closed = True
                frames.clear()
                return

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Drop what waits, stop writing and close the connection with ``code``: its close
        frame waits at most ``close_seconds`` for the client, then the connection is cut."""
        if self._closer is not None:
            return
        self._closed = True
        self._frames.clear()
        self._bytes = 0
        self._writer.cancel()
        if self._control is not None:
            self._control.abort_after(self.close_seconds)
        self._closer = asyncio.get_running_loop().create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        # A send waiting for a full TCP window is cancelled before the close frame is sent.
        await asyncio.wait([self._writer])
        with contextlib.suppress(Exception):  # closed already, or the client never reads
            await asyncio.wait_for(self._socket.close(code, reason), self.close_seconds)

    async def finish(self) -> None:
        """The route is done with the connection: close it (if the client has not) and
        wait for that, no longer than ``close_seconds``."""
        self.close()
        if self._closer is not None:
            await asyncio.wait([self._closer])
