"""Square-grid geometry: pure functions on ``(col, row)`` squares.

Distances follow the convention of grid wargames where a diagonal step counts 2: the
distance between two squares is the number of orthogonal steps between them (the
Manhattan distance), and a path may also take diagonal steps at a cost of 2 each.
"Adjacent" means orthogonally adjacent (north, south, east, west) unless diagonals are
named.
"""

from __future__ import annotations

from collections.abc import Iterator

Square = tuple[int, int]
"""A square as ``(col, row)``, both from 0; row 0 is the bottom rank."""

ORTHOGONAL: tuple[Square, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""Steps north, east, south, west."""

DIAGONAL: tuple[Square, ...] = ((1, 1), (1, -1), (-1, -1), (-1, 1))
"""Steps north-east, south-east, south-west, north-west."""

ORTHOGONAL_COST = 1
DIAGONAL_COST = 2


def distance(a: Square, b: Square) -> int:
    """Steps from ``a`` to ``b`` on an open grid when a diagonal step counts 2.

    >>> distance((0, 0), (2, 1))
    3
    >>> distance((0, 0), (1, 1))
    2
    """
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def on_board(square: Square, width: int, height: int) -> bool:
    return 0 <= square[0] < width and 0 <= square[1] < height


def orthogonal_neighbours(square: Square, width: int, height: int) -> Iterator[Square]:
    """The (up to four) orthogonally adjacent squares on a ``width`` x ``height`` board."""
    col, row = square
    for dc, dr in ORTHOGONAL:
        if 0 <= col + dc < width and 0 <= row + dr < height:
            yield (col + dc, row + dr)


def diagonal_neighbours(square: Square, width: int, height: int) -> Iterator[Square]:
    """The (up to four) diagonally adjacent squares on a ``width`` x ``height`` board."""
    col, row = square
    for dc, dr in DIAGONAL:
        if 0 <= col + dc < width and 0 <= row + dr < height:
            yield (col + dc, row + dr)


def straight_direction(start: Square, end: Square) -> Square | None:
    """The orthogonal unit step from ``start`` towards ``end`` if they share a row or a
    column (and differ), else None."""
    dc, dr = end[0] - start[0], end[1] - start[1]
    if (dc == 0) == (dr == 0):
        return None
    return ((dc > 0) - (dc < 0), (dr > 0) - (dr < 0))


def squares_between(start: Square, end: Square) -> list[Square]:
    """The squares strictly between two squares on one row or column (empty otherwise)."""
    step = straight_direction(start, end)
    if step is None:
        return []
    out = []
    col, row = start[0] + step[0], start[1] + step[1]
    while (col, row) != end:
        out.append((col, row))
        col, row = col + step[0], row + step[1]
    return out


def rotate_half_turn(square: Square, width: int, height: int) -> Square:
    """The square seen from the other side of the table (a 180 degree turn)."""
    return (width - 1 - square[0], height - 1 - square[1])


def square_name(square: Square) -> str:
    """``(0, 0)`` is ``a1``; files are letters, ranks numbers from 1."""
    return f"{chr(ord('a') + square[0])}{square[1] + 1}"


def parse_square(text: str) -> Square | None:
    """The square a name like ``e5`` names, or None if it is not one."""
    text = text.strip().lower()
    if len(text) < 2 or not "a" <= text[0] <= "z" or not text[1:].isdigit():
        return None
    return (ord(text[0]) - ord("a"), int(text[1:]) - 1)


def reach_bits(origin_bit: int, speed: int, free: int, stride: int) -> int:
    """Squares reachable within ``speed`` on a padded bitboard (bit ``row * stride + col``,
    with at least one column of padding that is never ``free``, so shifts never wrap).

    Orthogonal steps cost 1 and diagonal steps 2; every square passed or reached must be in
    ``free``. The squares reached at cost at most k are those at most k-1 (and an
    orthogonal step from them) or at most k-2 (and a diagonal step: one file sideways, then
    one row, taken from the sideways shift of two rounds before). The result includes the
    origin.
    """
    seen = 1 << origin_bit
    across = 0  # one file either side of the squares reached two rounds before
    for _ in range(speed):
        sideways = seen << 1 | seen >> 1
        both = seen | across
        seen |= (sideways | both << stride | both >> stride) & free
        across = sideways
    return seen
