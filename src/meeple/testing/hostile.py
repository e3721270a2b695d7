"""Hostile input at every entry point of the protocol: typed refusals, nothing changed, short
messages.

Every public method of a :class:`~meeple.core.Game` or :class:`~meeple.core.State` that a
seat's client, a network peer or a research adapter can reach takes a seat, an action id or
a notation. Whatever it is handed -- negative or huge integers, floats, booleans, None,
text of any script or length, bytes, containers, an object -- it must either succeed or
raise a :class:`~meeple.core.GameError` (a ``ValueError``) that quotes no more than a short
excerpt of the input, and a refusal must leave the state exactly as it was (``to_json()``,
generator included). :func:`attempt` checks one call; :func:`check_hostile_inputs` throws a
fixed list of such values at every entry point of one state; :func:`entry_points` names the
calls so that Hypothesis tests can throw values of their own.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from meeple.core import GameError, InvalidAction, InvalidSeat, State
from meeple.core.errors import excerpt
from meeple.testing.support import Where, fail, snapshot

MAX_MESSAGE_CHARS = 400
"""The longest error message a refusal may give, whatever it was handed."""

QUOTE_LIMIT = 80
"""No run of more than this many characters of a long text input may appear in a message."""

LONG_TEXT = "c3 " * 350_000 + "é" * 1000
"""About a megabyte of text that starts like notation."""

HOSTILE_VALUES: tuple[Any, ...] = (
    -1,
    -2,
    -(10**30),
    10**30,
    2**63,
    10**5000,
    0.0,
    1.5,
    float("nan"),
    float("inf"),
    True,
    False,
    None,
    "0",
    "",
    " ",
    "\x00",
    "end\x00",
    "ÉND",
    "ｃ３",
    "c٣",
    "𝕖𝕟𝕕",
    "x" * 300,
    LONG_TEXT,
    b"0",
    bytearray(b"end"),
    [0],
    (0,),
    {"id": 0},
    {"id": {"id": 0}},
    {"text": 10**5000},
    {0},
    object(),
)
"""Values no seat, action id or notation should be (some are valid for some games' parsers:
a refusal or a success, never another exception)."""


def is_seat(game_seats: int, value: Any) -> bool:
    """Whether ``value`` is a seat of a match of ``game_seats`` seats (an int, not a bool)."""
    return type(value) is int and 0 <= value < game_seats


def is_action_id(size: int, value: Any) -> bool:
    return type(value) is int and 0 <= value < size


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry point: its name, how to call it with a seat and a value, whether it may
    change the state when it succeeds, and which error a bad seat or value must give."""

    name: str
    call: Callable[[State, Any, Any], object]
    takes_seat: bool
    value_is: str  # "action", "text", "json" or "none"
    mutates: bool = False
    returns_action: bool = False
    spectator: bool = False  # None is a seat here (the spectators' view)


ENTRIES: tuple[Entry, ...] = (
    Entry("legal_actions", lambda s, seat, _: s.legal_actions(seat), True, "none"),
    Entry("view", lambda s, seat, _: s.view(seat), True, "none", spectator=True),
    Entry("resample", lambda s, seat, _: s.resample(seat, 7), True, "none"),
    Entry("hand_in_action", lambda s, seat, _: s.hand_in_action(seat), True, "none"),
    Entry("describe_action", lambda s, seat, a: s.describe_action(seat, a), True, "action"),
    Entry("action_to_string", lambda s, seat, a: s.action_to_string(seat, a), True, "action"),
    Entry(
        "parse_action",
        lambda s, seat, t: s.parse_action(seat, t),
        True,
        "text",
        returns_action=True,
    ),
    Entry("child", lambda s, seat, a: s.child(seat, a), True, "action"),
    Entry("apply", lambda s, seat, a: s.apply(seat, a), True, "action", mutates=True),
    Entry("play", lambda s, seat, t: s.play(seat, t), True, "text", mutates=True),
    Entry("game.format_action", lambda s, _, a: s.game.format_action(a), False, "action"),
    Entry("game.action_to_json", lambda s, _, a: s.game.action_to_json(a), False, "action"),
    Entry(
        "game.parse_action",
        lambda s, _, t: s.game.parse_action(t),
        False,
        "text",
        returns_action=True,
    ),
    Entry(
        "game.action_from_json",
        lambda s, _, v: s.game.action_from_json(v),
        False,
        "json",
        returns_action=True,
    ),
    Entry("game.check_seat", lambda s, seat, _: s.game.check_seat(seat), True, "none"),
)
"""Every entry point that takes a seat, an action id or a notation."""


def entry_points(*, mutating: bool = True) -> tuple[Entry, ...]:
    """The entry points (without ``apply`` and ``play`` unless ``mutating``)."""
    return tuple(e for e in ENTRIES if mutating or not e.mutates)


def attempt(
    state: State,
    entry: Entry,
    seat: Any,
    value: Any,
    *,
    where: Where | None = None,
    compare: bool = True,
) -> tuple[bool, object]:
    """Call ``entry`` on ``state`` with ``seat`` and ``value``; return (succeeded, result).

    Fails (:class:`~meeple.testing.ConformanceError`) if the call raises anything but a
    :class:`GameError`; if a refusal gave a message over :data:`MAX_MESSAGE_CHARS` or quoted
    more than :data:`QUOTE_LIMIT` characters of a text input; if a bad seat was not refused
    with :class:`InvalidSeat`; if an entry that takes an action id accepted something that
    is none, or a parser returned something that is none. With ``compare`` (the default),
    also if a refusal, or a call that must not change the state, changed ``to_json()``.
    """
    game = state.game
    doing = f"{entry.name}(seat {_short(seat)}, {_short(value)})"
    before = snapshot(state) if compare else None
    seat_ok = is_seat(game.seats, seat) or (entry.spectator and seat is None)
    try:
        result = entry.call(state, seat, value)
    except GameError as error:
        _check_refusal(state, doing, error=error, before=before, given=(seat, value), where=where)
        if entry.takes_seat and not seat_ok and not isinstance(error, InvalidSeat):
            fail(
                game,
                "hostile input",
                f"{doing} raised {type(error).__name__}, not InvalidSeat",
                where,
            )
        return False, error
    except Exception as error:
        fail(
            game,
            "hostile input",
            f"{doing} raised {type(error).__name__}: {_short(str(error))}, not a GameError",
            where,
        )
    size = game.num_distinct_actions()
    if entry.takes_seat and not seat_ok:
        fail(game, "hostile input", f"{doing} accepted a seat that is no seat", where)
    if entry.value_is == "action" and not is_action_id(size, value):
        fail(game, "hostile input", f"{doing} accepted something that is no action id", where)
    if entry.returns_action and not is_action_id(size, result):
        fail(game, "hostile input", f"{doing} returned {_short(result)}, not an action id", where)
    if before is not None and not entry.mutates and snapshot(state) != before:
        fail(game, "hostile input", f"{doing} changed the state", where)
    return True, result


def _check_refusal(
    state: State,
    doing: str,
    *,
    error: GameError,
    before: str | None,
    given: tuple[Any, Any],
    where: Where | None,
) -> None:
    game = state.game
    if before is not None and snapshot(state) != before:
        fail(game, "hostile input", f"the refused {doing} changed the state", where)
    message = str(error)
    if not message:
        fail(game, "hostile input", f"{doing} raised {type(error).__name__} with no message", where)
    if len(message) > MAX_MESSAGE_CHARS:
        fail(
            game,
            "hostile input",
            f"{doing} gave a message of {len(message)} characters: {message[:120]!r}…",
            where,
        )
    for one in given:
        for text in _texts(one):
            if len(text) > QUOTE_LIMIT and _quotes(message, text):
                fail(
                    game,
                    "hostile input",
                    f"{doing} quoted more than {QUOTE_LIMIT} characters of its input",
                    where,
                )


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            if isinstance(item, str):
                yield item


def _quotes(message: str, text: str) -> bool:
    """Whether the message holds a run of the text longer than QUOTE_LIMIT (checked at a
    few offsets; the inputs here repeat, so that is enough)."""
    last = min(len(text) - QUOTE_LIMIT - 1, 4 * QUOTE_LIMIT)
    for start in range(0, last + 1, QUOTE_LIMIT // 2):
        if text[start : start + QUOTE_LIMIT + 1] in message:
            return True
    return False


def _short(value: Any) -> str:
    return excerpt(value)


def check_hostile_inputs(
    state: State,
    rng: random.Random,
    *,
    where: Where | None = None,
    values: Sequence[Any] = HOSTILE_VALUES,
) -> None:
    """Throw ``values`` at every entry point of ``state`` as seats and as actions/notations.

    Bad seats must give :class:`InvalidSeat`; bad action ids and notations a
    :class:`GameError` (:class:`InvalidAction` where the seat is fine and the call has no
    other reason to refuse); a refusal leaves the state as it was and quotes at most an
    excerpt. A real seat (a deciding one when there is one, and one that does not decide)
    is tried with every value, and every value as a seat with a legal action. The state is
    left as it was.
    """
    game = state.game
    before = snapshot(state)
    deciding = state.deciding_seats()
    seat = rng.choice(deciding) if deciding else rng.randrange(game.seats)
    idle = [s for s in range(game.seats) if s not in deciding]
    seats = [seat, *([rng.choice(idle)] if idle else [])]
    legal = state.legal_actions(seat)
    some_action = legal[0] if legal else 0
    # to_json() is the dear part: the state is compared once, after all the calls (none of
    # them may change it: every one here is refused or reads only).
    compare = False
    for entry in ENTRIES:
        for value in values:
            if entry.takes_seat:
                attempt(state, entry, value, some_action, where=where, compare=compare)
            if entry.value_is == "none":
                continue
            for real in seats if entry.takes_seat else seats[:1]:
                ok, _ = attempt(state, entry, real, value, where=where, compare=compare)
                if ok and entry.mutates:
                    fail(game, "hostile input", f"{entry.name} accepted {_short(value)}", where)
    if snapshot(state) != before:
        fail(
            game,
            "hostile input",
            "a refused or read-only call changed the state (attempt() on each finds which)",
            where,
        )
    # Describing takes any real seat and id; anything else about the action is InvalidAction.
    with_seat = [e for e in ENTRIES if e.name in ("describe_action", "action_to_string")]
    for entry in with_seat:
        # A real seat and a well-typed id that is out of range: InvalidAction, whoever decides.
        for bad in (-1, game.num_distinct_actions(), 10**30):
            ok, error = attempt(state, entry, seat, bad, where=where)
            if ok or not isinstance(error, InvalidAction):
                fail(
                    game,
                    "hostile input",
                    f"{entry.name}({seat}, {_short(bad)}) gave {_short(error)}, not InvalidAction",
                    where,
                )
