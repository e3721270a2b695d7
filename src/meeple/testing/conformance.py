"""The conformance kit: random playouts with invariants, replay, determinism, records.

:func:`run_conformance` runs everything on one configured game; the other functions are the
pieces, usable alone. All randomness is seeded, so a failure reported with its game seed,
choice seed and step reproduces exactly.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeple.core import (
    JSON,
    Event,
    Game,
    InvalidAction,
    InvalidRecord,
    MatchRecord,
    State,
    UnknownGame,
    game_class,
    load_game,
)
from meeple.testing.checks import (
    Where,
    check_action_notation,
    check_clone,
    check_hand_in,
    check_malformed_states,
    check_rejections,
    check_state,
    check_state_notation,
    check_view_leakage,
    expect_error,
    fail,
    first_difference,
    guard,
    json_text,
    non_json_path,
    random_move,
)
from meeple.testing.strategies import action_ids, json_values, notations


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


# -- game-level checks ----------------------------------------------------------------------


def is_registered(game: Game) -> bool:
    """Whether the registry maps the game's id to exactly its class (so records load it)."""
    try:
        return game_class(game.id) is type(game)
    except UnknownGame:
        return False


def check_game_info(game: Game) -> None:
    """The game's info and configuration are well formed and rebuild an equal game."""
    info, check = game.info, "game info"
    with guard(game, check, None, "reading the game's info"):
        if not info.name or "/" in info.name or not isinstance(info.version, int):
            fail(game, check, f"bad name {info.name!r} or version {info.version!r}")
        if info.version < 1 or not 1 <= info.min_seats <= game.seats <= info.max_seats:
            fail(game, check, f"bad version or seats {info.min_seats}..{info.max_seats}")
        json_text(info.to_json())
        names = [spec.name for spec in info.options]
        if len(set(names)) != len(names) or set(game.options) != set(names):
            fail(game, check, f"option names {names} vs configured {sorted(game.options)}")
        for spec in info.options:
            spec.check(spec.default)
        again = type(game)(seats=game.seats, options=game.options)
        if again != game or hash(again) != hash(game):
            fail(game, check, "the same seats and options give an unequal game")
        for name, value in (
            ("num_distinct_actions", game.num_distinct_actions()),
            ("max_game_length", game.max_game_length()),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                fail(game, check, f"{name}() must be a positive integer, got {value!r}")
        if is_registered(game) and load_game(game.id, game.seats, game.options) != game:
            fail(game, check, "load_game with the same id, seats and options differs")


def check_action_properties(game: Game, *, max_examples: int = 60) -> None:
    """Hypothesis properties of the action codec, with a fixed derandomized search.

    Over every id: notation and JSON round trips. Over arbitrary text: ``parse_action``
    returns an id in range or raises :class:`InvalidAction`. Over arbitrary JSON values:
    ``action_from_json`` does the same.
    """
    size = game.num_distinct_actions()
    config = settings(
        max_examples=max_examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )

    @config
    @given(action_ids(game))
    def round_trips(action: int) -> None:
        check_action_notation(game, [action])

    def in_range_or_invalid(doing: str, call: Callable[[], object]) -> None:
        try:
            action = call()
        except InvalidAction:
            return
        except Exception as error:
            fail(game, "notation", f"{doing} raised {type(error).__name__}: {error}")
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < size:
            fail(game, "notation", f"{doing} returned {action!r}, not an action id")

    @config
    @given(st.one_of(st.text(max_size=20), notations(game)))
    def parse_total(text: str) -> None:
        in_range_or_invalid(f"parse_action({text!r})", partial(game.parse_action, text))

    @config
    @given(json_values())
    def from_json_total(value: JSON) -> None:
        in_range_or_invalid(f"action_from_json({value!r})", partial(game.action_from_json, value))

    round_trips()
    parse_total()
    from_json_total()


def check_determinism(game: Game, *, seed: int = 0, choice_seed: int = 0) -> None:
    """The same seeds give the same match; different seeds usually a different start.

    Two playouts with the same game seed and choice seed must give identical states and
    events. If ``info.chance`` is set, four different seeds must not all give the same
    initial state (a game without chance may).
    """
    check = "determinism"
    first = play_random(game, seed=seed, choice_seed=choice_seed, check=False)
    second = play_random(game, seed=seed, choice_seed=choice_seed, check=False)
    where = first.where
    if first.record.actions != second.record.actions or first.states != second.states:
        step = next(
            (
                i
                for i, (a, b) in enumerate(zip(first.states, second.states, strict=False))
                if a != b
            ),
            min(len(first.states), len(second.states)),
        )
        fail(game, check, "the same seed gave different matches", where.at(step))
    if first.events != second.events:
        fail(game, check, "the same seed gave different events", where)
    with guard(game, check, where, "new_initial_state"):
        starts = {json_text(game.new_initial_state(seed + k * 7919).to_json()) for k in range(4)}
    if game.info.chance and len(starts) == 1:
        fail(game, check, "four different seeds gave the same initial state", where)


# -- records --------------------------------------------------------------------------------


def _replayed(game: Game, record: MatchRecord) -> Iterator[JSON]:
    """``to_json()`` of every state of ``record``, replayed through ``game`` (checked)."""
    if record.start_state is not None:
        state = game.state_from_json(record.start_state)
    else:
        state = game.new_initial_state(record.seed if record.seed is not None else 0)
    yield state.to_json()
    for seat, action in record.actions:
        state.apply(seat, action)
        yield state.to_json()


def _compare_replay(
    game: Game, label: str, replay: Iterator[Any], expected: Sequence[JSON], where: Where
) -> None:
    count = 0
    with guard(game, "replay", where, f"replaying {label}"):
        for index, got in enumerate(replay):
            data = got.to_json() if isinstance(got, State) else got
            if index >= len(expected) or data != expected[index]:
                diff = first_difference(expected[index], data) if index < len(expected) else ""
                fail(game, "replay", f"{label} differs after {index} actions: {diff}", where)
            count += 1
    if count != len(expected):
        fail(game, "replay", f"{label} gave {count} states, not {len(expected)}", where)


def check_replay(playout: Playout) -> None:
    """The playout's record replays to an equal state at every step.

    Checked for the record itself, for ``MatchRecord.loads(record.dumps())``, and for a
    record that starts from the mid-game ``start`` state. Replays go through the game
    under test; when the registry maps its id to its class, also through
    ``MatchRecord.states()`` and ``MatchRecord.replay()``.
    """
    game, record, where = playout.game, playout.record, playout.where
    registered = is_registered(game)
    record = replace(
        record,
        actions=list(record.actions),
        players=[f"seat {seat}" for seat in range(game.seats)],
        meta={"by": "meeple.testing"},
    )
    mid = len(record.actions) // 2
    from_start = MatchRecord.for_game(game, start_state=playout.states[mid])
    from_start.actions = list(record.actions[mid:])
    for label, rec, expected in (
        ("the record", record, playout.states),
        ("the record from a mid-game start", from_start, playout.states[mid:]),
    ):
        with guard(game, "record", where, f"writing and reading {label}"):
            data = rec.to_json(with_notation=registered)
            text = json.dumps(data, allow_nan=False)
            loaded = MatchRecord.loads(text)
        if registered and data.get("notation") != [game.format_action(a) for _, a in rec.actions]:
            fail(game, "record", f"{label} has the wrong notation", where)
        if loaded.to_json(with_notation=False) != json.loads(
            json_text(rec.to_json(with_notation=False))
        ):
            fail(game, "record", f"{label} changes through MatchRecord.loads(dumps())", where)
        _compare_replay(game, label, _replayed(game, rec), expected, where)
        _compare_replay(game, f"{label} after loads()", _replayed(game, loaded), expected, where)
        if registered:
            _compare_replay(game, f"{label}.states()", loaded.states(), expected, where)
            with guard(game, "replay", where, f"{label}.replay()"):
                if loaded.replay() != playout.final:
                    fail(game, "replay", f"{label}.replay() differs from the final state", where)


def check_malformed_records(playout: Playout) -> None:
    """Malformed records are refused with :class:`InvalidRecord`.

    Format, type and field errors must be refused by ``MatchRecord.from_json`` and
    ``loads``. For a registered game, records that parse but cannot be replayed (unknown
    game or version, bad seats or options, out-of-range, illegal or late actions, a broken
    ``start``) must be refused by ``MatchRecord.replay()``.
    """
    game, record, where = playout.game, playout.record, playout.where
    check = "malformed record"
    base = json.loads(json_text(record.to_json(with_notation=False)))
    registered = is_registered(game)
    size = game.num_distinct_actions()
    for label, text in (("not JSON", "not json"), ("truncated JSON", "{"), ("a list", "[]")):
        expect_error(
            game,
            check,
            InvalidRecord,
            f"loads({label})",
            partial(MatchRecord.loads, text),
            where=where,
        )
    for label, mutated, needs_engine in _record_mutations(game, base, size):

        def load_and_replay(data: JSON = mutated, engine: bool = needs_engine) -> None:
            loaded = MatchRecord.from_json(data)
            if engine:
                loaded.replay()

        if needs_engine and not registered:
            continue
        expect_error(
            game, check, InvalidRecord, f"a record with {label}", load_and_replay, where=where
        )


def _record_mutations(game: Game, base: JSON, size: int) -> Iterator[tuple[str, JSON, bool]]:
    def edit(**changes: Any) -> JSON:
        data = json.loads(json.dumps(base))
        for key, value in changes.items():
            if value is _DROP:
                data.pop(key, None)
            else:
                data[key] = value
        return data

    yield "no object", ["meeple-record/1"], False
    yield "no format", edit(format=_DROP), False
    yield "another format", edit(format="meeple-record/999"), False
    yield "no game", edit(game=_DROP), False
    yield "a numeric game", edit(game=7), False
    for seats in (_DROP, "2", True, None, 2.0):
        yield f"seats {seats!r}", edit(seats=seats), False
    bad_options: tuple[object, ...] = ([], "x", 3)
    for options in bad_options:
        yield f"options {options!r}", edit(options=options), False
    for seed in (True, "1", 1.5, -1, 2**53):
        yield f"seed {seed!r}", edit(seed=seed), False
    yield "both seed and start", edit(seed=1, start={}), False
    yield "neither seed nor start", edit(seed=None, start=_DROP), False
    bad_actions: tuple[object, ...] = ("x", {}, 5)
    for actions in bad_actions:
        yield f"actions {actions!r}", edit(actions=actions), False
    for item in ([0], [0, 1, 2], ["0", 1], [True, 0], [0, 1.5], 5, None):
        yield f"action item {item!r}", edit(actions=[item]), False
    bad_players: tuple[object, ...] = ("x", [1], {})
    for players in bad_players:
        yield f"players {players!r}", edit(players=players), False
    yield "meta []", edit(meta=[]), False
    for outcome in ("x", {}, {"winners": "ab", "reason": "r"}, {"winners": [0]}):
        yield f"outcome {outcome!r}", edit(outcome=outcome), False
    info = game.info
    yield "an unknown game", edit(game="no_such_game/1"), True
    yield "an unknown version", edit(game=f"{info.name}/{info.version + 1000}"), True
    yield "too many seats", edit(seats=info.max_seats + 1), True
    yield "zero seats", edit(seats=0), True
    yield "an unknown option", edit(options={"no_such_option": 1}), True
    yield "a seat that does not exist", edit(actions=[[game.seats, 0]]), True
    yield "an out-of-range action", edit(actions=[[0, size]]), True
    yield "a negative action", edit(actions=[[0, -1]]), True
    yield "a broken start", edit(seed=None, start={"\x00": "not a state"}), True
    yield "a start that is a number", edit(seed=None, start=5), True
    actions = base.get("actions", [])
    if actions:
        yield "an action after the end", edit(actions=[*actions, actions[-1]]), True


_DROP = object()


# -- the whole kit --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConformanceReport:
    """What :func:`run_conformance` checked.

    Attributes:
        game_id / seats / options: the configured game.
        playouts: random matches played to the end with every check.
        actions: actions applied in those matches.
        longest: the longest match, in actions.
        outcomes: how often each result occurred (``"draw"`` or ``"won by 0,2"``, with reason).
        resamples: ``resample`` calls checked for view leakage.
        hidden_changes: resamples that changed the full state (hidden information at work).
    """

    game_id: str
    seats: int
    options: dict[str, Any]
    playouts: int
    actions: int
    longest: int
    outcomes: dict[str, int] = field(default_factory=dict)
    resamples: int = 0
    hidden_changes: int = 0


def run_conformance(
    game: Game,
    *,
    playouts: int = 4,
    seed: int = 0,
    resample_seeds: Sequence[int] = (1, 2),
    properties: bool = True,
    max_examples: int = 40,
) -> ConformanceReport:
    """Run the whole conformance kit on one configured game.

    In order: :func:`check_game_info`, :func:`check_action_notation` (every id),
    :func:`check_action_properties` (Hypothesis; skipped without ``properties``),
    :func:`check_determinism`, then ``playouts`` random matches (game seed ``seed + i``,
    choice seed ``seed + 1000 + i``). Every state of a match gets :func:`check_state`; the
    final state and the states :func:`sampled` picks (all of a short match, about eight per
    doubling of a long one) also get the deep :func:`check_state`, :func:`check_clone`,
    :func:`check_state_notation`, :func:`check_rejections`, :func:`check_hand_in` (one
    deciding seat) and :func:`check_view_leakage` (with ``resample_seeds``; at step 1 a
    resampled state is also played to the end); steps 0, 16, 32, 64... also get
    :func:`check_malformed_states`. Each match then goes through :func:`check_replay`, the
    first also through :func:`check_malformed_records`. For a game with
    ``info.hidden_information``, each match must have some state whose resampling changes
    ``to_json()``.

    Raises:
        ConformanceError: at the first failure, naming the game, the check, the seeds and
            the step.
    """
    check_game_info(game)
    check_action_notation(game)
    if properties:
        check_action_properties(game, max_examples=max_examples)
    check_determinism(game, seed=seed, choice_seed=seed + 1000)
    actions = longest = resamples = hidden_changes = 0
    outcomes: Counter[str] = Counter()
    for index in range(playouts):
        changed_here = 0

        def per_state(state: State, where: Where) -> None:
            nonlocal resamples, changed_here
            step = where.step or 0
            if not (sampled(step) or state.is_terminal()):
                return
            rng = random.Random(f"{where.choice_seed}/{step}")
            check_state(state, where=where, deep=True)
            check_clone(state, rng, where=where)
            check_state_notation(state, where=where)
            check_rejections(state, rng, where=where)
            deciding = state.deciding_seats()
            check_hand_in(state, where=where, seats=[rng.choice(deciding)] if deciding else [])
            if step == 0 or (step >= 16 and step & (step - 1) == 0):
                check_malformed_states(state, rng, where=where)
            if state.is_terminal():
                return
            changed = check_view_leakage(
                state, seeds=resample_seeds, where=where, play_out=rng if step == 1 else None
            )
            resamples += game.seats * len(resample_seeds)
            changed_here += changed

        playout = play_random(
            game, seed=seed + index, choice_seed=seed + 1000 + index, on_state=per_state
        )
        if game.info.hidden_information and resample_seeds and not changed_here:
            fail(
                game,
                "hidden information",
                "info.hidden_information is set but no resample() changed to_json() in the"
                " whole match: the game hides nothing",
                playout.where,
            )
        hidden_changes += changed_here
        check_replay(playout)
        if index == 0:
            check_malformed_records(playout)
        actions += len(playout.record.actions)
        longest = max(longest, len(playout.record.actions))
        outcomes[_describe(playout.final)] += 1
    return ConformanceReport(
        game_id=game.id,
        seats=game.seats,
        options=dict(game.options),
        playouts=playouts,
        actions=actions,
        longest=longest,
        outcomes=dict(outcomes),
        resamples=resamples,
        hidden_changes=hidden_changes,
    )


def sampled(step: int) -> bool:
    """Whether :func:`run_conformance` runs its costly per-state checks at ``step``.

    Every state up to 16, then eight per doubling (every 2nd to 32, every 4th to 64, ...),
    so a 600-action match gets about 60 fully checked states and a short one all of them.
    """
    return step < 16 or step % (1 << (step.bit_length() - 4)) == 0


def _describe(state: State) -> str:
    outcome = state.outcome()
    if outcome is None:
        return "unfinished"
    if outcome.is_draw:
        return f"draw ({outcome.reason})"
    return f"won by {','.join(map(str, outcome.winners))} ({outcome.reason})"
