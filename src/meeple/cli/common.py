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
    """Print ``message`` on stderr and return the exit to raise (code 2)."""
    console(stderr=True).print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(EXIT_USAGE)


def open_game(name: str) -> Game:
    """The registered game called ``name`` (or ``name/version``), or exit 2."""
    try:
        return load_game(name)
    except GameError as error:
        raise fail(str(error)) from error


def read_record(path: Path) -> MatchRecord:
    """A record read from a JSON file.

    Raises:
        InvalidRecord: when the file cannot be read or is not a valid record.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise InvalidRecord(f"cannot read {str(path)!r}: {error.strerror}") from error
    return MatchRecord.loads(text)


def seat_name(view: JSON, seat: Seat | None) -> str:
    """What people call a seat: the game's name for it (a tribe) when the view has one."""
    if seat is None:
        return "nobody"
    names = view.get("tribes") if isinstance(view, dict) else None
    if isinstance(names, list) and 0 <= seat < len(names):
        return str(names[seat])
    return f"seat {seat}"
