"""Position analysis for hints and annotated replays: the best actions and their chances.

:func:`analyse` runs the same search as the bots, from the seat's own point of view, and
reads the root statistics as win probabilities. It never looks past what the seat may see:
every iteration starts from ``state.resample(seat, ...)``, a redraw of all the seat cannot
see (others' sealed orders, hidden houses and hands, deck order, tiles and dice to come)
made from what it can see alone, so two positions the seat cannot tell apart get the same
hint for the same seed and budget. The CLI's ``hint`` and ``replay --analyse``, the server
and the browser all ask this one function.
"""

from __future__ import annotations

from dataclasses import dataclass

from meeple.ai.levels import level
from meeple.ai.mcts import Mcts, MctsConfig
from meeple.ai.search import Budget, SearchResult
from meeple.core import JSON, Action, Seat, State

DEFAULT_ITERATIONS = level("expert").iterations


@dataclass(frozen=True, slots=True)
class Advice:
    """One candidate action: its notation, its chance to win, and the search's interest."""

    action: Action
    notation: str
    win_probability: float
    visits: int
    share: float

    def to_json(self) -> JSON:
        return {
            "action": self.action,
            "notation": self.notation,
            "win_probability": round(self.win_probability, 4),
            "visits": self.visits,
            "share": round(self.share, 4),
        }


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the search thinks of a position for ``seat``.

    ``win_probability`` is the seat's chance with the best action; ``candidates`` are all
    actions the search tried, best first (most visited), and :attr:`best` the first few.
    """

    seat: Seat
    win_probability: float
    iterations: int
    candidates: tuple[Advice, ...]
    top: int = 3

    @property
    def best(self) -> tuple[Advice, ...]:
        return self.candidates[: self.top]

    def advice_for(self, action: Action) -> Advice | None:
        """The candidate for ``action``, or None if the search never tried it."""
        return next((advice for advice in self.candidates if advice.action == action), None)

    def to_json(self) -> JSON:
        return {
            "seat": self.seat,
            "win_probability": round(self.win_probability, 4),
            "iterations": self.iterations,
            "best": [advice.to_json() for advice in self.best],
        }


def analyse(
    state: State,
    seat: Seat,
    budget: Budget | int = DEFAULT_ITERATIONS,
    *,
    seed: int = 0,
    top: int = 3,
    config: MctsConfig | None = None,
) -> Analysis:
    """The best actions for ``seat`` in ``state`` with their estimated win probability.

    ``budget`` is a :class:`Budget` or a number of iterations; the same seed and iteration
    budget give the same analysis.

    Raises:
        ValueError: when ``seat`` has no decision to make in ``state``.
    """
    if isinstance(budget, int):
        budget = Budget(budget)
    result = Mcts(config).run(state, seat, budget, seed)
    return _analysis(state, result, top)


def _analysis(state: State, result: SearchResult, top: int) -> Analysis:
    shares = result.visit_distribution()
    candidates = tuple(
        Advice(
            stat.action,
            state.action_to_string(result.seat, stat.action),
            stat.win_probability,
            stat.visits,
            shares[stat.action],
        )
        for stat in result.stats
    )
    return Analysis(result.seat, result.win_probability, result.iterations, candidates, top)
