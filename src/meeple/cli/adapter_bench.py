"""Random playouts per second: natively and through each research adapter (``meeple
bench-adapters``).

Every row plays whole matches with uniformly random legal actions, single process:

- native: ``meeple bench``'s loop (legal_actions + apply_unchecked);
- openspiel: pyspiel's apply_action / apply_actions (the deal sampled first), no observation;
- openspiel+tensor: the same, reading ``state.observation_tensor(player)`` at every step;
- openspiel+observer: the same, reading OpenSpiel's Python observation API instead
  (``make_observation(game)``, then ``observer.set_from(state, player)``; OpenSpiel's
  ``rl_environment`` reads ``observation_tensor``, the row above);
- pettingzoo-aec: the AEC loop, ``env.last()`` (observation and mask) at every step;
- pettingzoo-parallel: a Parallel step per joint decision (games with simultaneous planning);
- gymnasium: the learner and a random bot, an observation after every learner step.

The learners pick from the mask with ``mask.view(bool).nonzero()[0]`` and Python's
``random``, as cheap as the native loop's ``rng.choice(legal)``: ``np.flatnonzero`` on an
int8 mask and a numpy ``Generator.choice`` cost more than a whole step of the quickest game.

Each adapter row also runs the same loop over a hollow game (:mod:`meeple.cli.hollow`) of
the same shape -- players, actions, average legal actions, tensor size, steps per match --
whose rules do nothing: its µs per step is the framework's floor, and "floor overhead" the
least overhead any adapter could reach, (native time + floor time) / native time.

Observations come from the game's own encoder, or with ``generic=True`` from the generic
one that encodes the view JSON (the "before" figures). Times are the process's CPU seconds
(``time.process_time``), so other jobs on a shared machine disturb them less than wall
time. The overhead is native / adapter games/s.

Needs the research extras (OpenSpiel, PettingZoo, Gymnasium, NumPy).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
import pyspiel
from open_spiel.python.observation import make_observation
from pettingzoo import AECEnv, ParallelEnv

from meeple.adapters import openspiel as spiel_adapter
from meeple.adapters.gymnasium import MeepleEnv
from meeple.adapters.pettingzoo import aec_env, parallel_env
from meeple.cli import hollow as floor
from meeple.cli.selfplay import random_playout
from meeple.core import Game, encoding

Playout = Callable[[int], int]
"""Plays one match from a seed; returns the number of steps (framework calls that act)."""


def native(game: Game) -> Playout:
    rng = random.Random(0)
    return lambda seed: random_playout(game, seed, rng)


def openspiel(spiel: pyspiel.Game, observe: str = "") -> Playout:
    """``observe``: "" for no observation, "tensor" for ``state.observation_tensor``,
    "observer" for the Python observer (``make_observation``) that OpenSpiel's RL code uses."""
    rng = random.Random(0)
    observer = make_observation(spiel) if observe == "observer" else None
    tensor = observe == "tensor"

    def play(seed: int) -> int:
        state = spiel.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(seed % spiel.max_chance_outcomes())
                continue
            if state.is_simultaneous_node():
                players = range(spiel.num_players())
                for player in players:
                    if tensor:
                        state.observation_tensor(player)
                    elif observer is not None:
                        observer.set_from(state, player)
                state.apply_actions([rng.choice(state.legal_actions(p) or [0]) for p in players])
            else:
                if tensor:
                    state.observation_tensor(state.current_player())
                elif observer is not None:
                    observer.set_from(state, state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return play


def pettingzoo_aec(env: AECEnv) -> Playout:
    rng = random.Random(0)

    def play(seed: int) -> int:
        env.reset(seed=seed)
        steps = 0
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = observation["action_mask"].view(np.bool_).nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        return steps

    return play


def pettingzoo_parallel(env: ParallelEnv) -> Playout:
    rng = random.Random(0)

    def play(seed: int) -> int:
        observations, _ = env.reset(seed=seed)
        steps = 0
        while env.agents:
            joint = {}
            for agent, observation in observations.items():
                legal = observation["action_mask"].view(np.bool_).nonzero()[0]
                joint[agent] = int(legal[rng.randrange(len(legal))]) if len(legal) else 0
            observations, *_ = env.step(joint)
            steps += 1
        return steps

    return play


def gymnasium(env: gym.Env[Any, Any]) -> Playout:
    rng = random.Random(0)

    def play(seed: int) -> int:
        _, info = env.reset(seed=seed)
        steps = 0
        while True:
            legal = info["action_mask"].view(np.bool_).nonzero()[0]
            action = int(legal[rng.randrange(len(legal))])
            _, _, terminated, _, info = env.step(action)
            steps += 1
            if terminated:
                return steps

    return play


def measure(play: Playout, seconds: float) -> dict[str, float]:
    play(10**6)  # warm up (the encoder learns the game's view shape once)
    games = steps = 0
    start = time.process_time()  # CPU time: other jobs on a shared machine count less
    while True:
        steps += play(games)
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return {
                "games": games,
                "steps": steps,
                "seconds": elapsed,
                "games_per_second": games / elapsed,
                "us_per_step": elapsed / steps * 1e6,
            }


def mean_legal(game: Game, playouts: int = 3) -> int:
    """The average number of legal actions of the seat that decides, over random playouts."""
    rng = random.Random(0)
    total = count = 0
    for seed in range(playouts):
        state = game.new_initial_state(seed)
        while deciding := state.deciding_seats():
            legal = state.legal_actions(deciding[0])
            total, count = total + len(legal), count + 1
            state.apply_unchecked(deciding[0], rng.choice(legal))
    return round(total / max(count, 1))


def hollow(name: str, shape: floor.Shape) -> Playout:
    """The loop called ``name`` over a hollow game of this shape."""
    if name.startswith("openspiel"):
        observe = name.partition("+")[2]
        return openspiel(floor.spiel_game(shape), observe)
    if name == "pettingzoo-aec":
        return pettingzoo_aec(floor.HollowAEC(shape))
    if name == "pettingzoo-parallel":
        return pettingzoo_parallel(floor.HollowParallel(shape))
    return gymnasium(floor.HollowEnv(shape))


def loops(game: Game, *, generic: bool = False) -> dict[str, Playout]:
    """The rows to time for ``game``: native first, then each adapter's loop."""
    if generic:
        encoding.register_encoder(game.info.name, encoding.ViewEncoder.learn)
    spiel = pyspiel.load_game(spiel_adapter.short_name(game.info), {"seats": game.seats})
    rows: dict[str, Playout] = {
        "native": native(game),
        "openspiel": openspiel(spiel),
        "openspiel+tensor": openspiel(spiel, "tensor"),
        "openspiel+observer": openspiel(spiel, "observer"),
        "pettingzoo-aec": pettingzoo_aec(aec_env(game)),
    }
    if game.info.simultaneous:
        rows["pettingzoo-parallel"] = pettingzoo_parallel(parallel_env(game))
    rows["gymnasium"] = gymnasium(MeepleEnv(game, opponent="random"))
    return rows


def run(
    game: Game,
    seconds: float,
    *,
    generic: bool = False,
    with_floor: bool = True,
    on_row: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Time every row for ``seconds`` of CPU time (and its hollow floor for a third of
    that); the report as JSON-ready data. ``on_row`` hears each row's name once timed.

    With ``generic`` the game's own writer is put back afterwards, so the process's later
    observations (an export in the same process, a test after this one) are the usual ones."""
    own = encoding.tensor_factory(game)
    try:
        return _report(game, seconds, generic=generic, with_floor=with_floor, on_row=on_row)
    finally:
        if generic:
            encoding.register_encoder(game.info.name, own)


def _report(
    game: Game,
    seconds: float,
    *,
    generic: bool,
    with_floor: bool,
    on_row: Callable[[str], None] | None,
) -> dict[str, Any]:
    rows = loops(game, generic=generic)
    results: dict[str, dict[str, float]] = {}
    for name, play in rows.items():
        results[name] = measure(play, seconds)
        if on_row is not None:
            on_row(name)
    encoder = encoding.encoder_for(game)
    size = encoder.size
    legal = mean_legal(game)
    floors: dict[str, dict[str, float]] = {}
    if with_floor:
        for name, result in results.items():
            if name != "native":
                length = max(1, round(result["steps"] / result["games"]))
                shape = floor.Shape(game.seats, game.num_distinct_actions(), legal, size, length)
                floors[name] = measure(hollow(name, shape), seconds / 3)
                if on_row is not None:
                    on_row(f"{name} floor")
    encoder_name = type(encoder).__name__
    if getattr(encoder, "compiled", False):
        encoder_name += " compiled"  # the Cython writer (MEEPLE_NO_EXT=1 for the Python one)
    return {
        "game": game.id,
        "seats": game.seats,
        "encoder": encoder_name,
        "tensor_size": size,
        "mean_legal_actions": legal,
        "seconds_per_row": seconds,
        "results": results,
        "floors": floors,
    }


def rows_to_time(game: Game, *, with_floor: bool = True) -> int:
    """How many timings :func:`run` makes (for a progress bar)."""
    rows = 7 if game.info.simultaneous else 6
    return rows + (rows - 1 if with_floor else 0)


def to_markdown(report: dict[str, Any]) -> str:
    """The report as a heading line and a Markdown table (docs/research.md's form)."""
    lines = [
        f"{report['game']}, {report['seats']} seats, {report['encoder']} "
        f"({report['tensor_size']} floats), {report['mean_legal_actions']} legal actions "
        f"on average, {report['seconds_per_row']:g} s per row",
        "",
        "| loop | games | games/s | µs/step | overhead | floor µs/step | floor overhead |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    results, floors = report["results"], report["floors"]
    base = results["native"]
    for name, result in results.items():
        rate = result["games_per_second"]
        cells = [f"{result['games']:.0f}", f"{rate:.1f}", f"{result['us_per_step']:.1f}"]
        cells.append(f"{base['games_per_second'] / rate:.2f}x")
        hollow_result = floors.get(name)
        if hollow_result is None:
            cells += ["", ""]
        else:
            least = 1 + base["games_per_second"] / hollow_result["games_per_second"]
            cells += [f"{hollow_result['us_per_step']:.1f}", f"{least:.2f}x"]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
