"""The conformance kit: random playouts with invariants, replay, determinism, records.

:func:`run_conformance` runs everything on one configured game; the other functions are the
pieces, usable alone. All randomness is seeded, so a failure reported with its game seed,
choice seed and step reproduces exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeple.core import (
    JSON,
    Game,
    InvalidAction,
    State,
    load_game,
)
from meeple.testing.checks import (
    check_action_notation,
    check_clone,
    check_state,
    check_state_notation,
    check_view_leakage,
)
from meeple.testing.hostile import check_hostile_inputs
from meeple.testing.playouts import is_registered, play_random
from meeple.testing.records import check_malformed_records, check_replay
from meeple.testing.rejections import check_hand_in, check_malformed_states, check_rejections
from meeple.testing.strategies import action_ids, json_values, notations
from meeple.testing.support import (
    Where,
    fail,
    guard,
    json_text,
)

# -- game-level checks ----------------------------------------------------------------------


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
    :func:`check_malformed_states`, and those, step 1 and the final state
    :func:`check_hostile_inputs`. Each match then goes through :func:`check_replay`, the
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
            if step in (0, 1) or (step >= 16 and step & (step - 1) == 0) or state.is_terminal():
                check_hostile_inputs(state, rng, where=where)
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
