"""Random playouts: a match played to the end, with the record, states and events kept."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from meeple.core import JSON, Event, Game, MatchRecord, State, UnknownGame, game_class
from meeple.testing.checks import check_state
from meeple.testing.support import Where, fail, guard, json_text, non_json_path, random_move


@dataclass(slots=True)
class Playout:
    """One random match, as played by :func:`play_random`.

    Attributes:
        game: the configured game.
        seed: the game seed (``new_initial_state(seed)``).
        choice_seed: the seed of the ``random.Random`` that chose seats and actions.
        record: the match record (seed, every ``[seat, action]``, outcome).
        states: ``to_json()`` before the first action and after each action.
        events: the events each action returned.
        final: the final state.
    """

    game: Game
    seed: int
    choice_seed: int
    record: MatchRecord
    states: list[JSON]
    events: list[list[Event]]
    final: State

    @property
    def where(self) -> Where:
        return Where(self.seed, self.choice_seed)


def play_random(
    game: Game,
    *,
    seed: int,
    choice_seed: int,
    check: bool = True,
    on_state: Callable[[State, Where], None] | None = None,
) -> Playout:
    """Play a match to the end with random legal actions.

    The seat comes from ``deciding_seats()`` (uniformly when several decide) and the action
    uniformly from its ``legal_actions``, both drawn from ``random.Random(choice_seed)``.
    With ``check``, :func:`check_state` runs on every state and every action's events are
    checked; ``on_state(state, where)`` is called on every state (it must not change it).

    Raises:
        ConformanceError: on the first broken invariant, or if the match outlasts
            ``game.max_game_length()``.
    """
    rng = random.Random(choice_seed)
    base = Where(seed, choice_seed)
    with guard(game, "playout", base, f"new_initial_state({seed})"):
        state = game.new_initial_state(seed)
    record = MatchRecord.for_game(game, seed=seed)
    states: list[JSON] = []
    events: list[list[Event]] = []
    limit = game.max_game_length()
    step = 0
    while True:
        where = base.at(step)
        if check:
            check_state(state, where=where, deep=False)
        with guard(game, "playout", where, "to_json()"):
            states.append(json.loads(json_text(state.to_json())))
        if on_state is not None:
            on_state(state, where)
        if state.is_terminal():
            break
        if step >= limit:
            fail(game, "max_game_length", f"still going after {limit} actions", where)
        seat, action = random_move(state, rng)
        with guard(game, "playout", where, f"apply({seat}, {action})"):
            happened = state.apply(seat, action)
        if check:
            _check_events(game, happened, where)
        events.append(list(happened))
        record.add(seat, action)
        step += 1
    record.outcome = state.outcome()
    return Playout(game, seed, choice_seed, record, states, events, state)


def _check_events(game: Game, events: Any, where: Where) -> None:
    if not isinstance(events, list) or not all(isinstance(e, Event) for e in events):
        fail(game, "events", f"apply() must return a list of Event, got {events!r}", where)
    for event in events:
        with guard(game, "events", where, f"{event!r}.to_json()"):
            bad = non_json_path(event.to_json())
        if bad is not None:
            fail(game, "events", f"event {event.kind!r} is not plain JSON at {bad}", where)
        if event.audience is not None and not all(
            isinstance(s, int) and 0 <= s < game.seats for s in event.audience
        ):
            fail(game, "events", f"event {event.kind!r} has audience {event.audience}", where)


def is_registered(game: Game) -> bool:
    """Whether the registry maps the game's id to exactly its class (so records load it)."""
    try:
        return game_class(game.id) is type(game)
    except UnknownGame:
        return False
