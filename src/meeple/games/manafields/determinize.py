"""A Manafields state from a seat's view (:class:`meeple.core.kit.FromView`).

Nothing is hidden in Manafields but the dice still to come (see :mod:`.view`): the view
holds the whole position, so the state is read from it as it is, and only the generator
that rolls the dice is drawn from the seed. The built state goes through
:func:`.codec.state_from_json`, so a view that no position gives is refused as that
position would be.
"""

from __future__ import annotations

from typing import Any

from meeple.core.from_view import InvalidView
from meeple.core.game import Game, State
from meeple.core.rng import Rng, mix_seed
from meeple.core.types import JSON, Seat
from meeple.core.validate import Fields
from meeple.games.manafields.codec import FLAGS, FORMAT, state_from_json
from meeple.games.manafields.data import SLOTS
from meeple.games.manafields.rules import ManafieldsRulebook, ManafieldsState

VIEW = (
    "game", "seat", "turn", "round", "turn_limit", "active", "deciding", "factions", "op",
    "morale", "score", "lead", "lead_to_win", "points_now", "owed", "rally", "frenzy",
    "fights_issued", "picks", "picked", "elf_free", "board", "units", "outcome",
)  # fmt: skip
COPIED = (
    "factions", "turn_limit", "turn", "active", "op", "morale", "score", "owed", "rally",
    "frenzy", "fights_issued", "picks", "picked", "elf_free",
)  # fmt: skip
UNIT = ("slot", "type", "owner", "hp", "square", "last_order", "targeted", *FLAGS)


def state_from_view(game: Game, view: JSON, seat: Seat, seed: int) -> State:
    """A state whose ``view(seat)`` is ``view`` (see the module docstring).

    Raises:
        InvalidView: for a malformed view, one that no position gives, or another game.
    """
    if not isinstance(game, ManafieldsRulebook):
        raise InvalidView(f"{game.info.title} is not Manafields: no Manafields view fits it")
    return _build(game, view, seat, seed)


def _build(game: ManafieldsRulebook, view: JSON, seat: Seat, seed: int) -> ManafieldsState:
    """A state whose ``view(seat)`` is ``view``; the dice to come are rolled from ``seed``.

    Raises:
        InvalidView: for a malformed view, or one that no position gives.
    """
    top = Fields(view, "view", required=VIEW, error=InvalidView)
    units = []
    for slot, raw in enumerate(top.items("units", length=SLOTS)):
        unit = Fields(raw, f"view.units[{slot}]", error=InvalidView)
        units.append({key: unit.need(key) for key in UNIT})
    winner: Any = None
    reason = None
    outcome = top.raw("outcome")
    if outcome is not None:
        result = Fields(outcome, "view.outcome", error=InvalidView)
        winners = result.items("winners", max_len=1)
        winner = winners[0] if winners else "draw"
        reason = result.raw("reason")
    data: dict[str, Any] = {key: top.need(key) for key in COPIED}
    data.update(
        format=FORMAT,
        winner=winner,
        reason=reason,
        units=units,
        rng=Rng(mix_seed(seed, seat, 0x56494557)).to_json(),
    )
    return state_from_json(game, data)
