"""Skill ratings from match results: OpenSkill's Plackett-Luce model, the one rating every
table uses (``meeple arena``'s ladder).

A :class:`RatingTable` holds one rating per name and is updated match by match; feeding it
the matches in a fixed order makes the ratings independent of how the matches were played
(in which worker, in which order they finished). Needs the ``openskill`` package (the
``ratings`` extra), imported when a table is made.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Rating:
    """A name's skill: the mean ``mu``, its uncertainty ``sigma``, and the ``ordinal``
    (``mu - 3 sigma``) that ladders sort by, a skill the name has with high confidence."""

    mu: float
    sigma: float
    ordinal: float


class RatingTable:
    """One OpenSkill rating per name (mu 25, sigma 25/3 to start), updated after each match."""

    def __init__(self, names: Iterable[str]) -> None:
        from openskill.models import PlackettLuce  # noqa: PLC0415 (an optional extra)

        self._model = PlackettLuce()
        self._ratings: dict[str, Any] = {name: self._model.rating(name=name) for name in names}

    def rate(self, places: Mapping[str, float]) -> None:
        """Update the ratings of the names that met in one match; ``places`` gives each its
        place (1 is first; equal places tie). A match of fewer than two names changes nothing.
        """
        names = list(places)
        if len(names) < 2:
            return
        teams = [[self._ratings[name]] for name in names]
        rated = self._model.rate(teams, ranks=[places[name] for name in names])
        for name, team in zip(names, rated, strict=True):
            self._ratings[name] = team[0]

    def __getitem__(self, name: str) -> Rating:
        rating = self._ratings[name]
        return Rating(rating.mu, rating.sigma, rating.ordinal())
