"""The legal orders of a position, built fast: the inner loop of every playout and search.

Who is an enemy and who stands next to one or within 4 of one are read from padded bitboards
(see :mod:`meeple.games.manafields.data`) built in one pass over the slots, instead of
scanning every unit for every unit. The squares a Move reaches come as a bitboard
(:func:`meeple.core.squaregrid.reach_bits`), turned into action ids; both depend only on the
free squares within the unit's Speed, so they are remembered by those. The result is the ids
in ascending order, exactly as the rules list them one order at a time.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import compress
from types import FunctionType
from typing import Final

from meeple.core.squaregrid import reach_bits
from meeple.games.manafields import notation as ids
from meeple.games.manafields.data import (
    ARCHERS,
    BIT,
    BLESS,
    BOARD_MASK,
    BOLT,
    DIAG,
    DIST,
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
    SQUARE_OF_BIT,
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
"""NEAR_BITS[square]: the squares within 4 of it. Distance is symmetric, so a unit on
``square`` has an enemy within 4 exactly when ``NEAR_BITS[square]`` meets the enemies'
bitboard (a free Move needs none there)."""

WINDOW_BITS = tuple(
    tuple(_bits(t for t in range(SQUARES) if DIST[s][t] <= speed) for s in range(SQUARES))
    for speed in range(MAX_SPEED + 1)
)
"""WINDOW_BITS[speed][square]: the squares a Move of ``speed`` from ``square`` can touch."""

_MEMO_LIMIT: Final = 1 << 17
"""Move id tuples the memo holds at most before it is emptied."""
_SPEED_KEYS: Final = MAX_SPEED + 1
_KEY_SHIFT: Final = (SLOTS * SQUARES * _SPEED_KEYS).bit_length()
_moves: Final[dict[int, tuple[int, ...]]] = {}
"""Move ids by (free squares in reach, unit slot, square, speed), packed into one int."""
BIT_MASK = tuple(1 << BIT[s] for s in range(SQUARES))
"""BIT_MASK[square]: the bitboard of that square alone."""

_BOARD_BITS = STRIDE * HEIGHT
_MOVE_IDS_FROM = tuple(
    tuple(
        tuple(
            ids.move_action(slot, square) if square >= 0 else -1
            for square in SQUARE_OF_BIT[first:_BOARD_BITS]
        )
        for first in range(_BOARD_BITS)
    )
    for slot in range(SLOTS)
)
"""_MOVE_IDS_FROM[slot][first]: the Move ids of the unit in ``slot`` to the squares of the
bitboard's bits ``first``, ``first + 1``, ... (-1 for a padding bit, never a destination)."""
_BINARY_DIGITS = bytes.maketrans(b"01", b"\x00\x01")
"""Turns the digits of ``format(bits, "b")`` into the bytes 0 and 1, read as selectors."""

_ROW_BITS: Final = (1 << WIDTH) - 1
_ROW_MASK: Final = (1 << STRIDE) - 1
_BAND_ROWS: Final = -(-HEIGHT // 3)
_BAND_BITS: Final = _BAND_ROWS * STRIDE
"""The rows of a third of the board and their bits (44, so that a band shifted by a row
stays a machine integer in the compiled build: see :func:`band_move_ids`)."""
_BAND_MASK: Final = (1 << _BAND_BITS) - 1
_CARRY: Final = _BAND_BITS - STRIDE
"""The first bit of a band's top row."""
_pieces: Final[list[tuple[int, ...] | None]] = [None] * (SLOTS * HEIGHT << WIDTH)
"""_pieces[(slot * HEIGHT + row) << WIDTH | pattern]: the Move ids of the unit in ``slot`` to
the squares of ``row`` whose columns are the bits of ``pattern``, ascending (each made when
first asked for: one flat list, so the collector has one object to look at); the compiled
build's :func:`band_move_ids` joins them."""
_ROW_IDS = tuple(
    tuple(ids.move_action(slot, row * WIDTH + col) for col in range(WIDTH))
    for slot in range(SLOTS)
    for row in range(HEIGHT)
)
"""_ROW_IDS[slot * HEIGHT + row]: the Move ids of the unit in ``slot`` to each square of
``row``, by column."""
_SELECTORS = tuple(bytes(p >> col & 1 for col in range(WIDTH)) for p in range(1 << WIDTH))
"""_SELECTORS[pattern]: a byte 1 or 0 for each column, whether ``pattern`` has its bit."""
_SLOTS: Final = SLOTS
_SQUARES: Final = SQUARES
_GENERAL: Final = GENERAL
_HERO: Final = HERO
_INFANTRY: Final = INFANTRY
_ARCHERS: Final = ARCHERS
_RAISE: Final = RAISE
_BOLT: Final = BOLT
_HEAL: Final = HEAL
_WARD: Final = WARD
_BLESS: Final = BLESS
_END: Final = ids.END
_FACTION: Final = ids.FACTION
_MOVE: Final = ids.MOVE
_FIGHT: Final = ids.FIGHT
_SHOOT: Final = ids.SHOOT
_ABILITY: Final = ids.ABILITY


def reach(start: int, speed: int, free: int) -> int:
    """The bitboard of squares a unit on ``start`` can move to with ``speed`` through
    ``free`` squares (no terrain, no unit); see :func:`meeple.core.squaregrid.reach_bits`."""
    return reach_bits(BIT[start], speed, free, STRIDE) & ~(1 << BIT[start])


NATIVE_INTS: Final = not isinstance(reach, FunctionType)
"""Whether this module runs compiled (its functions are then built-in functions), where
integers of up to 62 bits are machine integers and wider ones Python longs; a memo miss
then takes :func:`band_move_ids`, and :func:`bits_to_move_ids` of the whole board in pure
Python, where a long costs little more than a small int."""


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


def bits_to_move_ids(slot: int, dest: int) -> tuple[int, ...]:
    """The ids of moving the unit in ``slot`` to each square of the bitboard ``dest``,
    ascending: the bits from the lowest set one, written in binary and reversed, select the
    ids of those bits (all in C; a loop over the squares in Python costs several times more).
    """
    if not dest:
        return ()
    first = (dest & -dest).bit_length() - 1
    digits = format(dest >> first, "b").encode().translate(_BINARY_DIGITS)[::-1]
    return tuple(compress(_MOVE_IDS_FROM[slot][first], digits))


def band_move_ids(slot: int, origin: int, speed: int, free: int) -> tuple[int, ...]:
    """:func:`bits_to_move_ids` of :func:`reach_bits` from the bit ``origin``, worked out on
    the board cut into three bands of rows (44 bits each), each a machine integer in the
    compiled build, where every operation on a whole 132-bit board is a call that makes a
    Python long (the reach and the ids took 40 % of a compiled playout that way). The same
    steps as :func:`~meeple.core.squaregrid.reach_bits`, a band's top row carried into the
    next band's bottom row and back. In pure Python the whole board in one int is faster.
    """
    f0 = free & _BAND_MASK
    f1 = free >> _BAND_BITS & _BAND_MASK
    f2 = free >> 2 * _BAND_BITS
    band, bit = divmod(origin, _BAND_BITS)
    s0 = s1 = s2 = 0
    if band == 0:
        s0 = 1 << bit
    elif band == 1:
        s1 = 1 << bit
    else:
        s2 = 1 << bit
    a0 = a1 = a2 = 0  # one file either side of the squares reached two rounds before
    for _ in range(speed):
        w0 = s0 << 1 | s0 >> 1
        w1 = s1 << 1 | s1 >> 1
        w2 = s2 << 1 | s2 >> 1
        b0 = s0 | a0
        b1 = s1 | a1
        b2 = s2 | a2
        s0 |= (w0 | b0 << STRIDE & _BAND_MASK | b0 >> STRIDE | (b1 & _ROW_MASK) << _CARRY) & f0
        s1 |= (
            w1
            | b1 << STRIDE & _BAND_MASK
            | b0 >> _CARRY
            | b1 >> STRIDE
            | (b2 & _ROW_MASK) << _CARRY
        ) & f1
        s2 |= (w2 | b2 << STRIDE & _BAND_MASK | b1 >> _CARRY | b2 >> STRIDE) & f2
        a0 = w0
        a1 = w1
        a2 = w2
    if band == 0:
        s0 &= ~(1 << bit)
    elif band == 1:
        s1 &= ~(1 << bit)
    else:
        s2 &= ~(1 << bit)
    out: list[int] = []
    first = slot * HEIGHT
    _add_band(out, s0, first)
    _add_band(out, s1, first + _BAND_ROWS)
    _add_band(out, s2, first + 2 * _BAND_ROWS)
    return tuple(out)


def _add_band(out: list[int], bits: int, index: int) -> None:
    """Append the Move ids of the band ``bits`` to ``out``, its bottom row the row of
    ``index`` (``slot * HEIGHT + row``), a row at a time from :data:`_pieces`."""
    while bits:
        pattern = bits & _ROW_BITS
        if pattern:
            piece = _pieces[index << WIDTH | pattern]
            if piece is None:
                piece = _pieces[index << WIDTH | pattern] = _piece(index, pattern)
            out += piece
        bits >>= STRIDE
        index += 1


def _piece(index: int, pattern: int) -> tuple[int, ...]:
    """An entry of :data:`_pieces`: the row's ids that ``pattern`` selects."""
    return tuple(compress(_ROW_IDS[index], _SELECTORS[pattern]))


def _remember(key: int, slot: int, start: int, speed: int, local: int) -> tuple[int, ...]:
    """A memo miss of :func:`move_ids`: the squares reached, turned into ids and kept."""
    if len(_moves) >= _MEMO_LIMIT:
        _moves.clear()
    origin = BIT[start]
    if NATIVE_INTS:
        found = band_move_ids(slot, origin, speed, local)
    else:
        found = bits_to_move_ids(slot, reach_bits(origin, speed, local, STRIDE) & ~(1 << origin))
    _moves[key] = found
    return found


def legal_orders(state: Position, seat: int) -> list[int]:
    """Every legal action of the active ``seat`` outside a Faction Ability's picks.

    The cost checks, fighting, shooting and ability targets of the rules' methods are
    inlined here in one pass over the seat's living units (ascending); each kind of order
    is gathered in a list of its own and the lists joined in the order of the ids, which
    gives the ids in the order those methods give them.
    """
    hp, owner, pos, unit = state.hp, state.owner, state.pos, state.unit
    # The tables as locals: a compiled module reads a module global from its dict each time.
    orth_bits, near_bits, diag_bits, dist = ORTH_BITS, NEAR_BITS, DIAG_BITS, DIST
    bit_mask, slots, squares = BIT_MASK, _SLOTS, _SQUARES
    mine: list[int] = []
    theirs: list[int] = []
    enemies = 0
    for slot in range(slots):
        if hp[slot] > 0:
            if owner[slot] == seat:
                mine.append(slot)
            else:
                theirs.append(slot)
                enemies |= bit_mask[pos[slot]]
    rules = state.rules()
    orders = rules.orders
    out = [_END]
    if state.morale[seat] >= rules.turn["faction_ability_morale"] and state.faction_ready(seat):
        out.append(_FACTION)
    op = state.op
    move_cost, adjacent_cost = orders["move"], orders["move_from_adjacent"]
    # With enough OP for the dearest Move, every unit may move: no cost to work out.
    every_move = op >= move_cost and op >= adjacent_cost
    if state.frenzy and state.fights_issued < rules.effects["orcs_free_fights"]:
        can_fight = bool(enemies)
    else:
        can_fight = bool(enemies) and orders["fight"] <= op
    shoot_cost, unmoved_cost = orders["shoot"], orders["archer_shoot_unmoved"]
    hero_cost, general_cost = orders["heroic_ability"], orders["general_heroic_ability"]
    free = OPEN_MASK & ~state.occupied
    ordered, moved, elf_free = state.ordered, state.moved, state.elf_free
    fought, shot, used = state.fought, state.shot, state.used_ability
    moves, window = _moves, WINDOW_BITS
    fights: list[int] = []
    shots: list[int] = []
    abilities: list[int] = []
    for slot in mine:
        square = pos[slot]
        card = unit[slot]
        adjacent = orth_bits[square] & enemies
        if every_move or slot == elf_free:
            cost = 0
        elif adjacent:
            cost = adjacent_cost
        elif not ordered[slot] and not near_bits[square] & enemies:
            cost = 0
        else:
            cost = move_cost
        if cost <= op:
            speed = card.speed
            local = free & window[speed][square]
            key = local << _KEY_SHIFT | (slot * squares + square) * _SPEED_KEYS + speed
            found = moves.get(key)
            if found is None:
                found = _remember(key, slot, square, speed, local)
            out += found
        if (
            can_fight
            and not fought[slot]
            and (
                adjacent or (diag_bits[square] & enemies and card.kind == _INFANTRY and moved[slot])
            )
        ):
            base = _FIGHT + slot * slots
            fights += [base + target for target in state.fight_targets(slot)]
        if (
            card.range
            and not shot[slot]
            and not adjacent
            and (unmoved_cost if card.kind == _ARCHERS and not moved[slot] else shoot_cost) <= op
        ):
            row, reach_ = dist[square], card.range
            base = _SHOOT + slot * slots
            for t in theirs:
                if row[pos[t]] <= reach_ and not (unit[t].kind <= _HERO and _guarded(state, t)):
                    shots.append(base + t)
        ability = card.ability
        if ability is not None and not used[slot]:
            general = slot == state.general[seat] and card.kind == _GENERAL
            if (general_cost if general else hero_cost) <= op:
                effect, reach_, row = ability.effect, ability.range, dist[square]
                base = _ABILITY + slot * slots
                if effect == _RAISE:
                    abilities += [base + t for t in state.ability_targets(slot)]
                elif effect == _BOLT:
                    for t in theirs:
                        if row[pos[t]] <= reach_:
                            abilities.append(base + t)
                elif effect == _HEAL:
                    for t in mine:
                        if row[pos[t]] <= reach_ and hp[t] < unit[t].hp:
                            abilities.append(base + t)
                else:
                    done = (
                        state.warded
                        if effect == _WARD
                        else state.blessed
                        if effect == _BLESS
                        else state.inspired
                    )
                    for t in mine:
                        if row[pos[t]] <= reach_ and not done[t]:
                            abilities.append(base + t)
    if fights:
        out += fights
    if shots:
        out += shots
    if abilities:
        out += abilities
    return out


def _guarded(state: Position, hero: int) -> bool:
    """An enemy Hero adjacent to one of its own Troops cannot be shot."""
    seat, occ, owner, unit = state.owner[hero], state.occ, state.owner, state.unit
    for n in ORTH[state.pos[hero]]:
        other = occ[n]
        if other >= 0 and owner[other] == seat and unit[other].is_troop:
            return True
    return False


__all__ = [
    "FREE_MOVE_DISTANCE",
    "NEAR_BITS",
    "ORTH_BITS",
    "bits_to_move_ids",
    "legal_orders",
    "move_ids",
    "reach",
]
