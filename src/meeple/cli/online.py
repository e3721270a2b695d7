"""``meeple join``: play a server match from the terminal, through :mod:`meeple.client`."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

from meeple.cli.common import console, fail
from meeple.cli.render import render_view

if TYPE_CHECKING:
    from meeple.client import Client, MatchConnection

CODE_LENGTH = 6


def join(
    target: Annotated[str, typer.Argument(help="A room's private code, or a room or match id.")],
    server: Annotated[str, typer.Option(help="The server's address.")] = "http://127.0.0.1:8000",
    name: Annotated[str, typer.Option(help="Your display name as a guest.")] = "Guest",
    token: Annotated[
        str | None, typer.Option(help="A login token (from logging in); else play as a guest.")
    ] = None,
    seat: Annotated[int | None, typer.Option(help="The seat to take in a listed room.")] = None,
) -> None:
    """Join a room (or open a match of yours) on a server and play your seat in the terminal."""
    try:
        from meeple.client import Client, ClientError  # noqa: PLC0415  (an optional extra)
    except ImportError as error:
        raise fail(
            f"online play needs the extra: pip install 'meeple[server]' ({error})"
        ) from error
    out = console()
    with Client(server, token=token) as client:
        try:
            if token is None:
                client.guest(name)
            match_id = _take_seat(client, target, seat)
            with client.connect(match_id) as table:
                _play(table, out)
        except ClientError as error:
            raise fail(error.message) from error
        except OSError as error:
            raise fail(f"cannot reach {server}: {error}") from error


def _take_seat(client: Client, target: str, seat: int | None) -> str:
    """Join the room the target names (by code or id) and wait for its start; the match id."""
    from meeple.client import ClientError  # noqa: PLC0415

    if len(target) == CODE_LENGTH and target.isalnum():
        room = client.join_code(target)
    else:
        try:
            room = client.call("GET", f"/api/rooms/{target}")
        except ClientError as error:
            if error.code != "room/unknown":
                raise
            return target  # a solo match or a match already under way
        if room["status"] == "waiting":
            room = client.join_room(target, seat)
    if room["status"] == "waiting":
        client.ready(room["id"])
        console().print("Ready; waiting for the host to start…")
        while room["status"] == "waiting":
            time.sleep(1.0)
            room = client.call("GET", f"/api/rooms/{room['id']}")
    return str(room["id"])


def _play(table: MatchConnection, out: Console) -> None:
    """Show the seat's view when it decides, read an option number or a notation, send it."""
    game = ""
    while True:
        frame = table.recv()
        kind = frame["type"]
        if kind == "snapshot":
            game = frame["game"]
        if kind == "error":
            out.print(f"[bold red]refused:[/] {escape(frame['message'])}")
            table.resume(frame["version"])
            continue
        if kind not in ("snapshot", "update"):
            continue
        if frame.get("outcome") is not None:
            out.print(render_view(frame["view"], game))
            out.print(f"[bold green]The match is over:[/] {escape(str(frame['outcome']))}")
            return
        legal = frame["legal"]
        if not legal:
            continue
        out.print(render_view(frame["view"], game))
        for number, option in enumerate(legal[:40], start=1):
            out.print(f"  {number:>2}. {escape(option['text'])}")
        if len(legal) > 40:
            out.print(f"  … and {len(legal) - 40} more (type the notation)")
        try:
            line = out.input("your move> ").strip()
        except EOFError:
            out.print("Bye. The match waits for you: join it again to go on.")
            return
        if line.isdigit() and 1 <= int(line) <= len(legal):
            table.act(legal[int(line) - 1]["id"], frame["version"])
        else:
            table.act(line[:200], frame["version"])
