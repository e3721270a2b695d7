"""``meeple serve``: the platform server on http://127.0.0.1:8000 (needs the ``server`` extra)."""

from __future__ import annotations

from typing import Annotated

import typer

from meeple.cli.common import fail


def serve(
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
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
) -> None:
    """Serve matches over HTTP and WebSockets until interrupted."""
    try:
        import uvicorn  # noqa: PLC0415  (an optional extra)

        from meeple.server.app import create_app  # noqa: PLC0415
        from meeple.server.settings import Settings  # noqa: PLC0415
    except ImportError as error:
        raise fail(f"the server needs its extra: pip install 'meeple[server]' ({error})") from error
    given: dict[str, object] = {"host": host, "port": port}
    if database_url is not None:
        given["database_url"] = database_url
    if bot_workers is not None:
        given["bot_workers"] = bot_workers
    settings = Settings.model_validate(given)
    typer.echo(f"meeple serving http://{host}:{port} on {settings.resolved_database_url()}")
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        ws_max_size=max(1 << 20, settings.max_message_bytes * 4),
        log_level="warning",
    )
