"""The attack procedure, worked with seeded dice, and what modifies it.

Dice come from the state's generator: ``position(..., seed=S)`` seeds it with ``Rng(S)``,
so each example's rolls are fixed and written out in the test.
"""

from __future__ import annotations

from tests.games.manafields.builders import act, event, position, slot

from meeple.core.rng import Rng
from meeple.games.manafields.data import RULES


def test_worked_fight_spearmen_against_boyz() -> None:
    """ "1) Gather a number of dice equal to the attacking unit's remaining HP 2) Roll those
    dice "To Hit" the target. 3) Remove all results that are lower than the attacking
    unit's To Hit stat. 4) Roll the remaining dice "To Break" the enemy's armour. 5) Remove
    all results that are lower than the target unit's Armour stat. 6) Multiply the number
    of remaining dice by the attacking unit's Damage stat."

    Human Spearmen (D: 6 HP, To Hit 4, Damage 1) fight Orc Boyz (J: 7 HP, Armour 3).
    Seed 1: To Hit 6 2 1 6 4 3 -> 6 6 4 kept (3 dice); To Break 4 4 1 -> 4 4 kept (2);
    2 x 1 = 2 damage, the Boyz are left with 5 HP.
    """
    state = position({"D": "e5", "J": "e6"}, seed=1)
    fight = event(act(state, "fight D J"), "fight")
    assert fight["dice"] == 6
    assert fight["hit_rolls"] == [6, 2, 1, 6, 4, 3]
    assert fight["hits"] == 3
    assert fight["break_rolls"] == [4, 4, 1]
    assert fight["broken"] == 2
    assert fight["damage"] == 2
    assert state.hp[slot("J")] == 5


def test_worked_fight_seed_5_breaks_every_hit() -> None:
    """Seed 5: To Hit 3 5 6 6 2 5 -> 4 kept; To Break 4 4 5 6 -> all 4 beat Armour 3;
    4 damage."""
    state = position({"D": "e5", "J": "e6"}, seed=5)
    fight = event(act(state, "fight D J"), "fight")
    assert (fight["hits"], fight["break_rolls"], fight["damage"]) == (4, [4, 4, 5, 6], 4)
    assert state.hp[slot("J")] == 3


def test_dice_equal_remaining_hp() -> None:
    """ "Gather a number of dice equal to the attacking unit's remaining HP": an injured
    unit rolls fewer dice."""
    state = position({"D": ("e5", 2), "J": "e6"}, seed=3)
    fight = event(act(state, "fight D J"), "fight")
    assert fight["dice"] == 2
    assert len(fight["hit_rolls"]) == 2


def test_procedure_matches_an_independent_count() -> None:
    """Steps 2-6 recomputed from the same generator: hits are dice >= To Hit, broken are
    To Break dice >= Armour, damage is broken x Damage."""
    for seed in range(20):
        state = position({"D": "e5", "J": "e6"}, seed=seed)
        fight = event(act(state, "fight D J"), "fight")
        rng = Rng(seed)
        hits = [rng.below(6) + 1 for _ in range(6)]
        kept = [r for r in hits if r >= 4]
        breaks = [rng.below(6) + 1 for _ in range(len(kept))]
        broken = [r for r in breaks if r >= 3]
        assert fight["hit_rolls"] == hits
        assert fight["break_rolls"] == breaks
        assert fight["damage"] == len(broken) * 1


def test_shoot_uses_the_same_procedure() -> None:
    """ "When making an attack (with a Fight Order, or a Shoot Order), the procedure is as
    follows": Longbowmen (F: 4 HP) shoot with 4 dice."""
    state = position({"F": "e2", "J": "e6"}, seed=2)
    shot = event(act(state, "shoot F J"), "shoot")
    assert shot["dice"] == 4
    assert shot["damage"] == shot["broken"] * shot["damage_per_die"]


def test_kill_gives_morale_and_removes_the_unit() -> None:
    """ "Each time you destroy an enemy unit, you will receive 1 Morale (to a maximum of
    5)."""
    state = position({"D": "e5", "J": ("e6", 1)}, seed=1)
    act(state, "fight D J")
    assert state.hp[slot("J")] == 0
    assert state.occ[state.pos[slot("J")]] == -1
    assert state.morale[0] == 1
    state = position({"D": "e5", "J": ("e6", 1)}, seed=1)
    state.morale[0] = RULES.turn["morale_max"]
    act(state, "fight D J")
    assert state.morale[0] == 5
