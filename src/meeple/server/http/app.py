"""The app factory: ``create_app(settings)`` builds the FastAPI app; nothing is built at import.

On startup the app opens the database, migrates it to the newest schema, starts the bot
runner and rebuilds every match still being played; on shutdown it closes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from meeple.server.http import schemas
from meeple.server.http.guard import Guard
from meeple.server.http.routes import (
    accounts,
    analysis,
    daily,
    games,
    live,
    matches,
    ranked,
    rooms,
    stream,
)
from meeple.server.http.routes import tutorial as tutorials
from meeple.server.modes.rooms import RoomError
from meeple.server.services import Services
from meeple.server.settings import Settings
from meeple.web import STATIC_DIR

REFUSAL_SCHEMA: dict[str, Any] = {
    "title": "Refusal",
    "type": "object",
    "required": ["detail"],
    "properties": {
        "detail": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string", "examples": ["request/invalid"]},
                "message": {"type": "string"},
            },
        }
    },
}
"""A refused request's body: ``{"detail": {"code", "message"}}`` (a request field of the
wrong shape or type answers 422 with the code ``request/invalid``)."""


STOPPING_RETRY_SECONDS = 5
"""The ``Retry-After`` of a request the stop cut off: about the time a server takes to start."""


class StopCut:
    """An ASGI middleware for the end of a stop: a request still open when ``stop_seconds``
    have passed after SIGTERM is cancelled by uvicorn, and it ends as a typed ``503
    server/stopping`` with ``Retry-After`` (or, its answer begun -- a stream --, as the end
    of that answer) instead of a bare 500 and a traceback in the log. Only the server
    cancels a request's task, and only when it stops."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        sent = {"http.response.start": False, "end": False}

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                sent["http.response.start"] = True
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                sent["end"] = True
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except asyncio.CancelledError:
            if sent["end"]:
                return
            with contextlib.suppress(Exception):  # the client may be gone already
                if sent["http.response.start"]:
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                    return
                detail = {"code": "server/stopping", "message": "the server is stopping"}
                body = json.dumps({"detail": detail}).encode()
                headers = [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"retry-after", str(STOPPING_RETRY_SECONDS).encode()),
                    (b"connection", b"close"),
                ]
                await send({"type": "http.response.start", "status": 503, "headers": headers})
                await send({"type": "http.response.body", "body": body})


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server as an ASGI app, for uvicorn or any ASGI server."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        services = await Services.open(settings)
        app.state.services = services
        announcer = None
        if settings.lan:
            from meeple.server.modes.lan import Announcer  # noqa: PLC0415 (only with --lan)

            name = settings.lan_name or f"meeple on {socket.gethostname()[:40]} {settings.port}"
            announcer = Announcer(name, settings.host, settings.port, settings.lan_interfaces)
            await announcer.start()
        try:
            yield
        finally:
            if announcer is not None:
                await announcer.stop()
            await services.close()
            limits = getattr(app.state, "limits", None)
            if limits is not None:
                await limits.counts.close()

    # Swagger UI loads its script from a CDN: off unless asked for (docs/security.md).
    app = FastAPI(
        title="meeple",
        version="0.1.0",
        lifespan=lifespan,
        docs_url="/docs" if settings.api_docs else None,
        redoc_url=None,
    )
    app.add_middleware(StopCut)  # inside the guard: its refusal gets the security headers
    app.add_middleware(Guard, settings=settings)

    @app.exception_handler(RoomError)
    async def room_refused(request: Request, refusal: RoomError) -> JSONResponse:
        """Every route's refused room request, in the shape of the other REST refusals."""
        detail = {"code": refusal.code, "message": refusal.message}
        return JSONResponse({"detail": detail}, status_code=refusal.status)

    @app.exception_handler(RequestValidationError)
    async def request_refused(request: Request, refusal: RequestValidationError) -> JSONResponse:
        """A body, query or path field of the wrong shape: the same ``{code, message}`` as
        every other refusal, naming each field and what was wrong with it."""
        problems = [
            f"{'.'.join(str(part) for part in problem.get('loc', ()))}: {problem.get('msg', '')}"
            for problem in refusal.errors()[:5]
        ]
        detail = {"code": "request/invalid", "message": "; ".join(problems)[:500]}
        return JSONResponse({"detail": detail}, status_code=422)

    describe = app.openapi

    def openapi() -> dict[str, Any]:
        """FastAPI's description, its 422 answer in the shape ``request_refused`` gives."""
        schema = describe()
        found = schema.get("components", {}).get("schemas", {})
        if "HTTPValidationError" in found:
            found["HTTPValidationError"] = REFUSAL_SCHEMA
            found.pop("ValidationError", None)
        return schema

    app.openapi = openapi  # type: ignore[method-assign]

    app.include_router(accounts.router)
    app.include_router(games.router)
    app.include_router(matches.router)
    app.include_router(rooms.router)
    app.include_router(stream.router)
    app.include_router(live.router)
    app.include_router(analysis.router)
    app.include_router(ranked.router)
    app.include_router(daily.router)
    app.include_router(tutorials.router)
    app.include_router(tutorials.rules_router)

    @app.get("/api/health", tags=["server"], response_model=schemas.Health)
    async def health() -> dict[str, Any]:
        """Up, and whether this is a Wi-Fi server (the lobby then offers Wi-Fi rooms)."""
        return {"ok": True, "lan": settings.lan}

    # The browser client: one page whose modules live under /static (docs/web.md). Its own
    # routes are fragments (/#/match/ID), so the server needs no fallback route.
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    return app
