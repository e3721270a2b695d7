"""The state-from-view key property at every position of whole random matches.

For every shipped game, seat count and option (tests/games/from_view_checks.py's
``CONFIGS``), three random matches are played to their end, and at every one of their
positions, for each seat ``k``, the state built from ``k``'s view (as a client reads it off
the socket) shows ``k`` the same view, gives it the same legal actions, has the same deciding
seats and the same outcome. The shorter variant (30 positions of one match) is in
tests/games/test_state_from_view.py; this one is a file of its own because it is the longest
of them (pytest-xdist runs a file's tests on one worker, so the two files can run side by
side).
"""

from __future__ import annotations

import pytest
from tests.games.from_view_checks import CONFIGS, Config, check_random_matches


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_state_from_view_holds_at_every_position_of_whole_random_matches(config: Config):
    check_random_matches(config, matches=3, most=10_000)
