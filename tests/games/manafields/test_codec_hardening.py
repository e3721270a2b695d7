"""Manafields state JSON from untrusted hands: a typed refusal or a position that can go on.

Found by hand and by the hostile-edit property below: ``true`` for the turn limit (it once
compared equal to 1), HP past the unit's card, a rally or a frenzy for the wrong faction,
a match going on past a 12-point lead, turn numbers that no turn had, giant unit lists.
"""

from __future__ import annotations

import copy
from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from tests import hostile_json
from tests.hostile_json import edited, hostile_states, load_or_refuse

import meeple.games  # noqa: F401  (registers the games)
from meeple.core import Game, load_game

GAME = load_game("manafields", options={"faction0": "humans", "faction1": "orcs"})


def played(game: Game, count: int, seed: int = 3) -> dict[str, Any]:
    """The state JSON after the first legal action ``count`` times."""
    state = game.new_initial_state(seed)
    for _ in range(count):
        (seat,) = state.deciding_seats()
        state.apply(seat, state.legal_actions(seat)[-1])
    data: dict[str, Any] = state.to_json()
    return data


START = played(GAME, 0)
LATER = played(GAME, 12)


refused = partial(hostile_json.refused, game=GAME)


def test_the_states_used_here_load() -> None:
    for data in (START, LATER):
        assert GAME.state_from_json(data).to_json() == data
    assert LATER["turn"] == 1


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"turn_limit": True}, "state.turn_limit must be an integer in 15..15, got True"),
        ({"turn_limit": 16}, "state.turn_limit must be an integer in 15..15"),
        ({"turn": 30}, "state.turn must be an integer in 0..29"),
        ({"active": 1}, "seat 0 plays the even turns"),
        ({"op": 3}, "state.op must be an integer in 0..2"),
        ({"morale": [0, 6]}, "state.morale[1] must be an integer in 0..5"),
        ({"score": [0, 100]}, "state.score[1] must be an integer in 0..1"),
        ({"owed": [7, 0]}, "state.owed[0] must be an integer in 0..6"),
        ({"rally": [1, 0]}, "state.rally[0] must be true or false, got 1"),
        ({"rally": [False, True]}, "only the Humans rally"),
        ({"frenzy": True}, "only the Orcs' turn has a frenzy"),
        ({"picks": 2}, "only the Elves and the Undead pick"),
        ({"picked": ["A"]}, "only the Elves pick units to teleport"),
        ({"picked": ["A"] * 3_000_000}, "state.picked lists at most 3 entries"),
        ({"elf_free": "A"}, "the Elves' free move belongs to"),
        ({"winner": 0, "reason": "lead"}, "a lead win goes to the seat"),
        ({"winner": "draw", "reason": "turn_limit"}, "after its last turn only"),
        ({"winner": 1, "reason": None}, "reason is 'lead' or 'turn_limit'"),
        ({"units": [{}] * 3_000_000}, "state.units must list 12 entries"),
        ({"factions": ["humans"] * 3_000_000}, "state.factions must be ['humans', 'orcs']"),
        ({"rng": 0}, "state.rng must be 16 lowercase hex digits"),
        ({"extra": 1}, "state has an unknown field 'extra'"),
    ],
)
def test_fields_of_the_wrong_type_range_or_faction_are_refused(
    changes: dict[str, Any], says: str
) -> None:
    refused(edited(START, **changes), says)


def test_a_lead_of_twelve_ends_the_match_at_once() -> None:
    data = played(GAME, 40)
    assert data["turn"] == 5 and data["active"] == 1
    refused(edited(data, score=[13, 1]), "seat 0 leads by 12 or more, so the match is over")
    assert GAME.state_from_json(edited(data, score=[12, 1])).to_json()["score"] == [12, 1]


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("hp", 99, "state.units[0].hp must be an integer in 0.."),
        ("hp", True, "state.units[0].hp must be an integer"),
        ("owner", 1, "slot A serves seat 0"),
        ("type", "zombie", "must serve the Undead"),
        ("square", "z" * 100_000, "slot A stands on no open square"),
        ("last_order", -5, "slot A's last_order is a turn number or -10"),
        ("targeted", 10**30, "state.units[0].targeted must be an integer"),
        ("ordered", True, "slot A has an order this turn exactly when 'ordered'"),
        ("moved", 1, "state.units[0].moved must be true or false, got 1"),
    ],
)
def test_units_are_checked_against_their_cards_and_the_turn(
    field: str, value: Any, says: str
) -> None:
    data = copy.deepcopy(START)
    data["units"][0][field] = value
    refused(data, says)


def test_two_living_units_cannot_share_a_square() -> None:
    data = copy.deepcopy(START)
    data["units"][1]["square"] = data["units"][0]["square"]
    refused(data, "two units stand on")


@pytest.mark.parametrize("version", [1, 2, 3])
def test_each_rules_version_reads_its_own_cards(version: int) -> None:
    game = load_game(f"manafields/{version}")
    data = played(game, 8)
    assert game.state_from_json(data).to_json() == data


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(hostile_states(GAME, max_actions=40))
def test_hostile_edits_load_as_a_valid_state_or_are_refused(case: tuple[str, Any]) -> None:
    label, data = case
    load_or_refuse(GAME, data, label)
