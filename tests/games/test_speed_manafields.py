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

from meeple.games.manafields import Manafields, ManafieldsState, combat, scoring
from meeple.games.manafields import notation as ids
from meeple.games.manafields.data import (
    BIT,
    COL,
    FACTIONS,
    HEIGHT,
    OBJECTIVES,
    ROW,
    RULES,
    SLOTS,
    SQUARE_OF_BIT,
    SQUARES,
    STEP,
    WIDTH,
)
from meeple.games.manafields.legal import (
    OPEN_MASK,
    band_move_ids,
    bits_to_move_ids,
    legal_orders,
    reach,
)


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


def _slow_reach(start: int, speed: int, free: int) -> set[int]:
    """The squares a Move reaches, by the cheapest path over single steps (orthogonal 1,
    diagonal 2), every square passed or reached free: the rule read literally."""
    best = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for square in frontier:
            for dc in (-1, 0, 1):
                for dr in (-1, 0, 1):
                    col, row = COL[square] + dc, ROW[square] + dr
                    if (dc, dr) == (0, 0) or not (0 <= col < WIDTH and 0 <= row < HEIGHT):
                        continue
                    other = row * WIDTH + col
                    cost = best[square] + (2 if dc and dr else 1)
                    if free >> BIT[other] & 1 and cost <= speed and cost < best.get(other, 99):
                        best[other] = cost
                        nxt.append(other)
        frontier = nxt
    return set(best) - {start}


def test_reach_bits_equals_the_cheapest_paths_on_random_boards() -> None:
    rng = random.Random(20)
    for _ in range(300):
        free = OPEN_MASK
        for square in rng.sample(range(SQUARES), rng.randrange(0, 40)):
            free &= ~(1 << BIT[square])
        start, speed = rng.randrange(SQUARES), rng.randrange(0, 8)
        dest = reach(start, speed, free)
        got = {s for b, s in enumerate(SQUARE_OF_BIT) if s >= 0 and dest >> b & 1}
        assert got == _slow_reach(start, speed, free), (start, speed, free)


def test_move_ids_from_a_bitboard_equal_one_square_at_a_time() -> None:
    rng = random.Random(21)
    cases = [set(), {0}, {SQUARES - 1}, set(range(SQUARES))]
    cases += [set(rng.sample(range(SQUARES), rng.randrange(1, 60))) for _ in range(200)]
    for squares in cases:
        slot = rng.randrange(SLOTS)
        dest = sum(1 << BIT[s] for s in squares)
        assert bits_to_move_ids(slot, dest) == tuple(
            ids.move_action(slot, s) for s in sorted(squares)
        )


def test_move_ids_on_three_bands_equal_the_whole_board_at_once() -> None:
    """The compiled build's memo misses (:func:`band_move_ids`) give what the pure build's
    (:func:`bits_to_move_ids` of :func:`reach`) give, also across the bands' edges."""
    rng = random.Random(22)
    for _ in range(600):
        free = OPEN_MASK
        for square in rng.sample(range(SQUARES), rng.randrange(0, 50)):
            free &= ~(1 << BIT[square])
        start, speed, slot = rng.randrange(SQUARES), rng.randrange(0, 9), rng.randrange(SLOTS)
        free &= ~(1 << BIT[start])  # the mover's own square, as in a position
        expected = bits_to_move_ids(slot, reach(start, speed, free))
        assert band_move_ids(slot, BIT[start], speed, free) == expected, (start, speed, free)


def test_move_cost_paid_equals_move_cost_and_controllers_equal_each_objective() -> None:
    """``apply`` works a Move's cost out inline; the scoring works every objective's
    controller out with the seats' weights taken once."""
    for faction0, faction1 in (("elves", "orcs"), ("undead", "humans"), ("orcs", "elves")):
        for state in _positions(faction0, faction1, 1)[::3]:
            assert scoring._controllers(state) == [
                scoring.controller(state, o) for o in range(OBJECTIVES)
            ]
            seat = state.active
            for action in state.legal_actions(seat):
                if not ids.MOVE <= action < ids.FIGHT:
                    continue
                slot = (action - ids.MOVE) // SQUARES
                before = state.clone()
                events = before.apply_unchecked(seat, action)
                assert events[0].kind == "move"
                assert events[0].data["cost"] == state.move_cost(slot)


def _slow_straight(state: ManafieldsState, start: int, end: int) -> int:
    """The direction of a straight move, walked square by square in each direction."""
    for direction in range(4):
        square = STEP[start][direction]
        while square >= 0 and state.occ[square] < 0 and square not in RULES.terrain:
            if square == end:
                return direction
            square = STEP[square][direction]
    return -1


def test_straight_line_of_a_charge_equals_the_walk_along_each_direction() -> None:
    for state in _positions("humans", "undead", 1)[::5]:
        for slot in range(SLOTS):
            if state.hp[slot] <= 0:
                continue
            start = state.pos[slot]
            state.lift(slot)  # as during a Move: the mover's square is empty
            for end in range(SQUARES):
                assert combat._straight(state, start, end) == _slow_straight(state, start, end)
            state.place(slot, start)
