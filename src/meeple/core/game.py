"""The engine protocol: a Game (the rulebook, configured) and its States (positions).

A :class:`Game` is immutable: the rules of one game at one version, configured with a seat
count and options. It is the only factory of initial states. A :class:`State` is a position
that says who must decide now -- one seat (sequential play), several seats at once
(simultaneous planning) or nobody (the match is over) -- and takes actions from those seats.

Actions are dense integers ``0 .. num_distinct_actions-1``. Each has a human notation
(:meth:`Game.format_action` / :meth:`Game.parse_action`, context free and round-tripping)
and a JSON form. All randomness of a match comes from the :class:`~meeple.core.rng.Rng`
inside the state, seeded at creation, so a seed and an action list replay bit for bit.

Two ways in, as in python-chess and OpenSpiel: :meth:`State.apply` checks the seat and the
action and raises a typed :class:`~meeple.core.errors.GameError` without touching the
state; :meth:`State.apply_unchecked` trusts its input and is what search uses.
"""

from __future__ import annotations

import operator
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from meeple.core.errors import (
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidOptions,
    InvalidSeat,
    NotYourDecision,
    excerpt,
)
from meeple.core.outcome import Event, Outcome
from meeple.core.types import JSON, Action, Seat

MAX_NOTATION_LENGTH = 200
"""The longest text a notation parser reads; longer text is refused before it is parsed."""


def notation_text(text: object) -> str:
    """``text`` if it can be notation: a string of at most :data:`MAX_NOTATION_LENGTH`
    characters. Each game's parser calls it first, so a megabyte of input is refused at once
    and never echoed back whole.

    Raises:
        InvalidAction: for anything else.
    """
    if not isinstance(text, str):
        raise InvalidAction("notation must be text", action=text)
    if len(text) > MAX_NOTATION_LENGTH:
        raise InvalidAction(
            f"notation is at most {MAX_NOTATION_LENGTH} characters, got {len(text)}", action=text
        )
    return text


def action_integer(action: object) -> int:
    """``action`` as a plain ``int`` if it is an integer of any type (``int``, numpy's
    integers: whatever has ``__index__``), for adapters whose callers hand in numpy scalars.

    Raises:
        InvalidAction: for a bool (numpy's too), a float, a string, None or anything else.
    """
    if type(action) is int:
        return action
    if isinstance(action, bool) or type(action).__name__ == "bool_":
        raise InvalidAction("an action id is an integer, not a boolean", action=action)
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidAction(
            f"an action id must be an integer, not {type(action).__name__}", action=action
        ) from None


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option (variant switch) of a game.

    ``choices`` lists the allowed values for an enumerated option; ``low``/``high`` bound an
    integer option; ``default`` is used when a match does not set it.
    """

    name: str
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    low: int | None = None
    high: int | None = None

    def check(self, value: Any) -> Any:
        """Return the value if it is allowed, else raise :class:`InvalidOptions`."""
        if self.choices is not None:
            # By type too: True == 1, but a switch of 0/1 does not take True.
            if not any(type(value) is type(c) and value == c for c in self.choices):
                raise InvalidOptions(
                    f"option {self.name!r} must be one of {list(self.choices)}, got {value!r}"
                )
            return value
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise InvalidOptions(f"option {self.name!r} must be true or false, got {value!r}")
            return value
        if isinstance(self.default, int):
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidOptions(f"option {self.name!r} must be an integer, got {value!r}")
            if (self.low is not None and value < self.low) or (
                self.high is not None and value > self.high
            ):
                raise InvalidOptions(
                    f"option {self.name!r} must lie in {self.low}..{self.high}, got {value}"
                )
            return value
        return value

    def to_json(self) -> JSON:
        data: dict[str, Any] = {
            "name": self.name,
            "default": self.default,
            "description": self.description,
        }
        if self.choices is not None:
            data["choices"] = list(self.choices)
        if self.low is not None:
            data["low"] = self.low
        if self.high is not None:
            data["high"] = self.high
        return data


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game is, independent of any match.

    Attributes:
        name: stable short id, lower case, as ``meeple games`` lists it.
        version: bumped whenever a rule change would make an old record replay differently.
        title: the name people read.
        min_seats / max_seats: supported seat counts.
        simultaneous: whether several seats may have to decide at once.
        hidden_information: whether some seat cannot see part of the state.
        chance: whether the state's generator is ever drawn from after creation.
        options: the option specs (variants) a match may set.
    """

    name: str
    version: int
    title: str
    min_seats: int
    max_seats: int
    simultaneous: bool
    hidden_information: bool
    chance: bool
    options: tuple[OptionSpec, ...] = field(default_factory=tuple)

    @property
    def id(self) -> str:
        return f"{self.name}/{self.version}"

    def to_json(self) -> JSON:
        return {
            "id": self.id,
            "name": self.name,
            "version": self.version,
            "title": self.title,
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "simultaneous": self.simultaneous,
            "hidden_information": self.hidden_information,
            "chance": self.chance,
            "options": [o.to_json() for o in self.options],
        }


class Game(ABC):
    """The rules of one game, configured for a seat count and options. Immutable.

    Subclasses set :attr:`info` and implement the abstract methods. Construct through
    :func:`meeple.core.registry.load_game` or directly: ``Maatatahay(seats=2)``.

    Raises:
        InvalidOptions: for an unsupported seat count, an unknown option or a bad value.
    """

    info: ClassVar[GameInfo]

    def __init__(self, seats: int | None = None, options: Mapping[str, Any] | None = None):
        info = self.info
        if seats is None:
            seats = info.min_seats
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise InvalidOptions(f"seat count must be an integer, got {seats!r}")
        if not info.min_seats <= seats <= info.max_seats:
            counts = (
                str(info.min_seats)
                if info.min_seats == info.max_seats
                else f"{info.min_seats} to {info.max_seats}"
            )
            raise InvalidOptions(f"{info.title} is played by {counts} seats, not {seats}")
        if options is not None and not isinstance(options, Mapping):
            raise InvalidOptions(f"options must be a mapping of names to values, got {options!r}")
        given = dict(options or {})
        known = {spec.name: spec for spec in info.options}
        unknown = sorted(set(given) - set(known), key=repr)
        if unknown:
            raise InvalidOptions(
                f"unknown option(s) {unknown} for {info.id}; known: {sorted(known)}"
            )
        resolved = {
            name: spec.check(given[name]) if name in given else spec.default
            for name, spec in known.items()
        }
        self._seats = seats
        self._options: Mapping[str, Any] = resolved
        self._check_configuration()

    def _check_configuration(self) -> None:
        """Hook for cross-option checks (e.g. teams need 3+ seats)."""

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def seats(self) -> int:
        return self._seats

    @property
    def options(self) -> Mapping[str, Any]:
        return dict(self._options)

    def option(self, name: str) -> Any:
        return self._options[name]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seats={self._seats}, options={dict(self._options)!r})"

    rules: object = None
    """The numbers a game plays with, where it holds them as a value (a game built with other
    numbers is another game); None for a game whose numbers are all in its code."""

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game)
            and other.id == self.id
            and other.seats == self.seats
            and dict(other.options) == dict(self.options)
            and (other.rules is self.rules or other.rules == self.rules)
        )

    def __hash__(self) -> int:
        return hash((self.id, self._seats, tuple(sorted(self._options.items()))))

    @abstractmethod
    def num_distinct_actions(self) -> int:
        """Size of the dense action space."""

    @abstractmethod
    def max_game_length(self) -> int:
        """An upper bound on the number of actions in a match."""

    @abstractmethod
    def new_initial_state(self, seed: int) -> State:
        """The opening position of a match, with all its randomness seeded from ``seed``."""

    @abstractmethod
    def state_from_json(self, data: JSON) -> State:
        """Rebuild a full state from :meth:`State.to_json`.

        Raises:
            InvalidState: if the object is malformed or inconsistent.
        """

    @abstractmethod
    def format_action(self, action: Action) -> str:
        """The action's notation; context free, so ``parse_action(format_action(a)) == a``."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """The action a notation names.

        Raises:
            InvalidAction: if the text is not an action of this game.
        """

    def action_to_json(self, action: Action) -> JSON:
        """The action as JSON: its id and notation (games add structured fields)."""
        self.check_action_range(action)
        return {"id": action, "text": self.format_action(action)}

    def action_from_json(self, data: JSON) -> Action:
        """Read an action from an int, a notation string or an object with ``id`` or ``text``.

        Raises:
            InvalidAction: for anything else.
        """
        if isinstance(data, bool):
            raise InvalidAction("an action is not a boolean", action=data)
        if isinstance(data, int):
            self.check_action_range(data)
            return data
        if isinstance(data, str):
            return self.parse_action(data)
        if isinstance(data, dict):
            if "id" in data:
                ident = data["id"]
                if isinstance(ident, dict):  # one level only: {"id": {"id": ...}} nests
                    raise InvalidAction("an action's id is an integer or a notation", action=data)
                action = self.action_from_json(ident)
                if "text" in data and self.parse_action(data["text"]) != action:
                    raise InvalidAction("id and text name different actions", action=data)
                return action
            if "text" in data:
                return self.parse_action(data["text"])
        raise InvalidAction("an action is an id, a notation or {id|text}", action=data)

    def check_action_range(self, action: object) -> None:
        """Raise :class:`InvalidAction` unless ``action`` is an id of this game."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise InvalidAction("an action id must be an integer", action=action)
        if not 0 <= action < self.num_distinct_actions():
            raise InvalidAction(
                f"action ids run 0..{self.num_distinct_actions() - 1}", action=action
            )

    def coerce_action(self, action: object) -> Action:
        """An action id from any integer type (``int``, numpy's integers: whatever has
        ``__index__``), checked to be in range. For adapters whose callers hand in numpy
        scalars; the engine itself takes plain ``int`` only.

        Raises:
            InvalidAction: for a bool, a float, a string, None or anything else that is
                not an integer, and for an integer outside the action range.
        """
        action = action_integer(action)
        self.check_action_range(action)
        return action

    def check_seat(self, seat: object, action: object = None) -> None:
        """Raise :class:`InvalidSeat` unless ``seat`` is a seat of this match.

        ``action`` (what the seat tried to do) is quoted in the error when given.
        """
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._seats:
            seats = f"seats run 0..{self._seats - 1}"
            if isinstance(seat, int) and not isinstance(seat, bool):
                raise InvalidSeat(f"no such seat; {seats}", seat=seat, action=action)
            raise InvalidSeat(f"{excerpt(seat)} is not a seat number; {seats}", action=action)


class State(ABC):
    """A position of a match. Mutable for speed; :meth:`clone` before exploring.

    Subclasses implement the abstract methods; :meth:`apply` (the checked way in) is built
    from them here, so every game validates input the same way. Every public method that
    takes a seat checks it here first (an ``int`` of the match, never a bool, never ``-1``
    for the last seat) and raises :class:`InvalidSeat`; the protected ``_legal_actions``,
    ``_view``, ``_resample`` and ``_describe_action`` a game implements see checked input
    only.
    """

    game: Game

    # -- who decides ---------------------------------------------------------------

    @abstractmethod
    def deciding_seats(self) -> tuple[Seat, ...]:
        """The seats that must decide now: one, several at once, or none when over."""

    def is_terminal(self) -> bool:
        return not self.deciding_seats()

    def current_seat(self) -> Seat | None:
        """The single seat to decide, or None when several (or none) decide."""
        seats = self.deciding_seats()
        return seats[0] if len(seats) == 1 else None

    def legal_actions(self, seat: Seat) -> list[Action]:
        """The seat's legal actions, ascending; empty if the seat does not decide now.

        Raises:
            InvalidSeat: the seat does not exist (``-1`` is no seat, not the last one).
        """
        # The common case costs one type test and one comparison; search calls this a lot.
        if type(seat) is not int or not 0 <= seat < self.game._seats:
            self.game.check_seat(seat)
        return self._legal_actions(seat)

    @abstractmethod
    def _legal_actions(self, seat: Seat) -> list[Action]:
        """:meth:`legal_actions` for a seat already checked to be one of the match's."""

    # -- transitions -----------------------------------------------------------------

    @abstractmethod
    def apply_unchecked(self, seat: Seat, action: Action) -> list[Event]:
        """Apply a legal action of a deciding seat. Trusts its input: search uses it."""

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        """Apply an action after checking it; on error nothing changes.

        Raises:
            InvalidSeat: the seat does not exist.
            GameOver: the match has ended.
            NotYourDecision: the seat does not decide now.
            InvalidAction: the id is not an action of this game.
            IllegalAction: the action is not legal now for this seat.
        """
        game = self.game
        game.check_seat(seat, action)
        deciding = self.deciding_seats()
        if not deciding:
            raise GameOver("the match is over", seat=seat, action=action)
        if seat not in deciding:
            raise NotYourDecision(self._deciding_words(deciding), seat=seat, action=action)
        game.check_action_range(action)
        if action not in self._legal_actions(seat):
            why = self.why_illegal(seat, action)
            raise IllegalAction(
                f"{game.format_action(action)!r} is not legal now: {why}",
                seat=seat,
                action=action,
            )
        return self.apply_unchecked(seat, action)

    def hand_in_action(self, seat: Seat) -> Action:
        """The action the turn timer hands in for ``seat`` when it reaches zero.

        For simultaneous planning (Maiterra) it ends the seat's turn with the orders it has
        queued, as they stand; a seat with none passes. It is one of the seat's legal
        actions, so a match record holds it like any other.

        Raises:
            InvalidSeat, GameOver, NotYourDecision: as :meth:`apply`.
            IllegalAction: the game has nothing to hand in for this seat now.
        """
        self.game.check_seat(seat, "hand_in")
        deciding = self.deciding_seats()
        if not deciding:
            raise GameOver("the match is over", seat=seat, action="hand_in")
        if seat not in deciding:
            raise NotYourDecision(self._deciding_words(deciding), seat=seat, action="hand_in")
        return self._hand_in_action(seat)

    def hand_in(self, seat: Seat) -> list[Event]:
        """Apply :meth:`hand_in_action` (checked): the turn timer reached zero."""
        return self.apply(seat, self.hand_in_action(seat))

    def _hand_in_action(self, seat: Seat) -> Action:
        """Games with a turn timer override this; the checks are already done."""
        raise IllegalAction(
            f"{self.game.info.title} has no planning to hand in", seat=seat, action="hand_in"
        )

    def play(self, seat: Seat, text: str) -> list[Event]:
        """Parse a notation for ``seat`` and apply it, checked.

        Raises:
            InvalidAction: the text names no action (the error names the seat and text).
            and everything :meth:`apply` raises.
        """
        self.game.check_seat(seat, text)
        try:
            action = self.parse_action(seat, text)
        except InvalidAction as error:
            if error.seat is not None:
                raise
            raise InvalidAction(error.reason, seat=seat, action=text) from error
        return self.apply(seat, action)

    def why_illegal(self, seat: Seat, action: Action) -> str:
        """A short reason an action is illegal; games override for better messages."""
        return "it is not among the legal actions"

    def child(self, seat: Seat, action: Action) -> Self:
        """A new state with the action applied (checked); this one is unchanged."""
        new = self.clone()
        new.apply(seat, action)
        return new

    # -- notation ----------------------------------------------------------------------

    def action_to_string(self, seat: Seat, action: Action) -> str:
        """The action's notation for display in this position (defaults to the game's).

        Raises:
            InvalidSeat: the seat does not exist.
            InvalidAction: the id is not an action of this game.
        """
        self.game.check_seat(seat, action)
        return self.game.format_action(action)

    def parse_action(self, seat: Seat, text: str) -> Action:
        """Parse what a seat typed.

        Raises:
            InvalidSeat: the seat does not exist.
            InvalidAction: the text names no action.
        """
        self.game.check_seat(seat, text)
        return self.game.parse_action(text)

    def describe_action(self, seat: Seat, action: Action) -> str:
        """A sentence for people (\"Wazu places on c3\"), for any seat and action id, legal
        now or not (a log describes actions after the fact).

        Raises:
            InvalidSeat: the seat does not exist.
            InvalidAction: the id is not an action of this game.
        """
        game = self.game
        game.check_seat(seat, action)
        game.check_action_range(action)
        return self._describe_action(seat, action)

    def _describe_action(self, seat: Seat, action: Action) -> str:
        """:meth:`describe_action` for a checked seat and id; defaults to the notation."""
        return self.action_to_string(seat, action)

    def seat_name(self, seat: Seat) -> str:
        """The name the seat goes by on the board (its colour, tribe or faction), for
        sentences people read; games override the default ``seat N``."""
        return f"seat {seat}"

    def _deciding_words(self, deciding: Sequence[Seat]) -> str:
        """``it is Wazu's turn`` / ``Red and Gold decide now``: who decides, by name."""
        names = [self.seat_name(s) for s in deciding]
        if len(names) == 1:
            whose = names[0] + ("'" if names[0].endswith("s") else "'s")
            return f"it is {whose} turn"
        return ", ".join(names[:-1]) + f" and {names[-1]} decide now"

    # -- copies, results, views --------------------------------------------------------

    @abstractmethod
    def clone(self) -> Self:
        """An independent deep copy."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """How the match ended, or None while it goes on."""

    def returns(self) -> list[float]:
        """Per-seat utility: the outcome's returns at the end, zeros before."""
        outcome = self.outcome()
        if outcome is None:
            return [0.0] * self.game.seats
        return outcome.returns(self.game.seats)

    def view(self, seat: Seat | None) -> JSON:
        """What ``seat`` may see, as JSON; ``None`` gives the spectators' view.

        This is the only thing that may leave the engine for a seat.

        Raises:
            InvalidSeat: the seat is neither None nor a seat of the match.
        """
        if seat is not None:
            self.game.check_seat(seat)
        return self._view(seat)

    @abstractmethod
    def _view(self, seat: Seat | None) -> JSON:
        """:meth:`view` for None or a seat already checked to be one of the match's."""

    @abstractmethod
    def to_json(self) -> JSON:
        """The full state as JSON, secrets and generator included (never sent to a seat)."""

    def resample(self, seat: Seat, seed: int) -> Self:
        """A state ``seat`` cannot tell apart from this one, with what it cannot see redrawn.

        ``view(seat)`` of the result equals ``view(seat)`` of this state. Bots search over
        such determinizations instead of peeking at the real secrets.

        Raises:
            InvalidSeat: the seat does not exist.
        """
        self.game.check_seat(seat)
        return self._resample(seat, seed)

    @abstractmethod
    def _resample(self, seat: Seat, seed: int) -> Self:
        """:meth:`resample` for a seat already checked to be one of the match's."""

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and other.game == self.game
            and other.to_json() == self.to_json()
        )

    __hash__ = None  # type: ignore[assignment]


def legal_actions_by_seat(state: State) -> dict[Seat, list[Action]]:
    """Every deciding seat's legal actions."""
    return {seat: state.legal_actions(seat) for seat in state.deciding_seats()}


def apply_all(state: State, moves: Sequence[tuple[Seat, Action]]) -> list[Event]:
    """Apply (seat, action) pairs in order, checked; returns all events."""
    events: list[Event] = []
    for seat, action in moves:
        events.extend(state.apply(seat, action))
    return events
