"""How a match ended, for people (Outcome) and for search (returns)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple

from meeple.core.types import JSON, Seat

_NO_DATA: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a match.

    Attributes:
        winners: the seats that won (several for a team); empty for a draw.
        reason: a stable word for why it ended, e.g. ``"six_lost"`` or ``"board_full"``.
        scores: final points per seat, when the game counts points.
        detail: game-specific extras (tie-break used, per-seat breakdown).
    """

    winners: tuple[Seat, ...]
    reason: str
    scores: tuple[float, ...] | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def returns(self, seats: int) -> list[float]:
        """+1 for each winner, -1 for each other seat; all 0 for a draw."""
        if not self.winners:
            return [0.0] * seats
        return [1.0 if seat in self.winners else -1.0 for seat in range(seats)]

    def to_json(self) -> JSON:
        return {
            "winners": list(self.winners),
            "draw": self.is_draw,
            "reason": self.reason,
            "scores": None if self.scores is None else list(self.scores),
            "detail": self.detail,
        }

    @classmethod
    def from_json(cls, data: JSON) -> Outcome:
        scores = data.get("scores")
        return cls(
            winners=tuple(int(s) for s in data["winners"]),
            reason=str(data["reason"]),
            scores=None if scores is None else tuple(scores),
            detail=dict(data.get("detail") or {}),
        )


class Event(NamedTuple):
    """Something that happened during a transition, for logs, animations and replays.

    ``seat`` is the seat the event concerns (None for the table); ``data`` is JSON-ready.
    ``audience`` is None for an event every seat may see, or the seats allowed to see it
    (a sealed order is seen only by the seat that queued it); whoever forwards events to a
    seat filters with :meth:`visible_to`. A named tuple: immutable and cheap to make, as
    engines emit several per action inside search.
    """

    kind: str
    seat: Seat | None = None
    data: Mapping[str, Any] = _NO_DATA
    audience: tuple[Seat, ...] | None = None

    def visible_to(self, seat: Seat | None) -> bool:
        return self.audience is None or (seat is not None and seat in self.audience)

    def to_json(self) -> JSON:
        """``kind`` and ``seat`` first (data never overrides them), ``audience`` if sealed."""
        data: dict[str, Any] = {**self.data, "kind": self.kind, "seat": self.seat}
        if self.audience is not None:
            data["audience"] = list(self.audience)
        return data
