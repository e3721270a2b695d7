"""Manafields' fast paths give what the rules' own methods give.

:func:`~meeple.games.manafields.legal.legal_orders` inlines costs and targets for speed;
here it is checked against the orders listed one at a time through the state's methods
(``move_cost``, ``fight_targets``, ``shoot_targets``, ``ability_targets`` ...) on positions
of random matches of every faction pairing. ``clone`` writes every slot out by name; it is
checked to copy each of them, sharing no list with the original.
"""

from __future__ import annotations

import random

import pytest

from meeple.games.manafields import Manafields, ManafieldsState
from meeple.games.manafields import notation as ids
from meeple.games.manafields.data import FACTIONS, SLOTS, SQUARE_OF_BIT
from meeple.games.manafields.legal import legal_orders, reach


def _one_at_a_time(state: ManafieldsState, seat: int) -> list[int]:
    """The legal orders from the rules' methods, unit by unit, sorted."""
    out = [ids.END]
    if state.faction_ready(seat):
        out.append(ids.FACTION)
    free = 0
    for square, bit in ((s, b) for b, s in enumerate(SQUARE_OF_BIT) if s >= 0):
        if state.occ[square] < 0 and square not in state.game.rules.terrain:
            free |= 1 << bit
    for slot in state.living(seat):
        card = state.unit[slot]
        if state.move_cost(slot) <= state.op:
            dest = reach(state.pos[slot], card.speed, free)
            out += [ids.move_action(slot, s) for b, s in enumerate(SQUARE_OF_BIT) if dest >> b & 1]
        if not state.fought[slot] and state.fight_cost() <= state.op:
            out += [ids.FIGHT + slot * SLOTS + t for t in state.fight_targets(slot)]
        if card.range and not state.shot[slot] and state.shoot_cost(slot) <= state.op:
            out += [ids.SHOOT + slot * SLOTS + t for t in state.shoot_targets(slot)]
        if (
            card.ability is not None
            and not state.used_ability[slot]
            and state.ability_cost(slot) <= state.op
        ):
            out += [ids.ABILITY + slot * SLOTS + t for t in state.ability_targets(slot)]
    return sorted(out)


def _positions(faction0: str, faction1: str, matches: int) -> list[ManafieldsState]:
    game = Manafields(options={"faction0": faction0, "faction1": faction1})
    rng = random.Random(f"{faction0}-{faction1}")
    out = []
    for _ in range(matches):
        state = game.new_initial_state(rng.getrandbits(32))
        while not state.is_terminal():
            seat = state.active
            if not state.picks:
                out.append(state.clone())
            state.apply_unchecked(seat, rng.choice(state.legal_actions(seat)))
    return out


@pytest.mark.parametrize("faction0", FACTIONS)
def test_legal_orders_equal_the_rules_one_order_at_a_time(faction0: str) -> None:
    for faction1 in FACTIONS:
        for state in _positions(faction0, faction1, 2):
            fast = legal_orders(state, state.active)
            assert fast == _one_at_a_time(state, state.active), state.to_json()
            assert fast == sorted(set(fast))


def test_clone_copies_every_slot_and_shares_no_list() -> None:
    states = _positions("elves", "undead", 1)
    for state in states[:: max(1, len(states) // 20)]:
        copy = state.clone()
        assert copy == state
        for name in ManafieldsState.__slots__:
            mine, theirs = getattr(state, name), getattr(copy, name)
            if name == "rng":
                assert mine is not theirs and mine.state == theirs.state
            elif isinstance(mine, list):
                assert mine == theirs and mine is not theirs, name
            else:
                assert mine == theirs, name
