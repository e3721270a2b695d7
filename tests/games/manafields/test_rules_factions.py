"""Each Faction's Passive Rule and Faction Ability Order, and the Heroes' abilities."""

from __future__ import annotations

from tests.games.manafields.builders import act, event, is_legal, position, slot, sq

from meeple.games.manafields.data import RULES, ZOMBIE

# Humans A-F: Lord Marshal, Priestess, Veteran Spearmen, Spearmen, Knights, Longbowmen.
# Elves: High Warden, Spellweaver, Bladedancers, Wild Riders, Waystalkers, Sentinels.
# Orcs: Warboss, Shaman, Ironjaws, Boyz, Wolf Riders, Spear Chukkas.
# Undead: Lich, Necromancer, Skeleton Legion, Death Knights, Bone Archers, Zombie.


def test_humans_troops_next_to_friends_deal_one_more_in_fights() -> None:
    """ "Passive: Human Troops that are adjacent to friendly units gain +1 Damage during
    Fight Orders." """
    alone = position({"D": "e5", "J": "e6"})
    assert event(act(alone, "fight D J"), "fight")["damage_per_die"] == 1
    together = position({"D": "e5", "C": "e4", "J": "e6"})
    assert event(act(together, "fight D J"), "fight")["damage_per_die"] == 2
    shooting = position({"F": "e2", "D": "d2", "K": "e6"})  # not in a Shoot Order
    assert event(act(shooting, "shoot F K"), "shoot")["damage_per_die"] == 1


def test_humans_ability_units_count_three_until_your_next_turn() -> None:
    """ "Faction Ability Order: Until your next turn, all friendly units count as 3 when
    determining control of objectives." """
    state = position({"A": "j3", "D": "e7", "G": "a8", "I": "e8", "J": "f8"})
    assert state.controller(1) == 1
    state.morale[0] = 5
    act(state, "faction")
    assert state.controller(1) == 0
    act(state, "end")
    assert state.score[0] == 1
    assert state.controller(1) == 0  # still, during the enemy's turn
    act(state, "end")
    assert state.score[1] == 1  # Orcs held nothing
    assert state.controller(1) == 1  # over at the start of the Humans' turn


def test_elves_get_a_free_move_after_a_fight_while_still_adjacent() -> None:
    """ "Passive: Non-Cavalry units that receive a Fight Order can immediately receive a
    Move Order for free (0 Order Points) if they are still adjacent to enemy units." """
    state = position({"C": "e5", "J": "e6"}, "elves", "orcs", seed=6)
    act(state, "fight C J")
    assert state.hp[slot("J")] > 0 and state.elf_free == slot("C")
    assert event(act(state, "move C c5"), "move")["cost"] == 0
    assert state.op == 2
    # only immediately: another order first and the move costs 2 again
    state = position({"C": "e5", "J": "e6", "A": "a3"}, "elves", "orcs", seed=6)
    act(state, "fight C J")
    act(state, "move A a4")
    assert event(act(state, "move C c5"), "move")["cost"] == 2
    # Cavalry do not get it
    state = position({"D": "e5", "J": "e6"}, "elves", "orcs", seed=6)
    act(state, "fight D J")
    assert state.elf_free == -1


def test_elves_ability_teleports_three_units_to_empty_objective_squares() -> None:
    """ "Faction Ability Order: Pick 3 units, teleport them to any empty objective
    square." """
    state = position({"A": "a3", "C": "b3", "D": "c3", "E": "e2", "J": "e8"}, "elves", "orcs")
    state.morale[0] = 5
    act(state, "faction")
    assert not is_legal(state, "move C c4")
    assert not is_legal(state, "teleport C e8")  # not empty
    act(state, "teleport C e7")
    act(state, "teleport D h6")
    assert not is_legal(state, "teleport C b6")  # each unit once
    act(state, "teleport A f7")
    assert state.picks == 0  # three picked: back to orders
    assert [state.pos[slot(x)] for x in "CDA"] == [sq("e7"), sq("h6"), sq("f7")]
    assert state.op == 3


def test_orcs_injured_troops_add_seven_dice_in_fights() -> None:
    """ "Passive: When receiving a Fight Order, injured Orc Troops add 7 to the number of
    dice they roll (to a maximum of their original HP total)." """
    state = position({"D": ("e5", 3), "J": "e6"}, "orcs", "humans")  # Boyz, 7 HP
    assert event(act(state, "fight D J"), "fight")["dice"] == 7  # min(3 + 7, 7)
    state = position({"D": "e5", "J": "e6"}, "orcs", "humans")  # not injured
    assert event(act(state, "fight D J"), "fight")["dice"] == 7
    state = position({"F": ("e2", 1), "J": "e6"}, "orcs", "humans")  # shooting: no
    assert event(act(state, "shoot F J"), "shoot")["dice"] == 1
    state = position({"A": ("e5", 2), "J": "e6"}, "orcs", "humans")  # a Hero: no
    assert event(act(state, "fight A J"), "fight")["dice"] == 2


def test_orcs_ability_first_three_fights_free() -> None:
    """ "Faction Ability Order: The first 3 Fight Orders issued this turn are free (0
    Order Points)." """
    units = {"C": "b5", "D": "e5", "E": "h5", "F": "c2", "I": "b6", "J": "e6", "K": "h6"}
    state = position({**units, "L": "c3"}, "orcs", "humans", seed=2)
    state.morale[0] = 5
    act(state, "faction")
    for text in ("fight C I", "fight D J", "fight E K"):
        act(state, text)
    assert state.op == 3
    act(state, "fight F L")
    assert state.op == 2


def test_undead_enemies_dying_near_an_undead_hero_return_as_zombies() -> None:
    """ "Passive: Whenever an enemy non-Zombie unit dies within 5 squares of an Undead Hero,
    it returns as a Zombie." """
    state = position({"D": ("e5", 1), "I": "e6", "H": "e9", "A": "a3"}, "humans", "undead", turn=3)
    for seed in range(50):
        trial = state.clone()
        trial.rng.state = seed
        events = act(trial, "fight I D")
        if trial.owner[slot("D")] == 1:
            break
    assert event(events, "zombie")["unit"] == slot("D")
    assert trial.unit[slot("D")] is RULES.zombie and trial.hp[slot("D")] == RULES.zombie.hp
    assert trial.morale[1] == 1
    far = position({"D": ("e5", 1), "I": "e6", "H": "j10", "A": "a3"}, "humans", "undead", turn=3)
    far.rng.state = trial.rng.state  # irrelevant: with no hero within 5 it stays dead
    for seed in range(50):
        other = far.clone()
        other.rng.state = seed
        act(other, "fight I D")
        if other.hp[slot("D")] == 0:
            break
    assert other.hp[slot("D")] == 0 and other.owner[slot("D")] == 0


def test_zombies_do_not_return() -> None:
    """ "... an enemy non-Zombie unit ...": a Zombie that dies stays dead."""
    state = position({"L": ("e6", 1), "D": "e5", "H": "e9", "A": "a3"}, "humans", "undead")
    for seed in range(50):
        trial = state.clone()
        trial.rng.state = seed
        act(trial, "fight D L")
        if trial.hp[slot("L")] == 0:
            break
    assert trial.hp[slot("L")] == 0 and trial.unit[slot("L")].kind == ZOMBIE


def test_undead_ability_zombies_blow_up() -> None:
    """ "Faction Ability Order: Pick 3 Zombie units, they each blow up dealing 3 Damage to
    all adjacent units (friend or foe)." """
    state = position({"F": "e6", "C": "e5", "I": "e7", "J": "d6", "G": "a3"}, "undead", "humans")
    state.morale[0] = 5
    act(state, "faction")
    events = act(state, "explode F")
    assert state.hp[slot("F")] == 0
    assert state.hp[slot("C")] == 7 - 3  # friend: Skeleton Legion, 7 HP
    assert state.hp[slot("I")] == 6 - 3 and state.hp[slot("J")] == 6 - 3  # foes
    assert event(events, "explode")["unit"] == slot("F")
    assert state.picks == 0  # no Zombie left to pick


def test_ability_heal_bolt_ward_bless_inspire_raise() -> None:
    """Decisions: the Heroic Abilities (data/rules.json)."""
    elves = position({"A": "e3", "B": "e2", "C": "e4", "J": "e7"}, "elves", "orcs")
    act(elves, "ability B J")  # Moonbolt: 2 damage, range 5
    assert elves.hp[slot("J")] == 7 - 2
    act(elves, "ability A C")  # Starlight: +1 To Hit this turn
    assert elves.blessed[slot("C")]
    orcs = position({"A": "e3", "C": "e4", "J": "e9"}, "orcs", "humans")
    act(orcs, "ability A C")  # Warcry: +1 Damage this turn
    assert orcs.inspired[slot("C")]
    undead = position({"A": "e3", "J": "e9"}, "undead", "humans")
    undead.pos[slot("I")] = 43  # a dead Human Spearmen's body on d5
    act(undead, "ability A I")  # Raise Dead
    assert undead.owner[slot("I")] == 0 and undead.hp[slot("I")] == RULES.zombie.hp
    assert undead.occ[43] == slot("I")
