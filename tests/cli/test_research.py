"""The research commands: bench-adapters, adapter-floor and vs-openspiel, as a user runs them."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner, Result

from meeple.cli.main import app

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})


def invoke(*args: str) -> Result:
    return runner.invoke(app, list(args), catch_exceptions=False)


@pytest.mark.parametrize("command", ["bench-adapters", "adapter-floor", "vs-openspiel"])
def test_every_research_command_has_help(command: str) -> None:
    result = invoke(command, "--help")
    assert result.exit_code == 0, result.output
    assert "--json" in result.stdout


def test_adapter_floor_prints_the_cost_of_each_call() -> None:
    result = invoke("adapter-floor", "--seconds", "0.001", "--actions", "50", "--json")
    assert result.exit_code == 0, result.output
    costs = json.loads(result.stdout)
    assert set(costs) == {
        "pyspiel apply_action",
        "pyspiel legal_actions",
        "pyspiel observation_tensor",
        "observer.set_from",
        "pyspiel is_terminal",
    }
    assert all(value > 0 for value in costs.values())


def test_bench_adapters_times_every_loop_and_its_floor() -> None:
    result = invoke("bench-adapters", "maatatahay", "--seconds", "0.01", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["game"].startswith("maatatahay/") and report["seats"] == 2
    loops = ["native", "openspiel", "openspiel+tensor", "openspiel+observer"]
    assert list(report["results"]) == [*loops, "pettingzoo-aec", "gymnasium"]
    assert set(report["floors"]) == set(report["results"]) - {"native"}
    for row in report["results"].values():
        assert row["games"] >= 1 and row["steps"] >= row["games"]


def test_bench_adapters_prints_the_markdown_table_with_either_encoder() -> None:
    result = invoke("bench-adapters", "maatatahay", "--seconds", "0", "--no-floor")
    assert result.exit_code == 0, result.output
    assert "| loop | games | games/s |" in result.stdout
    assert "| pettingzoo-aec |" in result.stdout
    generic = invoke(
        "bench-adapters", "maatatahay", "--seconds", "0", "--no-floor",
        "--encoder", "generic",
    )  # fmt: skip
    assert generic.exit_code == 0, generic.output
    assert "ViewEncoder" in generic.stdout


def test_bench_adapters_refuses_an_unknown_encoder() -> None:
    result = invoke("bench-adapters", "maatatahay", "--encoder", "fast")
    assert result.exit_code == 2
    assert "own or generic" in result.output


@pytest.mark.slow
def test_vs_openspiel_plays_pairs_of_matches_and_reports_a_wilson_interval() -> None:
    result = invoke(
        "vs-openspiel", "maatatahay", "--games", "2", "--seconds", "0.01", "--json"
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["games"] == 2 and len(report["scores"]) == 2
    assert all(score in (0.0, 0.5, 1.0) for score in report["scores"])
    low, high = report["wilson95_pct"]
    assert 0 <= low <= report["meeple_score_pct"] <= high <= 100


def test_vs_openspiel_refuses_an_unknown_opponent_or_game() -> None:
    assert invoke("vs-openspiel", "maatatahay", "--opponent", "alphazero").exit_code == 2
    assert invoke("vs-openspiel", "chess").exit_code == 2
