"""A fourth game takes one package and one registration: ``tests/pebbles``.

Nothing in ``src`` names it; once ``tests.pebbles`` is imported, the CLI plays and self-plays
it, every bot of the ladder plays it (its heuristic is the package's own), the conformance kit
passes it and the PettingZoo environment serves it.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pettingzoo.test import api_test
from typer.testing import CliRunner

from meeple.adapters.pettingzoo import aec_env
from meeple.ai import BOT_NAMES, make_bot
from meeple.cli.main import app
from meeple.core import MatchRecord, State, kit_for, load_game
from meeple.testing import run_conformance
from tests.adapters.test_pettingzoo import pettingzoo_warnings
from tests.pebbles import KIT, Pebbles

runner = CliRunner(env={"COLUMNS": "120", "NO_COLOR": "1"})


def test_one_registration_makes_the_game_and_its_kit_known() -> None:
    assert load_game("pebbles/1").info == Pebbles.info
    assert kit_for("pebbles") is KIT
    assert kit_for(Pebbles().new_initial_state(0)) is KIT


def test_the_conformance_kit_passes_it() -> None:
    run_conformance(Pebbles(), playouts=3, max_examples=10)


def _play(state: State, names: list[str], seed: int) -> State:
    bots = [make_bot(name, seed + seat) for seat, name in enumerate(names)]
    while not state.is_terminal():
        seat = state.deciding_seats()[0]
        state.apply(seat, bots[seat].select(state, seat))
    return state


@pytest.mark.parametrize("name", ["random", "greedy", "heuristic", "mcts-easy"])
def test_every_rung_of_the_ladder_plays_it(name: str) -> None:
    assert name in BOT_NAMES
    final = _play(Pebbles().new_initial_state(3), [name, "random"], seed=5)
    assert final.outcome() is not None


def test_its_heuristic_is_the_packages_own_and_wins_from_a_winning_pile() -> None:
    # Nine pebbles: take one, leave eight (a multiple of four), and keep it so.
    for seed in range(5):
        outcome = _play(Pebbles().new_initial_state(seed), ["heuristic", "random"], seed).outcome()
        assert outcome is not None and outcome.winners == (0,)


def test_the_cli_self_plays_it() -> None:
    args = ["selfplay", "pebbles", "--games", "2", "--seed", "4", "--bots", "heuristic,mcts-easy"]
    result = runner.invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    for line in result.stdout.strip().splitlines():
        record = MatchRecord.loads(line)
        assert record.game_id == "pebbles/1"
        assert record.replay().outcome() == record.outcome


def test_the_cli_plays_it_against_its_heuristic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Lines left over at game over answer the offer to save: they land in tmp_path.
    monkeypatch.chdir(tmp_path)
    script = "take1\n" * 12 + "quit\n"
    result = runner.invoke(app, ["play", "pebbles", "--seed", "1"], input=script)
    assert result.exit_code == 0, result.output
    assert "heuristic bot" in result.output
    assert "Pebbles: " in result.output  # the package's own drawing
    assert "Game over" in result.output


@pettingzoo_warnings
def test_the_pettingzoo_env_serves_it() -> None:
    api_test(aec_env("pebbles"), num_cycles=20)
    env = aec_env("pebbles")
    env.reset(seed=3)
    rng = random.Random(3)
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = [i for i, ok in enumerate(observation["action_mask"]) if ok]
        env.step(rng.choice(legal))
        assert agent in env.possible_agents
