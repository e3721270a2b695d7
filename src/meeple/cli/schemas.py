"""``meeple schemas``: write the protocol's published schemas from the server's models (needs
the ``server`` extra): docs/schemas/*.json and docs/protocol.md's event tables."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from meeple.cli.common import fail


def schemas(
    docs: Annotated[
        Path, typer.Option(help="The docs folder: its schemas/ and protocol.md are written.")
    ] = Path("docs"),
    check: Annotated[
        bool,
        typer.Option(
            "--check", help="Write nothing; exit 1 naming the files that differ from the models."
        ),
    ] = False,
) -> None:
    """Write the JSON Schemas of every socket message, event and REST body, and the event
    tables of protocol.md, as the server's models give them; review the diff, then commit."""
    try:
        from meeple.server.http import publish  # noqa: PLC0415  (an optional extra)
    except ImportError as error:
        raise fail(
            f"the schemas need the server's extra: pip install 'meeple[server]' ({error})"
        ) from error
    if not (docs / "protocol.md").is_file():
        raise fail(f"{docs} holds no protocol.md: run this in the repository, or pass --docs")
    if check:
        differ = publish.stale(docs)
        for path in differ:
            typer.echo(f"differs from the models: {path}")
        if differ:
            typer.echo("run `meeple schemas` and commit the result")
            raise typer.Exit(1)
        typer.echo(f"{docs}: the schemas and the event tables are what the models give")
        return
    changed = publish.write(docs)
    for path in changed:
        typer.echo(f"wrote {path}")
    if not changed:
        typer.echo(f"{docs}: nothing to write, every file is what the models give")
