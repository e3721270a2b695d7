"""The Manafields orders worth searching: the rule-of-thumb player's best few, and ``end``.

A turn is many small orders, and each offers every Move of every unit to every square it
reaches, every Fight and Shoot, every ability: often a hundred actions or more. A search at
a few hundred iterations a move cannot try them all even once at each step of a turn. The
filter keeps the :data:`KEEP` actions the ``heuristic`` bot scores highest (its scores come
from the attack procedure's odds and the board, never from the dice to come), and ``end``
and ``done`` whenever they are legal, so the search may always stop a turn or an ability.

Manafields hides nothing but the dice: what the heuristic reads is what
``state.view(seat)`` shows.
"""

from __future__ import annotations

from meeple.core.game import State
from meeple.core.kit import keep_best
from meeple.core.types import Action, Seat
from meeple.games.manafields import notation as ids
from meeple.games.manafields.bots import ManafieldsHeuristic
from meeple.games.manafields.rules import ManafieldsState

KEEP = 8
"""Actions kept beside ``end`` and ``done``."""

_SCORER = ManafieldsHeuristic()
_ALWAYS = frozenset((ids.END, ids.DONE))


def manafields_moves(state: State, seat: Seat, legal: list[Action]) -> list[Action]:
    """The subset of ``legal`` a search considers, in the order of ``legal``."""
    if not isinstance(state, ManafieldsState) or len(legal) <= KEEP + 1:
        return legal
    candidates = [a for a in legal if a not in _ALWAYS]
    scores = dict(zip(candidates, _SCORER.scores(state, seat, candidates), strict=True))
    return keep_best(legal, scores, KEEP, _ALWAYS)
