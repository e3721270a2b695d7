"""What the commands share: loading games and records, options, consoles, seat names."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)

import meeple.games  # noqa: F401  (importing it registers every game)
from meeple.core import GameError, InvalidOptions, InvalidRecord, MatchRecord, load_game
from meeple.core.game import Game, GameInfo, OptionSpec
from meeple.core.types import JSON, Seat

EXIT_USAGE = 2
"""Exit code for bad input: an unknown game, an unreadable or invalid record."""


def console(*, stderr: bool = False) -> Console:
    """A console on the current stdout (or stderr), so test runners can capture it."""
    return Console(stderr=stderr, highlight=False, soft_wrap=False)


def quoted(text: str, limit: int = 40) -> str:
    """``repr(text)`` cut to about ``limit`` characters, for quoting input in one line."""
    return repr(text) if len(text) <= limit else repr(text[: limit - 1]) + "…"


def fail(message: str) -> typer.Exit:
    """Print ``message`` on stderr, on one line however narrow the terminal, and return the
    exit to raise (code 2)."""
    console(stderr=True).print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(EXIT_USAGE)


def needs_extra(module: str, extra: str, what: str) -> None:
    """Stop with a one-line error naming the extra to install when ``module`` is missing.

    The base install holds what ``meeple play`` needs; plots, ratings and the research
    adapters are extras (``pip install 'meeple[plots]'``)."""
    if find_spec(module) is None:
        raise fail(f"{what} needs {module}, which is not installed: pip install 'meeple[{extra}]'")


def open_game(name: str) -> Game:
    """The registered game called ``name`` (or ``name/version``), or exit 2."""
    try:
        return load_game(name)
    except GameError as error:
        raise fail(str(error)) from error


OPTION_HELP = (
    "A game option as name=value (repeatable), e.g. teams=1122; see `meeple games --json`."
)

_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")
"""An option's integer as typed: ASCII digits only, at most 18 of them (``int`` alone would
also take other scripts' digits such as ``٣`` and numbers thousands of digits long)."""
_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


def option_value(spec: OptionSpec, text: str) -> Any:
    """The value ``text`` names for the option ``spec``, of the option's own type, checked
    against the option's choices or bounds: true/false (yes/no, on/off, 1/0) for a switch,
    a whole number for an integer, the text itself for a string.

    Raises:
        InvalidOptions: when the text is no value of that type, or not an allowed one.
    """
    default = spec.default
    if isinstance(default, bool):
        word = text.strip().lower()
        if word not in _TRUE | _FALSE:
            raise InvalidOptions(f"option {spec.name!r} is true or false, got {quoted(text)}")
        value: Any = word in _TRUE
    elif isinstance(default, int):
        if not _INTEGER.fullmatch(text.strip()):
            raise InvalidOptions(f"option {spec.name!r} is a whole number, got {quoted(text)}")
        value = int(text.strip())
    else:
        value = text
    if isinstance(value, str) and len(value) > 200:
        raise InvalidOptions(f"option {spec.name!r} is at most 200 characters, got {len(value)}")
    return spec.check(value)


def options_from_text(info: GameInfo, raw: Sequence[str]) -> dict[str, Any]:
    """``--option name=value`` entries read against the game's own option list.

    Raises:
        InvalidOptions: for an entry without ``=``, an unknown name, a name given twice or
            a bad value; the message quotes the entry.
    """
    specs = {spec.name: spec for spec in info.options}
    options: dict[str, Any] = {}
    for entry in raw:
        name, equals, text = entry.partition("=")
        name = name.strip()
        if not equals or not name:
            raise InvalidOptions(f"an option is name=value, got {quoted(entry)}")
        spec = specs.get(name)
        if spec is None:
            known = ", ".join(sorted(specs)) or "none"
            raise InvalidOptions(f"{info.title} has no option {quoted(name)}; its options: {known}")
        if name in options:
            raise InvalidOptions(f"option {name!r} is given twice")
        options[name] = option_value(spec, text)
    return options


def parse_options(
    game_name: str,
    seats: int | None = None,
    raw: Sequence[str] = (),
    preset: Mapping[str, Any] | None = None,
) -> Game:
    """The game ``game_name`` configured for ``seats`` (its least if None) and the options
    given as ``--option name=value`` entries in ``raw``; or exit 2 with a one-line error
    for an unknown game, a seat count outside the game's, an unknown option or a bad value.

    ``preset`` holds options that other flags of a command set (``play --teams``); an entry
    of ``raw`` naming one of them with another value is refused as a contradiction.
    """
    game = open_game(game_name)
    try:
        options = options_from_text(game.info, raw)
        for name, value in (preset or {}).items():
            if name in options and options[name] != value:
                raise InvalidOptions(
                    f"option {name!r} is set twice: {value!r} by a flag, "
                    f"{options[name]!r} by --option"
                )
            options[name] = value
        return type(game)(seats, options)
    except GameError as error:
        raise fail(str(error)) from error


MAX_RECORD_BYTES = 256 << 20
"""The largest record file read: one match takes a few hundred KiB at most, and a file of
many (``selfplay --out``) holds a few thousand of them."""


def _file_name(path: Path) -> str:
    """``path`` quoted for an error, cut from the front (the end names the file)."""
    name = str(path)
    return repr(name if len(name) <= 60 else "…" + name[-59:])


def read_records(path: Path) -> list[MatchRecord]:
    """Every record in a file, in any form a command writes: one record (pretty as ``play``
    saves it, or on one line), or many, one a line (``selfplay --out``) or pretty one after
    another. The file is UTF-8 and at most :data:`MAX_RECORD_BYTES`; an error names it.

    Raises:
        InvalidRecord: when the file cannot be read or a record in it is not valid.
    """
    name = _file_name(path)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_RECORD_BYTES + 1)
    except (OSError, ValueError) as error:  # ValueError: a NUL in the path
        raise InvalidRecord(f"cannot read {name}: {os_error_words(error)}") from error
    if len(data) > MAX_RECORD_BYTES:
        raise InvalidRecord(f"{name} is larger than a record may be ({MAX_RECORD_BYTES >> 20} MiB)")
    try:
        return MatchRecord.loads_all(data)
    except InvalidRecord as error:
        raise InvalidRecord(f"{name}: {error.reason}") from error


def pick_record(records: Sequence[MatchRecord], index: int | None, path: Path) -> MatchRecord:
    """The record numbered ``index`` (from 1) of those read from ``path``; with no index,
    the only one.

    Raises:
        InvalidRecord: when the file holds several and no index is given, or no such one.
    """
    count = len(records)
    if index is None:
        if count == 1:
            return records[0]
        raise InvalidRecord(
            f"{_file_name(path)} holds {count} match records; pick one with --index 1 to {count}"
        )
    if not 1 <= index <= count:
        held = "1 match record" if count == 1 else f"{count} match records"
        raise InvalidRecord(f"{_file_name(path)} holds {held}; there is no record {index}")
    return records[index - 1]


def read_record(path: Path, index: int | None = None) -> MatchRecord:
    """One record of a file (:func:`read_records`, :func:`pick_record`).

    Raises:
        InvalidRecord: when the file cannot be read, holds no valid record, or holds
            several and ``index`` does not pick one of them.
    """
    return pick_record(read_records(path), index, path)


def bot_names_error(names: Sequence[str], known: Sequence[str], least: int = 1) -> str | None:
    """What is wrong with a list of bot names typed (unknown ones, or too few), else None."""
    unknown = [name for name in names if name not in known]
    choose = f"the bots are {', '.join(known)}"
    if unknown:
        listed = ", ".join(repr(name) for name in unknown)
        return f"no bot is called {listed}; {choose}"
    if len(names) < least:
        many = "one bot" if least == 1 else f"{least} or more bots, comma-separated"
        return f"give {many}; {choose}"
    return None


def write_record(path: Path, record: MatchRecord) -> None:
    """Write ``record`` to ``path`` (pretty JSON) whole or not at all: into a temporary file
    beside it, then renamed over it, so a crash or Ctrl-C mid-write leaves the last whole
    record in place.

    Raises:
        OSError: when the file cannot be written.
        ValueError: for a file name holding a NUL.
    """
    text = record.dumps(indent=2) + "\n"
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def os_error_words(error: OSError | ValueError, *, writing: bool = False) -> str:
    """What an ``OSError`` means, in words (no ``[Errno 2]``); a ``ValueError`` from
    ``open`` is a file name holding a NUL."""
    if isinstance(error, FileNotFoundError):
        return "its folder does not exist" if writing else "there is no such file"
    if isinstance(error, IsADirectoryError):
        return "it is a folder"
    if isinstance(error, NotADirectoryError):
        return "a part of its path is a file, not a folder"
    if isinstance(error, PermissionError):
        return "permission denied"
    if isinstance(error, OSError):
        return (error.strerror or "the system refused").lower()
    return "not a file name"


def write_error(path: Path | str, error: OSError | ValueError) -> str:
    """What went wrong writing ``path``, in words (no ``[Errno 2]``)."""
    return f"cannot write {_file_name(Path(path))}: {os_error_words(error, writing=True)}"


def seat_name(view: JSON, seat: Seat | None) -> str:
    """What people call a seat: the game's name for it (a tribe, a faction) when the view has
    one; where two seats share a name (a mirror match) it says which: ``Elves (first)``."""
    if seat is None:
        return "nobody"
    names = None
    if isinstance(view, dict):
        names = view.get("tribes") or view.get("factions")
    if isinstance(names, list) and 0 <= seat < len(names):
        name = str(names[seat])
        name = name[:1].upper() + name[1:]
        if [str(n).lower() for n in names].count(name.lower()) > 1:
            ordinals = ("first", "second", "third", "fourth")
            name += f" ({ordinals[seat]})" if seat < len(ordinals) else f" (seat {seat})"
        return name
    return f"seat {seat}"


def progress_bar(label: str, *, transient: bool = False) -> Progress:
    """The progress bar of every long command, on stderr: ``label``, the bar, done of total and
    the time taken. A transient bar (with a spinner) goes away when the work is done; ``label``
    may name the task's description as ``{task.description}``."""
    columns: list[ProgressColumn] = [SpinnerColumn()] if transient else []
    columns += [TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    return Progress(*columns, console=console(stderr=True), transient=transient)
