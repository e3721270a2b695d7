"""Which of a seat's legal actions a search considers: the game's own pruning, if any.

The engine offers every legal action, also where two of them are the same move in all but
name (a tile turned two ways that give the same arrows) or where one is never worse than
another. A search that tries each of them spreads its iterations over copies; a move
filter, registered per game, keeps one action of each kind and drops the dominated ones. It
reads only what the seat may see, and it must return a non-empty subset of ``legal`` in
the same order, so a search stays deterministic.
"""

from __future__ import annotations

from collections.abc import Callable

from meeple.core import Action, Seat, State
from meeple.games.maatatahay.move_order import maatatahay_moves
from meeple.games.maiterra.move_order import maiterra_moves
from meeple.games.manafields.move_order import manafields_moves

MoveFilter = Callable[[State, Seat, list[Action]], list[Action]]

_FILTERS: dict[str, MoveFilter] = {
    "maatatahay": maatatahay_moves,
    "maiterra": maiterra_moves,
    "manafields": manafields_moves,
}


def register_move_filter(game_name: str, move_filter: MoveFilter) -> None:
    """Let searches of ``game_name`` consider only what ``move_filter`` keeps."""
    _FILTERS[game_name] = move_filter


def move_filter(game_name: str) -> MoveFilter | None:
    """The move filter of a game (``name`` or ``name/version``), if one is registered."""
    return _FILTERS.get(game_name.split("/", 1)[0])
