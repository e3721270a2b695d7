"""Match records: everything needed to replay a match bit for bit.

A record names the game (``name/version``), its seat count and options, and where the match
started -- a ``seed`` for a fresh match or a ``start`` state JSON for a set position (puzzles,
the tutorial, the Daily) -- then lists every accepted action as ``[seat, action]``. Replaying
it through the same engine reproduces every intermediate state.

The format is public and versioned (``"format": "meeple-record/1"``); see docs/notation.md.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from meeple.core.errors import GameError, InvalidRecord, UnknownGame, excerpt
from meeple.core.game import Game, State
from meeple.core.outcome import Outcome
from meeple.core.registry import GameId, game_class, registered
from meeple.core.types import JSON, Action, Seat
from meeple.core.validate import (
    MAX_DEPTH,
    Fields,
    check_depth,
    expect_int,
    expect_list,
    expect_object,
    expect_str,
)

FORMAT = "meeple-record/1"
MAX_SEED = 2**53 - 1  # seeds stay exact in JavaScript clients
MAX_SEATS = 64
MAX_ACTIONS = 100_000
"""The most actions a record may list (every game's longest match is far shorter)."""
MAX_ACTION = 2**31 - 1
MAX_OPTIONS = 32
MAX_NAME = 100
"""The longest game id, option name or value, player name or outcome reason."""
MAX_INT_DIGITS = 30


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
                raise InvalidRecord(
                    f"action #{index} does not replay (seat {seat}): {error.reason}"
                ) from error
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
        """Read a record object, checking every field (see docs/notation.md, Limits).

        Raises:
            InvalidRecord: for a malformed record (wrong format, types, or fields, a game
                id without its version, a seat outside the seat count, anything past the
                limits).
        """
        check_depth(data, "the record", error=InvalidRecord)
        top = Fields(data, "record", error=InvalidRecord)
        if top.raw("format") != FORMAT:
            raise InvalidRecord(
                f"record format must be {FORMAT!r}, got {excerpt(top.raw('format'))}"
            )
        game_id = _game_id(top.need("game"))
        seats = top.integer("seats", 1, MAX_SEATS)
        options = _options(top.raw("options", {}))
        seed = top.raw("seed")
        if seed is not None:
            seed = expect_int(seed, "record.seed", 0, MAX_SEED, error=InvalidRecord)
        start = top.raw("start")
        if (seed is None) == (start is None):
            raise InvalidRecord("a record starts from exactly one of 'seed' or 'start'")
        actions: list[tuple[Seat, Action]] = []
        for index, item in enumerate(
            expect_list(
                top.raw("actions", []), "record.actions", max_len=MAX_ACTIONS, error=InvalidRecord
            )
        ):
            what = f"action #{index}"
            if not isinstance(item, list) or len(item) != 2:
                raise InvalidRecord(f"{what} must be [seat, action], got {excerpt(item)}")
            seat = expect_int(item[0], f"{what}'s seat", 0, MAX_SEATS - 1, error=InvalidRecord)
            action = expect_int(item[1], f"{what}'s action", 0, MAX_ACTION, error=InvalidRecord)
            actions.append((seat, action))
        players = top.raw("players")
        if players is not None:
            players = [
                expect_str(p, f"record.players[{i}]", max_len=MAX_NAME, error=InvalidRecord)
                for i, p in enumerate(
                    expect_list(players, "record.players", max_len=seats, error=InvalidRecord)
                )
            ]
        outcome = top.raw("outcome")
        meta = expect_object(top.raw("meta", {}), "record.meta", error=InvalidRecord)
        return cls(
            game_id=game_id,
            seats=seats,
            options=options,
            seed=seed,
            start_state=start,
            actions=actions,
            players=players,
            outcome=None if outcome is None else _outcome(outcome),
            meta=dict(meta),
        )

    @classmethod
    def loads(cls, text: str | bytes) -> MatchRecord:
        """Read a record from JSON text (bytes must be UTF-8).

        Raises:
            InvalidRecord: for text that is not JSON (or not UTF-8), JSON nested deeper
                than the limit or with an integer of more than 30 digits, and everything
                :meth:`from_json` refuses.
        """
        text = _record_text(text)
        try:
            data = json.loads(text, parse_int=_json_int, parse_constant=_json_constant)
        except json.JSONDecodeError as error:
            raise InvalidRecord(
                f"record is not JSON: {error.msg} (line {error.lineno} column {error.colno})"
            ) from error
        except RecursionError as error:
            raise InvalidRecord(
                f"the record nests lists and objects more than {MAX_DEPTH} deep"
            ) from error
        return cls.from_json(data)

    @classmethod
    def loads_all(cls, text: str | bytes) -> list[MatchRecord]:
        """Every record in a text that holds one or many: one record object (pretty or on
        one line, as ``play``'s save writes it), records one a line (JSON lines, as
        ``selfplay --out`` writes them), several pretty records one after another, or a
        JSON list of records. An error names the record it is in (``record #2``, from 1).

        Raises:
            InvalidRecord: for text that is not UTF-8 or not JSON, one that holds no
                record, and everything :meth:`from_json` refuses in any record.
        """
        text = _record_text(text)
        decoder = json.JSONDecoder(parse_int=_json_int, parse_constant=_json_constant)
        values: list[Any] = []
        position = _skip_space(text, 0)
        while position < len(text):
            try:
                value, position = decoder.raw_decode(text, position)
            except json.JSONDecodeError as error:
                raise InvalidRecord(
                    f"record is not JSON: {error.msg} (line {error.lineno} column {error.colno})"
                ) from error
            except RecursionError as error:
                raise InvalidRecord(
                    f"the record nests lists and objects more than {MAX_DEPTH} deep"
                ) from error
            if isinstance(value, list):
                values.extend(value)
            else:
                values.append(value)
            position = _skip_space(text, position)
        if not values:
            raise InvalidRecord("the text holds no record (it is empty)")
        if len(values) > 1:
            records: list[MatchRecord] = []
            for number, value in enumerate(values, start=1):
                try:
                    records.append(cls.from_json(value))
                except InvalidRecord as error:
                    raise InvalidRecord(f"record #{number}: {error.reason}") from error
            return records
        return [cls.from_json(values[0])]


def _skip_space(text: str, position: int) -> int:
    """The first position at or after ``position`` that is not JSON whitespace."""
    while position < len(text) and text[position] in " \t\r\n":
        position += 1
    return position


def _record_text(text: object) -> str:
    """``text`` as a string: bytes must be UTF-8, anything else but a string is refused.

    Raises:
        InvalidRecord: for bytes that are not UTF-8 or a value that is no text.
    """
    if isinstance(text, bytes | bytearray):
        try:
            return bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            raise InvalidRecord(
                f"record is not UTF-8 text: byte 0x{text[error.start]:02x} at offset {error.start}"
            ) from error
    if not isinstance(text, str):
        raise InvalidRecord(f"a record is JSON text, got {type(text).__name__}")
    return text


def _json_int(text: str) -> int:
    """A JSON integer of at most :data:`MAX_INT_DIGITS` digits (Python refuses to read
    ones past 4,300 digits with a ``ValueError`` of its own, and no field needs them)."""
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise InvalidRecord(
            f"the record holds an integer of {len(text.lstrip('-'))} digits "
            f"(at most {MAX_INT_DIGITS}): {excerpt(text[:20])}"
        )
    return int(text)


def _json_constant(name: str) -> Any:
    raise InvalidRecord(f"the record holds {name}, which is not JSON")


def _names_a_version(game_id: str) -> bool:
    """Whether ``game_id`` parses (:meth:`GameId.parse`) as ``name/version``."""
    try:
        return GameId.parse(game_id).version is not None
    except UnknownGame:
        return False


def _game_id(value: Any) -> str:
    """A ``name/version`` id; a bare name gets the versions registered under it."""
    game_id = expect_str(value, "record.game", max_len=MAX_NAME, error=InvalidRecord)
    if _names_a_version(game_id):
        return game_id
    versions = [info.id for info in registered() if info.name == game_id]
    if versions:
        named = ", ".join(repr(v) for v in versions[:-1])
        named = f"{named} or {versions[-1]!r}" if named else repr(versions[-1])
        raise InvalidRecord(
            f"record.game {game_id!r} lacks the rules version it was played under; "
            f"write it as {named}"
        )
    raise InvalidRecord(f"record.game must be 'name/version', got {excerpt(game_id)}")


def _options(value: Any) -> dict[str, Any]:
    """Option names and plain values (the game checks them against its options)."""
    options = expect_object(value, "record.options", error=InvalidRecord)
    if len(options) > MAX_OPTIONS:
        raise InvalidRecord(f"record.options holds more than {MAX_OPTIONS} options")
    for name, option in options.items():
        expect_str(name, "an option name in record.options", error=InvalidRecord)
        what = f"record.options.{name}"
        if isinstance(option, str):
            expect_str(option, what, error=InvalidRecord)
        elif isinstance(option, int) and not isinstance(option, bool):
            expect_int(option, what, -MAX_SEED, MAX_SEED, error=InvalidRecord)
        elif not isinstance(option, bool):
            raise InvalidRecord(
                f"{what} must be text, an integer or true/false, got {excerpt(option)}"
            )
    return dict(options)


def _outcome(value: Any) -> Outcome:
    """The informative ``outcome``: winning seats, a reason, a score per seat."""
    outcome = Fields(value, "record.outcome", error=InvalidRecord)
    winners = [
        expect_int(s, f"record.outcome.winners[{i}]", 0, MAX_SEATS - 1, error=InvalidRecord)
        for i, s in enumerate(outcome.items("winners", max_len=MAX_SEATS))
    ]
    reason = outcome.text("reason")
    scores = outcome.raw("scores")
    if scores is not None:
        scores = outcome.items("scores", max_len=MAX_SEATS)
        for i, score in enumerate(scores):
            if (
                isinstance(score, bool)
                or not isinstance(score, int | float)
                or not math.isfinite(score)
            ):
                raise InvalidRecord(
                    f"record.outcome.scores[{i}] must be a number, got {excerpt(score)}"
                )
    detail = expect_object(outcome.raw("detail", {}), "record.outcome.detail", error=InvalidRecord)
    return Outcome.from_json(
        {"winners": winners, "reason": reason, "scores": scores, "detail": detail}
    )
