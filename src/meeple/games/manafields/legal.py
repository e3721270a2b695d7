"""The legal orders of a position, built fast: the inner loop of every playout and search.

Who is an enemy, who stands next to one and who is within 4 of one are read from padded
bitboards (see :mod:`meeple.games.manafields.data`) built once per call, instead of scanning
every unit for every unit. The squares a Move reaches come as a bitboard
(:func:`meeple.core.squaregrid.reach_bits`), turned into action ids; both depend only on
the free squares within the unit's Speed, so they are remembered by those. The result is
the ids in ascending order, exactly as the rules list them one order at a time.
"""

from __future__ import annotations

from collections.abc import Iterable

from meeple.core.squaregrid import reach_bits
from meeple.games.manafields import notation as ids
from meeple.games.manafields.data import (
    BIT,
    BOARD_MASK,
    DIAG,
    DIST,
    INFANTRY,
    MAX_SPEED,
    ORTH,
    RULES,
    SLOTS,
    SQUARE_OF_BIT,
    SQUARES,
    STRIDE,
    TERRAIN_MASK,
)
from meeple.games.manafields.position import Position

OPEN_MASK = BOARD_MASK & ~TERRAIN_MASK
FREE_MOVE_DISTANCE = RULES.orders["free_move_if_no_enemy_within"]
"""A Move is free with no enemy within this distance (fixed: :data:`NEAR_BITS` is built on it;
:meth:`~meeple.games.manafields.data.RuleData.same_board` keeps it)."""


def _bits(squares: Iterable[int]) -> int:
    return sum(1 << BIT[s] for s in squares)


ORTH_BITS = tuple(_bits(ORTH[s]) for s in range(SQUARES))
"""ORTH_BITS[square]: the bitboard of its (cardinally) adjacent squares."""
DIAG_BITS = tuple(_bits(DIAG[s]) for s in range(SQUARES))
NEAR_BITS = tuple(
    _bits(t for t in range(SQUARES) if DIST[s][t] <= FREE_MOVE_DISTANCE) for s in range(SQUARES)
)
"""NEAR_BITS[square]: the squares within 4 of it (a free Move needs no enemy there)."""

WINDOW_BITS = tuple(
    tuple(_bits(t for t in range(SQUARES) if DIST[s][t] <= speed) for s in range(SQUARES))
    for speed in range(MAX_SPEED + 1)
)
"""WINDOW_BITS[speed][square]: the squares a Move of ``speed`` from ``square`` can touch."""

_CHUNK = 8
_CHUNK_MASK = (1 << _CHUNK) - 1
_CACHE_LIMIT = 1 << 17
_moves: dict[int, tuple[int, ...]] = {}
"""Move ids by (free squares in reach, unit slot, square, speed), packed into one int."""
_chunk_ids: list[list[tuple[int, ...] | None]] = [
    [None] * (((len(SQUARE_OF_BIT) + _CHUNK - 1) // _CHUNK) << _CHUNK) for _ in range(SLOTS)
]
"""_chunk_ids[slot][chunk << 8 | byte]: the Move ids to the squares of that byte's bits."""
_KEY_SHIFT = (SLOTS * SQUARES * (MAX_SPEED + 1)).bit_length()


def reach(start: int, speed: int, free: int) -> int:
    """The bitboard of squares a unit on ``start`` can move to with ``speed`` through
    ``free`` squares (no terrain, no unit); see :func:`meeple.core.squaregrid.reach_bits`."""
    return reach_bits(BIT[start], speed, free, STRIDE) & ~(1 << BIT[start])


def move_ids(slot: int, start: int, speed: int, free: int) -> tuple[int, ...]:
    """The ids of moving the unit in ``slot`` from ``start`` to every square it reaches,
    ascending. They depend only on the free squares within ``speed`` of the start, so they
    are remembered by those (the memo is emptied when it grows large)."""
    local = free & WINDOW_BITS[speed][start]
    key = local << _KEY_SHIFT | (slot * SQUARES + start) * (MAX_SPEED + 1) + speed
    found = _moves.get(key)
    if found is None:
        if len(_moves) >= _CACHE_LIMIT:
            _moves.clear()
        found = _moves[key] = _ids_of(slot, reach(start, speed, local))
    return found


def _ids_of(slot: int, dest: int) -> tuple[int, ...]:
    """The Move ids of ``slot`` to the squares of ``dest``, a byte of bits at a time."""
    table = _chunk_ids[slot]
    out: list[int] = []
    key = 0
    while dest:
        byte = dest & _CHUNK_MASK
        if byte:
            found = table[key | byte]
            if found is None:
                found = table[key | byte] = _chunk(slot, key | byte)
            out += found
        dest >>= _CHUNK
        key += 1 << _CHUNK
    return tuple(out)


def _chunk(slot: int, key: int) -> tuple[int, ...]:
    first = (key >> _CHUNK) * _CHUNK
    byte = key & _CHUNK_MASK
    return tuple(
        ids.move_action(slot, SQUARE_OF_BIT[first + b]) for b in range(_CHUNK) if byte >> b & 1
    )


def legal_orders(state: Position, seat: int) -> list[int]:
    """Every legal action of the active ``seat`` outside a Faction Ability's picks."""
    out = [ids.END]
    if state.faction_ready(seat):
        out.append(ids.FACTION)
    hp, owner, pos, unit = state.hp, state.owner, state.pos, state.unit
    mine = []
    enemies = near = 0
    for slot in range(SLOTS):
        if hp[slot] > 0:
            if owner[slot] == seat:
                mine.append(slot)
            else:
                enemies |= 1 << BIT[pos[slot]]
                near |= NEAR_BITS[pos[slot]]
    op = state.op
    free = OPEN_MASK & ~state.occupied
    ordered, elf_free = state.ordered, state.elf_free
    orders = state.game.rules.orders
    move_cost, adjacent_cost = orders["move"], orders["move_from_adjacent"]
    for slot in mine:
        square = pos[slot]
        if slot == elf_free:
            cost = 0
        elif ORTH_BITS[square] & enemies:
            cost = adjacent_cost
        elif not ordered[slot] and not near >> BIT[square] & 1:
            cost = 0
        else:
            cost = move_cost
        if cost <= op:
            out += move_ids(slot, square, unit[slot].speed, free)
    if state.fight_cost() <= op:
        fought, moved = state.fought, state.moved
        for slot in mine:
            square = pos[slot]
            if not fought[slot] and (
                ORTH_BITS[square] & enemies
                or (DIAG_BITS[square] & enemies and unit[slot].kind == INFANTRY and moved[slot])
            ):
                base = ids.FIGHT + slot * SLOTS
                out += [base + target for target in state.fight_targets(slot)]
    shot = state.shot
    for slot in mine:
        if unit[slot].range and not shot[slot] and state.shoot_cost(slot) <= op:
            base = ids.SHOOT + slot * SLOTS
            out += [base + target for target in state.shoot_targets(slot)]
    used = state.used_ability
    for slot in mine:
        if unit[slot].ability is not None and not used[slot] and state.ability_cost(slot) <= op:
            base = ids.ABILITY + slot * SLOTS
            out += [base + target for target in state.ability_targets(slot)]
    return out


__all__ = ["FREE_MOVE_DISTANCE", "NEAR_BITS", "ORTH_BITS", "legal_orders", "move_ids", "reach"]
