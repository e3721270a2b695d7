"""``meeple serve``: the platform server on http://127.0.0.1:8000 (needs the ``server`` extra)."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Annotated, Any

import typer

from meeple.cli.common import fail


def serve(  # noqa: PLR0917 (typer: one parameter per option)
    host: Annotated[
        str | None, typer.Option(help="Address to bind (127.0.0.1; with --lan 0.0.0.0).")
    ] = None,
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on.")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy async URL, e.g. postgresql+asyncpg://user@host/db "
            "(default: an SQLite file in the data directory, created and migrated on first start)."
        ),
    ] = None,
    bot_workers: Annotated[
        int | None, typer.Option(min=0, help="Bot processes (0: a thread in the server).")
    ] = None,
    lan: Annotated[
        bool,
        typer.Option(
            "--lan", help="A Wi-Fi room: bind to the local network and announce it over mDNS."
        ),
    ] = False,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            max=64,
            help="Worker processes on one port; more than one needs --database-url "
            "postgresql+asyncpg://... and --redis-url.",
        ),
    ] = 1,
    redis_url: Annotated[
        str | None,
        typer.Option(
            help="redis://host:port/db, where workers forward their clients' frames to the "
            "worker that masters a match (with it, several `meeple serve` make one server)."
        ),
    ] = None,
) -> None:
    """Serve matches over HTTP and WebSockets until interrupted."""
    try:
        import uvicorn  # noqa: PLC0415  (an optional extra)

        from meeple.server.http.app import create_app  # noqa: PLC0415
        from meeple.server.settings import Settings  # noqa: PLC0415
    except ImportError as error:
        raise fail(f"the server needs its extra: pip install 'meeple[server]' ({error})") from error
    host = host or ("0.0.0.0" if lan else "127.0.0.1")
    given: dict[str, object] = {"host": host, "port": port, "lan": lan, "workers": workers}
    if database_url is not None:
        given["database_url"] = database_url
    if bot_workers is not None:
        given["bot_workers"] = bot_workers
    if redis_url is not None:
        given["redis_url"] = redis_url
    try:
        settings = Settings.model_validate(given)
    except ValueError as refused:
        raise fail(_first_problem(refused)) from None
    if workers > 1 and lan:
        raise fail("--lan announces one process: serve a Wi-Fi room with one worker")
    shown = "127.0.0.1" if host == "0.0.0.0" else host
    typer.echo(f"meeple serving http://{shown}:{port} on {settings.resolved_database_url()}")
    typer.echo(f"open http://{shown}:{port} in a browser to play; Ctrl-C stops the server")
    if lan:
        from meeple.server.modes.lan import lan_addresses  # noqa: PLC0415  (the server extra)

        # Others on the Wi-Fi cannot reach 127.0.0.1: they need this machine's own address.
        reachable = [a for a in lan_addresses(host) if not a.startswith("127.")]
        for address in reachable:
            typer.echo(f"others on the local network open http://{address}:{port}")
        if not reachable:
            typer.echo("this machine has no address on a local network: others cannot reach it")
        typer.echo("announced on the local network; `meeple lan` finds it")
    served: dict[str, Any] = {
        "host": host,
        "port": port,
        "ws": "meeple.server.http.routes.live:SocketProtocol",
        # websockets' own limits: a longer message closes with 1009; a client that answers
        # no ping within the timeout is closed with 1011 (docs/security.md).
        "ws_max_size": settings.max_message_bytes,
        "ws_ping_interval": settings.ping_seconds,
        "ws_ping_timeout": settings.ping_timeout_seconds,
        "ws_per_message_deflate": False,
        "log_level": "warning",
        # Stopping, requests still open after this are cancelled (docs/security.md).
        "timeout_graceful_shutdown": settings.stop_seconds,
        **_http_bounds(settings),
    }
    if workers == 1:
        uvicorn.run(create_app(settings), **served)
        return
    typer.echo(f"{workers} worker processes, forwarding through Redis")
    # Each worker process builds its app from the same settings, read from the environment.
    for name, value in settings.model_dump(mode="json", exclude_unset=True).items():
        os.environ[f"MEEPLE_{name.upper()}"] = (
            value if isinstance(value, str) else json.dumps(value)
        )
    uvicorn.run("meeple.server.http.app:create_app", factory=True, workers=workers, **served)


def _http_bounds(settings: Any) -> dict[str, Any]:
    """uvicorn's HTTP settings from ours (docs/security.md, "Bounded HTTP"): its h11
    protocol with meeple's connection caps and header deadline, its keep-alive timeout
    and header size limit. The open-file limit is raised first, so the cap fits under it."""
    from meeple.server.http.guard import (  # noqa: PLC0415  (the server extra)
        ConnectionLimits,
        GuardedHttp,
        raise_open_file_limit,
    )

    raise_open_file_limit()
    GuardedHttp.limits = ConnectionLimits.of(settings)
    return {
        "http": "meeple.server.http.guard:GuardedHttp",
        "timeout_keep_alive": settings.keep_alive_seconds,
        "h11_max_incomplete_event_size": settings.max_header_bytes,
    }


def _first_problem(refused: ValueError) -> str:
    """A settings refusal as one line (pydantic lists every field; the first is enough)."""
    errors = getattr(refused, "errors", None)
    if callable(errors):
        for problem in errors():
            return str(problem.get("msg", refused)).removeprefix("Value error, ")
    return str(refused)


def lan(
    seconds: Annotated[float, typer.Option(min=0.5, help="How long to listen.")] = 3.0,
) -> None:
    """List the meeple servers on the local network (mDNS) and their open rooms."""
    try:
        import httpx  # noqa: PLC0415  (an optional extra)

        from meeple.client.lan import discover  # noqa: PLC0415
    except ImportError as error:
        raise fail(
            f"finding servers needs the extra: pip install 'meeple[server]' ({error})"
        ) from error
    found = asyncio.run(discover(seconds))
    if not found:
        typer.echo("no meeple server found on the local network")
        return
    for server in found:
        typer.echo(f"{server.name}  {server.base_url}")
        try:
            rooms = httpx.get(f"{server.base_url}/api/rooms", timeout=5).json()
        except (httpx.HTTPError, ValueError):
            typer.echo("  (no answer)")
            continue
        for room in rooms:
            taken = sum(not player["open"] for player in room["players"])
            timer = f"{room['timer']} s" if room["timer"] else "no timer"
            typer.echo(
                f"  room {room['id']}: {room['game']}, {taken}/{room['seats']} seated, {timer}"
            )
