"""Manafields' numbers are a value the game holds: its version's cards, or a candidate's."""

from __future__ import annotations

import pytest

from meeple.core import load_game
from meeple.games.manafields.data import RULES, published_json, rules_from_json
from meeple.games.manafields.game import Manafields, Manafields1


def test_a_game_holds_its_rules_versions_cards() -> None:
    assert Manafields().rules.rosters == RULES.rosters
    assert Manafields1().rules.rosters == RULES.rosters_of(1)
    assert load_game("manafields/1").rules is Manafields1().rules  # type: ignore[attr-defined]


def test_a_game_built_from_other_cards_plays_them_and_is_not_the_published_one() -> None:
    raw = published_json()
    raw["factions"]["humans"]["units"][2]["hp"] += 2
    game = Manafields(options={"faction0": "humans"}, rules=rules_from_json(raw))
    state = game.new_initial_state(seed=3)
    assert state.hp[2] == RULES.rosters[0][2].hp + 2
    assert game != Manafields(options={"faction0": "humans"})
    assert Manafields().new_initial_state(seed=3).hp[2] == RULES.rosters[0][2].hp


def test_a_game_built_from_other_turn_numbers_plays_them() -> None:
    raw = published_json()
    raw["turn"]["first_turn_order_points"] += 3
    raw["turn"]["second_player_start_points"] += 1
    state = Manafields(rules=rules_from_json(raw)).new_initial_state(seed=3)
    published = Manafields().new_initial_state(seed=3)
    assert state.op == published.op + 3
    assert state.score[1] == published.score[1] + 1


@pytest.mark.parametrize(
    ("part", "key"),
    [("turn", "max_turn_limit"), ("orders", "free_move_if_no_enemy_within")],
)
def test_numbers_the_tables_and_options_are_built_on_are_refused(part: str, key: str) -> None:
    raw = published_json()
    raw[part][key] += 1
    with pytest.raises(ValueError, match="published board only"):
        Manafields(rules=rules_from_json(raw))


def test_a_card_faster_than_the_move_tables_is_refused() -> None:
    raw = published_json()
    raw["factions"]["elves"]["units"][3]["speed"] = 99
    with pytest.raises(ValueError, match="speed 99"):
        rules_from_json(raw)
