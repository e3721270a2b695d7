"""Per-seat views, determinizations, the state JSON and the notation."""

from __future__ import annotations

import json

import pytest

from meeple.core.errors import InvalidAction, InvalidState
from meeple.games.maiterra import Maiterra
from meeple.games.maiterra import notation as ids

from .helpers import army, own, planning

RED, BLUE, GREEN = range(3)


def test_every_action_id_round_trips_through_its_notation() -> None:
    game = Maiterra(seats=4)
    for action in range(game.num_distinct_actions()):
        assert game.parse_action(game.format_action(action)) == action
        assert game.action_from_json(game.action_to_json(action)) == action


@pytest.mark.parametrize(
    "text",
    [
        "",
        "march",
        "march z9 E",
        "march c3 E-W",
        "play rally c3",
        "trade food for food",
        "build castle c3",
        "house sky",
    ],
)
def test_bad_notation_is_refused(text: str) -> None:
    with pytest.raises(InvalidAction):
        ids.parse_action(text)


def test_sealed_orders_stay_sealed_and_resample_redraws_them_without_changing_the_view() -> None:
    """ "queued orders are sealed from the other seats": resampling for Blue redraws Red's
    queue, hand and the deck; Blue's view and legal actions stay the same."""
    state = planning(seats=3)
    own(state, RED, "c3")
    own(state, BLUE, "e5")
    own(state, GREEN, "a1")
    army(state, RED, "c3", 3)
    state.cards[RED] = [0, 1]
    state.res[RED][3] = 6
    state.play(RED, "trade coins for brick")
    state.play(RED, "march c3 E")
    state.play(RED, "end")
    changed = False
    for seed in range(8):
        other = state.resample(BLUE, seed)
        assert other.view(BLUE) == state.view(BLUE)
        assert other.legal_actions(BLUE) == state.legal_actions(BLUE)
        changed = changed or other.to_json() != state.to_json()
    assert changed
    mine = state.resample(RED, 3)
    assert mine.queue[RED] == state.queue[RED] and mine.cards[RED] == state.cards[RED]


def test_locked_houses_are_redrawn_for_the_seats_that_cannot_see_them() -> None:
    state = Maiterra(seats=3).new_initial_state(2)
    state.play(RED, "house sun")
    state.play(BLUE, "house moon")
    houses = {tuple(state.resample(GREEN, seed).house[:2]) for seed in range(12)}
    assert len(houses) > 1
    assert all(state.resample(RED, seed).house[RED] == 2 for seed in range(5))


def test_the_state_json_round_trips_mid_turn() -> None:
    state = planning()
    own(state, RED, "c3")
    own(state, BLUE, "e5")
    army(state, RED, "c3", 2)
    state.play(RED, "march c3 E")
    data = json.loads(json.dumps(state.to_json()))
    again = state.game.state_from_json(data)
    assert again == state
    assert again.queue == state.queue


def test_an_impossible_queue_is_refused() -> None:
    state = planning()
    own(state, RED, "c3")
    own(state, BLUE, "e5")
    data = state.to_json()
    data["seats"][RED]["queue"] = ["march c3 E"]  # nobody stands on c3
    with pytest.raises(InvalidState):
        state.game.state_from_json(data)
