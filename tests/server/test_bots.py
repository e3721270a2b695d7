"""The bot runner: decisions off the event loop, in worker processes that survive a dead one."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

import meeple.games  # noqa: F401
from meeple.core import load_game
from meeple.server.live.bots import AnalysisJob, BotJob, BotRunner, decide


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
            await runner.choose(job)
            assert runner._processes == {worker}
        finally:
            runner.close()

    asyncio.run(run())
