"""What ``meeple tune manafields`` may change on the unit cards, and within which bounds."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

from meeple.games.manafields.tuning import DATA, card_numbers


def published() -> dict[str, Any]:
    text = resources.files("meeple.games.manafields").joinpath(DATA).read_text("utf-8")
    cards: dict[str, Any] = json.loads(text)
    return cards


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
