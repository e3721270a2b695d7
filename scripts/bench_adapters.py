#!/usr/bin/env python3
"""Random playouts per second: natively and through each research adapter.

    .venv/bin/python scripts/bench_adapters.py [--game maatatahay] [--seats 2] [--seconds 3]
        [--encoder own|generic]

Every row plays whole matches with uniformly random legal actions, single process:

- native: ``meeple bench``'s loop (legal_actions + apply_unchecked);
- openspiel: pyspiel's apply_action / apply_actions (the deal sampled first), no observation;
- openspiel+obs: the same, reading the acting player's observation tensor at every step;
- pettingzoo-aec: the AEC loop, ``env.last()`` (observation and mask) at every step;
- pettingzoo-parallel: a Parallel step per joint decision (games with simultaneous planning);
- gymnasium: the learner and a random bot, an observation after every learner step.

Observations come from the game's own encoder (``meeple.adapters.encoders``), or with
``--encoder generic`` from the generic one that encodes the view JSON (the "before" figures).
Prints a Markdown table (and JSON with --json); the overhead is native / adapter.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable

import numpy as np
import pyspiel

from meeple.adapters import encoding
from meeple.adapters import openspiel as spiel_adapter
from meeple.adapters.gymnasium import MeepleEnv
from meeple.adapters.pettingzoo import aec_env, parallel_env
from meeple.cli.selfplay import random_playout
from meeple.core import Game, load_game

Playout = Callable[[int], int]
"""Plays one match from a seed; returns the number of actions taken."""


def native(game: Game) -> Playout:
    rng = random.Random(0)
    return lambda seed: random_playout(game, seed, rng)


def openspiel(game: Game, observe: bool) -> Playout:
    spiel = pyspiel.load_game(spiel_adapter.short_name(game.info), {"seats": game.seats})
    rng = random.Random(0)

    def play(seed: int) -> int:
        state = spiel.new_initial_state()
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(seed % spiel.max_chance_outcomes())
                continue
            if state.is_simultaneous_node():
                players = range(spiel.num_players())
                if observe:
                    for player in players:
                        state.observation_tensor(player)
                state.apply_actions([rng.choice(state.legal_actions(p) or [0]) for p in players])
            else:
                if observe:
                    state.observation_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        return actions

    return play


def pettingzoo_aec(game: Game) -> Playout:
    env = aec_env(game)
    rng = np.random.default_rng(0)

    def play(seed: int) -> int:
        env.reset(seed=seed)
        actions = 0
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            actions += 1
        return actions

    return play


def pettingzoo_parallel(game: Game) -> Playout:
    env = parallel_env(game)
    rng = np.random.default_rng(0)

    def play(seed: int) -> int:
        observations, _ = env.reset(seed=seed)
        actions = 0
        while env.agents:
            joint = {}
            for agent, observation in observations.items():
                legal = np.flatnonzero(observation["action_mask"])
                joint[agent] = int(rng.choice(legal)) if len(legal) else 0
                actions += len(legal) > 0
            observations, *_ = env.step(joint)
        return actions

    return play


def gymnasium(game: Game) -> Playout:
    env = MeepleEnv(game, opponent="random")
    rng = np.random.default_rng(0)

    def play(seed: int) -> int:
        _, info = env.reset(seed=seed)
        actions = 0
        while True:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, terminated, _, info = env.step(action)
            actions += 1
            if terminated:
                return actions

    return play


def measure(play: Playout, seconds: float) -> dict[str, float]:
    play(10**6)  # warm up (the encoder learns the game's view shape once)
    games = actions = 0
    start = time.perf_counter()
    while True:
        actions += play(games)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return {"games": games, "seconds": elapsed, "games_per_second": games / elapsed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="maatatahay")
    parser.add_argument("--seats", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--encoder", choices=("own", "generic"), default="own")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game = load_game(args.game, args.seats)
    if args.encoder == "generic":
        encoding.encoder_for(game)  # loads the games' own encoders, then replaces this one
        encoding.register_encoder(game.info.name, encoding.ViewEncoder.learn)
    rows: dict[str, Playout] = {
        "native": native(game),
        "openspiel": openspiel(game, observe=False),
        "openspiel+obs": openspiel(game, observe=True),
        "pettingzoo-aec": pettingzoo_aec(game),
    }
    if game.info.simultaneous:
        rows["pettingzoo-parallel"] = pettingzoo_parallel(game)
    rows["gymnasium"] = gymnasium(game)
    results = {name: measure(play, args.seconds) for name, play in rows.items()}
    base = results["native"]["games_per_second"]
    encoder = type(encoding.encoder_for(game)).__name__
    print(f"{game.id}, {game.seats} seats, {encoder}, {args.seconds:g} s per row\n")
    print("| loop | games/s | overhead |")
    print("|---|---:|---:|")
    for name, result in results.items():
        rate = result["games_per_second"]
        print(f"| {name} | {rate:.1f} | {base / rate:.1f}x |")
    if args.json:
        print(json.dumps({"game": game.id, "seats": game.seats, "results": results}, indent=2))


if __name__ == "__main__":
    main()
