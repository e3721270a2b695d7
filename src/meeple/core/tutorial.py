"""A guided first match: steps that each teach one rule on a prepared position.

The steps are data (each game ships ``data/tutorial.json`` and hands it over through its
:class:`~meeple.core.kit.GameKit`), so that a rule change means editing the steps, not code.
This module reads that data and checks a learner's action against a step; it does no I/O.

A tutorial is ``{"seats": 2, "options": {}, "steps": [step, ...]}``; a step is::

    {"title": "...", "text": "... the rule, in the game's words ...",
     "position": {"setup": {"seed": 3, "moves": [[0, "pick 2"], ...]}}
                 | {"state": <state JSON as the game's codec reads>} | "previous",
     "seat": 0,
     "expect": {"any_of": ["c3 E", ...]} | {"event": "fight"}
               | {"view_path": ["board", 3, "seat"], "equals": 1},
     "example": "c3 E",
     "wrong": "what a legal but not-asked action is told",
     "hints": {"c3 W": "a hint for that action"},
     "success": "what is said after success"}

``"previous"`` is the position after the learner's action of the step before (when built
without one, after that step's ``example``). A wrong action leaves the position unchanged:
an illegal one is answered with the engine's reason, a legal but not-asked one with the
step's ``hints`` entry for it or else its ``wrong`` text.

A tutorial is best one match played from one side: every step with the same ``seat`` (the
learner's), every step after the first continuing from ``"previous"``. After the learner's
passing action the other seats answer until the learner decides again or the match is over;
each plays its first legal action (a patient opponent: the point is the rule on show, not
the opponent's skill), so the match and its positions are the same every time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from meeple.core.errors import GameError
from meeple.core.game import Game, State
from meeple.core.outcome import Event
from meeple.core.types import JSON, Seat

EXPECT_KINDS = ("any_of", "event", "view_path")
"""The closed vocabulary of what a step may expect."""


class InvalidTutorial(ValueError):
    """Tutorial data that does not have the shape this module reads."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a tutorial (see the module docstring for the fields)."""

    title: str
    text: str
    position: JSON
    seat: Seat
    expect: Mapping[str, Any]
    example: str
    wrong: str
    success: str
    hints: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {
            "title": self.title,
            "text": self.text,
            "seat": self.seat,
            "expect": dict(self.expect),
            "example": self.example,
            "wrong": self.wrong,
            "success": self.success,
            "hints": dict(self.hints),
        }


@dataclass(frozen=True, slots=True)
class Tutorial:
    """A game's steps, with the seat count and options its positions are set up under."""

    seats: int
    options: Mapping[str, Any]
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Check:
    """What a learner's action did: ``ok`` when it did what the step asks.

    ``state`` is the position after it (the same position, unchanged, when not ``ok``).
    """

    ok: bool
    message: str
    state: State
    events: tuple[Event, ...] = ()


def _text(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise InvalidTutorial(f"{where}.{key} must be non-empty text")
    return value


def _step(data: object, index: int) -> Step:
    where = f"steps[{index}]"
    if not isinstance(data, dict):
        raise InvalidTutorial(f"{where} must be an object")
    position = data.get("position")
    if position != "previous" and not (
        isinstance(position, dict)
        and len(position) == 1
        and ("setup" in position or "state" in position)
    ):
        raise InvalidTutorial(
            f'{where}.position must be {{"setup": ...}}, {{"state": ...}} or "previous"'
        )
    if position == "previous" and index == 0:
        raise InvalidTutorial(f"{where}.position: the first step has no previous step")
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise InvalidTutorial(f"{where}.seat must be a seat number")
    expect = data.get("expect")
    if not isinstance(expect, dict) or not any(k in expect for k in EXPECT_KINDS):
        raise InvalidTutorial(f"{where}.expect must name one of {', '.join(EXPECT_KINDS)}")
    hints = data.get("hints", {})
    if not isinstance(hints, dict) or not all(isinstance(v, str) for v in hints.values()):
        raise InvalidTutorial(f"{where}.hints must map actions to text")
    return Step(
        title=_text(data, "title", where),
        text=_text(data, "text", where),
        position=position,
        seat=seat,
        expect=expect,
        example=_text(data, "example", where),
        wrong=_text(data, "wrong", where),
        success=_text(data, "success", where),
        hints=hints,
    )


def load_tutorial(data: JSON) -> Tutorial:
    """The tutorial that ``data`` (a parsed ``tutorial.json``) describes.

    Raises:
        InvalidTutorial: for data of another shape.
    """
    if not isinstance(data, dict):
        raise InvalidTutorial("a tutorial must be an object")
    seats = data.get("seats")
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise InvalidTutorial("seats must be an integer")
    options = data.get("options", {})
    steps = data.get("steps")
    if not isinstance(options, dict):
        raise InvalidTutorial("options must be an object")
    if not isinstance(steps, list) or not steps:
        raise InvalidTutorial("steps must be a non-empty list")
    return Tutorial(seats, options, tuple(_step(s, i) for i, s in enumerate(steps)))


def _view_at(view: JSON, path: Sequence[Any]) -> object:
    here: object = view
    for key in path:
        in_list = isinstance(here, list) and isinstance(key, int) and -len(here) <= key < len(here)
        if not (in_list or (isinstance(here, dict) and key in here)):
            return None
        here = here[key]  # type: ignore[index]
    return here


def _does_what_is_asked(
    game: Game, step: Step, action_text: str, after: State, events: Sequence[Event]
) -> bool:
    expect = step.expect
    if "any_of" in expect:
        wanted = {game.parse_action(t) for t in expect["any_of"]}
        if game.parse_action(action_text) not in wanted:
            return False
    if "event" in expect and not any(e.kind == expect["event"] for e in events):
        return False
    if "view_path" in expect:
        return _view_at(after.view(step.seat), expect["view_path"]) == expect.get("equals")
    return True


def check_action(game: Game, step: Step, state: State, text: str) -> Check:
    """Whether the learner's ``text`` (notation) does what ``step`` asks in ``state``.

    ``state`` is never changed: a success carries the position after the action.
    """
    try:
        action = state.parse_action(step.seat, text.strip())
        after = state.clone()
        events = after.apply(step.seat, action)
    except GameError as error:
        return Check(False, str(error), state)
    notation = game.format_action(action)
    if _does_what_is_asked(game, step, notation, after, events):
        events = [*events, *others_answer(after, step.seat)]
        return Check(True, step.success, after, tuple(events))
    return Check(False, step.hints.get(notation, step.wrong), state)


def others_answer(state: State, learner: Seat) -> list[Event]:
    """The other seats play (each its first legal action) in ``state`` until ``learner``
    decides again or the match is over; the events, in order."""
    events: list[Event] = []
    while not state.is_terminal() and learner not in state.deciding_seats():
        seat = state.deciding_seats()[0]
        events.extend(state.apply(seat, state.legal_actions(seat)[0]))
    return events


def step_state(game: Game, tutorial: Tutorial, index: int) -> State:
    """The prepared position of step ``index`` (a ``"previous"`` one after the step before's
    ``example``).

    Raises:
        InvalidTutorial: when a setup's move or a previous step's example is refused.
    """
    step = tutorial.steps[index]
    if step.position == "previous":
        before = tutorial.steps[index - 1]
        done = check_action(game, before, step_state(game, tutorial, index - 1), before.example)
        if not done.ok:
            raise InvalidTutorial(f"steps[{index - 1}].example does not pass: {done.message}")
        return done.state
    assert isinstance(step.position, dict)
    try:
        if "state" in step.position:
            return game.state_from_json(step.position["state"])
        setup = step.position["setup"]
        state = game.new_initial_state(int(setup["seed"]))
        for seat, text in setup.get("moves", []):
            state.apply(seat, state.parse_action(seat, text))
    except (GameError, KeyError, TypeError, ValueError) as error:
        raise InvalidTutorial(f"steps[{index}].position: {error}") from error
    return state


def next_state(game: Game, tutorial: Tutorial, index: int, done: Check) -> State | None:
    """The position of the step after ``index``, given the learner's passing ``done``
    (None after the last step)."""
    if index + 1 >= len(tutorial.steps):
        return None
    if tutorial.steps[index + 1].position == "previous":
        return done.state
    return step_state(game, tutorial, index + 1)


__all__ = [
    "EXPECT_KINDS",
    "Check",
    "InvalidTutorial",
    "Step",
    "Tutorial",
    "check_action",
    "load_tutorial",
    "next_state",
    "others_answer",
    "step_state",
]
