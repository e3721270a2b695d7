"""Bots at the server: one runner that takes decisions off the event loop.

The rules and bots are synchronous and pure; the server is async. :class:`BotRunner` is the
one bridge (python-chess's engine module is the model): a decision is a picklable
:class:`BotJob` -- the game, the full state as JSON, the seat, the bot's name and seed --
run in a process pool (or, with no workers, on one thread) under the level's budget and a
time cap the runner owns.

Hints and win-probability lines go through the same pool as an :class:`AnalysisJob`
(:func:`meeple.ai.analyse` on one position for one seat). The runner takes one analysis at
a time, so bot decisions queued meanwhile still get their turn between the positions of a
long line, and keeps the answers it gave (:meth:`BotRunner.analyse` with a cache key).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import meeple.games  # noqa: F401  (importing it registers every game)
from meeple.ai import BOT_NAMES, Budget, MctsBot, analyse, make_bot
from meeple.ai.deadline import deadline
from meeple.core import JSON, Action, Seat, load_game

DEFAULT_BOT = "heuristic"
ANALYSES_KEPT = 20_000
"""How many analyses (a few hundred bytes each) the runner keeps for the next asker."""

_Job = TypeVar("_Job")
_Answer = TypeVar("_Answer")
"""The bot a seat gets when none is named: every game has the same ladder, and its
``heuristic`` plays by that game's own rules of thumb."""


def default_bot() -> str:
    return DEFAULT_BOT


def check_bot_name(name: str) -> str:
    """``name`` if it is a bot :func:`meeple.ai.make_bot` knows.

    Raises:
        ValueError: naming the known bots.
    """
    if name not in BOT_NAMES:
        raise ValueError(f"no bot {name[:40]!r}; known: {', '.join(BOT_NAMES)}")
    return name


@dataclass(frozen=True, slots=True)
class BotJob:
    """One decision: everything a worker process needs, and nothing live."""

    game_id: str
    seats: int
    options: dict[str, Any]
    state: JSON
    seat: Seat
    bot: str
    seed: int
    move_seconds: float


def decide(job: BotJob) -> Action:
    """Rebuild the state from JSON and let the named bot choose (runs in a worker)."""
    game = load_game(job.game_id, seats=job.seats, options=job.options)
    state = game.state_from_json(job.state)
    legal = state.legal_actions(job.seat)
    if len(legal) == 1:
        return legal[0]
    bot = make_bot(job.bot, job.seed)
    if isinstance(bot, MctsBot):
        budget = bot.budget.stopping_when(deadline(job.move_seconds, time.perf_counter))
        return bot.search(state, job.seat, budget).action
    return bot.select(state, job.seat)


@dataclass(frozen=True, slots=True)
class AnalysisJob:
    """One position to analyse for one seat: the full state travels, and
    :func:`meeple.ai.analyse` itself looks only at what ``seat`` may see (every search
    iteration starts from ``state.resample(seat, ...)``)."""

    game_id: str
    seats: int
    options: dict[str, Any]
    state: JSON
    seat: Seat
    iterations: int
    seed: int
    seconds: float
    """A safety cap on the clock; the iteration budget is what makes answers repeatable."""


def analyse_position(job: AnalysisJob) -> JSON:
    """``analyse(state, seat).to_json()`` for the job's position (runs in a worker).

    Raises:
        ValueError: when the seat has no decision in that position.
    """
    game = load_game(job.game_id, seats=job.seats, options=job.options)
    state = game.state_from_json(job.state)
    budget = Budget(job.iterations, should_stop=deadline(job.seconds, time.perf_counter))
    return analyse(state, job.seat, budget, seed=job.seed).to_json()


class BotRunner:
    """Runs :func:`decide` off the event loop: ``workers`` processes, or a thread if 0."""

    def __init__(self, workers: int) -> None:
        self._workers = workers
        self._executor = self._start()
        self._analysing = asyncio.Lock()
        self._analyses: OrderedDict[Hashable, JSON] = OrderedDict()

    def _start(self) -> Executor:
        if self._workers > 0:
            # spawn: the server's process has threads (the database driver's), so no fork.
            context = multiprocessing.get_context("spawn")
            return ProcessPoolExecutor(self._workers, mp_context=context)
        return ThreadPoolExecutor(1, thread_name_prefix="meeple-bot")

    async def choose(self, job: BotJob) -> Action:
        """The bot's action, decided off the event loop. A worker process that died (killed,
        out of memory) takes the pool with it: the pool is started afresh and asked again."""
        return await self._run(decide, job)

    async def analyse(self, job: AnalysisJob, key: Hashable | None = None) -> JSON:
        """:func:`analyse_position` off the event loop, one analysis at a time; with a
        ``key`` (it must name everything the answer depends on), an answer given before
        under that key is given again without searching.

        Raises:
            ValueError: when the job's seat has no decision in its position.
        """
        if key is not None and key in self._analyses:
            self._analyses.move_to_end(key)
            return self._analyses[key]
        async with self._analysing:
            if key is not None and key in self._analyses:  # asked meanwhile by another
                return self._analyses[key]
            answer = await self._run(analyse_position, job)
        if key is not None:
            self._analyses[key] = answer
            while len(self._analyses) > ANALYSES_KEPT:
                self._analyses.popitem(last=False)
        return answer

    async def _run(self, work: Callable[[_Job], _Answer], job: _Job) -> _Answer:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, work, job)
        except BrokenExecutor:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = self._start()
            return await loop.run_in_executor(self._executor, work, job)

    def close(self) -> None:
        """Drop the queued decisions and wait for the one being taken (at most its budget)."""
        self._executor.shutdown(wait=True, cancel_futures=True)
