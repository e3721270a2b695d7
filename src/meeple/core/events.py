"""What a game's events say: each kind's meaning and fields, as the game's kit lists them.

An event (:class:`meeple.core.outcome.Event`) reaches a seat as one JSON object: ``kind``,
``seat`` (the seat it concerns; ``null`` for the table), the kind's own fields, and
``audience`` on a sealed event (the seats that may see it; no one else receives it). A game
lists every kind it sends in its kit's ``events`` part, an :data:`EventCatalogue`: each kind's
meaning in a line (a sentence ending in a full stop) and its fields as JSON types; ``a|b`` is
either, and a trailing ``?`` marks a field that is not always there.

The server publishes the catalogues of the project's games as JSON Schema
(docs/schemas/events-<game>.json) and as docs/protocol.md's tables, and the tests check every
event random matches of each registered game send against its kit's catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple


class EventKind(NamedTuple):
    """One kind of event: what it means, in a line, and its fields."""

    meaning: str
    fields: Mapping[str, str]
    """Each field's JSON type (``kind`` is every event's, so it is not listed)."""


JSON_TYPES = frozenset({"null", "boolean", "integer", "number", "string", "array", "object"})
"""The types a field may have: JSON Schema's."""

EventCatalogue = Mapping[str, EventKind]
"""A game's event kinds by name: every kind its engine sends."""

GAME_OVER = EventKind(
    "The match is over: the outcome's fields (winners, draw, reason, scores, detail).",
    {
        "seat": "null",
        "winners": "array",
        "draw": "boolean",
        "reason": "string",
        "scores": "array",
        "detail": "object",
    },
)
"""The last event of a match, ``Event("game_over", None, outcome.to_json())``: a game that
sends it lists it under ``"game_over"``."""

__all__ = ["GAME_OVER", "JSON_TYPES", "EventCatalogue", "EventKind"]
