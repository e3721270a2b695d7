"""``meeple bench --compare`` and ``--mcts``: our loops beside OpenSpiel's in one run. The
figures are only printed, never asserted (a benchmark proves speed, a test never does)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner, Result

from meeple.cli.main import app
from meeple.cli.selfplay import Loop, compare, goals, parse_goal

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})
REFERENCE = "OpenSpiel tic-tac-toe (C++ loop)"
GOALS = {"maatatahay": 4.5, "manafields": 0.45, "maiterra 4 seats": 0.09}
"""Issue 20's goals, as docs/workers.md gives them to --goal."""
GOAL_ARGS = [arg for loop, pct in GOALS.items() for arg in ("--goal", f"{loop}={pct:g}")]


def invoke(*args: str) -> Result:
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_compare_takes_medians_and_shares_of_the_reference() -> None:
    loops = [Loop("a", lambda: 3), Loop("b", lambda: 0, counts_actions=False)]
    rows = compare(loops, 0.0, rounds=3, reference="b")
    assert [row.loop for row in rows] == ["a", "b"]
    assert all(len(row.rounds) == 3 for row in rows)
    assert rows[1].pct_of_reference == pytest.approx(100.0)
    assert rows[1].actions_per_second is None and rows[0].actions_per_second is not None
    wanted = [parse_goal(f"{loop}={pct:g}") for loop, pct in GOALS.items()]
    assert wanted == list(GOALS.items())
    assert [goal.loop for goal in goals(rows, wanted)] == list(GOALS)
    assert all(goal.met is None for goal in goals(rows, wanted))  # none of them was timed
    assert goals(rows, [("a", 1e-9)])[0].met is True
    with pytest.raises(ValueError, match="--goal is LOOP=PERCENT"):
        parse_goal("maatatahay")


def test_bench_compare_prints_every_loop_with_its_share_of_cpp_tic_tac_toe() -> None:
    pytest.importorskip("pyspiel")
    result = invoke("bench", "--compare", "--seconds", "0.01", "--rounds", "1", *GOAL_ARGS)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("bench --compare: 0.01 s a loop, 1 round interleaved, medians")
    for loop in ("maatatahay", "manafields", "maiterra 2 seats", "maiterra 4 seats",
                 REFERENCE, "OpenSpiel connect four (C++ loop)",
                 "OpenSpiel Python tic-tac-toe"):  # fmt: skip
        line = next(line for line in lines if line.startswith(f"{loop}: "))
        assert f"% of {REFERENCE}" in line
    for label, goal in GOALS.items():
        line = next(line for line in lines if line.startswith(f"goal {label} >= {goal:g} %: "))
        assert line.endswith(("met", "not met"))


def test_bench_compare_as_json() -> None:
    pytest.importorskip("pyspiel")
    result = invoke("bench", "--compare", "--seconds", "0", "--rounds", "2", "--json", *GOAL_ARGS)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)["compare"]
    assert report["reference"] == REFERENCE and report["rounds"] == 2
    loops = {row["loop"]: row for row in report["loops"]}
    assert loops[REFERENCE]["pct_of_reference"] == 100.0
    assert loops[REFERENCE]["actions_per_second"] is None  # OpenSpiel's C++ loop counts none
    assert loops["maatatahay"]["actions_per_second"] > 0
    # A game whose states play their own random playout (the searches' path) is timed so too.
    assert loops["maatatahay search playout"]["actions_per_second"] > 0
    assert all(len(row["rounds_games_per_second"]) == 2 for row in report["loops"])
    assert {goal["loop"] for goal in report["goals"]} == set(GOALS)
    assert all(isinstance(goal["met"], bool) for goal in report["goals"])


def test_openspiels_bot_on_the_clock_runs_whole_simulations_until_the_deadline() -> None:
    pytest.importorskip("pyspiel")
    import pyspiel  # noqa: PLC0415

    from meeple.cli.vs_openspiel import ClockedMCTSBot, dealt, their_bot  # noqa: PLC0415

    game = pyspiel.load_game("meeple_maatatahay")
    state = dealt(game, 0)
    bot = their_bot(game, 0, 3, "mcts-clock", 0.0)
    assert isinstance(bot, ClockedMCTSBot)
    root = bot.mcts_search(state)
    assert bot.simulations == 2 and root.explore_count == 2  # the least, then the clock
    assert bot.step(state) in state.legal_actions()


def test_bench_mcts_reports_both_searches_rates() -> None:
    pytest.importorskip("pyspiel")
    result = invoke("bench", "--mcts", "--seconds", "0.06", "--rounds", "1", "--json")
    assert result.exit_code == 0, result.output
    speed = json.loads(result.stdout)["mcts"]["speed"]
    assert speed["game"] == "maatatahay"
    assert speed["meeple_iterations_per_second"] > 0
    assert speed["openspiel_iterations_per_second"] > 0


@pytest.mark.slow
def test_bench_mcts_plays_a_head_to_head_in_pairs() -> None:
    pytest.importorskip("pyspiel")
    result = invoke("bench", "--mcts", "--seconds", "0.06", "--rounds", "1",
                    "--head-to-head", "2", "--move-seconds", "0.01")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "against MCTSBot, both searching 0.01 s of wall clock a move" in result.stdout
    assert "Wilson 95 %" in result.stdout


def test_bench_mcts_refuses_a_game_that_plans_simultaneously() -> None:
    result = runner.invoke(app, ["bench", "--mcts", "--game", "maiterra"])
    assert result.exit_code == 2
    assert "plans simultaneously" in result.output
