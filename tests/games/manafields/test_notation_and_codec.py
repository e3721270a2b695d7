"""Notation, action JSON, state JSON and views."""

from __future__ import annotations

import json

import pytest

from meeple.core.errors import InvalidAction, InvalidState
from meeple.games.manafields import Manafields
from meeple.games.manafields import notation as ids


def test_notation_round_trips_every_id() -> None:
    game = Manafields()
    for action in range(game.num_distinct_actions()):
        assert game.parse_action(game.format_action(action)) == action


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("end", ids.END),
        ("done", ids.DONE),
        ("faction", ids.FACTION),
        ("move A e5", ids.move_action(0, 44)),
        ("  MOVE  a   E5 ", ids.move_action(0, 44)),
        ("fight C J", ids.fight_action(2, 9)),
        ("shoot F J", ids.shoot_action(5, 9)),
        ("ability B D", ids.ability_action(1, 3)),
        ("teleport C j10", ids.teleport_action(2, 99)),
        ("explode L", ids.explode_action(11)),
    ],
)
def test_notation_examples(text: str, action: int) -> None:
    assert ids.parse_action(text) == action


@pytest.mark.parametrize("text", ["", "move A k1", "move M e5", "fight A e5", "fly A", "move A"])
def test_bad_notation_is_refused(text: str) -> None:
    with pytest.raises(InvalidAction):
        ids.parse_action(text)


def test_action_json_names_its_parts() -> None:
    game = Manafields()
    assert game.action_to_json(ids.move_action(0, 44)) == {
        "id": ids.move_action(0, 44),
        "text": "move A e5",
        "kind": "move",
        "unit": "A",
        "square": "e5",
    }
    assert game.action_to_json(ids.fight_action(2, 9))["target"] == "J"


def test_state_json_round_trips_and_view_hides_only_the_dice() -> None:
    game = Manafields(options={"faction0": "undead", "faction1": "elves"})
    state = game.new_initial_state(5)
    data = json.loads(json.dumps(state.to_json()))
    assert game.state_from_json(data) == state
    view = state.view(0)
    assert "rng" not in json.dumps(view)
    assert view == state.view(1) | {"seat": 0}
    assert state.resample(0, 9).view(0) == view


def test_state_json_must_match_the_options() -> None:
    state = Manafields().new_initial_state(5)
    data = state.to_json()
    with pytest.raises(InvalidState):
        Manafields(options={"faction0": "elves"}).state_from_json(data)
    data["units"][0]["square"] = "d5"  # terrain
    with pytest.raises(InvalidState):
        Manafields().state_from_json(data)
