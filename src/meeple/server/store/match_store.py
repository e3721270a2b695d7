"""What the match master needs from storage, and an in-memory store for tests.

The master is handed a :class:`MatchStore`; the server passes the database one
(:class:`meeple.server.store.repository.SqlMatchStore`), tests may pass :class:`MemoryMatchStore`.
A stored match is its record -- game, seats, options, seed and the accepted actions -- plus
who sits where.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Protocol

from meeple.core import JSON, MatchRecord, Outcome, Seat


@dataclass(frozen=True, slots=True)
class SeatHolder:
    """Who plays a seat: an account, a bot by name, or nobody yet (both None)."""

    seat: Seat
    name: str
    account_id: int | None = None
    bot: str | None = None
    ready: bool = False

    @property
    def empty(self) -> bool:
        return self.account_id is None and self.bot is None


@dataclass(slots=True)
class StoredMatch:
    """A match as stored: what replays it and who plays it."""

    id: str
    game_id: str
    seats: int
    options: dict[str, Any]
    seed: int
    mode: str
    holders: list[SeatHolder]
    actions: list[tuple[Seat, int]] = field(default_factory=list)
    status: str = "playing"
    outcome: JSON | None = None
    created_by: int | None = None
    code: str | None = None
    public: bool = False
    turn_seconds: int | None = None
    deadline: datetime | None = None

    def record(self) -> MatchRecord:
        """The match record, usable by ``meeple replay``."""
        return MatchRecord(
            game_id=self.game_id,
            seats=self.seats,
            options=dict(self.options),
            seed=self.seed,
            actions=list(self.actions),
            players=[holder.name for holder in self.holders],
            outcome=None if self.outcome is None else Outcome.from_json(self.outcome),
            meta={"match": self.id, "mode": self.mode},
        )


class StaleWrite(Exception):
    """Another writer stored an action under the same number first."""


class MatchStore(Protocol):
    """Storage for matches. ``append_action`` must be durable when it returns."""

    async def create_match(self, match: StoredMatch) -> None: ...

    async def load_match(self, match_id: str) -> StoredMatch | None: ...

    async def playing_matches(self) -> list[StoredMatch]: ...

    async def append_action(
        self,
        match_id: str,
        number: int,
        seat: Seat,
        action: int,
        *,
        outcome: JSON | None = None,
        deadline: datetime | None = None,
    ) -> None:
        """Store action ``number`` (1, 2, ...), the turn timer's deadline after it and, when
        it ended the match, the outcome.

        Raises:
            StaleWrite: when action ``number`` is already stored.
        """
        ...

    async def set_deadline(self, match_id: str, deadline: datetime | None) -> None: ...


class MemoryMatchStore:
    """A :class:`MatchStore` in a dict, for tests that run the master in-process."""

    def __init__(self) -> None:
        self.matches: dict[str, StoredMatch] = {}
        self.writes: list[tuple[str, int, Seat, int]] = []

    async def create_match(self, match: StoredMatch) -> None:
        self.matches[match.id] = replace(match, actions=list(match.actions))

    async def load_match(self, match_id: str) -> StoredMatch | None:
        found = self.matches.get(match_id)
        return None if found is None else replace(found, actions=list(found.actions))

    async def playing_matches(self) -> list[StoredMatch]:
        return [
            replace(match, actions=list(match.actions))
            for match in self.matches.values()
            if match.status == "playing"
        ]

    async def append_action(
        self,
        match_id: str,
        number: int,
        seat: Seat,
        action: int,
        *,
        outcome: JSON | None = None,
        deadline: datetime | None = None,
    ) -> None:
        match = self.matches[match_id]
        if number != len(match.actions) + 1:
            raise StaleWrite(
                f"match {match_id} holds {len(match.actions)} actions, not {number - 1}"
            )
        match.actions.append((seat, action))
        match.deadline = deadline
        self.writes.append((match_id, number, seat, action))
        if outcome is not None:
            match.status = "over"
            match.outcome = outcome

    async def set_deadline(self, match_id: str, deadline: datetime | None) -> None:
        self.matches[match_id].deadline = deadline
