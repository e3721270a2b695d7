"""What combat, the legal orders and scoring read and change of a Manafields position.

The rules' :class:`~meeple.games.manafields.rules.ManafieldsState` is one: it derives from
:class:`Position`, which declares its fields and the methods those modules call. The rules
call into :mod:`.combat`, :mod:`.legal` and :mod:`.scoring`; declaring here what those
modules need of a position keeps them from importing the rules that import them.

A class rather than a protocol, so that the compiled build reads a position's fields
directly wherever those modules take one: through a protocol each read was a look-up by
name (this class took a tenth off a compiled playout's instructions). It holds no data of
its own and is never made by itself.
"""

from __future__ import annotations

from meeple.core.compiled import abc_bookkeeping
from meeple.core.game import State
from meeple.core.rng import Rng
from meeple.games.manafields.data import RuleData, UnitType


class Position(State):
    """A Manafields position as the rules' helpers see it (see the module docstring); the
    methods are the rules' (:class:`~meeple.games.manafields.rules.ManafieldsState`)."""

    __slots__ = ()

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

    def rules(self) -> RuleData:
        """The cards and numbers in play: the game's ``rules``."""
        raise NotImplementedError

    def faction_of(self, slot: int) -> int:
        raise NotImplementedError

    def reset_unit_flags(self, slot: int) -> None:
        raise NotImplementedError

    def living(self, seat: int) -> list[int]:
        raise NotImplementedError

    def fight_cost(self) -> int:
        raise NotImplementedError

    def shoot_cost(self, slot: int) -> int:
        raise NotImplementedError

    def ability_cost(self, slot: int) -> int:
        raise NotImplementedError

    def general_alive(self, seat: int) -> bool:
        raise NotImplementedError

    def general_in_zone(self, seat: int) -> bool:
        raise NotImplementedError

    def fight_targets(self, slot: int) -> list[int]:
        raise NotImplementedError

    def shoot_targets(self, slot: int) -> list[int]:
        raise NotImplementedError

    def ability_targets(self, slot: int) -> list[int]:
        raise NotImplementedError

    def faction_ready(self, seat: int) -> bool:
        raise NotImplementedError


abc_bookkeeping(Position)  # the compiled class lacks its own (meeple.core.compiled)
