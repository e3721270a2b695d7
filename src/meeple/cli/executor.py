"""Where the matches of a long command run: this process, a pool of processes, or Ray.

Every command that plays or analyses many independent things -- ``selfplay``, ``arena``,
``balance``, ``export-trajectories``, ``replay --analyse`` -- cuts its work into jobs
first (each match's seed derived from the run's seed and the match's index, never from
which worker takes it) and hands them to :func:`run_jobs`, which yields the results **in
job order**. So ``--workers 8`` and ``--executor ray`` write exactly what ``--workers 1``
writes, only sooner.

* ``pool`` (the default): ``--workers N`` processes on this machine (default: every core),
  started with ``spawn``, so a worker begins from a clean interpreter on every platform;
  one worker runs the jobs in this process.
* ``ray``: the same jobs as Ray tasks (``pip install 'meeple[cluster]'``), on a local Ray
  instance started for the run, or on the cluster at ``--address`` (``auto``: the one this
  machine belongs to; ``ray://host:10001``: a remote one). No job distribution of our own.

A job's function must live at module level (the pool and Ray send it by name) and its job
and result must pickle.
"""

from __future__ import annotations

import collections
import importlib
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Annotated, Any, TypeVar

import typer

from meeple.core.registry import registered_kits

J = TypeVar("J")
R = TypeVar("R")

EXECUTORS = ("pool", "ray")
"""What ``--executor`` takes."""

CLUSTER_HINT = "pip install 'meeple[cluster]'"
"""How to install Ray."""


class ExecutorUnavailable(RuntimeError):
    """The executor asked for cannot run here (Ray missing or unreachable); one line."""


def default_workers() -> int:
    """Every core of this machine."""
    return os.cpu_count() or 1


WorkersOption = Annotated[
    int | None,
    typer.Option(min=1, help="Worker processes (default: every core); results as with 1."),
]
ExecutorOption = Annotated[
    str,
    typer.Option(help="pool: processes on this machine; ray: Ray tasks (the cluster extra)."),
]
AddressOption = Annotated[
    str | None,
    typer.Option(help="With --executor ray: the cluster (auto, ray://host:10001); else local."),
]


def check_executor(executor: str) -> str | None:
    """Why ``executor`` cannot be used, in one line, or None."""
    if executor not in EXECUTORS:
        return f"--executor is {' or '.join(EXECUTORS)}, not {executor!r}"
    return None


def run_jobs(
    fn: Callable[[J], R],
    jobs: Sequence[J],
    *,
    workers: int | None = None,
    executor: str = "pool",
    address: str | None = None,
    chunksize: int | None = None,
) -> Iterator[R]:
    """``fn`` applied to every job, the results yielded in the order of ``jobs``.

    ``workers``: processes of the pool (default: every core; never more than jobs); with
    Ray, the CPUs of the local instance started for the run (a cluster at ``address``
    has its own), and at most twice the cluster's CPUs of tasks are in flight at once.
    ``chunksize``: jobs a pool worker takes at a time (default: a few, so that every
    worker gets several chunks).

    Raises:
        ExecutorUnavailable: for an unknown executor, or when Ray is missing or cannot start.
    """
    if (wrong := check_executor(executor)) is not None:
        raise ExecutorUnavailable(wrong)
    count = max(1, min(workers or default_workers(), len(jobs)))
    if executor == "ray":
        return _ray_jobs(fn, jobs, workers, address)
    if count == 1:
        return map(fn, jobs)
    if chunksize is None:
        chunksize = max(1, min(16, len(jobs) // (count * 8)))
    return _pool_jobs(fn, jobs, count, chunksize)


def game_modules() -> tuple[str, ...]:
    """The modules of every game registered in this process: a spawned worker imports them,
    so a game registered here by importing its package (a game of one's own, not shipped
    with meeple) is known there too."""
    return tuple(sorted({cls.__module__ for kit in registered_kits() for cls in kit.games}))


def import_games(modules: Sequence[str]) -> None:
    """A worker's start: import (and so register) every game the parent knows."""
    for module in modules:
        importlib.import_module(module)


def _pool_jobs(
    fn: Callable[[J], R], jobs: Sequence[J], workers: int, chunksize: int
) -> Iterator[R]:
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers, initializer=import_games, initargs=(game_modules(),)) as pool:
        yield from pool.imap(fn, jobs, chunksize)


def _ray_jobs(
    fn: Callable[[J], R], jobs: Sequence[J], workers: int | None, address: str | None
) -> Iterator[R]:
    """Start (or join) Ray now, so that a failure to start is raised here, not mid-run."""
    ray = _ray()
    started = False
    if not ray.is_initialized():
        settings: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address is None:
            settings["num_cpus"] = workers or default_workers()
        try:
            ray.init(address=address, **settings)
        except Exception as error:  # Ray raises many kinds; one line for all
            where = f"at {address!r}" if address else "on this machine"
            words = str(error).strip()
            first = words.splitlines()[0] if words else ""
            raise ExecutorUnavailable(
                f"Ray could not start {where}: {type(error).__name__}: {first}"
            ) from error
        started = True
    return _ray_results(ray, started, fn, jobs)


def _ray_results(ray: Any, started: bool, fn: Callable[[J], R], jobs: Sequence[J]) -> Iterator[R]:
    """The jobs as Ray tasks, at most two per CPU of the cluster in flight, in job order."""
    try:
        remote = ray.remote(fn)
        window = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
        pending: collections.deque[Any] = collections.deque()
        for job in jobs:
            pending.append(remote.remote(job))
            if len(pending) >= window:
                yield ray.get(pending.popleft())
        while pending:
            yield ray.get(pending.popleft())
    finally:
        if started:
            ray.shutdown()


def _ray() -> Any:
    try:
        import ray  # noqa: PLC0415 (the cluster extra; the rest of the CLI needs none of it)
    except ImportError as error:
        raise ExecutorUnavailable(
            f"--executor ray needs Ray, which is not installed: {CLUSTER_HINT}"
        ) from error
    return ray
