"""The OpenSpiel adapter keeps, per position, the current player and each seat's legal
actions (pyspiel asks for them several times a step). What it keeps must always be what the
engine says of the position as it is now: checked at every step of random matches of every
game, with an action that was legal a move earlier and is not now refused with the engine's
error, the state unchanged."""

from __future__ import annotations

import random

import pyspiel
import pytest

from meeple.adapters import openspiel
from meeple.core import GameError
from tests.adapters.conftest import CONFIGURATIONS, IDS

openspiel.register_games()  # the toy games registered after the adapter was imported


def _agrees_with_the_engine(state: pyspiel.State) -> None:
    meeple = state.meeple
    deciding = meeple.deciding_seats()
    assert state.is_terminal() == (not deciding)
    if len(deciding) == 1:
        assert state.current_player() == deciding[0]
    for player in range(state.num_players()):
        assert state.legal_actions(player) == meeple.legal_actions(player)


@pytest.mark.parametrize(("name", "seats"), CONFIGURATIONS, ids=IDS)
def test_what_the_adapter_keeps_is_the_engines_word_at_every_step(name: str, seats: int) -> None:
    game = pyspiel.load_game(f"meeple_{name}", {"seats": seats})
    rng = random.Random(seats)
    state = game.new_initial_state()
    if state.is_chance_node():
        state.apply_action(3)
    before: list[int] = []
    steps = 0
    while not state.is_terminal() and steps < 60:
        _agrees_with_the_engine(state)
        if state.is_simultaneous_node():
            state.apply_actions(
                [rng.choice(state.legal_actions(p) or [0]) for p in range(state.num_players())]
            )
        else:
            legal = state.legal_actions()
            stale = [a for a in before if a not in legal]
            if stale:
                text = str(state)
                with pytest.raises(GameError):
                    state.apply_action(stale[0])
                assert str(state) == text
            before = legal
            state.apply_action(rng.choice(legal))
        steps += 1
    _agrees_with_the_engine(state)
