"""The bot runner: decisions off the event loop, in a process pool that survives a dead worker."""

from __future__ import annotations

import asyncio
import os
import signal
from concurrent.futures import ProcessPoolExecutor

import meeple.games  # noqa: F401
from meeple.core import load_game
from meeple.server.live.bots import BotJob, BotRunner, decide


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


def test_the_pool_starts_again_when_its_worker_dies() -> None:
    async def run() -> None:
        runner = BotRunner(1)
        first = await runner.choose(_job())
        executor = runner._executor
        assert isinstance(executor, ProcessPoolExecutor)
        for pid in list(executor._processes):  # the worker is killed, as by the OOM killer
            os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.5)
        assert await runner.choose(_job()) == first
        runner.close()

    asyncio.run(run())
