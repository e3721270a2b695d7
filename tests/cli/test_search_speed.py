"""``meeple search-speed``: the search's iterations per second, per game."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from meeple.cli.main import app

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})


def test_search_speed_of_one_game_as_json() -> None:
    result = runner.invoke(
        app, ["search-speed", "--game", "maatatahay", "--seconds", "0.05", "--json"]
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [row["game"].split("/")[0] for row in rows] == ["maatatahay"]
    assert rows[0]["iterations_per_second"] > 0


def test_search_speed_names_every_game_in_its_table() -> None:
    result = runner.invoke(app, ["search-speed", "--seconds", "0"])
    assert result.exit_code == 0, result.output
    for name in ("maatatahay", "maiterra", "manafields"):
        assert name in result.stdout
    assert runner.invoke(app, ["search-speed", "--game", "chess"]).exit_code == 2
