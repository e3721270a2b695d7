"""The WebSocket protocol: typed messages both ways and the stable error codes.

Every frame is one JSON object with a ``type``. docs/protocol.md describes each message;
the pydantic models here are the schema (``ClientMessage`` in, the ``*Out`` models out).
A frame that cannot be read gets an :class:`ErrorOut` with one of the codes below on that
connection only, and changes nothing.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
)

from meeple.core import GameError

# -- error codes ------------------------------------------------------------------------

MALFORMED = "message/malformed"
TOO_LARGE = "message/too_large"
UNKNOWN_TYPE = "message/unknown_type"
SEAT_WRONG = "seat/wrong"
VERSION_STALE = "version/stale"
MATCH_OVER = "match/over"
FLOOD = "message/flood"
STORE_FAILED = "server/store_failed"

ERROR_CODES: dict[str, str] = {
    MALFORMED: "the frame is not JSON, not an object, or a field is missing or mistyped",
    TOO_LARGE: "the frame is longer than the server reads",
    UNKNOWN_TYPE: "the frame's type is not a message the server knows",
    FLOOD: "the connection sends faster than the server reads; the frame was dropped",
    SEAT_WRONG: "the connection does not hold the seat the message is for (or is a spectator)",
    VERSION_STALE: "the seat's choices changed after the version the message was sent against",
    "action/invalid": "the action names no action of this game",
    "action/illegal": "the action is not legal now for this seat",
    "action/not_your_decision": "the seat does not decide now",
    "action/game_over": "the match has ended",
    STORE_FAILED: "the action could not be stored; nothing changed, send it again",
}
"""Every code an :class:`ErrorOut` may carry, with what it means."""


class ProtocolError(Exception):
    """A refused message: a stable ``code`` and a sentence for people."""

    def __init__(self, code: str, message: str, ref: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref
        """The refused message's ``ref``, when it could be read (its error echoes it)."""

    @classmethod
    def from_game(cls, error: GameError) -> ProtocolError:
        """The engine's typed error under its own stable code, in the words the seat that
        sent it reads: the engine's reason (the rules' words), not the seat number and
        action id its ``str`` quotes for programmers."""
        return cls(error.code, sentence(error.reason))


def sentence(words: str) -> str:
    """``words`` as a sentence: a capital first letter (a quoted notation keeps its case)."""
    return words[:1].upper() + words[1:] if words[:1].isalpha() else words


# -- client to server -------------------------------------------------------------------

REF_LENGTH = 64


class _In(BaseModel):
    # Strict: JSON's types as they are. A boolean, a float or a string is never read as an
    # integer (``"version": "0"``, ``"seat": false``, ``"action": 1.0`` are refused).
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    ref: Annotated[str | None, Field(max_length=REF_LENGTH)] = None
    """Echoed in the answer, so a client can match answers to what it sent."""


class ActionIn(_In):
    """Play an action for the connection's seat, against the version last seen."""

    type: Literal["action"]
    action: int | Annotated[str, Field(max_length=200)] | dict[str, int | str]
    version: Annotated[int, Field(ge=0)]
    """The version the seat last saw: its own count of the changes it could see."""
    seat: int | None = None


class ResumeIn(_In):
    """Ask again for a snapshot and every update after version ``since``."""

    type: Literal["resume"]
    since: Annotated[int, Field(ge=0)] = 0


class PingIn(_In):
    type: Literal["ping"]


ClientMessage = Annotated[ActionIn | ResumeIn | PingIn, Field(discriminator="type")]
CLIENT_TYPES = ("action", "resume", "ping")
_CLIENT = TypeAdapter[ActionIn | ResumeIn | PingIn](ClientMessage)


def parse_client_message(text: str | bytes, max_bytes: int) -> ActionIn | ResumeIn | PingIn:
    """Read one client frame.

    Raises:
        ProtocolError: ``message/too_large``, ``message/malformed`` or
            ``message/unknown_type``; with the frame's ``ref`` whenever the frame is a JSON
            object whose ``ref`` is a string of at most 64 characters.
    """
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "replace"))
    if size > max_bytes:
        raise ProtocolError(TOO_LARGE, f"a frame is at most {max_bytes} bytes, got {size}")
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as error:
        raise ProtocolError(MALFORMED, f"the frame is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise ProtocolError(MALFORMED, f"a frame is a JSON object, got {type(data).__name__}")
    ref = ref_of(data)
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(MALFORMED, "a frame names its 'type' as a string", ref)
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            UNKNOWN_TYPE, f"unknown type {kind[:40]!r}; known: {', '.join(CLIENT_TYPES)}", ref
        )
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        loc = first["loc"][1:]
        if loc[:1] == ("action",):  # a union: each of its branches' errors says too little
            where, why = "action", "an integer id, a notation or an object with id or text"
        else:
            where, why = ".".join(str(part) for part in loc) or "frame", first["msg"]
        raise ProtocolError(MALFORMED, f"{kind} message: {where}: {why}", ref) from None


def flooded_ref(text: bytes, max_bytes: int) -> str | None:
    """The ``ref`` of a message refused for flooding (``message/flood``), read for its error
    alone: None when the message is too long, not JSON, not an object or has no usable ref."""
    if len(text) > max_bytes:
        return None
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    return ref_of(data) if isinstance(data, dict) else None


def ref_of(data: dict[str, Any]) -> str | None:
    """A frame's ``ref`` when it is one a message may carry (a string, 64 characters at
    most), so that a refusal of the rest of the frame can still echo it."""
    ref = data.get("ref")
    return ref if isinstance(ref, str) and len(ref) <= REF_LENGTH else None


# -- server to client -------------------------------------------------------------------


def encode(frame: dict[str, Any]) -> str:
    """A frame's JSON text. The hot path (``update``, with its ``ack``) builds its frames as dicts
    shaped like the models below from the engine's own output, which needs no validation,
    and encodes them here once per audience."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _whole(seconds: object) -> object:
    """A whole number of seconds as an integer (``60``, not ``60.0``)."""
    return int(seconds) if isinstance(seconds, float) and seconds.is_integer() else seconds


Seconds = Annotated[int | float, BeforeValidator(_whole)]
"""Seconds: an integer when whole (a turn of 60 s is ``60``), else a number (a test server's
scaled clock)."""

EVENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "Event",
    "description": "One thing that happened: kind, seat (null: the table), the kind's own "
    "fields, and audience on a sealed event. Every kind per game: docs/schemas/events-*.json.",
    "properties": {
        "kind": {"type": "string"},
        "seat": {"type": ["integer", "null"]},
        "audience": {"type": "array", "items": {"type": "integer"}},
    },
    "required": ["kind", "seat"],
}
Events = Annotated[list[Any], WithJsonSchema({"type": "array", "items": EVENT_SCHEMA})]
"""The engine's events as sent (built as dicts on the hot path, described here)."""

OUTCOME_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "Outcome",
    "description": "How the match ended: winners (seats; empty in a draw), draw, reason, "
    "scores (one per seat, or null), and the game's own detail.",
    "properties": {
        "winners": {"type": "array", "items": {"type": "integer"}},
        "draw": {"type": "boolean"},
        "reason": {"type": "string"},
        "scores": {"type": ["array", "null"], "items": {"type": "number"}},
        "detail": {"type": "object"},
    },
    "required": ["winners", "draw", "reason", "scores", "detail"],
}
Outcome = Annotated[Any, WithJsonSchema({"anyOf": [OUTCOME_SCHEMA, {"type": "null"}]})]
"""The engine's outcome once the match is over, else ``null``."""

View = Annotated[
    Any,
    WithJsonSchema(
        {
            "type": "object",
            "description": "The engine's view of the match for the receiving seat (the public "
            "view for a spectator); each game's own shape (docs/notation.md, docs/web.md).",
        }
    ),
]


class ActionInfo(_Out):
    id: int
    text: str


class PlayerInfo(_Out):
    seat: int
    name: str
    bot: str | None = None
    account: int | None = None


class AckInfo(_Out):
    """In the update that the sender of an accepted action receives: its own action, stored
    (durably) and applied as the update's version, and the ``ref`` it was sent with."""

    action: ActionInfo
    ref: str | None = None


class UpdateOut(_Out):
    """What one accepted action changed, as the receiving seat may see it. The connection
    that sent the action finds ``ack`` in its copy (the acknowledgement); others find none."""

    type: Literal["update"] = "update"
    version: int
    events: Events
    view: View
    legal: list[ActionInfo]
    deciding: list[int]
    outcome: Outcome = None
    deadline: str | None = None
    ack: AckInfo | None = None


class ClockOut(_Out):
    """The turn timer started again with no action (the same seats decide on)."""

    type: Literal["clock"] = "clock"
    deadline: str | None
    turn_seconds: Seconds | None


class LeavingInfo(_Out):
    """A seat whose player has no connection, in its grace period: at ``deadline`` (ISO 8601,
    UTC) the seat is away and a bot plays it, unless the player is back before."""

    seat: int
    deadline: str


class PresenceOut(_Out):
    """Which seats are away (disconnected past the grace period and played by a bot) and
    which are leaving (disconnected, the grace period running, with its deadline)."""

    type: Literal["presence"] = "presence"
    away: list[int]
    leaving: list[LeavingInfo] = Field(default_factory=list)


class MissedOut(_Out):
    """An update a resuming connection missed: the events only (the snapshot has the view)."""

    version: int
    events: Events


class SnapshotOut(_Out):
    """Where the match stands for the receiving seat; sent on connect and on resume."""

    type: Literal["snapshot"] = "snapshot"
    match: str
    game: str
    seat: int | None
    version: int
    players: list[PlayerInfo]
    view: View
    legal: list[ActionInfo]
    deciding: list[int]
    status: Literal["playing", "over"]
    outcome: Outcome = None
    deadline: str | None = None
    turn_seconds: Seconds | None = None
    away: list[int] = Field(default_factory=list)
    leaving: list[LeavingInfo] = Field(default_factory=list)
    grace_seconds: Seconds | None = None
    """How long a seat's grace period lasts (60), or null where nobody is ever away."""
    missed: list[MissedOut] = Field(default_factory=list)
    ref: str | None = None


class ErrorOut(_Out):
    """A refused message; nothing changed. ``version`` is the match's current version."""

    type: Literal["error"] = "error"
    code: str
    message: str
    version: int | None = None
    ref: str | None = None


class PongOut(_Out):
    type: Literal["pong"] = "pong"
    ref: str | None = None


ServerMessage = Annotated[
    SnapshotOut | UpdateOut | ErrorOut | PongOut | ClockOut | PresenceOut,
    Field(discriminator="type"),
]
