"""Reading untrusted JSON field by field: the checks every state codec and record reader share.

A state JSON or a match record comes from a file, a network peer or a puzzle author, so
every field is checked before it is used: its JSON type (a boolean is not an integer and an
integer is not a boolean), its range, the length of every list, and the keys of every
object. A refusal is one typed error (:class:`~meeple.core.errors.InvalidState` by default)
that names the field by its path (``board[3].warrior.seat``) and quotes at most a short
excerpt of what was there, so a three-million-entry list or an integer of thousands of
digits never ends up in a message.

The functions take the value and its path; :class:`Fields` wraps one JSON object and
prefixes its own path, so a codec reads like the format it decodes::

    top = Fields(data, "state", required=("round", "phase"))
    state.round = top.integer("round", 1, 12)
    state.phase = top.choice("phase", PHASES)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from meeple.core.errors import GameError, InvalidState, excerpt
from meeple.core.rng import Rng

if TYPE_CHECKING:
    from meeple.core.game import State

__all__ = [
    "MAX_DEPTH",
    "MAX_TEXT",
    "Fields",
    "check_can_continue",
    "check_depth",
    "excerpt",
    "expect_bool",
    "expect_choice",
    "expect_int",
    "expect_keys",
    "expect_list",
    "expect_object",
    "expect_rng",
    "expect_str",
    "refuse",
]

MAX_DEPTH = 32
"""How deeply JSON may nest (objects and lists inside each other) where a limit applies."""

MAX_TEXT = 64
"""The longest string a state field holds (names, notations); longer is refused."""

_HEX = frozenset("0123456789abcdef")

ErrorType = type[GameError]


def refuse(error: ErrorType, what: str, expected: str, value: Any) -> GameError:
    """The error saying ``what`` must be ``expected`` and quoting a short excerpt of ``value``."""
    return error(f"{what} must be {expected}, got {excerpt(value)}")


def expect_int(
    value: Any, what: str, low: int, high: int, *, error: ErrorType = InvalidState
) -> int:
    """An integer (never a boolean) in ``low..high``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise refuse(error, what, f"an integer in {low}..{high}", value)
    return value


def expect_bool(value: Any, what: str, *, error: ErrorType = InvalidState) -> bool:
    """``true`` or ``false`` (never 0 or 1)."""
    if not isinstance(value, bool):
        raise refuse(error, what, "true or false", value)
    return value


def expect_str(
    value: Any, what: str, *, max_len: int = MAX_TEXT, error: ErrorType = InvalidState
) -> str:
    """A string of at most ``max_len`` characters."""
    if not isinstance(value, str) or len(value) > max_len:
        raise refuse(error, what, f"a string of at most {max_len} characters", value)
    return value


def expect_choice(
    value: Any, choices: Sequence[str], what: str, *, error: ErrorType = InvalidState
) -> int:
    """The index of ``value`` in ``choices`` (a string that is one of them)."""
    if isinstance(value, str):
        try:
            return choices.index(value)
        except ValueError:
            pass
    shown = ", ".join(choices) if len(choices) <= 8 else f"{', '.join(choices[:8])}, ..."
    raise refuse(error, what, f"one of {shown}", value)


def expect_list(
    value: Any,
    what: str,
    *,
    length: int | None = None,
    max_len: int | None = None,
    error: ErrorType = InvalidState,
) -> list[Any]:
    """A list of exactly ``length`` items, or of at most ``max_len``."""
    if not isinstance(value, list):
        raise refuse(error, what, "a list", value)
    if length is not None and len(value) != length:
        raise error(f"{what} must list {length} entries, got {len(value)}")
    if max_len is not None and len(value) > max_len:
        raise error(f"{what} lists at most {max_len} entries, got {len(value)}")
    return value


def expect_object(value: Any, what: str, *, error: ErrorType = InvalidState) -> dict[str, Any]:
    """A JSON object (a dict)."""
    if not isinstance(value, dict):
        raise refuse(error, what, "an object", value)
    return value


def expect_keys(
    value: dict[str, Any],
    what: str,
    required: Collection[str],
    optional: Collection[str] = (),
    *,
    error: ErrorType = InvalidState,
) -> None:
    """Every ``required`` key is there and no key outside ``required`` and ``optional``."""
    for key in required:
        if key not in value:
            raise error(f"{what} lacks the field {key!r}")
    unknown = next((key for key in value if key not in required and key not in optional), None)
    if unknown is not None:
        raise error(f"{what} has an unknown field {excerpt(unknown)}")


def expect_rng(value: Any, what: str = "rng", *, error: ErrorType = InvalidState) -> Rng:
    """The generator's state: exactly 16 lowercase hex digits."""
    if not isinstance(value, str) or len(value) != 16 or not _HEX.issuperset(value):
        raise refuse(error, what, "16 lowercase hex digits", value)
    return Rng.from_json(value)


def check_depth(
    value: Any, what: str, max_depth: int = MAX_DEPTH, *, error: ErrorType = InvalidState
) -> None:
    """Refuse JSON nested more than ``max_depth`` lists and objects deep.

    Walks with an explicit stack, so a value nested far past Python's recursion limit is
    refused like any other instead of raising :class:`RecursionError`.
    """
    stack: list[tuple[Iterable[Any], int]] = [((value,), 0)]
    while stack:
        items, depth = stack.pop()
        for item in items:
            if isinstance(item, dict | list):
                if depth + 1 > max_depth:
                    raise error(f"{what} nests lists and objects more than {max_depth} deep")
                stack.append((item.values() if isinstance(item, dict) else item, depth + 1))


def check_can_continue(state: State, *, error: ErrorType = InvalidState) -> None:
    """A loaded position can go on: every deciding seat has a legal action, and a position
    where nobody decides is the end of the match (it has an outcome).

    Run at the end of each ``state_from_json``; anything the engine raises while answering
    (a position too broken to ask) is refused as ``error`` too.
    """
    try:
        deciding = state.deciding_seats()
        if not deciding:
            if state.outcome() is None:
                raise error("no seat decides, yet the match has no outcome")
            return
        if len(deciding) > 1 and not state.game.info.simultaneous:
            raise error(f"seats {list(deciding)} decide at once in a game of turns")
        for seat in deciding:
            if not state.legal_actions(seat):
                raise error(f"seat {seat} must decide but has no legal action")
    except GameError as problem:
        if isinstance(problem, error):
            raise
        raise error(f"the position cannot go on: {problem.reason}") from problem
    except (ArithmeticError, LookupError, TypeError, ValueError, RecursionError) as problem:
        raise error(
            f"the position cannot go on ({type(problem).__name__}: {excerpt(str(problem))})"
        ) from problem


class Fields:
    """One JSON object of untrusted input, read field by field.

    ``required`` keys must all be present and, with ``required`` or ``optional`` given, no
    other key may be; every refusal is ``error`` naming ``what.key``.
    """

    __slots__ = ("data", "error", "what")

    def __init__(
        self,
        data: Any,
        what: str,
        *,
        required: Collection[str] | None = None,
        optional: Collection[str] = (),
        error: ErrorType = InvalidState,
    ) -> None:
        self.data = expect_object(data, what, error=error)
        self.what = what
        self.error = error
        if required is not None:
            expect_keys(self.data, what, required, optional, error=error)

    def path(self, key: str) -> str:
        return f"{self.what}.{key}"

    def has(self, key: str) -> bool:
        return key in self.data

    def raw(self, key: str, default: Any = None) -> Any:
        """The value as it is (``default`` when absent); the caller checks it."""
        return self.data.get(key, default)

    def need(self, key: str) -> Any:
        """The value, which must be present."""
        if key not in self.data:
            raise self.error(f"{self.what} lacks the field {key!r}")
        return self.data[key]

    def integer(self, key: str, low: int, high: int) -> int:
        return expect_int(self.need(key), self.path(key), low, high, error=self.error)

    def integer_or_none(self, key: str, low: int, high: int, none: int = -1) -> int:
        """An integer in ``low..high``, or ``none`` where the field is null."""
        value = self.need(key)
        if value is None:
            return none
        return expect_int(value, self.path(key), low, high, error=self.error)

    def flag(self, key: str, default: bool | None = None) -> bool:
        if default is not None and key not in self.data:
            return default
        return expect_bool(self.need(key), self.path(key), error=self.error)

    def text(self, key: str, max_len: int = MAX_TEXT) -> str:
        return expect_str(self.need(key), self.path(key), max_len=max_len, error=self.error)

    def choice(self, key: str, choices: Sequence[str]) -> int:
        return expect_choice(self.need(key), choices, self.path(key), error=self.error)

    def items(
        self, key: str, *, length: int | None = None, max_len: int | None = None
    ) -> list[Any]:
        return expect_list(
            self.need(key), self.path(key), length=length, max_len=max_len, error=self.error
        )

    def child(
        self,
        key: str,
        *,
        required: Collection[str] | None = None,
        optional: Collection[str] = (),
    ) -> Fields:
        return Fields(
            self.need(key), self.path(key), required=required, optional=optional, error=self.error
        )

    def rng(self, key: str = "rng") -> Rng:
        return expect_rng(self.need(key), self.path(key), error=self.error)
