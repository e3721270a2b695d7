"""Bot-against-bot matches and random playouts: ``meeple selfplay`` and ``meeple bench``
(with ``--compare``: our games beside OpenSpiel's, interleaved, in one run)."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from meeple.ai import make_bot
from meeple.core import MatchRecord, load_game, mix_seed, registered
from meeple.core.game import Game

SEED_MASK = (1 << 53) - 1
"""Derived seeds stay below 2**53, so a record's seed survives a JavaScript JSON parser."""


def match_seed(base: int, index: int) -> int:
    """The seed of match ``index`` of a self-play run seeded with ``base``."""
    return mix_seed(base, index) & SEED_MASK


def bots_for_seats(names: Sequence[str], seats: int) -> list[str]:
    """One bot name per seat: a single name plays every seat, else one name per seat."""
    if len(names) == 1:
        return list(names) * seats
    if len(names) != seats:
        raise ValueError(f"give one bot for every seat ({seats}) or one for all, got {len(names)}")
    return list(names)


def play_match(game: Game, seed: int, bot_names: Sequence[str]) -> MatchRecord:
    """A whole match between bots (one per seat), as a record with its outcome.

    The match and each bot get their own seed derived from ``seed``, so the record replays
    and the same seed plays the same match again.
    """
    bots = [make_bot(name, mix_seed(seed, seat + 1)) for seat, name in enumerate(bot_names)]
    record = MatchRecord.for_game(game, seed=seed)
    record.players = [f"{name} bot" for name in bot_names]
    state = record.initial_state()
    while not state.is_terminal():
        for seat in state.deciding_seats():
            action = bots[seat].select(state, seat)
            state.apply(seat, action)
            record.add(seat, action)
            break
    record.outcome = state.outcome()
    return record


@dataclass(frozen=True)
class SelfplayJob:
    """Match ``index`` of a self-play run: the game as configured, its seed, the bots."""

    index: int
    game: str
    seats: int
    options: dict[str, Any]
    seed: int
    bot_names: tuple[str, ...]


def selfplay_jobs(game: Game, seed: int, games: int, bot_names: Sequence[str]) -> list[SelfplayJob]:
    """The matches of ``meeple selfplay``: match ``i`` seeded with ``match_seed(seed, i)``."""
    return [
        SelfplayJob(
            index,
            game.id,
            game.seats,
            dict(game.options),
            match_seed(seed, index),
            tuple(bot_names),
        )
        for index in range(games)
    ]


def play_selfplay_job(job: SelfplayJob) -> str:
    """Play one job (in a worker process, or on Ray); its record as one line of JSON."""
    import meeple.games  # noqa: F401, PLC0415 (a spawned worker registers the games)

    game = load_game(job.game, seats=job.seats, options=job.options)
    return play_match(game, job.seed, job.bot_names).dumps()


@dataclass(frozen=True)
class BenchResult:
    game: str
    games: int
    actions: int
    seconds: float

    def to_json(self) -> dict[str, float | int | str]:
        return {
            "game": self.game,
            "games": self.games,
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 2),
            "actions_per_second": round(self.actions / self.seconds, 1),
            "mean_length": round(self.actions / self.games, 2),
        }


def random_playout(game: Game, seed: int, rng: random.Random) -> int:
    """Play one match with uniform random actions, unchecked; returns its length."""
    state = game.new_initial_state(seed)
    length = 0
    while True:
        deciding = state.deciding_seats()
        if not deciding:
            return length
        seat = deciding[0]
        state.apply_unchecked(seat, rng.choice(state.legal_actions(seat)))
        length += 1


def timed(label: str, playout: Callable[[], int], seconds: float) -> BenchResult:
    """As many calls of ``playout`` (one game; returns its actions) as fit in ``seconds``,
    at least one."""
    games = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        actions += playout()
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return BenchResult(label, games, actions, now - start)


def bench(game: Game, seconds: float, seed: int = 0) -> BenchResult:
    """As many random playouts as fit in ``seconds`` (at least one), single process."""
    rng = random.Random(seed)
    return timed(game.id, lambda: random_playout(game, rng.getrandbits(64), rng), seconds)


# -- meeple bench --compare ---------------------------------------------------------------------


@dataclass(frozen=True)
class Loop:
    """One random-game loop of ``bench --compare``: ``playout`` plays a game and returns its
    actions (0 where the loop cannot count them: ``counts_actions`` False)."""

    label: str
    playout: Callable[[], int]
    counts_actions: bool = True


def our_loops() -> list[Loop]:
    """Our games' random loops (:func:`random_playout`), each with its own seeded RNG: every
    registered game (its newest rules) at its least seats, and at its most where they differ;
    and, for a game whose states play a random playout themselves, that playout
    (:func:`search_playout`)."""
    loops = []
    names = list(dict.fromkeys(info.name for info in registered()))
    for name in names:
        info = load_game(name).info
        counts = [None] if info.min_seats == info.max_seats else [info.min_seats, info.max_seats]
        for seats in counts:
            game = load_game(name, seats=seats)
            rng = random.Random(0)
            label = name if seats is None else f"{name} {seats} seats"

            def play(game: Game = game, rng: random.Random = rng) -> int:
                return random_playout(game, rng.getrandbits(64), rng)

            loops.append(Loop(label, play))
            if callable(getattr(game.new_initial_state(0), "random_playout", None)):
                loops.append(Loop(f"{label} search playout", search_playout(game)))
    return loops


def search_playout(game: Game) -> Callable[[], int]:
    """A loop over the state's own ``random_playout`` (what the searches play, docs/ai.md):
    uniform random matches as :func:`random_playout` plays them, each action drawn by the
    state from ``rand()`` and no events built (so not the same matches as that loop's)."""
    rng = random.Random(0)

    def play() -> int:
        state = game.new_initial_state(rng.getrandbits(64))
        played: int = getattr(state, "random_playout")(rng.random)  # noqa: B009
        return played

    return play


@dataclass(frozen=True)
class Compared:
    """A loop's medians over the rounds, and its share (%) of the reference's games/s."""

    loop: str
    games_per_second: float
    actions_per_second: float | None
    rounds: tuple[float, ...]
    pct_of_reference: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "loop": self.loop,
            "games_per_second": round(self.games_per_second, 1),
            "actions_per_second": None
            if self.actions_per_second is None
            else round(self.actions_per_second, 1),
            "rounds_games_per_second": [round(rate, 1) for rate in self.rounds],
            "pct_of_reference": None
            if self.pct_of_reference is None
            else round(self.pct_of_reference, 4),
        }


def compare(
    loops: Sequence[Loop],
    seconds: float,
    *,
    rounds: int = 3,
    reference: str | None = None,
    on_timed: Callable[[str], None] | None = None,
) -> list[Compared]:
    """Time every loop ``seconds`` per round, the loops interleaved round after round; each
    loop's median games (and actions) a second, as a share (%) of the ``reference`` loop's
    games a second. ``on_timed`` hears each timing."""
    runs: dict[str, list[BenchResult]] = {loop.label: [] for loop in loops}
    for _ in range(rounds):
        for loop in loops:
            runs[loop.label].append(timed(loop.label, loop.playout, seconds))
            if on_timed is not None:
                on_timed(loop.label)
    medians = {}
    for loop in loops:
        rates = tuple(run.games / run.seconds for run in runs[loop.label])
        actions = statistics.median(run.actions / run.seconds for run in runs[loop.label])
        medians[loop.label] = (
            statistics.median(rates),
            actions if loop.counts_actions else None,
            rates,
        )
    base = medians[reference][0] if reference in medians else None
    return [
        Compared(label, games, actions, rates, 100 * games / base if base else None)
        for label, (games, actions, rates) in medians.items()
    ]


@dataclass(frozen=True)
class Goal:
    """A loop's goal as a share (%) of the reference, against what a comparison measured
    (None: the loop or the reference was not timed)."""

    loop: str
    goal_pct: float
    pct: float | None

    @property
    def met(self) -> bool | None:
        return None if self.pct is None else self.pct >= self.goal_pct

    def to_json(self) -> dict[str, Any]:
        pct = None if self.pct is None else round(self.pct, 4)
        return {"loop": self.loop, "goal_pct": self.goal_pct, "pct": pct, "met": self.met}


def parse_goal(text: str) -> tuple[str, float]:
    """``LOOP=PCT`` (``--goal``), the loop as ``bench --compare`` labels it.

    Raises:
        ValueError: when the text is not a loop, ``=`` and a number.
    """
    loop, sep, value = text.rpartition("=")
    try:
        pct = float(value)
    except ValueError:
        pct = -1.0
    if not sep or not loop.strip() or not pct >= 0:
        raise ValueError(f"--goal is LOOP=PERCENT (a loop of bench --compare), not {text!r}")
    return loop.strip(), pct


def goals(rows: Sequence[Compared], wanted: Sequence[tuple[str, float]]) -> list[Goal]:
    """Every goal of ``wanted`` (loop, share %) with the share its loop reached."""
    shares = {row.loop: row.pct_of_reference for row in rows}
    return [Goal(label, goal, shares.get(label)) for label, goal in wanted]
