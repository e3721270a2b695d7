"""Bots at the server: one runner that takes decisions off the event loop.

The rules and bots are synchronous and pure; the server is async. :class:`BotRunner` is the
one bridge (python-chess's engine module is the model): a decision is a picklable
:class:`BotJob` -- the game, the full state as JSON, the seat, the bot's name and seed --
run in a process pool (or, with no workers, on one thread) under the level's budget and a
time cap the runner owns.

Hints and win-probability lines go through the same pool as an :class:`AnalysisJob`
(:func:`meeple.ai.analyse` on one position for one seat), and the runner keeps the answers
it gave (:meth:`BotRunner.analyse` with a cache key).

The pool is shared by every match, so the runner decides what runs next rather than the
pool's own queue: it hands the pool no more jobs than it has workers, and picks each next
job by :class:`Priority` -- a live move before a hint before an analysis -- and, within a
priority, in turns across owners (an account, or a match with none), so one account's many
matches or analyses wait behind each other and not in front of everybody else's. The
queue is bounded: a hint or analysis that would make it longer than ``queue`` is refused
(:class:`BotsBusy`), and so is a new solo match (:meth:`BotRunner.busy`), while the moves
of the matches already played are always taken: their number is bounded by the matches.

The worker processes die with the server however it ends: each asks the kernel to kill it
when its parent dies (Linux's ``PR_SET_PDEATHSIG``) and watches its parent besides, and
:meth:`BotRunner.close` drops the queue at once and stops the workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import enum
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import meeple.games  # noqa: F401  (importing it registers every game)
from meeple.ai import BOT_NAMES, Budget, MctsBot, analyse, make_bot
from meeple.ai.deadline import deadline
from meeple.ai.levels import LEVELS
from meeple.core import JSON, Action, Seat, load_game

log = logging.getLogger(__name__)

DEFAULT_BOT = "heuristic"
"""The bot a seat gets when none is named: every game has the same ladder, and its
``heuristic`` plays by that game's own rules of thumb."""
ANALYSES_KEPT = 20_000
"""How many analyses (a few hundred bytes each) the runner keeps for the next asker."""
PARENT_CHECK_SECONDS = 1.0
"""How often a worker process looks whether its server is still there."""
PR_SET_PDEATHSIG = 1
OWNERS_KEPT = 10_000
"""Owners whose last turn the runner remembers (the least recent are forgotten first)."""


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


class Priority(enum.IntEnum):
    """What runs first when the pool is busy: a seat waiting on a bot in a live match, then
    a player waiting on a hint, then analyses (a line is many positions; nobody's turn
    waits on it)."""

    MOVE = 0
    HINT = 1
    ANALYSIS = 2


class BotsBusy(Exception):
    """The bot queue is full: new work is refused rather than queued without bound."""

    def __init__(self, retry_after: int, queued: int) -> None:
        super().__init__(f"the bots are busy ({queued} jobs queued)")
        self.retry_after = retry_after
        self.queued = queued


class BotsClosed(RuntimeError):
    """The server is stopping: the runner takes no more work."""


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


def _level_seconds(bot: str, cap: float) -> float:
    """The time a bot may spend on one decision: its level's promise, within ``cap``."""
    found = LEVELS.get(bot.removeprefix("mcts-"))
    return cap if found is None else min(cap, found.move_seconds)


def decide(job: BotJob) -> Action:
    """Rebuild the state from JSON and let the named bot choose (runs in a worker)."""
    game = load_game(job.game_id, seats=job.seats, options=job.options)
    state = game.state_from_json(job.state)
    legal = state.legal_actions(job.seat)
    if len(legal) == 1:
        return legal[0]
    bot = make_bot(job.bot, job.seed)
    if isinstance(bot, MctsBot):
        seconds = _level_seconds(job.bot, job.move_seconds)
        budget = bot.budget.stopping_when(deadline(seconds, time.perf_counter))
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


# -- the worker processes ------------------------------------------------------------------


def _die_with(parent: int) -> None:
    """A worker process's first step: die with the server, however it ends.

    On Linux the kernel sends SIGKILL when the parent dies (set before anything else, then
    the parent checked once: it may have died in between). A thread also checks every
    :data:`PARENT_CHECK_SECONDS` that the parent is still the one that started it, on every
    system. Ctrl-C in a terminal reaches the workers too: the server stops them itself."""
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="meeple-parent-watch", daemon=True).start()


# -- the runner ----------------------------------------------------------------------------


@dataclass(slots=True)
class _Queued:
    work: Callable[[Any], Any]
    job: Any
    done: asyncio.Future[Any]


class BotRunner:
    """Runs :func:`decide` and :func:`analyse_position` off the event loop: ``workers``
    processes, or a thread if 0; at most ``queue`` jobs waiting before new work is
    refused (see the module's docstring)."""

    def __init__(self, workers: int, *, queue: int = 64) -> None:
        self._workers = workers
        self._slots = max(1, workers)
        self._limit = queue
        self._executor = self._start()
        self._analyses: OrderedDict[Hashable, JSON] = OrderedDict()
        self._asked: dict[Hashable, asyncio.Future[JSON]] = {}
        # One queue per priority: each owner's jobs in order.
        self._queues: list[OrderedDict[Hashable, deque[_Queued]]] = [
            OrderedDict() for _ in Priority
        ]
        self._queued = 0
        self._turns = 0
        self._served: OrderedDict[Hashable, int] = OrderedDict()  # owner: its last turn
        self._running: set[asyncio.Task[None]] = set()
        self._closed = False

    def _start(self) -> Executor:
        if self._workers > 0:
            # spawn: the server's process has threads (the database driver's), so no fork.
            context = multiprocessing.get_context("spawn")
            return ProcessPoolExecutor(
                self._workers, mp_context=context, initializer=_die_with, initargs=(os.getpid(),)
            )
        return ThreadPoolExecutor(1, thread_name_prefix="meeple-bot")

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker (not those running)."""
        return self._queued

    def busy(self) -> BotsBusy | None:
        """The refusal new work gets now (a new solo match, a hint, an analysis), or None
        while the queue has room."""
        if self._closed:
            return BotsBusy(5, self._queued)
        if self._queued < self._limit:
            return None
        # Each worker takes about a second a job (the levels' promise): the queue's wait.
        return BotsBusy(max(1, self._queued // self._slots), self._queued)

    async def choose(self, job: BotJob, owner: Hashable = None) -> Action:
        """The bot's action, decided off the event loop, in ``owner``'s turn among the live
        moves. A move is never refused for a full queue (a seat of a match in play waits on
        it). A worker process that died (killed, out of memory) takes the pool with it: the
        pool is started afresh and asked again.

        Raises:
            BotsClosed: the server is stopping.
        """
        answer: Action = await self._run(decide, job, Priority.MOVE, owner)
        return answer

    async def analyse(
        self,
        job: AnalysisJob,
        key: Hashable | None = None,
        *,
        priority: Priority = Priority.ANALYSIS,
        owner: Hashable = None,
    ) -> JSON:
        """:func:`analyse_position` off the event loop, at ``priority`` in ``owner``'s
        turn; with a ``key`` (it must name everything the answer depends on), an answer
        given before under that key is given again without searching.

        Raises:
            ValueError: when the job's seat has no decision in its position.
            BotsBusy: when the queue is full.
            BotsClosed: the server is stopping.
        """
        if key is not None and key in self._analyses:
            self._analyses.move_to_end(key)
            return self._analyses[key]
        asked = None if key is None else self._asked.get(key)
        if asked is not None:  # asked meanwhile by another: one search answers both
            answer: JSON = await asyncio.shield(asked)
            return answer
        refused = self.busy()
        if refused is not None:
            raise refused
        searching = asyncio.ensure_future(self._run(analyse_position, job, priority, owner))
        if key is not None:
            self._asked[key] = searching

            def forget(_: object) -> None:
                self._asked.pop(key, None)

            searching.add_done_callback(forget)
        # Its failure is retrieved here even when every asker has gone meanwhile.
        searching.add_done_callback(lambda done: done.cancelled() or done.exception())
        answer = await asyncio.shield(searching)
        if key is not None:
            self._analyses[key] = answer
            while len(self._analyses) > ANALYSES_KEPT:
                self._analyses.popitem(last=False)
        return answer

    async def _run(
        self, work: Callable[[Any], Any], job: Any, priority: Priority, owner: Hashable
    ) -> Any:
        if self._closed:
            raise BotsClosed("the server is stopping")
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queues[priority].setdefault(owner, deque()).append(_Queued(work, job, done))
        self._queued += 1
        self._pump()
        return await done

    def _next(self) -> _Queued | None:
        """The next job: the first priority with any; there, the oldest job of the owner
        served longest ago (one that comes with a job after the others' were served goes
        before them)."""
        for queue in self._queues:
            while queue:
                owner = min(queue, key=lambda who: self._served.get(who, -1))
                jobs = queue[owner]
                item = jobs.popleft()
                self._queued -= 1
                if not jobs:
                    del queue[owner]
                if item.done.done():  # its asker gave up (a match closed): skip it
                    continue
                self._turns += 1
                self._served[owner] = self._turns
                self._served.move_to_end(owner)
                while len(self._served) > OWNERS_KEPT:
                    self._served.popitem(last=False)
                return item
        return None

    def _pump(self) -> None:
        while not self._closed and len(self._running) < self._slots:
            item = self._next()
            if item is None:
                return
            task = asyncio.get_running_loop().create_task(self._execute(item))
            self._running.add(task)
            task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._running.discard(task)
        self._pump()

    async def _execute(self, item: _Queued) -> None:
        loop = asyncio.get_running_loop()
        try:
            try:
                answer = await loop.run_in_executor(self._executor, item.work, item.job)
            except BrokenExecutor:
                if self._closed:
                    raise BotsClosed("the server is stopping") from None
                self._restart()
                answer = await loop.run_in_executor(self._executor, item.work, item.job)
        except Exception as failed:  # the asker's to handle (ValueError, a dead pool)
            if not item.done.done():
                item.done.set_exception(failed)
            return
        if not item.done.done():
            item.done.set_result(answer)

    def _restart(self) -> None:
        """A worker died and broke the pool: one new pool, whoever notices first."""
        broken = self._executor
        if getattr(broken, "_broken", False):
            broken.shutdown(wait=False, cancel_futures=True)
            self._executor = self._start()

    def close(self) -> None:
        """Stop at once: refuse new work, drop every queued job (their askers get
        :class:`BotsClosed`) and stop the worker processes, a decision in progress with
        them (nothing is acknowledged before it is stored, so nothing acknowledged is
        lost)."""
        self._closed = True
        for queue in self._queues:
            for jobs in queue.values():
                for item in jobs:
                    if not item.done.done():
                        item.done.set_exception(BotsClosed("the server is stopping"))
                        item.done.exception()  # retrieved: no "never retrieved" warning
            queue.clear()
        self._queued = 0
        executor = self._executor
        # The pool forgets its processes when shut down: take them first.
        processes = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(OSError, ValueError):
                process.terminate()
        for process in processes:
            with contextlib.suppress(OSError, ValueError, AssertionError):
                process.join(2)
