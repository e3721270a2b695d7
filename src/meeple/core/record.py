"""Match records: everything needed to replay a match bit for bit.

A record names the game (``name/version``), its seat count and options, and where the match
started -- a ``seed`` for a fresh match or a ``start`` state JSON for a set position (puzzles,
the tutorial, the Daily) -- then lists every accepted action as ``[seat, action]``. Replaying
it through the same engine reproduces every intermediate state.

The format is public and versioned (``"format": "meeple-record/1"``); see docs/notation.md.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from meeple.core.errors import GameError, InvalidRecord
from meeple.core.game import Game, State
from meeple.core.outcome import Outcome
from meeple.core.registry import game_class
from meeple.core.types import JSON, Action, Seat

FORMAT = "meeple-record/1"
MAX_SEED = 2**53 - 1  # seeds stay exact in JavaScript clients


@dataclass(slots=True)
class MatchRecord:
    """A replayable match. Build with :meth:`start`, append with :meth:`add`."""

    game_id: str
    seats: int
    options: dict[str, Any]
    seed: int | None
    start_state: JSON | None = None
    actions: list[tuple[Seat, Action]] = field(default_factory=list)
    players: list[str] | None = None
    outcome: Outcome | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def for_game(
        cls, game: Game, *, seed: int | None = None, start_state: JSON | None = None
    ) -> MatchRecord:
        """An empty record of a match of ``game`` from a seed or a start position."""
        if (seed is None) == (start_state is None):
            raise InvalidRecord("a record starts from exactly one of a seed or a start state")
        return cls(
            game_id=game.id,
            seats=game.seats,
            options=dict(game.options),
            seed=seed,
            start_state=start_state,
        )

    def game(self) -> Game:
        """The configured game this record was played under."""
        try:
            return game_class(self.game_id)(seats=self.seats, options=self.options)
        except GameError as error:
            raise InvalidRecord(f"record names a game that cannot be loaded: {error}") from error

    def initial_state(self) -> State:
        game = self.game()
        if self.start_state is not None:
            try:
                return game.state_from_json(self.start_state)
            except GameError as error:
                raise InvalidRecord(f"record's start state is invalid: {error}") from error
        if self.seed is None:
            raise InvalidRecord("record has neither a seed nor a start state")
        return game.new_initial_state(self.seed)

    def add(self, seat: Seat, action: Action) -> None:
        self.actions.append((seat, action))

    def states(self) -> Iterator[State]:
        """Yield the initial state and the state after every action (fresh clones).

        Raises:
            InvalidRecord: when an action is rejected by the engine.
        """
        return (state.clone() for state in self._walk(yield_each=True))

    def replay(self) -> State:
        """The final state of the record (checked at every action)."""
        return next(self._walk(yield_each=False))

    def _walk(self, *, yield_each: bool) -> Iterator[State]:
        """Apply the actions in order, yielding the state along the way or only at the end."""
        state = self.initial_state()
        if yield_each:
            yield state
        for index, (seat, action) in enumerate(self.actions):
            try:
                state.apply(seat, action)
            except GameError as error:
                raise InvalidRecord(f"action #{index} does not replay: {error}") from error
            if yield_each:
                yield state
        if not yield_each:
            yield state

    def to_json(self, *, with_notation: bool = True) -> JSON:
        data: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game_id,
            "seats": self.seats,
            "options": self.options,
            "seed": self.seed,
        }
        if self.start_state is not None:
            data["start"] = self.start_state
        if self.players is not None:
            data["players"] = list(self.players)
        data["actions"] = [[seat, action] for seat, action in self.actions]
        if with_notation:
            game = self.game()
            data["notation"] = [game.format_action(action) for _, action in self.actions]
        if self.outcome is not None:
            data["outcome"] = self.outcome.to_json()
        if self.meta:
            data["meta"] = self.meta
        return data

    def dumps(self, *, indent: int | None = None) -> str:
        return json.dumps(self.to_json(), indent=indent, sort_keys=False)

    @classmethod
    def from_json(cls, data: JSON) -> MatchRecord:
        """Read a record object.

        Raises:
            InvalidRecord: for a malformed record (wrong format, types, or fields).
        """
        if not isinstance(data, Mapping):
            raise InvalidRecord(f"a record is a JSON object, got {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise InvalidRecord(f"record format must be {FORMAT!r}, got {data.get('format')!r}")
        game_id = data.get("game")
        if not isinstance(game_id, str):
            raise InvalidRecord(f"record 'game' must be a string, got {game_id!r}")
        seats = data.get("seats")
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise InvalidRecord(f"record 'seats' must be an integer, got {seats!r}")
        options = data.get("options", {})
        if not isinstance(options, Mapping):
            raise InvalidRecord(f"record 'options' must be an object, got {options!r}")
        seed = data.get("seed")
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED
        ):
            raise InvalidRecord(
                f"record 'seed' must be an integer in 0..2**53-1 or null, got {seed!r}"
            )
        start = data.get("start")
        if (seed is None) == (start is None):
            raise InvalidRecord("a record starts from exactly one of 'seed' or 'start'")
        raw_actions = data.get("actions", [])
        if not isinstance(raw_actions, list):
            raise InvalidRecord("record 'actions' must be a list of [seat, action]")
        actions: list[tuple[Seat, Action]] = []
        for index, item in enumerate(raw_actions):
            if (
                not isinstance(item, list | tuple)
                or len(item) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in item)
            ):
                raise InvalidRecord(f"action #{index} must be [seat, action], got {item!r}")
            actions.append((item[0], item[1]))
        players = data.get("players")
        if players is not None and (
            not isinstance(players, list) or not all(isinstance(p, str) for p in players)
        ):
            raise InvalidRecord("record 'players' must be a list of names")
        outcome = data.get("outcome")
        meta = data.get("meta", {})
        if not isinstance(meta, Mapping):
            raise InvalidRecord("record 'meta' must be an object")
        try:
            parsed_outcome = None if outcome is None else Outcome.from_json(outcome)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise InvalidRecord(f"record 'outcome' is malformed: {error}") from error
        return cls(
            game_id=game_id,
            seats=seats,
            options=dict(options),
            seed=seed,
            start_state=start,
            actions=actions,
            players=players,
            outcome=parsed_outcome,
            meta=dict(meta),
        )

    @classmethod
    def loads(cls, text: str) -> MatchRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise InvalidRecord(f"record is not JSON: {error}") from error
        return cls.from_json(data)
