"""``meeple bench --compare`` with the research extras also plays every game through the
OpenSpiel adapter and PettingZoo's AEC loop, and reports each as a ratio to its bare
engine (issue 20's goal: at most 1.5 times). The figures are printed, never asserted."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from meeple.cli.main import app
from meeple.core import registered

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})


def test_bench_compare_gives_each_game_through_each_adapter_against_its_engine() -> None:
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    args = ["bench", "--compare", "--seconds", "0", "--rounds", "1", "--json"]
    result = runner.invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)["compare"]
    loops = {row["loop"] for row in report["loops"]}
    adapters = {row["loop"]: row for row in report["adapters"]}
    names = {info.name for info in registered()}
    assert len(adapters) == 2 * len(names)
    for loop, row in adapters.items():
        assert loop in loops and row["engine"] in loops
        assert loop in (f"{row['engine']} via OpenSpiel", f"{row['engine']} via PettingZoo AEC")
        assert row["ratio"] > 0
    text = runner.invoke(app, args[:-1], catch_exceptions=False).stdout
    for loop, row in adapters.items():
        assert f"{loop}: " in text and f"x the time of {row['engine']} alone" in text
