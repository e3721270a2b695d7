"""The view, restructured to be cheaper (it is sent after every action), is exactly the one
it replaced: the same JSON for every seat and the spectators, on many random positions under
every option."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from tests.games.maatatahay.view_before import view as view_before

from meeple.core import load_game
from meeple.games.maatatahay.rules import MaatatahayState
from meeple.games.maatatahay.view import view

OPTIONS = [
    {"relic_scoring": scoring, "shrines": shrines, "relic_blocks": blocks}
    for scoring, shrines, blocks in itertools.product(
        ("progressive", "standard"), ("fixed", "random"), (False, True)
    )
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_the_view_is_the_one_it_replaced(options: dict[str, object]) -> None:
    game = load_game("maatatahay", options=options)
    rng = random.Random(json.dumps(options))
    compared = 0
    for _ in range(6):
        state = game.new_initial_state(rng.randrange(2**32))
        assert isinstance(state, MaatatahayState)
        while True:
            for seat in (None, 0, 1):
                assert json.dumps(view(state, seat)) == json.dumps(view_before(state, seat))
                compared += 1
            if state.is_terminal():
                break
            seat = state.deciding_seats()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert compared > 100
