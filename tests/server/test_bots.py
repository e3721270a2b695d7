"""The bot runner: decisions off the event loop, in worker processes that survive a dead one."""

from __future__ import annotations

import asyncio
import os
import signal
from collections import deque
from typing import Any

import pytest

import meeple.games  # noqa: F401
from meeple.core import load_game
from meeple.server.live.bots import (
    AnalysisJob,
    BotJob,
    BotRunner,
    BotsClosed,
    Priority,
    _Lane,
    _Queued,
    decide,
    searches,
)


def _job(bot: str = "greedy") -> BotJob:
    game = load_game("maatatahay")
    state = game.new_initial_state(3)
    seat = state.deciding_seats()[0]
    return BotJob(game.id, 2, dict(game.options), state.to_json(), seat, bot, 5, 0.2)


def test_a_decision_is_a_legal_action_and_the_same_for_the_same_seed() -> None:
    job = _job("mcts-easy")
    state = load_game("maatatahay").state_from_json(job.state)
    action = decide(job)
    assert action in state.legal_actions(job.seat)
    assert decide(job) == action


def test_a_worker_starts_again_when_it_dies_and_close_leaves_no_process() -> None:
    async def run() -> None:
        runner = BotRunner(1)
        first = await runner.choose(_job())
        (worker,) = runner._processes
        os.kill(worker.process.pid, signal.SIGKILL)  # as by the OOM killer
        await asyncio.sleep(0.5)
        assert await runner.choose(_job()) == first
        (again,) = runner._processes
        assert again is not worker and worker.process.returncode is not None
        runner.close()
        assert again.process.returncode is not None  # stopped and reaped

    asyncio.run(run())


def test_a_worker_s_refusal_reaches_the_asker_and_the_worker_serves_on() -> None:
    job = _job()
    idle = 1 - job.seat  # the seat that does not decide: analyse refuses it

    async def run() -> None:
        runner = BotRunner(1)
        try:
            asked = AnalysisJob(job.game_id, 2, job.options, job.state, idle, 20, 1, 1.0)
            with pytest.raises(ValueError):
                await runner.analyse(asked)
            (worker,) = runner._processes
            await runner.choose(_job("mcts-easy"))  # a search: the same lane, the same worker
            assert runner._processes == {worker}
        finally:
            runner.close()

    asyncio.run(run())


def test_only_the_mcts_levels_search() -> None:
    assert searches("mcts-easy") and searches("mcts-expert")
    assert not any(searches(name) for name in ("random", "greedy", "heuristic"))


def _long_analysis() -> AnalysisJob:
    """A search that would run for a minute: it runs until the runner is closed."""
    job = _job()
    return AnalysisJob(job.game_id, 2, job.options, job.state, job.seat, 10**9, 1, 60.0)


def test_a_quick_bot_decides_while_a_search_runs_and_its_lane_never_searches() -> None:
    """With one search worker busy for a minute, heuristic and greedy moves are answered by
    the quick lane, in turns and without waiting for the search."""

    async def run() -> None:
        runner = BotRunner(1)
        try:
            searching = asyncio.ensure_future(runner.analyse(_long_analysis()))
            expert = asyncio.ensure_future(runner.choose(_job("mcts-expert"), "flooder"))
            while not runner._search.running:
                await asyncio.sleep(0.01)
            quick = [runner.choose(_job(bot), "victim") for bot in ("heuristic", "greedy")]
            await asyncio.gather(*quick)
            assert not searching.done() and not expert.done()
            assert runner._search.queued == 1  # the expert's move waits for the search
            assert runner._quick is not None and runner._quick.turns == 2
        finally:
            runner.close()
        for waiting in (searching, expert):
            with pytest.raises(BotsClosed):
                await waiting

    asyncio.run(run())


def test_without_a_quick_lane_every_bot_shares_the_search_workers() -> None:
    async def run() -> None:
        runner = BotRunner(1, quick=0)
        try:
            await runner.choose(_job("heuristic"))
            job = _job()
            await runner.analyse(
                AnalysisJob(job.game_id, 2, job.options, job.state, job.seat, 20, 1, 5)
            )
            assert runner._quick is None and len(runner._processes) == 1
        finally:
            runner.close()

    asyncio.run(run())


def test_each_owner_has_one_job_a_round_and_a_round_goes_by_priority() -> None:
    """One account's live moves keep nobody's hint waiting past one of them; within a round
    a live move goes before a hint before a line's position."""

    async def run() -> None:
        lane = _Lane("search", False, 1)
        loop = asyncio.get_running_loop()

        def queue(priority: Priority, owner: str, name: str) -> None:
            done: asyncio.Future[Any] = loop.create_future()
            lane.queues[priority].setdefault(owner, deque()).append(_Queued(print, name, done))
            lane.queued += 1

        for n in range(4):
            queue(Priority.MOVE, "flooder", f"flood {n}")
        queue(Priority.ANALYSIS, "analyst", "line")
        queue(Priority.HINT, "victim", "hint")
        queue(Priority.MOVE, "player", "move")
        order = []
        while (item := lane.next()) is not None:
            order.append(item.job)
        assert order == ["flood 0", "move", "hint", "line", "flood 1", "flood 2", "flood 3"]
        assert lane.queued == 0
        # A newcomer joins the current round: the flooder, served in it, waits.
        queue(Priority.MOVE, "flooder", "flood 4")
        queue(Priority.ANALYSIS, "newcomer", "line 2")
        assert [item.job for item in (lane.next(), lane.next()) if item] == ["line 2", "flood 4"]

    asyncio.run(run())
