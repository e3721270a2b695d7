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
    SQUARE_OF_BIT,
    SQUARES,
    STRIDE,
    TERRAIN_MASK,
    WARD,
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

_CACHE_LIMIT = 1 << 17
_moves: dict[int, tuple[int, ...]] = {}
"""Move ids by (free squares in reach, unit slot, square, speed), packed into one int."""
_KEY_SHIFT = (SLOTS * SQUARES * (MAX_SPEED + 1)).bit_length()
_SPEED_KEYS = MAX_SPEED + 1
_SLOT_RANGE = range(SLOTS)
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


def _remember(key: int, slot: int, start: int, speed: int, local: int) -> tuple[int, ...]:
    """A memo miss of :func:`move_ids`: the squares reached, turned into ids and kept."""
    if len(_moves) >= _CACHE_LIMIT:
        _moves.clear()
    origin = BIT[start]
    found = _moves[key] = bits_to_move_ids(
        slot, reach_bits(origin, speed, local, STRIDE) & ~(1 << origin)
    )
    return found


def legal_orders(state: Position, seat: int) -> list[int]:
    """Every legal action of the active ``seat`` outside a Faction Ability's picks.

    The cost checks, fighting, shooting and ability targets of the rules' methods are
    inlined here in one pass over the seat's living units (ascending); each kind of order
    is gathered in a list of its own and the lists joined in the order of the ids, which
    gives the ids in the order those methods give them.
    """
    hp, owner, pos, unit = state.hp, state.owner, state.pos, state.unit
    mine: list[int] = []
    theirs: list[int] = []
    enemies = 0
    for slot in _SLOT_RANGE:
        if hp[slot] > 0:
            if owner[slot] == seat:
                mine.append(slot)
            else:
                theirs.append(slot)
                enemies |= BIT_MASK[pos[slot]]
    rules = state.game.rules
    orders = rules.orders
    out = [ids.END]
    if state.morale[seat] >= rules.turn["faction_ability_morale"] and state.faction_ready(seat):
        out.append(ids.FACTION)
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
        adjacent = ORTH_BITS[square] & enemies
        if every_move or slot == elf_free:
            cost = 0
        elif adjacent:
            cost = adjacent_cost
        elif not ordered[slot] and not NEAR_BITS[square] & enemies:
            cost = 0
        else:
            cost = move_cost
        if cost <= op:
            speed = card.speed
            local = free & window[speed][square]
            key = local << _KEY_SHIFT | (slot * SQUARES + square) * _SPEED_KEYS + speed
            found = moves.get(key)
            if found is None:
                found = _remember(key, slot, square, speed, local)
            out += found
        if (
            can_fight
            and not fought[slot]
            and (
                adjacent or (DIAG_BITS[square] & enemies and card.kind == INFANTRY and moved[slot])
            )
        ):
            base = ids.FIGHT + slot * SLOTS
            fights += [base + target for target in state.fight_targets(slot)]
        if (
            card.range
            and not shot[slot]
            and not adjacent
            and (unmoved_cost if card.kind == ARCHERS and not moved[slot] else shoot_cost) <= op
        ):
            row, reach_ = DIST[square], card.range
            base = ids.SHOOT + slot * SLOTS
            for t in theirs:
                if row[pos[t]] <= reach_ and not (unit[t].kind <= HERO and _guarded(state, t)):
                    shots.append(base + t)
        ability = card.ability
        if ability is not None and not used[slot]:
            general = slot == state.general[seat] and card.kind == GENERAL
            if (general_cost if general else hero_cost) <= op:
                effect, reach_, row = ability.effect, ability.range, DIST[square]
                base = ids.ABILITY + slot * SLOTS
                if effect == RAISE:
                    abilities += [base + t for t in state.ability_targets(slot)]
                elif effect not in FRIENDLY_EFFECTS:
                    for t in theirs:
                        if row[pos[t]] <= reach_:
                            abilities.append(base + t)
                elif effect == HEAL:
                    for t in mine:
                        if row[pos[t]] <= reach_ and hp[t] < unit[t].hp:
                            abilities.append(base + t)
                else:
                    done = (
                        state.warded
                        if effect == WARD
                        else state.blessed
                        if effect == BLESS
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
