"""``meeple tune manafields``: the cards' search space, the matches it plays, the command."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import meeple
from meeple.cli.balance import run_balance
from meeple.cli.main import app
from meeple.cli.tune import RULES_PATH, first_seat_rates, get, parameters, put
from meeple.core import load_game

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})


def published() -> dict[str, Any]:
    cards: dict[str, Any] = json.loads((Path(meeple.__file__).parent / RULES_PATH).read_text())
    return cards


def test_parameters_stay_within_their_bounds_around_the_published_cards() -> None:
    cards = published()
    params = parameters(cards)
    assert params
    for param in params:
        assert param[3] <= get(cards, param) <= param[4]
        assert param[2] in {"speed", "hp", "to_hit", "armour", "range"} or param[2].startswith(
            "ability."
        )


def test_put_changes_one_number_and_get_reads_it_back() -> None:
    cards = published()
    changed = copy.deepcopy(cards)
    for param in parameters(cards)[:3] + [p for p in parameters(cards) if "." in p[2]][:1]:
        put(changed, param, param[4])
        assert get(changed, param) == param[4]
    assert cards == published()


def test_the_search_plays_the_matches_balance_plays() -> None:
    game = load_game("manafields", options={"faction0": "orcs", "faction1": "elves"})
    report = run_balance(game, ["heuristic", "heuristic"], 2, seed=1001, fixed=dict(game.options))
    credits = [
        1.0 if row["winners"] == [0] else 0.0 if row["winners"] else 0.5 for row in report["rows"]
    ]
    assert first_seat_rates(1001, 2, [("orcs", "elves")]) == [sum(credits) / 2]


def test_tune_has_help() -> None:
    result = runner.invoke(app, ["tune", "manafields", "--help"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "--out" in result.stdout and "--json" in result.stdout


@pytest.mark.slow
def test_a_step_of_the_search_writes_its_log_and_best_cards(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "tune",
            "manafields",
            "--out",
            str(tmp_path),
            "--iterations",
            "1",
            "--games",
            "1",
            "--json",
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["loss"] >= 0 and len(report["cells"]) == 16
    assert (tmp_path / "log.txt").read_text().startswith("start: loss")
    best = json.loads((tmp_path / "best.json").read_text())
    assert set(best) == set(published())
