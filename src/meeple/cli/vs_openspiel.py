"""Our top MCTS level against OpenSpiel's MCTS, through our OpenSpiel adapter (``meeple
vs-openspiel``).

Both sides get the same time per move: ours searches until a deadline; OpenSpiel's bot
(random rollouts) gets the number of simulations it manages in that time, measured first.
Opponent ``mcts`` is OpenSpiel's ``MCTSBot``, which clones and searches the adapter's full
state: it sees the face-down deck order and the bag's future draws, which ours never does.
Opponent ``ismcts`` is OpenSpiel's information-set MCTS (``ISMCTSBot``), which redraws the
hidden state through the adapter's ``resample_from_infostate`` (meeple's
``State.resample``), as ours does: the fair comparison.

Matches come in pairs on the same deal, our bot in seat 0 in one and seat 1 in the other,
so each side starts (is the first active seat) equally often. The report gives the
calibration (both searches' iterations per second) and the result with a Wilson 95 %
interval.

Needs the OpenSpiel extra.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import meeple.adapters.openspiel  # noqa: F401  (registers meeple_<game>)
from meeple.ai import Budget, Mcts, make_bot
from meeple.ai.deadline import deadline
from meeple.cli.arena import decide
from meeple.core import mix_seed
from meeple.core.stats import wilson


def their_bot(game: pyspiel.Game, simulations: int, seed: int, kind: str = "mcts") -> pyspiel.Bot:
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    if kind == "ismcts":
        return ismcts.ISMCTSBot(
            game,
            evaluator,
            2.0,
            simulations,
            random_state=rng,
            allow_inconsistent_action_sets=True,
        )
    return mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng, solve=False)


def dealt(game: pyspiel.Game, index: int) -> pyspiel.State:
    state = game.new_initial_state()
    state.apply_action(index % game.get_parameters().get("deals", 4096))
    return state


def rates(game: pyspiel.Game, seconds: float, kind: str) -> tuple[float, float]:
    """Iterations per second of OpenSpiel's bot and of ours on a few dealt openings."""
    theirs = ours = 0.0
    for index in range(3):
        state = dealt(game, index)
        start = time.perf_counter()
        their_bot(game, 100, index, kind).step(state)
        theirs += 100 / (time.perf_counter() - start)
        meeple_state = state.meeple
        seat = meeple_state.deciding_seats()[0]
        budget = Budget(10**9, should_stop=deadline(seconds, time.perf_counter), check_every=1)
        start = time.perf_counter()
        done = Mcts().run(meeple_state, seat, budget, index).iterations
        ours += done / (time.perf_counter() - start)
    return theirs / 3, ours / 3


def play(game: pyspiel.Game, index: int, simulations: int, seconds: float, kind: str) -> float:
    """One match: matches 2k and 2k + 1 share a deal, our seat alternates.

    Returns our score (1 win, ½ draw, 0 loss).
    """
    ours_seat = index % 2
    state = dealt(game, 1000 + index // 2)
    ours = make_bot("mcts-expert", mix_seed(index, 1))
    theirs = their_bot(game, simulations, index, kind)
    while not state.is_terminal():
        player = state.current_player()
        if player == ours_seat:
            action = decide(ours, state.meeple, player, seconds)
        else:
            action = theirs.step(state)
        state.apply_action(action)
    returns = state.returns()
    return 0.5 if returns[ours_seat] == 0 else float(returns[ours_seat] > 0)


def run(
    name: str,
    games: int,
    seconds: float,
    *,
    opponent: str = "mcts",
    first: int = 0,
    on_match: Callable[[int, float], None] | None = None,
) -> dict[str, Any]:
    """Calibrate, then play matches ``first`` .. ``first + games - 1`` of the game ``name``
    (``meeple_<name>`` in OpenSpiel); the report as JSON-ready data. ``on_match`` hears each
    match's index and our score in it."""
    game = pyspiel.load_game(f"meeple_{name}")
    theirs, ours = rates(game, seconds, opponent)
    simulations = max(2, int(theirs * seconds))
    scores = []
    for index in range(first, first + games):
        scores.append(play(game, index, simulations, seconds, opponent))
        if on_match is not None:
            on_match(index, scores[-1])
    score = sum(scores)
    low, high = wilson(score, len(scores))
    return {
        "game": name,
        "opponent": opponent,
        "seconds_per_move": seconds,
        "load_average_1min": round(os.getloadavg()[0], 2),
        "openspiel_iterations_per_second": round(theirs, 1),
        "meeple_iterations_per_second": round(ours, 1),
        "speed_ratio": round(ours / theirs, 2),
        "openspiel_simulations_per_move": simulations,
        "games": len(scores),
        "scores": scores,
        "meeple_score": score,
        "meeple_score_pct": round(100 * score / len(scores), 1),
        "wilson95_pct": [round(100 * low, 1), round(100 * high, 1)],
    }
