"""Maiterra state JSON from untrusted hands: a typed refusal or a position that can go on.

Found by hand and by the hostile-edit property below: a draft order that leaves a seat with
no field to draft, flags given as 1 or "true" (once coerced with ``bool``), decks and
discard piles of millions of cards, cards counted twice, buildings past their slots,
winners that are no side.
"""

from __future__ import annotations

import copy
from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from tests import hostile_json
from tests.hostile_json import edited, hostile_states, load_or_refuse

from meeple.core import Game, load_game
from meeple.games.maiterra.rules import DRAFT, PLAN
from meeple.testing import play_random

GAME = load_game("maiterra", seats=2)


def reach(game: Game, phase: int, seed: int = 3) -> dict[str, Any]:
    """The state JSON when the match first reaches ``phase``, every seat taking its first
    legal action."""
    state = game.new_initial_state(seed)
    while state.phase != phase:  # type: ignore[attr-defined]
        seat = state.deciding_seats()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    data: dict[str, Any] = state.to_json()
    return data


DRAFTING = reach(GAME, DRAFT)
PLANNING = reach(GAME, PLAN)


refused = partial(hostile_json.refused, game=GAME)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["maiterra/1", "maiterra/2", "maiterra/3"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_state_of_a_match_loads_in_both_rules_versions(game_id: str, seats: int) -> None:
    game = load_game(game_id, seats=seats)
    playout = play_random(game, seed=seats, choice_seed=7, check=False)
    for data in playout.states[:: max(1, len(playout.states) // 40)] + playout.states[-1:]:
        assert game.state_from_json(data).to_json() == data


@pytest.mark.parametrize(
    ("order", "says"),
    [
        ([0, 0, 0, 0], "the draft order must be 2 rounds of every seat once"),
        ([0, 1, 0, 1], "(snake order)"),
        ([0, 1, 1], "the draft order must be"),
        ([0, 1, 1, 0, 0, 1], "state.draft_order lists at most 4 entries"),
        ([0, 1, 1, 2], "state.draft_order[3] must be an integer in 0..1"),
    ],
)
def test_a_draft_order_that_is_no_snake_of_the_seats_is_refused(
    order: list[int], says: str
) -> None:
    refused(edited(DRAFTING, draft_order=order), says)


def test_a_draft_with_no_free_field_for_the_picks_to_come_is_refused() -> None:
    data = copy.deepcopy(DRAFTING)
    data["owner"] = [None if t is None else 0 for t in data["map"]]
    refused(data, "drafted fields only")
    data = copy.deepcopy(DRAFTING)
    data["map"] = [None] * 25
    data["map"][0] = "meadow"
    refused(data, "free fields for its picks still to come")


@pytest.mark.parametrize("flag", [1, 0, "true", None, [True]])
def test_flags_are_booleans_not_coerced(flag: Any) -> None:
    data = copy.deepcopy(PLANNING)
    data["seats"][0]["ended"] = flag
    refused(data, "state.seats[0].ended must be true or false")


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"deck": ["speedup"] * 3_000_000}, "state.deck lists at most 20 entries"),
        ({"discard": ["rally"] * 3_000_000}, "state.discard lists at most 20 entries"),
        ({"discard": ["rally"]}, "hold 5 rally cards, not 4"),
        ({"deck": []}, "hold 0 speedup cards, not 4"),
        ({"turn": True}, "state.turn must be an integer in 0..50, got True"),
        ({"turn": 51}, "state.turn must be an integer in 0..50"),
        ({"winners": [0]}, "only the end has winners"),
        ({"reason": "x" * 100_000}, "state.reason must be one of"),
        ({"draft_order": [0, 1, 1, 0]}, "only the draft has a draft order"),
        ({"phase": "houses"}, "every house is locked, yet the phase is houses"),
        ({"buildings": {"zz": {}}}, "must name fields a1..e5"),
        ({"rng": None}, "state.rng must be 16 lowercase hex digits"),
    ],
)
def test_fields_of_the_wrong_type_size_or_count_are_refused(
    changes: dict[str, Any], says: str
) -> None:
    refused(edited(PLANNING, **changes), says)


def test_buildings_stay_within_slots_owners_and_people() -> None:
    field = next(c for c, o in zip(_names(), PLANNING["owner"], strict=True) if o == 0)
    terrain = PLANNING["map"][_names().index(field)]
    worker = {"meadow": "farm", "forest": "sawmill", "clay": "brickworks", "vale": "farm"}[terrain]
    refused(edited(PLANNING, buildings={field: {worker: 3}}), f"state.buildings.{field}.{worker}")
    refused(edited(PLANNING, buildings={field: {"wall": 1, "farm": True}}), "must be an integer")
    nobody = next(
        c
        for c, o, t in zip(_names(), PLANNING["owner"], PLANNING["map"], strict=True)
        if o is None and t is not None
    )
    refused(edited(PLANNING, buildings={nobody: {"wall": 1}}), "which nobody owns")
    data = copy.deepcopy(PLANNING)
    data["seats"][0]["people"] = 0
    data["buildings"] = {field: {worker: 1}}
    refused(data, "seat 0 has 1 workers but 0 people")


def test_a_queue_is_checked_order_by_order() -> None:
    data = copy.deepcopy(PLANNING)
    data["seats"][0]["queue"] = ["march " * 10_000]
    refused(data, "state.seats[0].queue[0] must be a string of at most 64")
    data["seats"][0]["queue"] = ["end"]
    refused(data, "seat 0 cannot have queued 'end'")
    data["seats"][0]["queue"] = ["build farm zz"]
    refused(data, "state.seats[0].queue[0] is no order")
    data["seats"][0]["queue"] = ["trade food for wood"] * 7
    refused(data, "state.seats[0].queue lists at most 6 entries")


def test_winners_are_one_whole_side() -> None:
    game = load_game("maiterra", seats=4, options={"teams": "1122"})
    final = play_random(game, seed=5, choice_seed=2, check=False).states[-1]
    assert final["phase"] == "over"
    for winners in ([0], [1, 2], [0, 1, 2, 3]):
        if winners != final["winners"]:
            refused(edited(final, winners=winners), "every seat of one side", game=game)


def _names() -> list[str]:
    return [f"{'abcde'[c % 5]}{c // 5 + 1}" for c in range(25)]


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(hostile_states(GAME, max_actions=40))
def test_hostile_edits_load_as_a_valid_state_or_are_refused(case: tuple[str, Any]) -> None:
    label, data = case
    load_or_refuse(GAME, data, label)
