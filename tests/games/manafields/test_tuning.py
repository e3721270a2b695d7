"""What ``meeple tune manafields`` may change on the unit cards, and within which bounds."""

from __future__ import annotations

import copy

import pytest

from meeple.core import load_game
from meeple.games.manafields.data import RULES
from meeple.games.manafields.tuning import builder, card_numbers, published


def test_every_number_starts_within_its_bounds() -> None:
    cards = published()
    numbers = card_numbers(cards)
    assert numbers
    for number in numbers:
        assert number.low <= number.get(cards) <= number.high
        assert number.side in cards["factions"]


def test_the_undead_zombie_is_left_alone_and_only_heal_and_bolt_abilities_move() -> None:
    cards = published()
    for number in card_numbers(cards):
        unit = cards["factions"][number.side]["units"][number.unit]
        assert unit["kind"] != "zombie"
        if number.field.startswith("ability."):
            assert unit["ability"]["effect"] in ("heal", "bolt")


def test_a_lower_to_hit_is_the_stronger_one() -> None:
    for number in card_numbers(published()):
        assert number.stronger == (-1 if number.field == "to_hit" else 1)


def test_put_writes_one_number_and_get_reads_it_back() -> None:
    cards = published()
    changed = copy.deepcopy(cards)
    numbers = card_numbers(cards)
    ability = next(n for n in numbers if n.field == "ability.amount")
    for number in [*numbers[:3], ability]:
        number.put(changed, number.high)
        assert number.get(changed) == number.high
        assert number.label(changed).endswith(f".{number.field}={number.high}")
    assert cards == published()
    assert sum(n.get(changed) != n.get(cards) for n in numbers) <= 4


def test_a_candidates_games_are_built_in_process_with_its_cards() -> None:
    cards = published()
    hp = next(n for n in card_numbers(cards) if n.field == "hp" and n.side == "orcs")
    hp.put(cards, hp.high)
    game = builder(cards)(load_game("manafields", options={"faction1": "orcs"}))
    assert game.rules.rosters[2][hp.unit].hp == hp.high  # type: ignore[attr-defined]
    assert game.options == load_game("manafields", options={"faction1": "orcs"}).options
    assert RULES.rosters[2][hp.unit].hp == hp.get(published())  # the published cards stay


def test_a_candidate_for_another_game_is_refused() -> None:
    with pytest.raises(ValueError, match="not cards of"):
        builder(published())(load_game("maatatahay"))
