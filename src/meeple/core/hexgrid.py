"""Hex geometry on an "odd-r" offset grid: pure functions, no state.

Cells are addressed by ``(col, row)`` with row 0 at the top; odd rows are pushed half a
cell to the right. The six directions run counter-clockwise from east, so the opposite of
direction ``d`` is ``(d + 3) % 6``. A rectangular region of ``rows x cols`` numbers its
cells ``row * cols + col``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

DIRECTIONS = ("E", "NE", "NW", "W", "SW", "SE")
"""Direction names, counter-clockwise from east; ``DIRECTIONS.index(name)`` is the index."""

_EVEN_ROW_STEPS = ((1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1))
_ODD_ROW_STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1))


def opposite(direction: int) -> int:
    """The direction pointing back."""
    return (direction + 3) % 6


def step(col: int, row: int, direction: int) -> tuple[int, int]:
    """The cell next to ``(col, row)`` in ``direction`` (it may lie outside any region)."""
    dc, dr = (_ODD_ROW_STEPS if row & 1 else _EVEN_ROW_STEPS)[direction]
    return col + dc, row + dr


def to_cube(col: int, row: int) -> tuple[int, int, int]:
    """Cube coordinates ``(x, y, z)`` with ``x + y + z == 0``."""
    x = col - (row - (row & 1)) // 2
    z = row
    return x, -x - z, z


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Steps between two cells on an unbounded grid."""
    ax, ay, az = to_cube(*a)
    bx, by, bz = to_cube(*b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def neighbour_table(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """For each cell of a ``rows x cols`` region, its neighbour per direction or -1."""
    table = []
    for cell in range(rows * cols):
        row, col = divmod(cell, cols)
        near = []
        for direction in range(6):
            c, r = step(col, row, direction)
            near.append(r * cols + c if 0 <= c < cols and 0 <= r < rows else -1)
        table.append(tuple(near))
    return tuple(table)


def connected(cells: Iterable[int], table: Sequence[Sequence[int]]) -> bool:
    """Whether ``cells`` form one piece under the adjacency of ``table`` (empty: True)."""
    wanted = set(cells)
    if not wanted:
        return True
    start = next(iter(wanted))
    seen = {start}
    todo = [start]
    while todo:
        cell = todo.pop()
        for near in table[cell]:
            if near in wanted and near not in seen:
                seen.add(near)
                todo.append(near)
    return len(seen) == len(wanted)


def within(cell: int, table: Sequence[Sequence[int]], steps: int) -> set[int]:
    """Cells at most ``steps`` steps from ``cell`` through the region (``cell`` included)."""
    reached = {cell}
    frontier = [cell]
    for _ in range(steps):
        nxt = []
        for here in frontier:
            for near in table[here]:
                if near >= 0 and near not in reached:
                    reached.add(near)
                    nxt.append(near)
        frontier = nxt
    return reached
