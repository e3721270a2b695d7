"""The view, restructured to be cheaper (it is sent after every action), is exactly the one
it replaced: the same JSON for every seat and the spectators, sealed orders, houses and
hands included, on many random positions at every seat count. One field was added since: a
seat's own view carries its ``taken_back`` count (rules version 3 on), which the reference,
kept verbatim, predates; it is added to the reference's view for the comparison."""

from __future__ import annotations

import json
import random

import pytest
from tests.games.maiterra.view_before import view as view_before

from meeple.core import load_game
from meeple.games.maiterra.rules import MaiterraState
from meeple.games.maiterra.view import view


@pytest.mark.slow
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_view_is_the_one_it_replaced(seats: int) -> None:
    game = load_game("maiterra", seats=seats)
    rng = random.Random(seats)
    compared = 0
    for _ in range(2):
        state = game.new_initial_state(rng.randrange(2**32))
        assert isinstance(state, MaiterraState)
        for _ in range(400):
            for seat in (None, *range(seats)):
                expected = view_before(state, seat)
                if seat is not None and state.game.rules.take_backs:
                    expected["taken_back"] = state.taken_back[seat]
                assert json.dumps(view(state, seat)) == json.dumps(expected)
                compared += 1
            if state.is_terminal():
                break
            seat = rng.choice(state.deciding_seats())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert compared > 200
