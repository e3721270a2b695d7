"""Maiterra's numbers are a value the game holds: its version's, or those passed to it."""

from __future__ import annotations

import dataclasses

import pytest

from meeple.core import load_game
from meeple.games.maiterra.data import RULE_VERSIONS
from meeple.games.maiterra.game import Maiterra
from meeple.games.maiterra.tables import rule_tables


def test_a_game_holds_its_rules_versions_numbers_and_their_tables() -> None:
    for version, rules in RULE_VERSIONS.items():
        game = load_game(f"maiterra/{version}")
        assert game.rules is rules  # type: ignore[attr-defined]
        assert game.tables is rule_tables(rules)  # type: ignore[attr-defined]


def test_a_game_built_from_other_numbers_plays_them() -> None:
    published = RULE_VERSIONS[Maiterra.info.version]
    richer = dataclasses.replace(published, opening_food=published.opening_food + 5)
    game = Maiterra(seats=3, rules=richer)
    assert game.new_initial_state(seed=1).res[0][0] == published.opening_food + 5
    assert Maiterra(seats=3).new_initial_state(seed=1).res[0][0] == published.opening_food
    assert game != Maiterra(seats=3)
    assert game.tables.unit_costs == rule_tables(published).unit_costs
    assert game.tables is not rule_tables(published)  # kept with each rule data


def test_numbers_of_another_version_are_refused() -> None:
    older = RULE_VERSIONS[min(RULE_VERSIONS)]
    if older.version == Maiterra.info.version:
        pytest.skip("one rules version only")
    with pytest.raises(ValueError, match="not of version"):
        Maiterra(rules=older)
