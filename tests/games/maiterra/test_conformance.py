"""The conformance kit at every seat count, with and without teams.

Each configuration plays one random match chosen (by its seed) to be short, because the kit
checks every state deeply; sealed orders and locked houses are checked by the kit's view
leakage check (resample must not change a seat's view or legal actions).
"""

from __future__ import annotations

import pytest

from meeple.games.maiterra import Maiterra
from meeple.testing.conformance import run_conformance

CASES = [
    (2, "", 17),
    (3, "", 21),
    (3, "112", 55),
    (4, "", 40),
    (4, "1212", 104),
]


pytestmark = pytest.mark.slow


@pytest.mark.parametrize(("seats", "teams", "seed"), CASES)
def test_conformance(seats: int, teams: str, seed: int) -> None:
    game = Maiterra(seats=seats, options={"teams": teams})
    report = run_conformance(game, playouts=1, seed=seed, max_examples=20, resample_seeds=(1,))
    assert report.hidden_changes > 0
    assert report.playouts == 1
