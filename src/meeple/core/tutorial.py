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
     "success": "what is said after success",
     "answers": [[1, "first B"], ...]}

``"answers"`` (optional) script the other seats' reply to the learner's passing action: each
``[seat, action]`` is played in order, right after it, by a seat that decides then; when
they run out, the other seats answer as below. Every scripted answer must be legal where it
is played, and :func:`check_tutorial` plays the whole tutorial through to make sure.

The last step may instead be a position to play on to a win: ``"expect": {"win": true}``
with ``"solution"``, the learner's actions of one line that wins (its first is the
``example``). Any legal action is then played (the board in normal play, nothing
singled out), the tutorial's opponent answers, and the step is done when the match is over
and the learner has won. Its ``position`` is ``"previous"`` or, announced in its text as a
short endgame, a position of its own.

``"previous"`` is the position after the learner's action of the step before (when built
without one, after that step's ``example``). A wrong action leaves the position unchanged:
an illegal one is answered with the engine's reason, a legal but not-asked one with the
step's ``hints`` entry for it or else its ``wrong`` text.

A tutorial is one match played from one side: every step has the same ``seat`` (the
learner's), and every step after the first continues from ``"previous"`` (only a last "play
on to win" step may set up a short endgame of its own). After the learner's passing action
and any scripted answers, the other seats answer until the learner decides again or the
match is over; each plays its first legal action (a patient, weak opponent: the point is the
rule on show, not the opponent's skill), so the match and its positions are the same every
time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from meeple.core.errors import GameError
from meeple.core.game import Game, State
from meeple.core.outcome import Event
from meeple.core.types import JSON, Seat

EXPECT_KINDS = ("any_of", "event", "view_path", "win")
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
    answers: tuple[tuple[Seat, str], ...] = ()
    solution: tuple[str, ...] = ()

    @property
    def to_win(self) -> bool:
        """Whether this step is the match played on to a win (no single action asked)."""
        return bool(self.expect.get("win"))

    def to_json(self) -> JSON:
        return {
            "to_win": self.to_win,
            "solution": list(self.solution),
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
    """What a learner's action did: ``ok`` when it did what the step asks (on a step played
    on to a win: when it was legal, so the match went on).

    ``state`` is the position after it and the answers (the same position, unchanged, when
    not ``ok``); ``done`` whether the step is done (on a step played on to a win only once
    the learner has won).
    """

    ok: bool
    message: str
    state: State
    events: tuple[Event, ...] = ()
    done: bool = False


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
    answers = data.get("answers", [])
    if not isinstance(answers, list) or not all(
        isinstance(a, list)
        and len(a) == 2
        and isinstance(a[0], int)
        and not isinstance(a[0], bool)
        and isinstance(a[1], str)
        for a in answers
    ):
        raise InvalidTutorial(f"{where}.answers must be a list of [seat, action]")
    solution = data.get("solution", [])
    if not isinstance(solution, list) or not all(isinstance(a, str) for a in solution):
        raise InvalidTutorial(f"{where}.solution must be a list of actions")
    if expect.get("win") and not (solution and solution[0] == data.get("example")):
        raise InvalidTutorial(f"{where}.solution must start with the example")
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
        answers=tuple((seat, text) for seat, text in answers),
        solution=tuple(solution),
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
    read = tuple(_step(s, i) for i, s in enumerate(steps))
    for index, step in enumerate(read):
        if step.seat != read[0].seat:
            raise InvalidTutorial(
                f"steps[{index}].seat: a tutorial is played from one seat, {read[0].seat}"
            )
        last = index == len(read) - 1
        if step.to_win and not last:
            raise InvalidTutorial(f"steps[{index}]: only the last step is played on to a win")
        if index and step.position != "previous" and not (last and step.to_win):
            raise InvalidTutorial(
                f"steps[{index}].position: a tutorial is one match, each step continuing "
                'from "previous" (only a last step played on to a win sets up its own)'
            )
    return Tutorial(seats, options, read)


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


WON = "You won!"
"""Said when the learner wins the match a last step plays on (before the step's success)."""


def check_action(game: Game, step: Step, state: State, text: str) -> Check:
    """Whether the learner's ``text`` (notation) does what ``step`` asks in ``state``.

    ``state`` is never changed: a success carries the position after the action and the
    other seats' answers. A refusal says the engine's reason only, as a match does.

    Raises:
        InvalidTutorial: when a scripted answer is refused where it is played.
    """
    try:
        action = state.parse_action(step.seat, text.strip())
        after = state.clone()
        events = after.apply(step.seat, action)
    except GameError as error:
        return Check(False, error.reason, state)
    notation = game.format_action(action)
    if step.to_win:
        events = [*events, *others_answer(after, step.seat)]
        outcome = after.outcome() if after.is_terminal() else None
        if outcome is None:
            return Check(True, "", after, tuple(events))
        if step.seat in outcome.winners:
            return Check(True, f"{WON} {step.success}", after, tuple(events), done=True)
        return Check(True, step.wrong, after, tuple(events))
    if _does_what_is_asked(game, step, notation, after, events):
        events = [*events, *_scripted(after, step), *others_answer(after, step.seat)]
        return Check(True, step.success, after, tuple(events), done=True)
    return Check(False, step.hints.get(notation, step.wrong), state)


def _scripted(state: State, step: Step) -> list[Event]:
    events: list[Event] = []
    for seat, text in step.answers:
        try:
            events.extend(state.apply(seat, state.parse_action(seat, text)))
        except GameError as error:
            raise InvalidTutorial(
                f"{step.title}: the scripted answer {seat} {text!r} is refused: {error.reason}"
            ) from error
    return events


def others_answer(state: State, learner: Seat) -> list[Event]:
    """The other seats play (each its first legal action) in ``state`` until ``learner``
    decides again or the match is over; the events, in order."""
    events: list[Event] = []
    while not state.is_terminal() and learner not in state.deciding_seats():
        seat = state.deciding_seats()[0]
        events.extend(state.apply(seat, state.legal_actions(seat)[0]))
    return events


def play_on(game: Game, step: Step, state: State, played: Sequence[str]) -> State:
    """The position of a step played on to a win after the learner's ``played`` actions
    (each with the opponent's answer) from ``state``; ``state`` is not changed.

    Raises:
        InvalidTutorial: when one of ``played`` is refused or the match is already over.
    """
    for text in played:
        if state.is_terminal():
            raise InvalidTutorial("the match is over")
        done = check_action(game, step, state, text)
        if not done.ok:
            raise InvalidTutorial(done.message)
        state = done.state
    return state


def check_tutorial(game: Game, tutorial: Tutorial) -> None:
    """Play ``tutorial`` through: every step's example passes where the step before left
    the match, every scripted answer is legal where it is played, and a step played on to a
    win is won by its ``solution``.

    Raises:
        InvalidTutorial: naming the first step that fails.
    """
    state = step_state(game, tutorial, 0)
    for index, step in enumerate(tutorial.steps):
        if step.position != "previous":
            state = step_state(game, tutorial, index)
        if step.seat not in state.deciding_seats():
            raise InvalidTutorial(f"steps[{index}]: the learner does not decide there")
        if step.to_win:
            try:
                end = play_on(game, step, state, step.solution)
            except InvalidTutorial as error:
                raise InvalidTutorial(f"steps[{index}].solution: {error}") from error
            outcome = end.outcome() if end.is_terminal() else None
            if outcome is None or step.seat not in outcome.winners:
                raise InvalidTutorial(f"steps[{index}].solution does not win")
            return
        done = check_action(game, step, state, step.example)
        if not done.ok:
            raise InvalidTutorial(f"steps[{index}].example does not pass: {done.message}")
        state = done.state


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
    "check_tutorial",
    "load_tutorial",
    "next_state",
    "others_answer",
    "play_on",
    "step_state",
]
