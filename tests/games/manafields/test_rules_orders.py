"""Orders and their costs: Move, Fight, Shoot, Heroic Ability, Faction Ability; distances.

Humans (seat 0): A Lord Marshal (General), B Priestess (Hero), C Veteran Spearmen and
D Spearmen (Infantry), E Knights (Cavalry, Speed 5), F Longbowmen (Archers, Range 5).
Orcs (seat 1): G Warboss, H Shaman, I Ironjaws and J Boyz (Infantry), K Wolf Riders,
L Spear Chukkas (Archers).
"""

from __future__ import annotations

import pytest
from tests.games.manafields.builders import act, event, is_legal, legal_texts, position, slot

from meeple.core.errors import IllegalAction
from meeple.games.manafields.rules import ManafieldsState


def moves_of(state: ManafieldsState, letter: str) -> set[str]:
    prefix = f"move {letter} "
    return {t[len(prefix) :] for t in legal_texts(state) if t.startswith(prefix)}


def test_move_costs_one_order_point() -> None:
    """ "Move Order (Cost: 1 OP *)": a unit within 4 of an enemy pays 1."""
    state = position({"D": "e4", "J": "e8"})
    event_ = event(act(state, "move D e5"), "move")
    assert event_["cost"] == 1 and state.op == 2


def test_free_move_far_from_enemies_without_orders() -> None:
    """ "Units that are not within 4 of enemies and have not received any orders this turn
    can receive a Move Order for 0 OP" """
    state = position({"D": "e3", "J": "e8"})  # 5 away
    assert event(act(state, "move D e4"), "move")["cost"] == 0
    assert state.op == 3
    # now 4 away, and it has received an order: the next move costs 1
    assert event(act(state, "move D f4"), "move")["cost"] == 1


def test_no_free_move_after_another_order() -> None:
    """ "... and have not received any orders this turn": an order other than a Move also
    ends the free move (the Priestess heals, then moves for 1)."""
    state = position({"B": ("e3", 1), "J": "e9"})
    act(state, "ability B B")
    assert event(act(state, "move B e4"), "move")["cost"] == 1


def test_move_up_to_speed_with_diagonals_counting_two() -> None:
    """ "Move a unit a number of squares equal to their Speed" and "for both movement and
    the ranges of weapons and abilities, diagonal squares count as 2 instead of 1." """
    state = position({"D": "e1", "J": "e9"})  # Speed 3
    reached = moves_of(state, "D")
    assert {"e4", "h1", "b1", "f3", "d3", "g2"} <= reached
    assert "e5" not in reached and "g3" not in reached  # 4 steps
    assert len(reached) == 15  # |dx| + |dy| <= 3 on the board, minus the start


def test_no_moving_through_terrain_or_units() -> None:
    """ "Units cannot move through terrain, or other units" """
    # d5 is terrain. A unit on d4 with Speed 3 cannot go straight north past it.
    state = position({"D": "d4", "C": "c4", "J": "j9"})
    reached = moves_of(state, "D")
    assert "d5" not in reached  # terrain
    assert "c4" not in reached  # a friend stands there
    assert "b3" in reached  # d4-c3 diagonally (2), then b3 (1)
    assert "b4" not in reached  # 4 around c4
    state = position({"D": "a1", "C": "a2", "E": "b1", "J": "j9"})
    # boxed in: only a diagonal step out (2 of its 3 Speed), then one more step
    assert moves_of(state, "D") == {"b2", "c2", "b3"}


def test_move_from_adjacent_costs_two() -> None:
    """ "If the unit begins its Move adjacent to an enemy, this Order costs 2 instead of
    1" """
    state = position({"D": "e5", "J": "e6"})
    assert event(act(state, "move D e3"), "move")["cost"] == 2
    assert state.op == 1


def test_fight_costs_one_against_adjacent() -> None:
    """ "Fight Order (Cost: 1 OP) - Fight in melee with a unit, against an adjacent
    target" and "'adjacent' always means cardinally (North, South, East, West) unless
    diagonals are also specified." """
    state = position({"D": "e5", "J": "e6", "I": "f6"})
    assert is_legal(state, "fight D J")
    assert not is_legal(state, "fight D I")  # diagonal
    act(state, "fight D J")
    assert state.op == 2


def test_fight_once_per_turn() -> None:
    """ "Each unit can only receive a Fight Order once per turn" """
    state = position({"D": "e5", "J": "e6", "I": "f5"})
    act(state, "fight D J")
    assert not is_legal(state, "fight D I")
    with pytest.raises(IllegalAction, match="already fought"):
        act(state, "fight D I")


def test_shoot_costs_two_within_range() -> None:
    """ "Shoot Order (Cost: 2 OP) - Shoot with a unit, against a target within their
    shooting Range": Longbowmen (Range 5) that moved pay 2; 6 away is out of range."""
    state = position({"F": "e1", "J": "e7", "I": "a4"})
    act(state, "move F e2")
    assert not is_legal(state, "shoot F I")  # a4 is 4 + 2 = 6 away
    assert is_legal(state, "shoot F J")
    op = state.op
    act(state, "shoot F J")
    assert state.op == op - 2


def test_shoot_once_per_turn() -> None:
    """ "Each unit can only receive a Shoot Order once per turn" """
    state = position({"F": "e2", "J": "e7", "I": "d6"})
    act(state, "shoot F J")
    assert not is_legal(state, "shoot F I")


def test_no_shooting_while_adjacent_to_an_enemy() -> None:
    """ "The shooting unit may not be adjacent to any enemy units" """
    state = position({"F": "e2", "J": "e6", "I": "e3"})
    assert not is_legal(state, "shoot F J")


def test_heroes_next_to_their_troops_cannot_be_shot() -> None:
    """ "Enemy Heroes cannot be targeted if they are adjacent to enemy Troops" """
    state = position({"F": "e2", "H": "e6", "J": "e7"})
    assert not is_legal(state, "shoot F H")
    state = position({"F": "e2", "H": "e6", "J": "f7"})  # diagonal: not adjacent
    assert is_legal(state, "shoot F H")


def test_heroic_ability_costs_one_for_a_hero() -> None:
    """ "Heroic Ability Order (Cost: 1 OP / 0 OP) - Carry out a Hero's unique Heroic
    Ability": the Priestess mends 3 HP for 1 OP."""
    state = position({"B": "e3", "D": ("e4", 2), "J": "e9"})
    act(state, "ability B D")
    assert state.hp[slot("D")] == 5 and state.op == 2


def test_general_ability_is_free() -> None:
    """ "Your General can use their Heroic Ability for free (0 Order Points) each turn" """
    state = position({"A": "e3", "D": "e4", "J": "e9"})
    act(state, "ability A D")  # Shield Wall: +1 Armour until your next turn
    assert state.op == 3 and state.warded[slot("D")]


def test_ability_once_per_hero_per_turn() -> None:
    """ "Each Hero can use their Ability no more than once per turn" """
    state = position({"B": "e3", "D": ("e4", 1), "C": ("d3", 1), "J": "e9"})
    act(state, "ability B D")
    assert not is_legal(state, "ability B C")
    act(state, "end")
    act(state, "end")
    assert is_legal(state, "ability B C")


def test_ability_range_counts_diagonals_as_two() -> None:
    """Ranges of abilities: the Priestess (range 3) reaches e6 from e3, not c5 (2 + 2)."""
    state = position({"B": "e3", "D": ("e6", 1), "C": ("c5", 1), "J": "a9"})
    assert is_legal(state, "ability B D")
    assert not is_legal(state, "ability B C")


def test_faction_ability_costs_five_morale_and_no_op() -> None:
    """ "Faction Ability Order (Cost: 0 OP, 5 Morale)" """
    state = position({"A": "e3", "J": "e9"})
    assert not is_legal(state, "faction")
    state.morale[0] = 5
    act(state, "faction")
    assert state.morale[0] == 0 and state.op == 3


def test_end_turn_is_always_legal() -> None:
    """Decision: a turn ends when its seat says ``end`` (also with OP left)."""
    state = position({"A": "e3", "J": "e9"})
    assert is_legal(state, "end")
    act(state, "end")
    assert state.active == 1
