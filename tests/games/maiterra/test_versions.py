"""Rules versions: a rule change that would replay an old record differently is a new
``maiterra/<n>``; every earlier version stays registered with its own rules, read from
``data/rules.json`` (the newest in full, each older one's differences under ``earlier``),
so its records replay bit for bit (the ``maiterra/1`` golden playthroughs prove it)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

import meeple.games  # noqa: F401  (registers the games)
from meeple.core import load_game
from meeple.games.maiterra import Maiterra, Maiterra1
from meeple.games.maiterra.data import RULE_VERSIONS, RULES, load_rule_versions, load_rules
from meeple.games.maiterra.game import Maiterra2


def _rules_text() -> str:
    return resources.files("meeple.games.maiterra").joinpath("data/rules.json").read_text("utf-8")


def test_every_version_is_registered_and_the_newest_is_the_default() -> None:
    assert load_game("maiterra", 2).info.version == RULES.version == 3
    assert isinstance(load_game("maiterra/1", 2), Maiterra1)
    assert type(load_game("maiterra/2", 2)) is Maiterra2
    assert type(load_game("maiterra/3", 2)) is Maiterra
    for version in (1, 2, 3):
        assert load_game(f"maiterra/{version}", 3).rules is RULE_VERSIONS[version]


def test_version_one_keeps_first_step_road_fights_and_the_units_lost_star_card() -> None:
    """Version 2 fixed two rules (docs/rules/maiterra.md, Versions); version 1 keeps them
    as they were, so that its records replay."""
    newest, first = RULE_VERSIONS[2], RULE_VERSIONS[1]
    assert (newest.road_fights, newest.star_card) == ("every_crossing", "any_lost_fight")
    assert (first.road_fights, first.star_card) == ("first_steps", "units_lost")
    assert (first.wall_bonus, first.units, first.cards) == (
        newest.wall_bonus,
        newest.units,
        newest.cards,
    )


def test_earlier_overrides_merge_key_by_key_and_stack_down_the_versions() -> None:
    raw = json.loads(_rules_text())
    raw["version"] = 3
    raw["earlier"] = {
        "2": {"combat": {"die": 6}, "houses": ["A", "B", "C", "D"]},
        "1": {"combat": {"road_fights": "first_steps"}, "max_orders": 5},
    }
    versions = load_rule_versions(json.dumps(raw))
    assert sorted(versions) == [1, 2, 3]
    three, two, one = versions[3], versions[2], versions[1]
    assert (three.die, two.die, one.die) == (5, 6, 6)  # 1 inherits 2's change
    assert two.wall_bonus == three.wall_bonus  # the rest of "combat" is kept
    assert two.houses == ("A", "B", "C", "D")  # a list is replaced whole
    assert (two.road_fights, one.road_fights) == ("every_crossing", "first_steps")
    assert (three.max_orders, two.max_orders, one.max_orders) == (6, 6, 5)
    assert [versions[v].version for v in (1, 2, 3)] == [1, 2, 3]
    assert load_rules(json.dumps(raw)) == three


def test_an_unknown_rule_choice_is_refused() -> None:
    raw = json.loads(_rules_text())
    raw["earlier"]["1"]["combat"]["road_fights"] = "sometimes"
    with pytest.raises(ValueError, match="sometimes"):
        load_rule_versions(json.dumps(raw))


@pytest.mark.parametrize("version", [1, 2])
def test_a_match_plays_and_replays_at_each_version(version: int) -> None:
    game = load_game(f"maiterra/{version}", 2)
    state = game.new_initial_state(5)
    clone = state.clone()
    assert clone.game is game
    assert game.state_from_json(state.to_json()).game.rules.version == version
