"""Undo at the terminal that never shows what chance holds next.

A match record replays bit for bit: the seed fixes every die, every shuffle and every tile
pair to come. So an undo that only replayed the record to an earlier position would hand
the person the very draw or roll they saw a moment ago -- a look at the hidden future.

Instead, after replaying to the position taken back to, the session redraws what no seat
can see there -- the state's generator and the order of face-down decks -- with fresh
entropy, through the game's own :meth:`~meeple.core.game.State.resample`. It keeps the
redraw only when every seat's view and the spectators' are unchanged by it, so nothing a
seat knows or has decided (a hand, a sealed order, a chosen house) moves. The future from
there is drawn afresh: replaying the same action draws anew.

The record then starts a new branch: its ``start`` is the redrawn position (a record from a
start state, as a puzzle's), and its ``meta.undone`` lists the stretches played before, each
a record of its own (game, seats, options, seed or start, actions) ending where undo branched
off, oldest first. The record replays through any reader; the stretches keep the history.

Where the redraw would move something a seat knows (Maiterra: cards in hand, sealed
orders), undo takes back only decisions that showed nothing: actions whose events only
their own seat sees and whose outcome, for that seat, no redraw of the unseen changes (a
queued order). Past anything else -- a turn's resolution, a die, a card -- it is refused.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from meeple.core import GameError, MatchRecord, Seat, State

UNDONE = "undone"
"""The record's ``meta`` key listing the stretches played before each undo."""

PROBES = 4
"""Redraws tried on an action a redraw cannot cover, to see whether its outcome is chance."""


class UndoRefused(ValueError):
    """Undo cannot go back: nothing to take back, or it would show what chance holds."""


@dataclass
class Takeback:
    """The match after an undo: its record (maybe a new branch), the stretches before, the
    state, and whether the unseen was redrawn."""

    record: MatchRecord
    branches: list[MatchRecord]
    state: State
    redrawn: bool


def redraw_unseen(state: State, seat: Seat, seed: int) -> State | None:
    """``state`` with what no seat can see redrawn from ``seed``, or None when the game's
    resample for ``seat`` would also move something some seat can see."""
    redrawn = state.resample(seat, seed)
    for who in (None, *range(state.game.seats)):
        if redrawn.view(who) != state.view(who):
            return None
    return redrawn


def branches_of(record: MatchRecord) -> list[MatchRecord]:
    """The stretches played before the record's branch (``meta.undone``); none if absent
    or unreadable (the record itself still replays)."""
    raw = record.meta.get(UNDONE)
    if not isinstance(raw, list):
        return []
    try:
        return [MatchRecord.from_json(item) for item in raw]
    except GameError:
        return []


def _stretch(record: MatchRecord, length: int) -> MatchRecord:
    """``record``'s start and its first ``length`` actions, nothing else."""
    return MatchRecord(
        game_id=record.game_id,
        seats=record.seats,
        options=dict(record.options),
        seed=record.seed,
        start_state=record.start_state,
        actions=list(record.actions[:length]),
    )


def shows_nothing(state: State, seat: Seat, action: int) -> bool:
    """Whether taking ``action`` back and taking it again could show nothing new: every
    event it makes is for ``seat`` alone, and with the unseen redrawn ``seat`` sees the same
    outcome. Leaves ``state`` as it was."""
    after = state.clone()
    events = after.apply(seat, action)
    if any(event.audience is None or set(event.audience) - {seat} for event in events):
        return False
    seen = after.view(seat)
    for probe in range(PROBES):
        world = state.resample(seat, probe)
        if action not in world.legal_actions(seat):
            return False
        world.apply(seat, action)
        if world.view(seat) != seen:
            return False
    return True


def take_back(
    record: MatchRecord,
    branches: list[MatchRecord],
    humans: Collection[Seat] | None,
    seat: Seat,
    entropy: int,
) -> Takeback:
    """Undo in the match of ``branches`` then ``record``: back to before the last action of
    one of ``humans`` (the replies to it go too), or one action when ``humans`` is None.
    ``seat`` is the seat whose eyes the redraw keeps; ``entropy`` seeds the redraw.

    Raises:
        UndoRefused: when there is nothing to take back, or the actions taken back showed
            something a redraw cannot hide (see the module text).
    """
    history = [*branches, record]
    steps = [
        (index, step, who)
        for index, stretch in enumerate(history)
        for step, (who, _) in enumerate(stretch.actions)
    ]
    if humans is not None:
        steps = [item for item in steps if item[2] in humans]
    if not steps:
        raise UndoRefused("nothing to undo: you have not decided anything yet")
    index, step, _ = steps[-1]
    base = _stretch(history[index], step)
    state = base.replay()
    redrawn = redraw_unseen(state, seat, entropy)
    if redrawn is None:
        return _take_back_unredrawn(record, branches, index, step, state)
    branch = MatchRecord.for_game(record.game(), start_state=redrawn.to_json())
    branch.players = None if record.players is None else list(record.players)
    kept = [*history[:index], base]
    meta: dict[str, Any] = dict(record.meta)
    meta[UNDONE] = [stretch.to_json(with_notation=False) for stretch in kept]
    branch.meta = meta
    return Takeback(branch, kept, branch.replay(), redrawn=True)


def _take_back_unredrawn(
    record: MatchRecord, branches: list[MatchRecord], index: int, step: int, state: State
) -> Takeback:
    """Undo where no redraw keeps every seat's view: only if what goes showed nothing."""
    if index != len(branches):
        raise UndoRefused("undo cannot go back past an earlier undo here")
    world = state.clone()
    for who, action in record.actions[step:]:
        if not shows_nothing(world, who, action):
            raise UndoRefused(
                "undo stops here: what you would take back showed the table something "
                "(a turn's resolution, a draw or a roll), and taking it again would show it again"
            )
        world.apply(who, action)
    kept = _stretch(record, step)
    kept.players, kept.meta, kept.outcome = record.players, dict(record.meta), None
    return Takeback(kept, list(branches), state, redrawn=False)
