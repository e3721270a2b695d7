"""The Maiterra orders worth searching: the rule-of-thumb player's best few, and ``end``.

A seat planning its turn may queue any of a hundred or more orders (every march of every
part of every stack along every path, every building on every field, every trade), six
times over. A search that tries each of them at every step of the queue spends its
iterations on orders no player would queue -- and the opponents it imagines do the same,
so it never sees the march into its empty field that a real opponent finds. The filter
keeps the orders the ``heuristic`` bot scores highest (at most :data:`KEEP` of those that
score above nothing) and ``end``; in the draft, the :data:`KEEP` best fields. House picks
stay as they are (four).

The heuristic reads only the public position and the seat's own stores, cards and queue,
which is what ``state.view(seat)`` shows.
"""

from __future__ import annotations

from meeple.core.game import State
from meeple.core.kit import keep_best
from meeple.core.types import Action, Seat
from meeple.games.maiterra import notation as ids
from meeple.games.maiterra.bots import MaiterraHeuristic
from meeple.games.maiterra.rules import DRAFT, HOUSES, MaiterraState

KEEP = 6
"""Orders (or draft fields) kept beside ``end``."""

_SCORER = MaiterraHeuristic()


def maiterra_moves(state: State, seat: Seat, legal: list[Action]) -> list[Action]:
    """The subset of ``legal`` a search considers, in the order of ``legal``; never
    ``takeback`` (a search plans forward: undoing its own order only lengthens the tree)."""
    if ids.TAKE_BACK in legal:
        legal = [a for a in legal if a != ids.TAKE_BACK]
    if not isinstance(state, MaiterraState) or state.phase == HOUSES or len(legal) <= KEEP + 1:
        return legal
    if state.phase == DRAFT:
        scores = {a: _SCORER.draft_score(state, seat, a) for a in legal}
        return keep_best(legal, scores, KEEP, (ids.END,)) or legal
    budget = state.budget(seat)
    scores = {a: _SCORER.order_score(state, seat, a, budget) for a in legal}
    positive = {a: score for a, score in scores.items() if score > 0}
    return keep_best(legal, positive, KEEP, (ids.END,)) or legal
