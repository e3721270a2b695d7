"""Maatatahay state JSON from untrusted hands: a typed refusal or a position that can go on.

Found by hand and by the hostile-edit property below: extra pairs in the tile stream, a tile
in two places, placements the phase cannot have, booleans for integers and integers for
booleans, huge numbers and giant lists.
"""

from __future__ import annotations

import copy
from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from tests import hostile_json
from tests.hostile_json import edited, hostile_states, load_or_refuse

from meeple.games.maatatahay import Maatatahay

GAME = Maatatahay()


def played(count: int, seed: int = 3) -> dict[str, Any]:
    """The state JSON after the first legal action ``count`` times."""
    state = GAME.new_initial_state(seed)
    for _ in range(count):
        (seat,) = state.deciding_seats()
        state.apply(seat, state.legal_actions(seat)[0])
    data: dict[str, Any] = state.to_json()
    return data


PICK = played(0)
PLACE = played(2)
FINISH = played(3)


refused = partial(hostile_json.refused, game=GAME)


def test_the_phases_used_here_are_what_they_say() -> None:
    assert [PICK["phase"], PLACE["phase"], FINISH["phase"]] == ["pick", "place", "finish"]
    for data in (PICK, PLACE, FINISH):
        assert GAME.state_from_json(data).to_json() == data


def test_an_extra_pair_in_the_stream_is_refused() -> None:
    stream = PICK["stream"]
    refused(edited(PICK, stream=[*stream, stream[0]]), "state.stream lists at most 3 entries")
    deck_tile = PICK["decks"][0][-1]
    refused(edited(PICK, stream=[[deck_tile, 1], *stream[1:]]), "in two places at once")


def test_the_picked_pair_cannot_already_stand_on_the_board() -> None:
    data = copy.deepcopy(PLACE)
    data["board"][0]["warrior"] = {
        "seat": 0,
        "tile": data["pair"][0],
        "facing": "N",
        "alive": True,
        "crystals": [0, 0],
    }
    data["board"][0].pop("crystals", None)
    refused(data, "in two places at once")


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"placements": 2}, "state.placements must be an integer in 0..1"),
        ({"placements": True}, "state.placements must be an integer in 0..1, got True"),
        ({"placements": 1}, "'placing' must be 'first'"),
        ({"first": None}, "needs 'first' and 'placing'"),
        ({"pair": None}, "phase place needs the picked pair"),
        ({"decider": None}, "phase place needs deciding seat"),
        ({"hot": "c3"}, "only the finish phase has a hot tile"),
        ({"hot_was_closed": True}, "hot_was_closed is true only in the finish phase"),
        ({"deaths_this_round": 2, "phase": "pick"}, "phase pick has no picked pair"),
    ],
)
def test_placements_the_phase_cannot_have_are_refused(changes: dict[str, Any], says: str) -> None:
    refused(edited(PLACE, **changes), says)


def test_the_hot_tile_must_be_the_warrior_being_placed() -> None:
    hot = FINISH["hot"]
    other = next(e["space"] for e in FINISH["board"] if "warrior" not in e and e["space"] != hot)
    refused(edited(FINISH, hot=other), "the hot tile on")
    refused(edited(FINISH, hot_was_closed=1), "hot_was_closed must be true or false")


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"active": True}, "state.active must be an integer in 0..1, got True"),
        ({"round": 10**5000}, "<an integer of about 5001 digits>"),
        ({"supply": 46}, "state.supply must be an integer in 0..45"),
        ({"supply": 1.0}, "state.supply must be an integer"),
        ({"decks": [[1] * 3_000_000, []]}, "state.decks[0] lists at most 12 entries"),
        ({"relics_taken": [0] * 6}, "state.relics_taken lists at most 5 entries"),
        ({"lost": [0, 13]}, "state.lost[1] must be an integer in 0..12"),
        ({"rng": "f" * 100_000}, "state.rng must be 16 lowercase hex digits"),
        ({"extra": 1}, "state has an unknown field 'extra'"),
        ({"format": "maatatahay-state/1" * 10_000}, "a Maatatahay state has format"),
    ],
)
def test_fields_of_the_wrong_type_or_size_are_refused(changes: dict[str, Any], says: str) -> None:
    refused(edited(PICK, **changes), says)


def test_board_entries_are_checked_field_by_field() -> None:
    data = copy.deepcopy(PICK)
    data["board"][0]["relic"] = 1
    refused(data, "state.board[0].relic must be true or false, got 1")
    data = copy.deepcopy(PICK)
    data["board"][0]["crystals"] = [0, 16]
    refused(data, "state.board[0].crystals[1] must be an integer in 0..15")
    data = copy.deepcopy(PICK)
    data["board"][3] = [[[[]]]]
    refused(data, "state.board[3] must be an object")
    data = copy.deepcopy(PICK)
    data["board"][3]["warrior"] = {"seat": 0}
    refused(data, "state.board[3].warrior lacks the field 'tile'")


def test_a_pick_with_nothing_to_pick_is_refused() -> None:
    refused(edited(PICK, stream=[], decks=[[], []]), "yet the phase is pick")


def test_missing_fields_are_named() -> None:
    data = copy.deepcopy(PICK)
    del data["lost"]
    refused(data, "state lacks the field 'lost'")
    refused([PICK], "state must be an object")


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(hostile_states(GAME, max_actions=40))
def test_hostile_edits_load_as_a_valid_state_or_are_refused(case: tuple[str, Any]) -> None:
    label, data = case
    load_or_refuse(GAME, data, label)
