"""Typed errors of the engine protocol.

Every error a user or a network peer can cause is a :class:`GameError`, a subclass of
:class:`ValueError`. Each names the seat, the input and the reason, and carries a stable
``code`` (for example ``action/illegal``) that the server maps to a wire error. An engine
raises them *before* it changes anything, so a rejected action leaves the state exactly as
it was.

An error quotes bad input only as an :func:`excerpt` (a few dozen characters), and its whole
message is cut to :data:`MAX_MESSAGE` characters, so that input of megabytes -- a giant
list, a string, an integer of thousands of digits -- never comes back in a message.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

EXCERPT_CHARS = 60
"""How much of a bad input an error message quotes."""

MAX_MESSAGE = 300
"""The longest error message; longer ones are cut with an ellipsis."""

_BIG_INT_DIGITS = 30


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """A short, safe rendering of ``value`` for an error message.

    Like ``repr`` for small values; cut after ``limit`` characters with an ellipsis for
    long ones. It walks lists and objects with an explicit stack and stops once it has
    enough text, so it neither recurses into deeply nested input nor renders more of a
    huge list than it shows, and it names huge integers by their size instead of
    converting them to text (which Python refuses past 4,300 digits).
    """
    pieces: list[str] = []
    size = 0
    for piece in _pieces(value, limit):
        pieces.append(piece)
        size += len(piece)
        if size > limit:
            return "".join(pieces)[:limit] + "…"
    return "".join(pieces)


class _Text(str):
    """A fixed piece of punctuation among the values being rendered."""


def _pieces(value: object, limit: int) -> Iterator[str]:
    stack: list[Iterator[object]] = [iter((value,))]
    while stack:
        item = next(stack[-1], _END)
        if item is _END:
            stack.pop()
        elif isinstance(item, _Text):
            yield item
        elif isinstance(item, dict):
            stack.append(_entries(item))
        elif isinstance(item, list | tuple):
            stack.append(_members(item))
        elif isinstance(item, str):
            yield repr(item[: limit + 1])
        elif isinstance(item, int) and not isinstance(item, bool):
            yield _int_text(item)
        else:
            text = repr(item)
            yield text[: limit + 1]


_END = _Text("")


def _entries(mapping: dict[Any, Any]) -> Iterator[object]:
    yield _Text("{")
    for index, (key, item) in enumerate(mapping.items()):
        if index:
            yield _Text(", ")
        yield key
        yield _Text(": ")
        yield item
    yield _Text("}")


def _members(items: list[Any] | tuple[Any, ...]) -> Iterator[object]:
    yield _Text("[")
    for index, item in enumerate(items):
        if index:
            yield _Text(", ")
        yield item
    yield _Text("]")


def _int_text(number: int) -> str:
    if abs(number) < 10**_BIG_INT_DIGITS:
        return str(number)
    digits = int(number.bit_length() * 0.30103) + 1
    return f"{'-' if number < 0 else ''}<an integer of about {digits} digits>"


def _plain(value: Any) -> Any:
    """A short JSON-safe stand-in for a quoted input: booleans, integers that JSON carries
    exactly and short text as they are; anything else as its :func:`excerpt`."""
    if isinstance(value, bool) or (isinstance(value, int) and value.bit_length() <= 53):
        return value
    if isinstance(value, str) and len(value) <= EXCERPT_CHARS:
        return value
    return excerpt(value)


class GameError(ValueError):
    """Base of every error caused by bad input to an engine."""

    code = "game/error"

    def __init__(
        self,
        reason: str,
        *,
        seat: int | None = None,
        action: Any = None,
    ) -> None:
        self.reason = reason
        self.seat = seat
        self.action = action
        super().__init__(self._message())

    def _message(self) -> str:
        parts = []
        if self.seat is not None:
            parts.append(f"seat {excerpt(self.seat)}")
        if self.action is not None:
            parts.append(f"action {excerpt(self.action)}")
        prefix = ", ".join(parts)
        message = f"{prefix}: {self.reason}" if prefix else self.reason
        if len(message) > MAX_MESSAGE:
            message = message[: MAX_MESSAGE - 1] + "…"
        return message

    def to_json(self) -> dict[str, Any]:
        """The error as a JSON object with its stable code."""
        data: dict[str, Any] = {"code": self.code, "message": str(self), "reason": self.reason}
        if self.seat is not None:
            data["seat"] = _plain(self.seat)
        if self.action is not None:
            data["action"] = _plain(self.action)
        return data


class InvalidAction(GameError):
    """The action cannot be parsed or is outside the game's action range."""

    code = "action/invalid"


class IllegalAction(GameError):
    """The action is well formed but not legal in this position for this seat."""

    code = "action/illegal"


class NotYourDecision(GameError):
    """The seat is not one of the seats that must decide now."""

    code = "action/not_your_decision"


class InvalidSeat(GameError):
    """The seat number does not exist in this match."""

    code = "seat/invalid"


class GameOver(GameError):
    """The match has ended; no seat decides any more."""

    code = "action/game_over"


class InvalidOptions(GameError):
    """Unknown option, bad value, or a seat count the game does not support."""

    code = "game/invalid_options"


class InvalidState(GameError):
    """A state JSON object that is malformed or describes an impossible position."""

    code = "state/invalid"


class InvalidRecord(GameError):
    """A match record that is malformed, names an unknown game, or does not replay."""

    code = "record/invalid"


class UnknownGame(GameError):
    """No game is registered under that id."""

    code = "game/unknown"
