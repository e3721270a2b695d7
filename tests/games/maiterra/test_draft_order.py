"""The draft: "Then each seat opens with 3 food and 4 people, and drafts 2 free fields. Draft
order is by die roll." The order is a snake of the rolled order; from rules version 2 the
first place in it brings 3 brick (docs/rules/maiterra.md, Decision 4), within that
sentence: the food, the people and the two fields stay as written."""

from __future__ import annotations

import json
from importlib import resources

import pytest

import meeple.games  # noqa: F401  (registers the games)
from meeple.core import Event, load_game
from meeple.games.maiterra import MaiterraState
from meeple.games.maiterra.data import BRICK, RULE_VERSIONS, load_rule_versions
from meeple.games.maiterra.rules import DRAFT, PLAN


def _through_the_draft(
    game_id: str, seats: int, seed: int
) -> tuple[MaiterraState, list[int], list[Event]]:
    """A match through its houses and draft, each seat taking its first legal field: the
    position at turn 1, the rolled order and the draft's events."""
    state = load_game(game_id, seats).new_initial_state(seed)
    for seat in range(seats):
        state.play(seat, "house sun")
    assert isinstance(state, MaiterraState) and state.phase == DRAFT
    order = state.draft_order[:seats]
    events: list[Event] = []
    while state.phase == DRAFT:
        (seat,) = state.deciding_seats()
        events += state.apply(seat, state.legal_actions(seat)[0])
    assert state.phase == PLAN and state.turn == 1
    return state, order, events


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_draft_order_is_by_die_roll_in_snake_order_and_every_seat_drafts_2_free_fields(
    seats: int, seed: int
) -> None:
    """ "Draft order is by die roll": every seat once a round, the second round reversed;
    each drafts 2 fields with one soldier on each."""
    state = load_game("maiterra", seats).new_initial_state(seed)
    for seat in range(seats):
        state.play(seat, "house star")
    assert isinstance(state, MaiterraState)
    first_round = state.draft_order[:seats]
    assert sorted(first_round) == list(range(seats))
    assert state.draft_order == first_round + first_round[::-1]
    state, _, _ = _through_the_draft("maiterra", seats, seed)
    assert [state.fields(seat) for seat in range(seats)] == [2] * seats
    assert [state.units(seat) for seat in range(seats)] == [2] * seats


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_version_2_the_first_in_the_draft_order_gets_3_brick_when_the_draft_ends(
    seats: int, seed: int
) -> None:
    """Decision 4: the seat that drafts first gets 3 brick when the draft ends; every seat
    still opens with 3 food and 4 people and nothing else."""
    state, order, events = _through_the_draft("maiterra/2", seats, seed)
    first = order[0]
    for seat in range(seats):
        assert state.res[seat] == ([3, 0, 3, 0] if seat == first else [3, 0, 0, 0])
    assert state.people == [4] * seats
    (paid,) = [event for event in events if event.kind == "draft_stores"]
    assert (paid.seat, paid.data) == (first, {"place": 1, "stores": {"brick": 3}})
    assert paid.audience is None  # everyone sees it


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_version_1_opens_with_the_same_stores_for_everyone(seats: int) -> None:
    """``maiterra/1`` keeps the draft as it was, so its records replay."""
    for seed in (1, 2):
        state, _, events = _through_the_draft("maiterra/1", seats, seed)
        assert state.res == [[3, 0, 0, 0]] * seats
        assert not [event for event in events if event.kind == "draft_stores"]


def test_the_stores_are_data_for_each_version() -> None:
    newest, first = RULE_VERSIONS[2], RULE_VERSIONS[1]
    for seats in (2, 3, 4):
        assert newest.draft_place_stores[seats][0][BRICK] == 3
        assert not any(map(any, newest.draft_place_stores[seats][1:]))
    assert not any(any(map(any, places)) for places in first.draft_place_stores.values())


@pytest.mark.parametrize(
    "table",
    [{"3": [{"brick": 3}, {}]}, {"3": [{"food": 1}, {}, {}]}, {"4": [{"coins": -1}, {}, {}, {}]}],
)
def test_a_malformed_table_is_refused_when_the_rules_load(table: dict[str, object]) -> None:
    text = resources.files("meeple.games.maiterra").joinpath("data/rules.json").read_text("utf-8")
    raw = json.loads(text)
    raw["opening"]["stores_by_draft_place"] = table
    with pytest.raises(ValueError, match="stores_by_draft_place"):
        load_rule_versions(json.dumps(raw))
