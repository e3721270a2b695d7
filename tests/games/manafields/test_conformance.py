"""The conformance kit on every faction pairing (short matches) and one full-length one."""

from __future__ import annotations

import pytest

import meeple.games  # noqa: F401  (registers the games)
from meeple.core import load_game
from meeple.games.manafields.data import FACTIONS
from meeple.testing import run_conformance

PAIRINGS = [(a, b) for a in FACTIONS for b in FACTIONS]


pytestmark = pytest.mark.slow


@pytest.mark.parametrize(("faction0", "faction1"), PAIRINGS)
def test_conformance_per_pairing(faction0: str, faction1: str) -> None:
    game = load_game("manafields", 2, {"faction0": faction0, "faction1": faction1, "turn_limit": 3})
    report = run_conformance(game, playouts=1, properties=False)
    assert report.playouts == 1


def test_conformance_full_length_with_properties() -> None:
    game = load_game("manafields", 2, {"deployment": "shuffled", "turn_limit": 6})
    report = run_conformance(game, playouts=1, max_examples=20)
    assert report.actions > 0
