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
    ARCHERS,
    BIT,
    BLESS,
    BOARD_MASK,
    DIAG,
    DIST,
    FRIENDLY_EFFECTS,
    GENERAL,
    HEAL,
    HEIGHT,
    HERO,
    INFANTRY,
    MAX_SPEED,
    ORTH,
    RAISE,
    RULES,
    SLOTS,
    SQUARES,
    STRIDE,
    TERRAIN_MASK,
    WARD,
    WIDTH,
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

_ROW_MASK = (1 << WIDTH) - 1
_CACHE_LIMIT = 1 << 17
_moves: dict[int, tuple[int, ...]] = {}
"""Move ids by (free squares in reach, unit slot, square, speed), packed into one int."""
_row_ids: list[list[tuple[int, ...] | None]] = [[None] * (HEIGHT << WIDTH) for _ in range(SLOTS)]
"""_row_ids[slot][row << WIDTH | bits]: the Move ids to that row's squares of ``bits``."""
_KEY_SHIFT = (SLOTS * SQUARES * (MAX_SPEED + 1)).bit_length()
_SPEED_KEYS = MAX_SPEED + 1
_SLOT_RANGE = range(SLOTS)
BIT_MASK = tuple(1 << BIT[s] for s in range(SQUARES))
"""BIT_MASK[square]: the bitboard of that square alone."""


def reach(start: int, speed: int, free: int) -> int:
    """The bitboard of squares a unit on ``start`` can move to with ``speed`` through
    ``free`` squares (no terrain, no unit); see :func:`meeple.core.squaregrid.reach_bits`."""
    return reach_bits(BIT[start], speed, free, STRIDE) & ~(1 << BIT[start])


def move_ids(slot: int, start: int, speed: int, free: int) -> tuple[int, ...]:
    """The ids of moving the unit in ``slot`` from ``start`` to every square it reaches,
    ascending. They depend only on the free squares within ``speed`` of the start, so they
    are remembered by those (the memo is emptied when it grows large)."""
    local = free & WINDOW_BITS[speed][start]
    key = local << _KEY_SHIFT | (slot * SQUARES + start) * _SPEED_KEYS + speed
    found = _moves.get(key)
    if found is None:
        found = _remember(key, slot, start, speed, local)
    return found


def _remember(key: int, slot: int, start: int, speed: int, local: int) -> tuple[int, ...]:
    """A memo miss of :func:`move_ids`: the squares reached, turned into ids and kept."""
    if len(_moves) >= _CACHE_LIMIT:
        _moves.clear()
    origin = BIT[start]
    dest = reach_bits(origin, speed, local, STRIDE) & ~(1 << origin)
    # The ids a row at a time (a row's squares are WIDTH consecutive bits of the padded
    # bitboard), from the first row that holds one.
    table = _row_ids[slot]
    out: list[int] = []
    row = ((dest & -dest).bit_length() - 1) // STRIDE if dest else HEIGHT
    dest >>= row * STRIDE
    row <<= WIDTH
    while dest:
        bits = dest & _ROW_MASK
        if bits:
            found = table[row | bits]
            if found is None:
                found = table[row | bits] = _row(slot, row | bits)
            out += found
        dest >>= STRIDE
        row += 1 << WIDTH
    found = _moves[key] = tuple(out)
    return found


def _row(slot: int, key: int) -> tuple[int, ...]:
    first = (key >> WIDTH) * WIDTH
    bits = key & _ROW_MASK
    return tuple(ids.move_action(slot, first + c) for c in range(WIDTH) if bits >> c & 1)


def legal_orders(state: Position, seat: int) -> list[int]:
    """Every legal action of the active ``seat`` outside a Faction Ability's picks.

    The cost checks, shooting and ability targets of the rules' methods are inlined here
    over the seat's own and its enemies' living units (both ascending), which keeps the
    ids in the order those methods give them.
    """
    out = [ids.END]
    if state.faction_ready(seat):
        out.append(ids.FACTION)
    hp, owner, pos, unit = state.hp, state.owner, state.pos, state.unit
    living = [slot for slot in _SLOT_RANGE if hp[slot] > 0]
    mine = [slot for slot in living if owner[slot] == seat]
    theirs = [slot for slot in living if owner[slot] != seat]
    enemies = near = 0
    for slot in theirs:
        square = pos[slot]
        enemies |= BIT_MASK[square]
        near |= NEAR_BITS[square]
    op = state.op
    free = OPEN_MASK & ~state.occupied
    ordered, elf_free = state.ordered, state.elf_free
    orders = state.game.rules.orders
    move_cost, adjacent_cost = orders["move"], orders["move_from_adjacent"]
    moves, window = _moves, WINDOW_BITS
    for slot in mine:
        square = pos[slot]
        if slot == elf_free:
            cost = 0
        elif ORTH_BITS[square] & enemies:
            cost = adjacent_cost
        elif not ordered[slot] and not near & BIT_MASK[square]:
            cost = 0
        else:
            cost = move_cost
        if cost <= op:
            speed = unit[slot].speed
            local = free & window[speed][square]
            key = local << _KEY_SHIFT | (slot * SQUARES + square) * _SPEED_KEYS + speed
            found = moves.get(key)
            if found is None:
                found = _remember(key, slot, square, speed, local)
            out += found
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
    shot, used = state.shot, state.used_ability
    shooters = [s for s in mine if unit[s].range and not shot[s]]
    if shooters:
        shoot, unmoved = orders["shoot"], orders["archer_shoot_unmoved"]
        moved = state.moved
        for slot in shooters:
            card = unit[slot]
            cost = unmoved if card.kind == ARCHERS and not moved[slot] else shoot
            if cost > op or ORTH_BITS[pos[slot]] & enemies:
                continue
            row, reach_ = DIST[pos[slot]], card.range
            base = ids.SHOOT + slot * SLOTS
            out += [
                base + t
                for t in theirs
                if row[pos[t]] <= reach_ and not (unit[t].kind <= HERO and _guarded(state, t))
            ]
    general = state.general[seat]
    hero_cost, general_cost = orders["heroic_ability"], orders["general_heroic_ability"]
    for slot in mine:
        card = unit[slot]
        ability = card.ability
        if ability is not None and not used[slot]:
            cost = general_cost if slot == general and card.kind == GENERAL else hero_cost
            if cost > op:
                continue
            effect, reach_, row = ability.effect, ability.range, DIST[pos[slot]]
            base = ids.ABILITY + slot * SLOTS
            if effect == RAISE:
                out += [base + t for t in state.ability_targets(slot)]
            elif effect not in FRIENDLY_EFFECTS:
                out += [base + t for t in theirs if row[pos[t]] <= reach_]
            elif effect == HEAL:
                out += [base + t for t in mine if row[pos[t]] <= reach_ and hp[t] < unit[t].hp]
            else:
                done = (
                    state.warded
                    if effect == WARD
                    else state.blessed
                    if effect == BLESS
                    else state.inspired
                )
                out += [base + t for t in mine if row[pos[t]] <= reach_ and not done[t]]
    return out


def _guarded(state: Position, hero: int) -> bool:
    """An enemy Hero adjacent to one of its own Troops cannot be shot."""
    seat, occ, owner, unit = state.owner[hero], state.occ, state.owner, state.unit
    for n in ORTH[state.pos[hero]]:
        other = occ[n]
        if other >= 0 and owner[other] == seat and unit[other].is_troop:
            return True
    return False


__all__ = ["FREE_MOVE_DISTANCE", "NEAR_BITS", "ORTH_BITS", "legal_orders", "move_ids", "reach"]
