"""Maatatahay's numbers are a value the game holds: the published ones, or those passed to it."""

from __future__ import annotations

import dataclasses

import pytest

from meeple.games.maatatahay.data import ARROW_TARGETS, RULES, arrow_targets
from meeple.games.maatatahay.game import Maatatahay


def test_a_game_holds_the_published_numbers_and_their_arrow_table() -> None:
    game = Maatatahay()
    assert game.rules is RULES
    assert game.arrow_targets is ARROW_TARGETS is arrow_targets(RULES)


def test_a_game_built_from_other_numbers_plays_them() -> None:
    stronger = tuple(dataclasses.replace(t, fangs=t.fangs + 3) for t in RULES.tiles)
    game = Maatatahay(rules=dataclasses.replace(RULES, tiles=stronger))
    state = game.new_initial_state(seed=5)
    while state.phase != 2:  # PLACE
        seat = state.deciding_seats()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    seat = state.deciding_seats()[0]
    state.apply(seat, state.legal_actions(seat)[0])
    placed = next(s for s in range(25) if state.living[s])
    assert state.strength(placed) >= 3 + RULES.tiles[state.tile[placed] % 12].fangs
    assert game != Maatatahay()
    assert game.arrow_targets == ARROW_TARGETS and game.arrow_targets is not ARROW_TARGETS


def test_numbers_that_change_the_action_ids_are_refused() -> None:
    with pytest.raises(ValueError, match="storage limit"):
        Maatatahay(rules=dataclasses.replace(RULES, storage_limit=RULES.storage_limit + 1))
