"""Bots at the server: one runner that takes decisions off the event loop.

The rules and bots are synchronous and pure; the server is async. :class:`BotRunner` is the
one bridge (python-chess's engine module is the model): a decision is a picklable
:class:`BotJob` -- the game, the full state as JSON, the seat, the bot's name and seed --
run in a worker process (or, with no workers, on one thread) under the level's budget and
a time cap the runner owns.

Hints and win-probability lines go through the same pool as an :class:`AnalysisJob`
(:func:`meeple.ai.analyse` on one position for one seat), and the runner keeps the answers
it gave (:meth:`BotRunner.analyse` with a cache key).

The pool is shared by every match, so the runner decides what runs next rather than the
pool's own queue: it hands the pool no more jobs than it has workers, and picks each next
job in rounds across owners (an account, or a match with none): each owner with work
waiting has one job a round, and within a round the jobs go by :class:`Priority` -- a live
move before a hint before an analysis. So one account's many matches or analyses wait
behind each other and not in front of everybody else's: once it has had its turn in a
round, its next live move waits behind another owner's hint (when priority alone chose,
one account's eight expert matches, each answered at once, kept every other player's
hint waiting for as long as they lasted).

A decision of a bot that does not search (:func:`searches`: random, greedy, heuristic and
the heuristic's other names decide in milliseconds) goes to a lane of its own: the quick
lane's workers never run a search, so such a decision never waits behind one (with one
search worker it once waited a whole expert search, 3.3 s on a busy machine). Searches --
the MCTS levels' moves, hints and analyses -- share the search lane. Each lane has its
own workers and rounds; the queue's bound counts both. The queue is bounded: a hint or
analysis that would make it longer than ``queue`` is refused (:class:`BotsBusy`), and so
is a new solo match (:meth:`BotRunner.busy`), while the moves of the matches already
played are always taken: their number is bounded by the matches.

The worker processes are the runner's own: each is a Python interpreter started with
:mod:`subprocess` that reads jobs from its standard input and writes the answers to its
standard output, one at a time (:func:`serve_jobs`). Not :mod:`multiprocessing`: its pools
(every start method but ``fork``, which a server with threads must not use) start a
resource-tracker process beside them, which outlived the server for a moment however it
ended -- uvicorn ends a SIGTERM by raising the signal again, so the process dies of it and
no exit handler runs -- and stopping it by hand unlinks the pool's semaphores while they
are in use. These workers need nothing of the kind and die with the server however it
ends: each asks the kernel to kill it when its parent dies (Linux's ``PR_SET_PDEATHSIG``),
watches its parent besides, and ends when its standard input does; :meth:`BotRunner.close`
drops the queue at once and stops the workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import enum
import json
import logging
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import IO, Any

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
STOP_SECONDS = 2.0
"""How long a stopped worker process may take to end before it is killed."""
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


SEARCHING_BOTS = frozenset(level.bot_name for level in LEVELS.values())
"""The bots that search (the MCTS levels): their decisions take up to their level's time."""


def searches(bot: str) -> bool:
    """Whether the bot called ``bot`` searches (its decision takes up to its level's
    seconds) rather than deciding in milliseconds by rules of thumb."""
    return bot in SEARCHING_BOTS


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


def serve_jobs(parent: int) -> None:
    """A worker process's loop: read ``(work, job)`` from standard input, answer
    ``(True, work(job))`` or ``(False, the exception)`` on standard output, until standard
    input ends (the runner closed it, or the server died).

    Only the server that started the worker writes to its standard input (a pipe). What the
    rules or bots print goes to standard error (the server's log), not among the answers."""
    _die_with(parent)
    jobs = sys.stdin.buffer
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    while True:
        try:
            work, job = pickle.load(jobs)
        except EOFError:
            return
        try:
            answer: tuple[bool, Any] = (True, work(job))
        except Exception as failed:  # the asker's to handle (a ValueError, ...)
            answer = (False, failed)
        try:
            text = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        except Exception as unpicklable:  # an answer or exception that does not pickle
            text = pickle.dumps((False, RuntimeError(f"{answer[1]!r:.300} ({unpicklable})")))
        answers.write(text)
        answers.flush()


_WORKER = (
    "import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
    "from meeple.server.live.bots import serve_jobs; serve_jobs(int(sys.argv[2]))"
)
"""A worker's program: the server's import path (as ``multiprocessing``'s spawn gives it),
then :func:`serve_jobs`."""


class WorkerLost(Exception):
    """A worker process ended before it answered (killed, out of memory, stopped)."""


class _Worker:
    """One worker process and its two pipes; :meth:`call` runs on a thread of its own."""

    def __init__(self) -> None:
        # Started from the event loop's thread: PR_SET_PDEATHSIG follows the thread that
        # started a process, and that thread lives as long as the server.
        self.process = subprocess.Popen(
            [sys.executable, "-c", _WORKER, json.dumps(sys.path), str(os.getpid())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self._jobs: IO[bytes] = self.process.stdin  # type: ignore[assignment]
        self._answers: IO[bytes] = self.process.stdout  # type: ignore[assignment]

    def call(self, work: Callable[[Any], Any], job: Any) -> Any:
        """``work(job)`` in the worker (blocks until it answers).

        Raises:
            WorkerLost: the worker ended first (it is reaped).
            Exception: what ``work`` raised there.
        """
        try:
            self._jobs.write(pickle.dumps((work, job), pickle.HIGHEST_PROTOCOL))
            self._jobs.flush()
            done, answer = pickle.load(self._answers)
        except (OSError, EOFError, pickle.UnpicklingError, ValueError) as lost:
            self.stop()
            raise WorkerLost(f"bot worker {self.process.pid} ended") from lost
        if done:
            return answer
        raise answer

    def stop(self, wait: float = STOP_SECONDS) -> None:
        """End the worker (a search in progress with it) and reap it."""
        with contextlib.suppress(OSError):
            self.process.terminate()
        try:
            self.process.wait(wait)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for pipe in (self._jobs, self._answers):
            with contextlib.suppress(OSError, ValueError):
                pipe.close()


# -- the runner ---------------------------------------------------------------------------


@dataclass(slots=True)
class _Queued:
    work: Callable[[Any], Any]
    job: Any
    done: asyncio.Future[Any]


class _Lane:
    """Workers of one kind (the search lane's, or the quick lane's that never search) and
    the jobs waiting for them: one queue per priority, each owner's jobs in order, and
    each owner's last turn and its round."""

    def __init__(self, name: str, processes: bool, slots: int) -> None:
        self.name = name
        self.processes = processes  # worker processes, else a thread deciding itself
        self.slots = slots
        # With processes, a thread per worker waits on its answer; with none, each thread
        # decides itself.
        self.threads = ThreadPoolExecutor(slots, thread_name_prefix=f"meeple-bot-{name}")
        self.idle: list[_Worker] = []
        self.queues: list[OrderedDict[Hashable, deque[_Queued]]] = [OrderedDict() for _ in Priority]
        self.queued = 0
        self.round = 0  # the round of the job started last
        self.turns = 0
        # owner: the round and number of its last turn
        self.served: OrderedDict[Hashable, tuple[int, int]] = OrderedDict()
        self.running: set[asyncio.Task[None]] = set()

    def next(self) -> _Queued | None:
        """The next job, in rounds: each owner with a job waiting has one job a round; within
        a round a live move goes before a hint before an analysis, and among owners at the
        same priority the one served longest ago first. An owner served in the current round
        waits for the next, so one owner's many jobs, of any priority, never keep another
        owner's waiting (a hint waits behind at most one live move of each other owner, and
        a live move behind at most one job of each)."""
        while True:
            best: tuple[tuple[int, int, int], Hashable] | None = None
            for priority, queue in enumerate(self.queues):
                for owner in queue:
                    served = self.served.get(owner)
                    if served is None:
                        key = (self.round, priority, -1)
                    else:
                        key = (max(self.round, served[0] + 1), priority, served[1])
                    if best is None or key < best[0]:
                        best = (key, owner)
            if best is None:
                return None
            (turn_round, priority, _), owner = best
            jobs = self.queues[priority][owner]
            item = jobs.popleft()
            self.queued -= 1
            if not jobs:
                del self.queues[priority][owner]
            if item.done.done():  # its asker gave up (a match closed): skip it
                continue
            self.round = turn_round
            self.turns += 1
            self.served[owner] = (turn_round, self.turns)
            self.served.move_to_end(owner)
            while len(self.served) > OWNERS_KEPT:
                self.served.popitem(last=False)
            return item

    def drop(self) -> None:
        """Give every queued job's asker :class:`BotsClosed` and forget the jobs."""
        for queue in self.queues:
            for jobs in queue.values():
                for item in jobs:
                    if not item.done.done():
                        item.done.set_exception(BotsClosed("the server is stopping"))
                        item.done.exception()  # retrieved: no "never retrieved" warning
            queue.clear()
        self.queued = 0
        self.idle.clear()


class BotRunner:
    """Runs :func:`decide` and :func:`analyse_position` off the event loop: ``workers``
    search processes and ``quick`` processes for the bots that do not search (each started
    when first needed), or a thread for each lane if ``workers`` is 0; ``quick`` 0 sends
    every job to the search lane. At most ``queue`` jobs wait before new work is refused
    (see the module's docstring)."""

    def __init__(self, workers: int, *, queue: int = 64, quick: int = 1) -> None:
        self._limit = queue
        self._search = _Lane("search", workers > 0, max(1, workers))
        self._quick = _Lane("quick", workers > 0, quick) if quick > 0 else None
        self._processes: set[_Worker] = set()  # every worker process started and not stopped
        self._analyses: OrderedDict[Hashable, JSON] = OrderedDict()
        self._asked: dict[Hashable, asyncio.Future[JSON]] = {}
        self._closed = False

    @property
    def _lanes(self) -> tuple[_Lane, ...]:
        return (self._search,) if self._quick is None else (self._search, self._quick)

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker (not those running)."""
        return sum(lane.queued for lane in self._lanes)

    def busy(self) -> BotsBusy | None:
        """The refusal new work gets now (a new solo match, a hint, an analysis), or None
        while the queue has room."""
        queued = self.queued
        if self._closed:
            return BotsBusy(5, queued)
        if queued < self._limit:
            return None
        # Each search worker takes about a second a job (the levels' promise): the wait.
        return BotsBusy(max(1, self._search.queued // self._search.slots), queued)

    async def choose(self, job: BotJob, owner: Hashable = None) -> Action:
        """The bot's action, decided off the event loop, in ``owner``'s turn among the live
        moves (in the quick lane for a bot that does not search). A move is never refused
        for a full queue (a seat of a match in play waits on it). When a worker process
        dies on a job (killed, out of memory), another is started in its place and asked
        again, once.

        Raises:
            BotsClosed: the server is stopping.
        """
        lane = self._search if self._quick is None or searches(job.bot) else self._quick
        answer: Action = await self._run(lane, decide, job, Priority.MOVE, owner)
        return answer

    async def analyse(
        self,
        job: AnalysisJob,
        key: Hashable | None = None,
        *,
        priority: Priority = Priority.ANALYSIS,
        owner: Hashable = None,
    ) -> JSON:
        """:func:`analyse_position` off the event loop (in the search lane), at
        ``priority`` in ``owner``'s turn; with a ``key`` (it must name everything the
        answer depends on), an answer given before under that key is given again without
        searching.

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
        searching = asyncio.ensure_future(
            self._run(self._search, analyse_position, job, priority, owner)
        )
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
        self,
        lane: _Lane,
        work: Callable[[Any], Any],
        job: Any,
        priority: Priority,
        owner: Hashable,
    ) -> Any:
        if self._closed:
            raise BotsClosed("the server is stopping")
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        lane.queues[priority].setdefault(owner, deque()).append(_Queued(work, job, done))
        lane.queued += 1
        self._pump(lane)
        return await done

    def _pump(self, lane: _Lane) -> None:
        while not self._closed and len(lane.running) < lane.slots:
            item = lane.next()
            if item is None:
                return
            task = asyncio.get_running_loop().create_task(self._execute(lane, item))
            lane.running.add(task)

            def finished(task: asyncio.Task[None], lane: _Lane = lane) -> None:
                lane.running.discard(task)
                self._pump(lane)

            task.add_done_callback(finished)

    async def _execute(self, lane: _Lane, item: _Queued) -> None:
        try:
            answer = await self._call(lane, item.work, item.job)
        except Exception as failed:  # the asker's to handle (ValueError, a lost worker)
            if not item.done.done():
                item.done.set_exception(failed)
            return
        if not item.done.done():
            item.done.set_result(answer)

    async def _call(self, lane: _Lane, work: Callable[[Any], Any], job: Any) -> Any:
        """``work(job)`` on the lane's thread, or in an idle worker process of the lane (one
        is started when none is idle: :meth:`_pump` runs no more jobs at once than the lane
        has workers)."""
        loop = asyncio.get_running_loop()
        if not lane.processes:
            return await loop.run_in_executor(lane.threads, work, job)
        for attempt in range(2):
            worker = lane.idle.pop() if lane.idle else self._started()
            try:
                answer = await loop.run_in_executor(lane.threads, worker.call, work, job)
            except WorkerLost:
                self._processes.discard(worker)
                if self._closed:
                    raise BotsClosed("the server is stopping") from None
                if attempt == 1:
                    raise
                log.warning("a bot worker process ended on a job; asking a new one")
                continue
            except Exception:
                lane.idle.append(worker)  # it answered (an exception): it goes on serving
                raise
            except BaseException:  # cancelled while its thread still waits on the worker
                self._processes.discard(worker)
                with contextlib.suppress(OSError):
                    worker.process.kill()  # the thread gets WorkerLost and reaps it
                raise
            lane.idle.append(worker)
            return answer
        raise AssertionError("unreachable")  # pragma: no cover

    def _started(self) -> _Worker:
        if self._closed:
            raise BotsClosed("the server is stopping")
        worker = _Worker()
        self._processes.add(worker)
        return worker

    def close(self) -> None:
        """Stop at once: refuse new work, drop every queued job (their askers get
        :class:`BotsClosed`) and stop the worker processes, a decision in progress with
        them (nothing is acknowledged before it is stored, so nothing acknowledged is
        lost)."""
        self._closed = True
        for lane in self._lanes:
            lane.drop()
        workers = list(self._processes)
        self._processes.clear()
        for worker in workers:  # all at once, then each waited for
            with contextlib.suppress(OSError):
                worker.process.terminate()
        for worker in workers:
            worker.stop()
        # The threads waiting on the stopped workers' answers end with them.
        for lane in self._lanes:
            lane.threads.shutdown(wait=False, cancel_futures=True)
