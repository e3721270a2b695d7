"""Hints and annotated replays on the terminal: the CLI face of :func:`meeple.ai.analyse`.

The search budget is iterations, capped by the clock here (``meeple.ai`` reads none): a
hint or a replay annotation takes at most ``seconds`` per position.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from rich.markup import escape
from rich.table import Table

from meeple.ai import Analysis, Budget, analyse
from meeple.ai.analysis import DEFAULT_ITERATIONS
from meeple.ai.deadline import deadline
from meeple.core import JSON, GameError, InvalidRecord, MatchRecord, Seat, State

BLUNDER = 0.25
MISTAKE = 0.10
INACCURACY = 0.05


def timed_analysis(
    state: State,
    seat: Seat,
    seconds: float = 1.0,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
) -> Analysis:
    """:func:`analyse` with at most ``iterations``, stopped after ``seconds``."""
    budget = Budget(
        iterations, should_stop=deadline(seconds, time.perf_counter) if seconds > 0 else None
    )
    return analyse(state, seat, budget, seed=seed)


def hint_text(analysis: Analysis, who: str | None = None) -> str:
    """The best actions as Rich markup, one a line; ``who`` names the seat (its tribe,
    house colour or faction), else its number."""
    lines = [
        f"Hint for {escape(who) if who else f'seat {analysis.seat}'} "
        f"[dim]({analysis.iterations} search iterations; "
        f"your chance with the best move {100 * analysis.win_probability:.0f} %)[/]"
    ]
    for rank, advice in enumerate(analysis.best, start=1):
        lines.append(
            f"  {rank}. [bold]{escape(advice.notation)}[/]  "
            f"{100 * advice.win_probability:.0f} % to win  "
            f"[dim]{100 * advice.share:.0f} % of the search[/]"
        )
    return "\n".join(lines)


@dataclass(frozen=True)
class MoveNote:
    """The analysis of one recorded action, from the acting seat's point of view."""

    index: int
    seat: Seat
    played: str
    played_win: float | None
    best: str
    best_win: float
    forced: bool

    @property
    def loss(self) -> float:
        """How much the chance to win dropped against the best action."""
        if self.forced or self.played_win is None:
            return 0.0
        return max(0.0, self.best_win - self.played_win)

    @property
    def mark(self) -> str:
        """Chess-style: ``??`` blunder, ``?`` mistake, ``?!`` inaccuracy."""
        if self.loss >= BLUNDER:
            return "??"
        if self.loss >= MISTAKE:
            return "?"
        if self.loss >= INACCURACY:
            return "?!"
        return ""

    def to_json(self) -> JSON:
        return {
            "index": self.index,
            "seat": self.seat,
            "played": self.played,
            "played_win_probability": None
            if self.played_win is None
            else round(self.played_win, 4),
            "best": self.best,
            "best_win_probability": round(self.best_win, 4),
            "forced": self.forced,
            "mark": self.mark,
        }


def annotate(
    record: MatchRecord, seconds: float = 1.0, iterations: int = DEFAULT_ITERATIONS
) -> Iterator[MoveNote]:
    """Analyse the position before every recorded action for the seat that took it.

    The action is applied to a copy first, so a record whose seat does not decide there
    (or does not exist, or plays an illegal action) is refused before anything is analysed.

    Raises:
        InvalidRecord: when an action of the record does not replay.
    """
    state = record.initial_state()
    for index, (seat, action) in enumerate(record.actions):
        after = _checked_step(state, index, seat, action)
        yield note_at(state, index, seat, action, seconds=seconds, iterations=iterations)
        state = after


def _checked_step(state: State, index: int, seat: Seat, action: int) -> State:
    """The state after the record's action ``index``, or InvalidRecord if it does not replay."""
    after = state.clone()
    try:
        after.apply(seat, action)
    except GameError as error:
        raise InvalidRecord(f"action #{index} does not replay: {error}") from error
    return after


def note_at(
    state: State, index: int, seat: Seat, action: int, *, seconds: float, iterations: int
) -> MoveNote:
    """The note on the record's action ``index`` (by ``seat``), taken in ``state``."""
    legal = state.legal_actions(seat)
    played = state.action_to_string(seat, action)
    if len(legal) == 1:
        return MoveNote(index, seat, played, None, played, 0.0, forced=True)
    analysis = timed_analysis(state, seat, seconds, iterations, seed=index)
    mine = analysis.advice_for(action)
    best = analysis.candidates[0]
    return MoveNote(
        index,
        seat,
        played,
        None if mine is None else mine.win_probability,
        best.notation,
        best.win_probability,
        forced=False,
    )


@dataclass(frozen=True)
class NoteJob:
    """Annotate the action ``index`` of a record (given as JSON): one job of
    ``replay --analyse --workers N`` (see :mod:`meeple.cli.executor`)."""

    record: str
    index: int
    seconds: float
    iterations: int


def note_jobs(
    record: MatchRecord, seconds: float = 1.0, iterations: int = DEFAULT_ITERATIONS
) -> list[NoteJob]:
    """One job per recorded action, after checking that every action replays.

    Raises:
        InvalidRecord: when an action of the record does not replay.
    """
    state = record.initial_state()
    for index, (seat, action) in enumerate(record.actions):
        state = _checked_step(state, index, seat, action)
    text = record.dumps()
    return [NoteJob(text, index, seconds, iterations) for index in range(len(record.actions))]


def play_note_job(job: NoteJob) -> MoveNote:
    """The note of one job (in a worker process, or on Ray): the same note
    :func:`annotate` gives for that action, the search seeded by the action's index."""
    import meeple.games  # noqa: F401, PLC0415 (a spawned worker registers the games)

    record = MatchRecord.loads(job.record)
    state = record.initial_state()
    for seat, action in record.actions[: job.index]:
        state.apply(seat, action)
    seat, action = record.actions[job.index]
    return note_at(state, job.index, seat, action, seconds=job.seconds, iterations=job.iterations)


UNTRIED = "—"
"""The "win %" of a move the search never tried (see :data:`UNTRIED_NOTE`)."""
UNTRIED_NOTE = (
    "—: the search never tried the move played (its move order left it out, or the time ran"
    " out first), so it has no chance to win of its own"
)
FORCED_NOTE = "forced: the only legal move, not searched"


def notes_table(notes: list[MoveNote]) -> Table:
    """The annotations as a Rich table; its caption says what a cell without a number means."""
    table = Table(title="analysis (chance to win of the seat that moved)")
    for column in ("#", "seat", "played", "win %", "best", "best %", ""):
        table.add_column(column)
    untried = any(not note.forced and note.played_win is None for note in notes)
    forced = any(note.forced for note in notes)
    captions = [FORCED_NOTE] if forced else []
    if untried:
        captions.append(UNTRIED_NOTE)
    if captions:
        table.caption = "\n".join(captions)
        table.caption_justify = "left"
    for note in notes:
        played_win = UNTRIED if note.played_win is None else f"{100 * note.played_win:.0f}"
        table.add_row(
            str(note.index + 1),
            str(note.seat),
            escape(note.played),
            "forced" if note.forced else played_win,
            "" if note.forced else escape(note.best),
            "" if note.forced else f"{100 * note.best_win:.0f}",
            note.mark,
        )
    return table
