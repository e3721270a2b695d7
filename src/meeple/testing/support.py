"""The kit's plumbing: where a check ran, the error it raises, and JSON helpers."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NoReturn

from meeple.core import Action, GameError, Seat, State
from meeple.core.game import Game


@dataclass(frozen=True, slots=True)
class Where:
    """Where a check ran, so a failure can be reproduced.

    ``seed`` is the game seed given to ``new_initial_state``, ``choice_seed`` seeds the
    ``random.Random`` that chose the actions, ``step`` counts actions applied so far.
    """

    seed: int | None = None
    choice_seed: int | None = None
    step: int | None = None

    def at(self, step: int) -> Where:
        return Where(self.seed, self.choice_seed, step)

    def __str__(self) -> str:
        parts = []
        if self.seed is not None:
            parts.append(f"game seed {self.seed}")
        if self.choice_seed is not None:
            parts.append(f"choice seed {self.choice_seed}")
        if self.step is not None:
            parts.append(f"step {self.step}")
        return ", ".join(parts) or "no playout"


class ConformanceError(AssertionError):
    """A game broke the engine protocol.

    Attributes:
        game_id: the game's ``name/version``.
        check: the name of the check that failed (``"invariants"``, ``"view leakage"``...).
        where: the seeds and step at which it failed.
        detail: what went wrong, without the prefix.
    """

    def __init__(self, game: Game, check: str, detail: str, where: Where | None = None) -> None:
        self.game_id = game.id
        self.check = check
        self.where = where or Where()
        self.detail = detail
        super().__init__(
            f"{game.id} (seats {game.seats}, options {dict(game.options)}): {check} failed"
            f" at {self.where}: {detail}"
        )


def fail(game: Game, check: str, detail: str, where: Where | None = None) -> NoReturn:
    raise ConformanceError(game, check, detail, where)


@contextmanager
def guard(game: Game, check: str, where: Where | None, doing: str) -> Iterator[None]:
    """Turn any exception but a ConformanceError into one that says what was being done."""
    try:
        yield
    except ConformanceError:
        raise
    except Exception as error:
        fail(game, check, f"{doing} raised {type(error).__name__}: {error}", where)


# -- JSON helpers ---------------------------------------------------------------------------


def json_text(value: Any) -> str:
    """Canonical JSON text (sorted keys, no NaN); raises TypeError/ValueError if impossible."""
    return json.dumps(value, allow_nan=False, sort_keys=True)


def non_json_path(value: Any, path: str = "$") -> str | None:
    """The path of the first part of ``value`` that is not plain JSON, or None.

    Plain JSON is what ``json.loads`` gives back: dicts with string keys, lists, strings,
    integers, finite floats, booleans and None. A tuple or an integer key survives
    ``json.dumps`` but comes back different, so it is not plain.
    """
    if value is None or isinstance(value, bool | int | str):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{path} (a non-finite float)"
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = non_json_path(item, f"{path}[{index}]")
            if found:
                return found
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{path} (a {type(key).__name__} key {key!r})"
            found = non_json_path(item, f"{path}.{key}")
            if found:
                return found
        return None
    return f"{path} (a {type(value).__name__})"


def first_difference(a: Any, b: Any, path: str = "$") -> str:
    """A short description of where two JSON values first differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key} is only on one side"
            if a[key] != b[key]:
                return first_difference(a[key], b[key], f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path} has length {len(a)} vs {len(b)}"
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{path}[{index}]")
    text_a, text_b = repr(a), repr(b)
    return f"{path}: {text_a[:200]} vs {text_b[:200]}"


def scramble(value: Any) -> None:
    """Empty every list and dict inside ``value``, to expose state that shares them."""
    if isinstance(value, list):
        for item in value:
            scramble(item)
        value.clear()
    elif isinstance(value, dict):
        for item in value.values():
            scramble(item)
        value.clear()


def snapshot(state: State) -> str:
    """The state's ``to_json()`` as canonical text, for exact before/after comparisons."""
    return json_text(state.to_json())


def random_move(state: State, rng: random.Random) -> tuple[Seat, Action]:
    """A deciding seat chosen at random, and one of its legal actions chosen uniformly."""
    deciding = state.deciding_seats()
    seat = deciding[0] if len(deciding) == 1 else rng.choice(deciding)
    return seat, rng.choice(state.legal_actions(seat))


def expect_error(
    game: Game,
    check: str,
    error_type: type[GameError],
    doing: str,
    call: Callable[[], object],
    *,
    where: Where | None = None,
) -> GameError:
    """Run ``call``, which must raise ``error_type`` (with a message); return the error."""
    try:
        call()
    except error_type as error:
        if not isinstance(error, ValueError) or not str(error):
            fail(game, check, f"{doing} raised an error without a message", where)
        return error
    except Exception as error:
        fail(
            game,
            check,
            f"{doing} raised {type(error).__name__}: {error}, not {error_type.__name__}",
            where,
        )
    fail(game, check, f"{doing} was accepted; expected {error_type.__name__}", where)
