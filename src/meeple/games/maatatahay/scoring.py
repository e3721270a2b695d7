"""Maatatahay's scoring: what a seat would score now, and who won.

"Score VP from: Diamonds on surviving Warriors, Spirit Crystals on surviving Warriors,
Temple Relics."
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from meeple.core.outcome import Outcome
from meeple.games.maatatahay.data import EMPTY, SPACES, TILES_PER_SEAT, RuleData


class RuleHolder(Protocol):
    """What scoring reads of the game: its options and the numbers it plays with."""

    @property
    def rules(self) -> RuleData: ...

    def option(self, name: str) -> Any: ...


class Table(Protocol):
    """What scoring reads of a position (the rules' state is one): the warriors on the map,
    the Spirit crystals on them, the relics taken in order, and why the match ended."""

    @property
    def game(self) -> RuleHolder: ...

    @property
    def tile(self) -> Sequence[int]: ...

    @property
    def living(self) -> Sequence[bool]: ...

    @property
    def spirit(self) -> Sequence[int]: ...

    @property
    def relics_taken(self) -> Sequence[int]: ...

    def end_reason(self) -> str | None: ...


def relic_points(state: Table, seat: int) -> int:
    """ "Temple Relics score progressively: 1 / 2 / 3 / 4 / 5 VP", or by global order."""
    if state.game.option("relic_scoring") == "standard":
        # "the first Relic taken is worth 1 VP, the second 2 VP ... regardless of who"
        return sum(i + 1 for i, s in enumerate(state.relics_taken) if s == seat)
    count = sum(1 for s in state.relics_taken if s == seat)
    return sum(state.game.rules.progressive_relic_points[:count])


def score_breakdown(state: Table, seat: int) -> dict[str, int]:
    """Diamonds and Spirit crystals on surviving warriors, and relics."""
    diamonds = spirit = survivors = 0
    tiles = state.game.rules.tiles
    for space in range(SPACES):
        uid = state.tile[space]
        if uid != EMPTY and state.living[space] and uid // TILES_PER_SEAT == seat:
            survivors += 1
            diamonds += tiles[uid % TILES_PER_SEAT].diamonds
            spirit += state.spirit[space]
    relics = relic_points(state, seat)
    return {
        "diamonds": diamonds,
        "spirit": spirit,
        "relics": relics,
        "total": diamonds + spirit + relics,
        "survivors": survivors,
    }


def outcome(state: Table) -> Outcome:
    """ "Most VP wins. Ties are broken by most surviving Warriors, then by whoever acquired a
    Relic most recently." """
    reason = state.end_reason() or "over"
    parts = [score_breakdown(state, 0), score_breakdown(state, 1)]
    keys = [(p["total"], p["survivors"]) for p in parts]
    tiebreak = None
    if keys[0] != keys[1]:
        winner: int | None = 0 if keys[0] > keys[1] else 1
        if parts[0]["total"] == parts[1]["total"]:
            tiebreak = "survivors"
    elif state.relics_taken:
        winner = state.relics_taken[-1]
        tiebreak = "latest_relic"
    else:
        winner = None
    return Outcome(
        winners=() if winner is None else (winner,),
        reason=reason,
        scores=(float(parts[0]["total"]), float(parts[1]["total"])),
        detail={"breakdown": parts, "tiebreak": tiebreak},
    )
