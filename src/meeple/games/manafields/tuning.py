"""What a balance search may change on Manafields' unit cards (``meeple tune manafields``).

The published cards are ``data/rules.json`` (the rule text gives no stat lines; see
docs/rules/manafields.md, Decisions). A search moves one number at a time within bounds
around the published one: a unit's Speed, HP, To Hit, Armour, an archer's Range, and a
healing or bolt ability's amount and range. The Undead's own Zombie is left alone: it shares
the risen Zombie's card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from meeple.core.game import Game
from meeple.games.manafields.data import published_json, rules_from_json
from meeple.games.manafields.rules import ManafieldsRulebook


def published() -> dict[str, Any]:
    """The published cards: the whole ``data/rules.json``, which a search changes."""
    return published_json()


def builder(data: dict[str, Any]) -> Callable[[Game], Game]:
    """What plays a candidate: the function from a configured Manafields game to the same game
    (class, so rules version, seats and options) with the cards of ``data``, a whole rules
    file. The file is read once here; no copy of the package is needed.

    Raises:
        ValueError: when ``data`` is not a rules file whose cards fit the board.
    """
    rules = rules_from_json(data)

    def build(game: Game) -> Game:
        if not isinstance(game, ManafieldsRulebook):
            raise ValueError(f"these are Manafields' cards, not cards of {game.info.id}")
        return type(game)(game.seats, game.options, rules=rules)

    return build


TUNED_EFFECTS = ("heal", "bolt")
"""The abilities whose amount and range a search may change."""


@dataclass(frozen=True, slots=True)
class CardNumber:
    """One number on one unit's card, and the bounds a search keeps it in.

    ``side`` is the faction (a choice of the ``faction0``/``faction1`` options), ``unit`` the
    unit's place in the faction's list, ``field`` the card's key (``ability.amount`` for the
    ability's). ``stronger`` is +1 when a higher value makes the unit stronger, -1 when a
    lower one does (To Hit: a lower roll hits more often)."""

    side: str
    unit: int
    field: str
    low: int
    high: int
    stronger: int = 1

    def _card(self, cards: dict[str, Any]) -> dict[str, Any]:
        unit: dict[str, Any] = cards["factions"][self.side]["units"][self.unit]
        return unit["ability"] if self.field.startswith("ability.") else unit

    def _key(self) -> str:
        return self.field.removeprefix("ability.")

    def get(self, cards: dict[str, Any]) -> int:
        """The number on these cards."""
        return int(self._card(cards)[self._key()])

    def put(self, cards: dict[str, Any], value: int) -> None:
        """Write ``value`` on these cards."""
        self._card(cards)[self._key()] = value

    def label(self, cards: dict[str, Any]) -> str:
        """``faction/Unit name.field=value``, for logs."""
        name = cards["factions"][self.side]["units"][self.unit]["name"]
        return f"{self.side}/{name}.{self.field}={self.get(cards)}"


def card_numbers(published: dict[str, Any]) -> list[CardNumber]:
    """Every number a search may change, with bounds around the published cards."""
    found: list[CardNumber] = []
    for side, faction in published["factions"].items():
        for index, unit in enumerate(faction["units"]):
            if unit["kind"] == "zombie":
                continue  # the Undead's Zombie shares the risen Zombie's card
            speed, hp, to_hit, armour = unit["speed"], unit["hp"], unit["to_hit"], unit["armour"]
            found += [
                CardNumber(side, index, "speed", max(2, speed - 1), speed + 1),
                CardNumber(side, index, "hp", hp - 2, hp + 2),
                CardNumber(side, index, "to_hit", max(3, to_hit - 1), min(5, to_hit + 1), -1),
                CardNumber(side, index, "armour", max(2, armour - 1), min(5, armour + 1)),
            ]
            if unit["kind"] == "archers":
                reach = unit["range"]
                found.append(CardNumber(side, index, "range", reach - 1, reach + 1))
            ability = unit.get("ability")
            if ability and ability["effect"] in TUNED_EFFECTS:
                amount, reach = ability["amount"], ability["range"]
                found.append(
                    CardNumber(side, index, "ability.amount", max(1, amount - 1), amount + 1)
                )
                found.append(CardNumber(side, index, "ability.range", reach - 1, reach + 1))
    return found
