"""Our top MCTS level against OpenSpiel's MCTS, through our OpenSpiel adapter (``meeple
vs-openspiel``).

Both sides get the same time per move: ours searches until a deadline; OpenSpiel's bot
(random rollouts) gets the number of simulations it manages in that time, measured first --
or, as ``mcts-clock`` (what ``meeple bench --mcts`` plays), its own search loop with the
same deadline (:class:`ClockedMCTSBot`).
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
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import meeple.adapters.openspiel  # noqa: F401  (registers meeple_<game>)
from meeple.adapters.openspiel import TURNS
from meeple.ai import Budget, Mcts, make_bot
from meeple.ai.deadline import deadline
from meeple.cli.arena import decide
from meeple.core import mix_seed
from meeple.core.stats import wilson


class _OutOfTime(Exception):
    """The deadline of a :class:`ClockedMCTSBot` search passed."""


class ClockedMCTSBot(mcts.MCTSBot):  # type: ignore[misc]  # OpenSpiel has no type hints
    """OpenSpiel's ``MCTSBot`` searching until a wall-clock deadline, not for a number of
    simulations: the same search loop, stopped before a simulation that would start after
    ``seconds``. At least two run: the first only visits the root, the second expands it
    (so the bot always has a move). ``simulations`` counts those of the last search."""

    def __init__(
        self,
        game: pyspiel.Game,
        seconds: float,
        evaluator: Any,
        random_state: np.random.RandomState,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        super().__init__(game, 2.0, 10**9, evaluator, random_state=random_state, solve=False)
        self.seconds = seconds
        self.clock = clock
        self.simulations = 0
        self._deadline = 0.0
        self._root: Any = None

    def mcts_search(self, state: pyspiel.State) -> Any:
        self.simulations = 0
        self._deadline = self.clock() + self.seconds
        try:
            return super().mcts_search(state)
        except _OutOfTime:
            return self._root

    def _apply_tree_policy(self, root: Any, state: pyspiel.State) -> Any:
        # The first call of every simulation, before it touches the tree: stopping here
        # leaves a tree of whole simulations, which mcts_search would have returned.
        if self.simulations >= 2 and self.clock() >= self._deadline:
            self._root = root
            raise _OutOfTime
        self.simulations += 1
        return super()._apply_tree_policy(root, state)


def their_bot(
    game: pyspiel.Game, simulations: int, seed: int, kind: str = "mcts", seconds: float = 0.0
) -> pyspiel.Bot:
    """OpenSpiel's bot: ``mcts`` and ``ismcts`` with ``simulations`` a move, ``mcts-clock``
    searching ``seconds`` a move."""
    rng = np.random.RandomState(seed % (1 << 32))
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    if kind == "mcts-clock":
        return ClockedMCTSBot(game, seconds, evaluator, rng)
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


def load(name: str) -> pyspiel.Game:
    """The OpenSpiel game the bots play: ``meeple_<name>``, or for a game of simultaneous
    planning its form in turns (``meeple_<name>_turns``): OpenSpiel's MCTS and IS-MCTS play
    only games whose seats decide one at a time."""
    turns = f"meeple_{name}{TURNS}"
    registered = {game.short_name for game in pyspiel.registered_games()}
    return pyspiel.load_game(turns if turns in registered else f"meeple_{name}")


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
        their_bot(game, 100, index, "mcts" if kind == "mcts-clock" else kind).step(state)
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
    theirs = their_bot(game, simulations, index, kind, seconds)
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
    game = load(name)
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


# -- meeple bench --mcts ---------------------------------------------------------------------


def _our_rate(state: pyspiel.State, seconds: float, seed: int) -> float:
    """Our MCTS (the levels' policy) on the adapter's meeple state: iterations a second."""
    meeple_state = state.meeple
    seat = meeple_state.deciding_seats()[0]
    budget = Budget(10**9, should_stop=deadline(seconds, time.perf_counter), check_every=1)
    start = time.perf_counter()
    done = Mcts().run(meeple_state, seat, budget, seed).iterations
    return float(done) / (time.perf_counter() - start)


def _their_rate(game: pyspiel.Game, state: pyspiel.State, seconds: float, seed: int) -> float:
    """OpenSpiel's MCTSBot searching ``seconds`` on the adapter's state: simulations a second."""
    bot = their_bot(game, 0, seed, "mcts-clock", seconds)
    start = time.perf_counter()
    bot.mcts_search(state)
    return float(bot.simulations) / (time.perf_counter() - start)


def mcts_speed(
    name: str,
    seconds: float = 1.0,
    *,
    rounds: int = 3,
    positions: int = 3,
    on_round: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Iterations a second of our MCTS and of OpenSpiel's ``MCTSBot`` (random rollouts, no
    solver) on the same dealt openings of ``meeple_<name>``, interleaved: every round times
    both on ``positions`` openings, ``seconds / positions`` each; the medians of the rounds."""
    game = load(name)
    share = seconds / positions
    ours: list[float] = []
    theirs: list[float] = []
    for round_ in range(rounds):
        mine = their = 0.0
        for index in range(positions):
            state = dealt(game, index)
            their += _their_rate(game, state, share, mix_seed(round_, index))
            mine += _our_rate(state, share, mix_seed(round_, index))
        ours.append(mine / positions)
        theirs.append(their / positions)
        if on_round is not None:
            on_round(round_)
    our_median, their_median = statistics.median(ours), statistics.median(theirs)
    return {
        "game": name,
        "rounds": rounds,
        "seconds": seconds,
        "meeple_iterations_per_second": round(our_median, 1),
        "openspiel_iterations_per_second": round(their_median, 1),
        "speed_ratio": round(our_median / their_median, 2) if their_median else None,
        "meeple_rounds": [round(value, 1) for value in ours],
        "openspiel_rounds": [round(value, 1) for value in theirs],
    }


def head_to_head(
    name: str,
    games: int,
    seconds: float,
    *,
    on_match: Callable[[int, float], None] | None = None,
) -> dict[str, Any]:
    """mcts-expert against OpenSpiel's ``MCTSBot``, both searching ``seconds`` of wall clock
    a move, in pairs of matches on one deal with the seats swapped; a Wilson 95 % interval."""
    game = load(name)
    scores = []
    for index in range(games):
        scores.append(play(game, index, 0, seconds, "mcts-clock"))
        if on_match is not None:
            on_match(index, scores[-1])
    score = sum(scores)
    low, high = wilson(score, len(scores))
    return {
        "games": len(scores),
        "seconds_per_move": seconds,
        "meeple_score": score,
        "meeple_score_pct": round(100 * score / len(scores), 1) if scores else None,
        "wilson95_pct": [round(100 * low, 1), round(100 * high, 1)],
        "scores": scores,
    }


# -- meeple bench --compare: OpenSpiel's reference loops ---------------------------------------


def reference_playouts() -> list[tuple[str, Callable[[], int], bool]]:
    """OpenSpiel's random-game loops timed beside ours: (label, one random game returning
    its actions, whether it counts them). C++ tic-tac-toe and connect four are played by
    OpenSpiel's own C++ loop (``evaluate_bots`` with uniform random bots), so their actions
    are not counted; tic-tac-toe's C++ state also through a Python loop like ours; and
    OpenSpiel's Python tic-tac-toe (``python_tic_tac_toe``) through that loop."""
    import open_spiel.python.games  # noqa: F401, PLC0415 (registers python_tic_tac_toe)

    def in_cpp(short_name: str) -> Callable[[], int]:
        game = pyspiel.load_game(short_name)
        bots = [pyspiel.make_uniform_random_bot(p, p + 1) for p in range(game.num_players())]
        seeds = iter(range(1, 1 << 62))

        def play() -> int:
            pyspiel.evaluate_bots(game.new_initial_state(), bots, next(seeds))
            return 0

        return play

    def in_python(short_name: str) -> Callable[[], int]:
        game = pyspiel.load_game(short_name)
        rng = random.Random(0)

        def play() -> int:
            state = game.new_initial_state()
            actions = 0
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
            return actions

        return play

    return [
        (CPP_TIC_TAC_TOE, in_cpp("tic_tac_toe"), False),
        ("OpenSpiel connect four (C++ loop)", in_cpp("connect_four"), False),
        ("OpenSpiel tic-tac-toe (C++ state, Python loop)", in_python("tic_tac_toe"), True),
        ("OpenSpiel Python tic-tac-toe", in_python("python_tic_tac_toe"), True),
    ]


CPP_TIC_TAC_TOE = "OpenSpiel tic-tac-toe (C++ loop)"
"""The reference every figure of ``meeple bench --compare`` is a share of."""
