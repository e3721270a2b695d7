"""Hypothesis strategies over registered games, their actions and their positions.

``games()`` draws a configured game from the registry (seat count and options drawn from
each game's :class:`~meeple.core.OptionSpec` list); ``action_ids(game)`` any action id;
``playout_prefixes(game)`` a state reached by a random legal prefix of a match, and
``match_records(game)`` the record of such a prefix. Prefixes shrink towards short matches
and the first legal choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from meeple.core import (
    JSON,
    Game,
    GameInfo,
    InvalidOptions,
    MatchRecord,
    OptionSpec,
    State,
    game_class,
    registered,
)
from meeple.testing.hostile import HOSTILE_VALUES


def option_values(spec: OptionSpec) -> st.SearchStrategy[Any]:
    """Values an option accepts: a choice, a boolean, an integer in bounds, or the default."""
    if spec.choices is not None:
        return st.sampled_from(spec.choices)
    if isinstance(spec.default, bool):
        return st.booleans()
    if isinstance(spec.default, int):
        low = spec.low if spec.low is not None else min(spec.default, 0)
        high = spec.high if spec.high is not None else max(spec.default, 0) + 10
        return st.integers(low, high)
    return st.just(spec.default)


@st.composite
def configured(draw: st.DrawFn, info: GameInfo) -> Game:
    """A configuration of one registered game (combinations it refuses are discarded)."""
    seats = draw(st.integers(info.min_seats, info.max_seats))
    options = {spec.name: draw(option_values(spec)) for spec in info.options}
    cls = game_class(info.id)
    try:
        return cls(seats=seats, options=options)
    except InvalidOptions:
        # Cross-option rules (Game._check_configuration) may refuse a combination.
        return cls(seats=seats)


def games(ids: Sequence[str] | None = None) -> st.SearchStrategy[Game]:
    """A configured game from the registry, or from the games named by ``ids``.

    The registry is read when the strategy is drawn from, so import the games first.
    """

    def pick(infos: list[GameInfo]) -> st.SearchStrategy[Game]:
        if ids is not None:
            wanted = {game_class(i).info.id for i in ids}
            infos = [info for info in infos if info.id in wanted]
        if not infos:
            raise ValueError("no registered games to draw from; import meeple.games first")
        return st.sampled_from(infos).flatmap(configured)

    return st.deferred(lambda: pick(registered()))


def action_ids(game: Game) -> st.SearchStrategy[int]:
    """Any action id of ``game``: ``0 .. num_distinct_actions()-1``."""
    return st.integers(0, game.num_distinct_actions() - 1)


def seeds() -> st.SearchStrategy[int]:
    """A game seed (records keep seeds below 2**53, exact in JavaScript)."""
    return st.integers(0, 2**53 - 1)


@st.composite
def _prefix(draw: st.DrawFn, game: Game, max_actions: int | None) -> tuple[State, MatchRecord]:
    seed = draw(seeds())
    state = game.new_initial_state(seed)
    record = MatchRecord.for_game(game, seed=seed)
    limit = game.max_game_length() if max_actions is None else max_actions
    length = draw(st.integers(0, limit))
    for _ in range(length):
        deciding = state.deciding_seats()
        if not deciding:
            break
        seat = deciding[draw(st.integers(0, len(deciding) - 1))]
        legal = state.legal_actions(seat)
        action = legal[draw(st.integers(0, len(legal) - 1))]
        state.apply(seat, action)
        record.add(seat, action)
    return state, record


def playout_prefixes(game: Game, *, max_actions: int | None = None) -> st.SearchStrategy[State]:
    """A state after a random legal prefix (at most ``max_actions`` actions) of a match."""
    return _prefix(game, max_actions).map(lambda pair: pair[0])


def match_records(game: Game, *, max_actions: int | None = None) -> st.SearchStrategy[MatchRecord]:
    """The record (seed and actions) of a random legal prefix of a match."""
    return _prefix(game, max_actions).map(lambda pair: pair[1])


def json_values(*, max_leaves: int = 8) -> st.SearchStrategy[JSON]:
    """Arbitrary plain JSON values (for feeding decoders garbage)."""
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=10),
    )
    return st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=4),
            st.dictionaries(st.text(max_size=6), children, max_size=4),
        ),
        max_leaves=max_leaves,
    )


def notations(game: Game) -> st.SearchStrategy[str]:
    """Text near the game's notation: real notations, cut, doubled, or with a character changed."""
    real = action_ids(game).map(game.format_action)

    @st.composite
    def damaged(draw: st.DrawFn) -> str:
        text = draw(real)
        how = draw(st.sampled_from(["cut", "double", "swap", "pad"]))
        if how == "cut":
            return text[: draw(st.integers(0, max(len(text) - 1, 0)))]
        if how == "double":
            return text + text
        if how == "pad":
            return f" {text}\x00"
        index = draw(st.integers(0, len(text) - 1))
        return text[:index] + draw(st.characters()) + text[index + 1 :]

    return st.one_of(real, damaged())


def hostile_values() -> st.SearchStrategy[Any]:
    """Anything a client could send where a seat, an action id or a notation belongs.

    Small and negative integers (near real seats and ids), integers of any size (past int64
    and past the 4,300 digits Python turns into text), floats with NaN and infinities,
    booleans, None, text in any script, a megabyte of text, bytes, and JSON containers.
    """
    return st.one_of(
        st.integers(-3, 40),
        st.integers(),
        st.sampled_from(HOSTILE_VALUES),
        st.floats(),
        st.booleans(),
        st.none(),
        st.text(max_size=24),
        st.binary(max_size=8),
        json_values(max_leaves=4),
    )
