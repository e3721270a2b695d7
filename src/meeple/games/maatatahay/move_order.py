"""The Maatatahay moves worth searching: one facing per useful arrow layout, sensible storage.

Finishing a placement offers every facing times every way to keep crystals in storage: up
to 4 x 15 = 60 actions. Most of them are the same move or a worse one:

- A facing only matters through the spaces its arrows point at, and only for a *later*
  friendly warrior placed there ("friendly Support Arrows pointing toward the new Warrior
  give it Energy Crystals"). A space already holding a warrior (living or face down) never
  takes another, and an arrow off the map points nowhere, so only the arrows at spaces
  without a warrior count. Facings whose useful targets are the same are one move; a facing
  whose useful targets are a strict subset of another's is never better and is dropped.
- When this is the seat's last placement of the match (the stream is empty, or a seat has
  already lost 6 warriors, or the board is full), the arrows help nobody: one facing. What
  stays in storage scores nothing, while Energy on the warrior only makes it stronger: keep
  no Energy. Spirit on it scores 1 VP if it survives; only the seat that places second in
  that round (nobody places after it) is sure to keep it, so that seat keeps nothing.

Everything read here is on the table (``state.view`` shows it to both seats).
"""

from __future__ import annotations

from meeple.core import Action, Seat, State
from meeple.games.maatatahay import notation as ids
from meeple.games.maatatahay.data import (
    ARROW_TARGETS,
    DISTINCT_FACINGS,
    EMPTY,
    KEEPS,
    RULES,
    TILES_PER_SEAT,
)
from meeple.games.maatatahay.rules import FINISH, MaatatahayState

NKEEPS = len(KEEPS)


def maatatahay_moves(state: State, seat: Seat, legal: list[Action]) -> list[Action]:
    """The legal actions a search of ``seat`` should try (see the module's docstring)."""
    if not isinstance(state, MaatatahayState) or state.phase != FINISH or len(legal) < 2:
        return legal
    space = state.hot
    tile_index = state.tile[space] % TILES_PER_SEAT
    last = _last_placement(state, seat)
    facings = (DISTINCT_FACINGS[tile_index][0],) if last else _useful_facings(state, tile_index)
    keeps = None
    if last:
        second = state.placements == 1
        keeps = {
            k
            for k, (energy, spirit) in enumerate(KEEPS)
            if energy == 0 and (spirit == 0 or not second)
        }
    kept = []
    for action in legal:
        facing, keep = divmod(action - ids.FINISH, NKEEPS)
        if facing in facings and (keeps is None or keep in keeps):
            kept.append(action)
    return kept or legal


def _last_placement(state: MaatatahayState, seat: Seat) -> bool:
    """Whether the match ends after this round, so that ``seat`` never places again.

    The match ends after the round once a seat has lost 6 warriors, 1 or fewer free spaces
    remain, or the stream is empty (every warrior has been picked). Deaths and placements
    only ever bring these closer.
    """
    return (
        not state.stream
        or max(state.lost) >= RULES.lost_to_end
        or state.free_spaces() <= RULES.free_spaces_to_end
    )


def _useful_facings(state: MaatatahayState, tile_index: int) -> tuple[int, ...]:
    """One facing per set of open spaces its arrows reach, dropping strict subsets."""
    space = state.hot
    tile = state.tile
    seen: list[tuple[int, frozenset[int]]] = []
    for facing in DISTINCT_FACINGS[tile_index]:
        targets = ARROW_TARGETS[tile_index][facing][space]
        useful = frozenset(t for t in targets if tile[t] == EMPTY)
        if all(useful != other for _, other in seen):
            seen.append((facing, useful))
    return tuple(facing for facing, useful in seen if not any(useful < other for _, other in seen))
