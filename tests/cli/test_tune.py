"""``meeple tune GAME``: the matches it plays, the games it takes, a step of the search."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meeple.cli.balance import run_balance
from meeple.cli.main import app
from meeple.cli.tune import Search, first_seat_rates, tuning_of
from meeple.core import load_game

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})


def test_the_search_plays_the_matches_balance_plays() -> None:
    game = load_game("manafields", options={"faction0": "orcs", "faction1": "elves"})
    report = run_balance(game, ["heuristic", "heuristic"], 2, seed=1001, fixed=dict(game.options))
    credits = [
        1.0 if row["winners"] == [0] else 0.0 if row["winners"] else 0.5 for row in report["rows"]
    ]
    rates = first_seat_rates("manafields", 1001, 2, [("orcs", "elves")], ["heuristic"] * 2)
    assert rates == [sum(credits) / 2]


def test_only_a_game_with_factions_and_a_tuning_space_is_tuned(tmp_path: Path) -> None:
    assert tuning_of(load_game("manafields")) is not None
    assert tuning_of(load_game("maatatahay")) is None
    result = runner.invoke(app, ["tune", "maatatahay", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "no factions and tuning space" in result.output
    assert not (tmp_path / "log.txt").exists()


def test_tune_has_help() -> None:
    result = runner.invoke(app, ["tune", "--help"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "--out" in result.stdout and "--json" in result.stdout


@pytest.mark.slow
def test_a_step_of_the_search_writes_its_log_and_best_cards(tmp_path: Path) -> None:
    args = ["tune", "manafields", "--out", str(tmp_path), "--iterations", "1", "--games", "1"]
    result = runner.invoke(app, [*args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["game"] == "manafields"
    assert report["loss"] >= 0 and len(report["cells"]) == 16
    assert (tmp_path / "log.txt").read_text().startswith("start: loss")
    best = json.loads((tmp_path / "best.json").read_text())
    assert "factions" in best


def test_a_candidates_cards_change_the_matches_it_plays() -> None:
    game = load_game("manafields")
    tuning = tuning_of(game)
    assert tuning is not None
    search = Search(game, tuning, 1, ["random", "random"])
    search.pairs = [("orcs", "elves")]
    cards = search.published
    assert search.cells(cards, 1) == search.cells(json.loads(json.dumps(cards)), 1)
    assert len(search.cache) == 1  # the same cards are measured once
    broken = json.loads(json.dumps(cards))
    broken["factions"]["orcs"]["units"][2]["speed"] = 99
    with pytest.raises(ValueError, match="speed 99"):
        search.cells(broken, 1)
