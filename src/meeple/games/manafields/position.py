"""What combat, the legal orders and scoring read and change of a Manafields position.

The rules' :class:`~meeple.games.manafields.rules.ManafieldsState` is one. The rules call
into :mod:`.combat`, :mod:`.legal` and :mod:`.scoring`; declaring here what those modules need
of a position keeps them from importing the rules that import them.
"""

from __future__ import annotations

from typing import Protocol

from meeple.core.outcome import Outcome
from meeple.core.rng import Rng
from meeple.games.manafields.data import RuleData, UnitType


class RuleHolder(Protocol):
    """What holds the numbers a position is played with: its game."""

    @property
    def rules(self) -> RuleData: ...


class Position(Protocol):
    """A Manafields position as the rules' helpers see it (see the module docstring)."""

    @property
    def game(self) -> RuleHolder:
        """The game the position is played in; its ``rules`` are the cards in play."""
        ...

    # The armies: one slot per unit, and the squares.
    unit: list[UnitType]
    owner: list[int]
    hp: list[int]
    pos: list[int]
    occ: list[int]
    occupied: int
    general: tuple[int, int]
    factions: tuple[int, int]
    # What each unit did this turn, and the effects on it.
    ordered: list[bool]
    moved: list[bool]
    fought: list[bool]
    shot: list[bool]
    used_ability: list[bool]
    blessed: list[bool]
    inspired: list[bool]
    warded: list[bool]
    last_order: list[int]
    targeted: list[int]
    # The turn and the seats.
    turn: int
    turn_limit: int
    active: int
    op: int
    morale: list[int]
    score: list[int]
    owed: list[int]
    rally: list[bool]
    frenzy: bool
    fights_issued: int
    picks: int
    picked: list[int]
    elf_free: int
    winner: int
    reason: str
    rng: Rng

    def faction_of(self, slot: int) -> int: ...

    def reset_unit_flags(self, slot: int) -> None: ...

    def living(self, seat: int) -> list[int]: ...

    def fight_cost(self) -> int: ...

    def shoot_cost(self, slot: int) -> int: ...

    def ability_cost(self, slot: int) -> int: ...

    def general_alive(self, seat: int) -> bool: ...

    def general_in_zone(self, seat: int) -> bool: ...

    def fight_targets(self, slot: int) -> list[int]: ...

    def shoot_targets(self, slot: int) -> list[int]: ...

    def ability_targets(self, slot: int) -> list[int]: ...

    def faction_ready(self, seat: int) -> bool: ...

    def outcome(self) -> Outcome | None: ...
