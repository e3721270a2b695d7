"""Typed errors of the engine protocol.

Every error a user or a network peer can cause is a :class:`GameError`, a subclass of
:class:`ValueError`. Each names the seat, the input and the reason, and carries a stable
``code`` (for example ``action/illegal``) that the server maps to a wire error. An engine
raises them *before* it changes anything, so a rejected action leaves the state exactly as
it was.
"""

from __future__ import annotations

from typing import Any


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
            parts.append(f"seat {self.seat}")
        if self.action is not None:
            parts.append(f"action {self.action!r}")
        prefix = ", ".join(parts)
        return f"{prefix}: {self.reason}" if prefix else self.reason

    def to_json(self) -> dict[str, Any]:
        """The error as a JSON object with its stable code."""
        data: dict[str, Any] = {"code": self.code, "message": str(self), "reason": self.reason}
        if self.seat is not None:
            data["seat"] = self.seat
        if self.action is not None:
            data["action"] = (
                self.action if isinstance(self.action, int | str) else repr(self.action)
            )
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
