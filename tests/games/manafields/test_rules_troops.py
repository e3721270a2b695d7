"""Troops: rock-paper-scissors, Infantry, Cavalry and Archers' passives, levels; the
objectives' buffs from Heroes."""

from __future__ import annotations

from tests.games.manafields.builders import act, event, is_legal, position, slot

from meeple.games.manafields.combat import NO_TURN

# Humans A-F: Lord Marshal, Priestess, Veteran Spearmen (Infantry, level 2), Spearmen
# (Infantry), Knights (Cavalry), Longbowmen (Archers). Orcs G-L: Warboss, Shaman, Ironjaws,
# Boyz (Infantry), Wolf Riders (Cavalry, level 2), Spear Chukkas (Archers).


def test_infantry_plus_one_against_cavalry() -> None:
    """ "Infantry: +1 Damage against Cavalry" """
    state = position({"D": "e5", "K": "e6"})
    assert event(act(state, "fight D K"), "fight")["damage_per_die"] == 2


def test_cavalry_plus_one_against_archers() -> None:
    """ "Cavalry: +1 Damage against Archers" """
    state = position({"E": "e5", "L": "e6"})
    assert event(act(state, "fight E L"), "fight")["damage_per_die"] == 2


def test_archers_plus_one_against_infantry() -> None:
    """ "Archers: +1 Damage against Infantry" """
    state = position({"F": "e2", "J": "e6"})
    assert event(act(state, "shoot F J"), "shoot")["damage_per_die"] == 2
    state = position({"F": "e2", "G": "e6"})
    assert event(act(state, "shoot F G"), "shoot")["damage_per_die"] == 1


def test_infantry_that_moved_may_fight_diagonally() -> None:
    """ "Infantry that made a Move Order this turn can select diagonal targets for Fight
    Orders." """
    state = position({"D": "e4", "J": "f6"})
    assert not is_legal(state, "fight D J")
    act(state, "move D e5")
    assert is_legal(state, "fight D J")
    cavalry = position({"E": "e4", "J": "f6"})
    act(cavalry, "move E e5")
    assert not is_legal(cavalry, "fight E J")


def test_infantry_targeted_last_turn_score_automatic_sixes() -> None:
    """ "Infantry units that were targeted by a Fight Order last turn score a number of
    automatic 6's To Hit (equal to their level) this turn." """
    state = position({"C": "e5", "D": "d6", "J": "e6"}, turn=3)  # the Orcs' turn
    state.rng.state = 11
    act(state, "fight J C")
    act(state, "end")
    fight = event(act(state, "fight C J"), "fight")  # Veteran Spearmen: level 2
    assert fight["auto_sixes"] == 2 and len(fight["hit_rolls"]) == fight["dice"] - 2
    assert fight["hits"] >= 2
    other = event(act(state, "fight D J"), "fight")  # not targeted
    assert other["auto_sixes"] == 0


def test_cavalry_impact_after_a_straight_move() -> None:
    """ "Cavalry units that start a move without adjacent enemies, and finish that move in a
    straight line, deal Damage to an enemy in the direction of travel." """
    state = position({"E": "e1", "J": "e5"})
    events = act(state, "move E e4")
    assert event(events, "impact") == {
        "unit": slot("E"),
        "target": slot("J"),
        "damage": 1,
        "pinned": False,
    }
    assert state.hp[slot("J")] == 6
    bent = position({"E": "d1", "J": "e5"})  # d1 -> e4 is not a straight line
    assert not [e for e in act(bent, "move E e4") if e.kind == "impact"]
    adjacent = position({"E": "e4", "J": "e5", "I": "f4"})  # starts next to an enemy
    assert not [e for e in act(adjacent, "move E e3") if e.kind == "impact"]


def test_cavalry_impact_more_with_a_unit_behind() -> None:
    """ "If the impacted unit has a non-empty square behind, this unit deals additional
    Damage (equal to their level)." Orc Wolf Riders (level 2) hit Human Archers (+1)."""
    state = position({"K": "e10", "F": "e6", "D": "e5"}, turn=3)
    data = event(act(state, "move K e7"), "impact")
    assert data["pinned"] and data["damage"] == 1 + 1 + 2


def test_archers_shoot_for_one_op_before_moving() -> None:
    """ "Archers that did not move earlier in the turn can carry out a Shoot Order for 1 OP
    instead of 2." """
    state = position({"F": "e2", "J": "e6"})
    act(state, "shoot F J")
    assert state.op == 2


def test_archers_resting_two_turns_score_automatic_sixes() -> None:
    """ "Archers that did not receive any orders on this turn and their previous turn gain a
    number of automatic 6's To Hit (equal to their level) this turn." """
    state = position({"F": "e2", "J": "e6"})
    state.last_order[slot("F")] = NO_TURN
    assert event(act(state, "shoot F J"), "shoot")["auto_sixes"] == 1
    state = position({"F": "e2", "J": "e6"}, turn=4)
    state.last_order[slot("F")] = 2  # ordered in its previous turn
    assert event(act(state, "shoot F J"), "shoot")["auto_sixes"] == 0
    state = position({"F": "e1", "J": "e6"}, turn=4)
    act(state, "move F e2")  # an order earlier this turn
    assert event(act(state, "shoot F J"), "shoot")["auto_sixes"] == 0


def test_heroes_on_objectives_give_plus_one_to_hit() -> None:
    """ "All friendly units on that objective gain +1 to their rolls To Hit" """
    state = position({"B": "f7", "D": "e7", "J": "e6"})
    assert event(act(state, "fight D J"), "fight")["to_hit_bonus"] == 1
    state = position({"B": "g7", "D": "e7", "J": "e6"})
    assert event(act(state, "fight D J"), "fight")["to_hit_bonus"] == 0


def test_heroes_on_objectives_heal_at_the_start_of_each_turn() -> None:
    """ "All friendly units on that objective heal 1 HP at the start of each turn" (at the
    start of each of their own turns: a decision)."""
    state = position({"B": ("f7", 3), "D": ("e7", 2), "C": ("d7", 2), "J": "a8"}, turn=1)
    events = act(state, "end")
    assert event(events, "turn")["healed"] == [slot("B"), slot("D")]
    assert (state.hp[slot("B")], state.hp[slot("D")], state.hp[slot("C")]) == (4, 3, 2)
