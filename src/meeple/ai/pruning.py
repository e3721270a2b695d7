"""The one step every move filter shares: keep the best-scored few, in the engine's order."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from meeple.core import Action


def keep_best(
    legal: list[Action],
    scores: Mapping[Action, float],
    keep: int,
    always: Iterable[Action] = (),
) -> list[Action]:
    """The ``keep`` actions of ``scores`` that score highest (ties to the lower id), and any
    of ``always``, in the order of ``legal``."""
    best = set(sorted(scores, key=lambda a: (-scores[a], a))[:keep])
    best.update(always)
    return [a for a in legal if a in best]
