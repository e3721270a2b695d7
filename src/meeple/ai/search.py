"""What every search takes and gives: a budget in, a result with its statistics out.

A search never reads a clock (``meeple.ai`` does no I/O and knows no time). Its budget is a
number of iterations; a caller that wants a time limit passes ``should_stop``, a callable it
owns (typically one that compares a clock with a deadline), which the search polls every
``check_every`` iterations. With the same seed and no ``should_stop`` a search is fully
deterministic: the same budget gives the same move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from meeple.core import Action, Seat


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a search may run.

    Attributes:
        iterations: the most iterations (determinize, descend, roll out, back up).
        should_stop: polled every ``check_every`` iterations once one has run; returning
            True ends the search early. Supplied by the caller, who owns the clock.
        check_every: how often ``should_stop`` is polled.
    """

    iterations: int
    should_stop: Callable[[], bool] | None = field(default=None, compare=False)
    check_every: int = 1

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise ValueError(f"a budget needs at least one iteration, got {self.iterations}")
        if self.check_every < 1:
            raise ValueError(f"check_every must be positive, got {self.check_every}")

    def stopping_when(self, should_stop: Callable[[], bool] | None) -> Budget:
        """The same budget, also ending when ``should_stop()`` says so."""
        return replace(self, should_stop=should_stop)

    def exhausted(self, done: int) -> bool:
        """Whether a search that has run ``done`` iterations must stop now."""
        if done >= self.iterations:
            return True
        return (
            self.should_stop is not None
            and done > 0
            and done % self.check_every == 0
            and self.should_stop()
        )


@dataclass(frozen=True, slots=True)
class ActionStat:
    """What the search learnt about one of the root seat's actions.

    ``value`` is the mean return for the seat after the action, in ``[-1, 1]`` (a loss is
    -1, a win +1, a draw 0); ``visits`` is how often the search tried it.
    """

    action: Action
    visits: int
    value: float

    @property
    def win_probability(self) -> float:
        """The value read as a chance to win (a draw counts half)."""
        return min(1.0, max(0.0, (self.value + 1.0) / 2.0))


@dataclass(frozen=True, slots=True)
class SearchResult:
    """A search's answer for ``seat``: the move, how good it looks, and why.

    ``stats`` covers every action tried at the root, most visited first. ``value`` is the
    chosen action's mean return (see :class:`ActionStat`).
    """

    seat: Seat
    action: Action
    value: float
    iterations: int
    stats: tuple[ActionStat, ...]

    @property
    def win_probability(self) -> float:
        return min(1.0, max(0.0, (self.value + 1.0) / 2.0))

    def visit_distribution(self) -> dict[Action, float]:
        """Share of the root visits per action (sums to 1 when anything was visited)."""
        total = sum(stat.visits for stat in self.stats)
        if total == 0:
            return {stat.action: 1.0 / len(self.stats) for stat in self.stats}
        return {stat.action: stat.visits / total for stat in self.stats}
