"""What the commands share: loading games and records, consoles, seat names."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

import meeple.games  # noqa: F401  (importing it registers every game)
from meeple.core import GameError, InvalidRecord, MatchRecord, load_game
from meeple.core.game import Game
from meeple.core.types import JSON, Seat

EXIT_USAGE = 2
"""Exit code for bad input: an unknown game, an unreadable or invalid record."""


def console(*, stderr: bool = False) -> Console:
    """A console on the current stdout (or stderr), so test runners can capture it."""
    return Console(stderr=stderr, highlight=False, soft_wrap=False)


def fail(message: str) -> typer.Exit:
    """Print ``message`` on stderr, on one line however narrow the terminal, and return the
    exit to raise (code 2)."""
    console(stderr=True).print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(EXIT_USAGE)


def open_game(name: str) -> Game:
    """The registered game called ``name`` (or ``name/version``), or exit 2."""
    try:
        return load_game(name)
    except GameError as error:
        raise fail(str(error)) from error


MAX_RECORD_BYTES = 16 << 20
"""The largest record file read (every game's longest match takes a few hundred KiB)."""


def read_record(path: Path) -> MatchRecord:
    """A record read from a JSON file (UTF-8, at most :data:`MAX_RECORD_BYTES`); an error
    names the file.

    Raises:
        InvalidRecord: when the file cannot be read or is not a valid record.
    """
    name = str(path)
    name = repr(name if len(name) <= 60 else "…" + name[-59:])  # the end names the file
    try:
        with path.open("rb") as file:
            data = file.read(MAX_RECORD_BYTES + 1)
    except (OSError, ValueError) as error:  # ValueError: a NUL in the path
        why = error.strerror if isinstance(error, OSError) else "not a file name"
        raise InvalidRecord(f"cannot read {name}: {why}") from error
    if len(data) > MAX_RECORD_BYTES:
        raise InvalidRecord(f"{name} is larger than a record may be ({MAX_RECORD_BYTES >> 20} MiB)")
    try:
        return MatchRecord.loads(data)
    except InvalidRecord as error:
        raise InvalidRecord(f"{name}: {error.reason}") from error


def seat_name(view: JSON, seat: Seat | None) -> str:
    """What people call a seat: the game's name for it (a tribe) when the view has one."""
    if seat is None:
        return "nobody"
    names = view.get("tribes") if isinstance(view, dict) else None
    if isinstance(names, list) and 0 <= seat < len(names):
        return str(names[seat])
    return f"seat {seat}"
