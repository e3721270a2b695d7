"""The guards in front of every route: what a stranger's connection and request may cost.

Two layers, each with a typed refusal (docs/security.md, "Bounded HTTP" and "Browser safety"):

- :class:`GuardedHttp`, the HTTP protocol ``meeple serve`` gives uvicorn: uvicorn's h11
  protocol that counts connections per address and in all (WebSockets included: an upgraded
  connection stays in uvicorn's set) and answers one over either cap ``503 server/busy``
  as soon as its request starts, without parsing it (closed within a second if it sends
  nothing); and that closes a connection whose request headers have not all arrived
  ``header_seconds`` after it opened or after its last answer (a client sending its headers
  a byte at a time).
- :class:`Guard`, an ASGI middleware: a body over its limit is refused ``413`` from its
  ``Content-Length`` or, chunked or lying, as soon as the bytes read pass the limit; a body
  that takes over ``body_seconds`` to arrive is answered ``408``; an unsafe request (or a
  WebSocket) that carries the session cookie from another origin is refused ``403
  request/cross_origin``; every answer carries the security headers.
"""

from __future__ import annotations

import asyncio
import json
import resource
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final
from urllib.parse import urlsplit

from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from meeple.server.settings import Settings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
FILES_KEPT: Final = 256
"""File descriptors kept back from the connection cap: the database, the bot workers' pipes,
the logs and the listening socket need theirs however many clients there are."""

ANSWERED: Final = FILES_KEPT // 4
"""How many connections past the total cap are kept for their ``503``; past those, closed."""
REFUSED_SECONDS: Final = 1.0
"""How long a connection refused past a cap may take to send its request before it is closed."""

CONTENT_SECURITY_POLICY: Final = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""What the browser client's page may load: its own files, its own socket, nothing inline
(Preact sets styles through the DOM, which the policy allows), and no page may frame it."""

DOCS_POLICY: Final = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net",
        "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net",
        "img-src 'self' data: https:",
        "frame-ancestors 'none'",
    )
)
"""Swagger UI's page (only with ``api_docs`` on) loads its script from a CDN."""


def _headers(policy: str) -> list[tuple[bytes, bytes]]:
    return [
        (b"content-security-policy", policy.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"no-referrer"),
        (b"cross-origin-opener-policy", b"same-origin"),
    ]


SECURITY_HEADERS: Final = _headers(CONTENT_SECURITY_POLICY)
DOCS_HEADERS: Final = _headers(DOCS_POLICY)


# -- connections ---------------------------------------------------------------------------


def raise_open_file_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit; the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """The caps :class:`GuardedHttp` keeps, and how long headers may take."""

    total: int
    per_address: int
    header_seconds: float

    @classmethod
    def of(cls, settings: Settings) -> ConnectionLimits:
        """From the settings, the total kept :data:`FILES_KEPT` below the open-file limit
        (one socket is one file: past the limit the server could accept nobody, victim
        or attacker, nor open its own database)."""
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        room = soft - FILES_KEPT if soft != resource.RLIM_INFINITY else settings.max_connections
        total = max(16, min(settings.max_connections, room))
        return cls(total, min(settings.max_connections_per_address, total), settings.header_seconds)


def _busy(message: str) -> bytes:
    body = json.dumps({"detail": {"code": "server/busy", "message": message}}).encode()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "retry-after: 5\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode() + body


class GuardedHttp(H11Protocol):
    """uvicorn's h11 protocol with connection caps and a deadline for request headers.

    uvicorn's own ``limit_concurrency`` counts only in all, answers only once a request is
    read and in plain text; these caps count per address too and answer at once."""

    limits: ClassVar[ConnectionLimits | None] = None
    """Set by ``meeple serve`` before it serves; a worker process reads its settings."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        if GuardedHttp.limits is None:
            GuardedHttp.limits = ConnectionLimits.of(Settings())
        self._limits = GuardedHttp.limits
        self._header_timer: asyncio.TimerHandle | None = None
        self._armed_for: object = None
        self._refusal: str | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._refusal = self._over_cap()
        if self._refusal is not None and len(self.connections) > self._limits.total + ANSWERED:
            transport.close()  # a flood of them: no file is kept even for an answer
            return
        if self._refusal is not None:
            # Answered as soon as its request starts to come in (a client reads an answer
            # to what it sent; one that sends nothing is closed after a moment), unparsed.
            self._header_timer = self.loop.call_later(REFUSED_SECONDS, transport.close)
            return
        self._await_headers()

    def data_received(self, data: bytes) -> None:
        if self._refusal is not None:
            if not self.transport.is_closing():
                self.transport.write(_busy(self._refusal))
                self.transport.close()
            return
        super().data_received(data)

    def _over_cap(self) -> str | None:
        if len(self.connections) > self._limits.total:
            return "the server has all the connections it can take; try again soon"
        if self.client is None:
            return None
        address = self.client[0]
        count = sum(
            1 for held in self.connections if (getattr(held, "client", None) or ("",))[0] == address
        )
        if count > self._limits.per_address:
            return f"at most {self._limits.per_address} connections from one address"
        return None

    def _await_headers(self) -> None:
        """Headers must all arrive within ``header_seconds`` of now (a new connection, or
        the last answer on a kept-alive one)."""
        self._stop_header_timer()
        self._armed_for = self.cycle
        self._header_timer = self.loop.call_later(
            self._limits.header_seconds, self._headers_too_slow
        )

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.transport.get_protocol() is self and not self.transport.is_closing():
            self.transport.close()

    def handle_events(self) -> None:
        super().handle_events()
        # A request's headers are in once it has its own cycle, or has become a WebSocket.
        if self._header_timer is not None and (
            self.cycle is not self._armed_for or self.transport.get_protocol() is not self
        ):
            self._stop_header_timer()

    def on_response_complete(self) -> None:
        if not self.transport.is_closing():
            self._await_headers()  # before uvicorn reads a pipelined request, which stops it
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        super().connection_lost(exc)


# -- requests ------------------------------------------------------------------------------


async def _answer(
    send: Send, status: int, code: str, message: str, extra: tuple[tuple[bytes, bytes], ...] = ()
) -> None:
    """A typed refusal from the guard itself, closing the connection: the rest of a body
    it did not read is not worth reading."""
    body = json.dumps({"detail": {"code": code, "message": message}}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _has_cookie(scope: Scope, cookie_name: str) -> bool:
    cookies = _header(scope, b"cookie")
    if not cookies:
        return False
    return any(part.strip().startswith(f"{cookie_name}=") for part in cookies.split(";"))


def foreign_origin(scope: Scope) -> bool:
    """Whether a browser says this request comes from a page of another origin: its
    ``Origin`` names another host (or ``null``), or, with no ``Origin``, its
    ``Sec-Fetch-Site`` is not ``same-origin`` (``none``: typed in the address bar)."""
    origin = _header(scope, b"origin")
    if origin is not None:
        return origin == "null" or urlsplit(origin).netloc != _header(scope, b"host")
    site = _header(scope, b"sec-fetch-site")
    return site is not None and site not in {"same-origin", "none"}


class Guard:
    """The request guards (see the module's docstring), as an ASGI middleware."""

    def __init__(self, app: App, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket" and self._cross_origin_with_cookie(scope):
            # Cross-site WebSocket hijacking: refused before the handshake (HTTP 403).
            await send({"type": "websocket.close", "code": 1008})
        else:
            await self.app(scope, receive, send)

    def _cross_origin_with_cookie(self, scope: Scope) -> bool:
        """A request the browser sent with the session cookie from another origin's page.
        A bearer token is never sent by a browser on its own, so it is not asked."""
        authorization = _header(scope, b"authorization") or ""
        if authorization.lower().startswith("bearer "):
            return False
        return _has_cookie(scope, self.settings.cookie_name) and foreign_origin(scope)

    def _body_limit(self, scope: Scope) -> tuple[int, str]:
        if str(scope.get("path", "")).startswith("/api/replays"):
            return self.settings.max_replay_bytes, "replay/too_large"
        return self.settings.max_body_bytes, "request/too_large"

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", ""))
        headers = DOCS_HEADERS if path.startswith(("/docs", "/redoc")) else SECURITY_HEADERS

        async def send_guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *headers]
            await send(message)

        if scope["method"] not in SAFE_METHODS and self._cross_origin_with_cookie(scope):
            await _answer(
                send_guarded,
                403,
                "request/cross_origin",
                "a page of another site may not act for you here; use this server's own page",
            )
            return
        body = await self._read_body(scope, receive, send_guarded)
        if body is None:
            return
        await self.app(scope, body, send_guarded)

    async def _read_body(self, scope: Scope, receive: Receive, send: Send) -> Receive | None:
        """The request's body read whole within its limits, as a ``receive`` that hands it
        to the app; None when the guard answered (or the client left) instead."""
        limit, code = self._body_limit(scope)
        declared = _header(scope, b"content-length")
        chunked = _header(scope, b"transfer-encoding") is not None
        if declared is None and not chunked:
            return receive
        too_large = f"a request body here may hold at most {limit // 1024} KiB"
        if declared is not None and not declared.strip().isdigit():
            await _answer(send, 400, "request/invalid", "Content-Length is not a number")
            return None
        if declared is not None and int(declared) > limit:
            await _answer(send, 413, code, too_large)
            return None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settings.body_seconds
        parts: list[bytes] = []
        size = 0
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                seconds = self.settings.body_seconds
                await _answer(
                    send, 408, "request/too_slow", f"a request body must arrive within {seconds} s"
                )
                return None
            if message["type"] == "http.disconnect":
                return None
            part = bytes(message.get("body", b""))
            size += len(part)
            if size > limit:
                await _answer(send, 413, code, too_large)
                return None
            parts.append(part)
            if not message.get("more_body", False):
                break
        whole: Message = {"type": "http.request", "body": b"".join(parts), "more_body": False}
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return whole
            return await receive()

        return replay
